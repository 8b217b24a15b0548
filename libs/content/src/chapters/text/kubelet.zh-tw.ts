import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import {
  cmd,
  handoff,
  list,
  note,
  p,
  quiz,
  section,
  table,
  tryIt,
  warning,
} from '../chapter-builders.util';

export const KUBELET_ZH_TW: TChapter = {
  slug: 'kubelet',
  locale: 'zh-TW',
  lede: '每個 Pod 身上都寫好了節點名稱。那台節點上有個代理程式會注意到，而這趟旅程的第一個容器，就在這裡啟動。',
  sections: [
    section(
      'agent',
      '節點上的代理人',
      p(
        'only-one',
        '每台節點都跑著一個 kubelet。它向 apiserver watch 那些 `spec.nodeName` 寫著自己節點的 Pod，而且它是整個叢集裡唯一讓容器真正出現的元件。Control Plane 做的所有決定，要嘛在這裡落實，要嘛根本不會發生。',
      ),
      handoff(
        'handoff',
        '一個綁到本節點的 Pod，以 watch 事件的形式從 apiserver 送來。',
        '節點要做哪些事才能符合 Pod 規格：網路、volume、image、容器；之後還要判斷每個容器是否活著、是否 ready。',
        '先呼叫本機的各個 plugin，再把 Pod 狀態回報給 apiserver：IP、容器狀態、`Ready` 之類的 condition，以及節點的心跳。',
      ),
      list(
        'steps',
        true,
        '請 CNI plugin 建立網路命名空間並配一個 Pod IP。',
        '掛上 volume，需要的話透過 CSI driver。',
        '拉 image，節點上已經有就跳過。',
        '透過 CRI 請容器 runtime 建立並啟動每個容器。',
        '只要 Pod 還在，就持續跑 probe、回報狀態。',
      ),
      table(
        'interfaces',
        '三個可替換的介面',
        ['介面', '負責', '常見實作'],
        ['CRI（Container Runtime Interface）', '執行容器', 'containerd、CRI-O'],
        ['CNI（Container Network Interface）', '給 Pod 網路與 IP', 'Cilium、Calico、Flannel'],
        ['CSI（Container Storage Interface）', '掛接儲存空間', '各家雲端的 volume driver'],
      ),
      p(
        'precise',
        '所以「kubelet 啟動容器」是一種簡稱：kubelet 透過 CRI 拜託 containerd，真正執行容器的是 containerd。兩者是各自獨立的專案，升級時版本必須搭得起來。',
      ),
      tryIt(
        'crictl',
        '登入 `node-1`，用 runtime 的角度列出它的容器。',
        'control-plane',
        [CMD.sshNode1, CMD.crictlPs, CMD.exit],
        '一張表，排在 `node-1` 上的每個 `my-app` Pod 各有一個 `app` 容器，狀態 `Running`，旁邊寫著所屬的 Pod 名稱。',
      ),
    ),
    section(
      'reporter',
      '它同時也是回報者',
      p(
        'status',
        '你在 `kubectl get pods` 看到的 `Running`、`CrashLoopBackOff`、`1/1`，全都是某個 kubelet 寫的，再經由 apiserver 存下來。Pod 規格裡定義的 probe（探針）也由 kubelet 執行：',
      ),
      table(
        'probes',
        '每種 probe 失敗的後果',
        ['Probe', '要確認的事', '失敗時'],
        ['`livenessProbe`', '程式還健康嗎？', '重啟容器'],
        ['`readinessProbe`', '現在可以接流量嗎？', 'Pod 從 Service 的 endpoints 移除，不重啟'],
        [
          '`startupProbe`',
          '啟動慢的程式起來了沒？',
          '整段寬限用完才重啟；通過之前 liveness 先不檢查',
        ],
      ),
      p(
        'flaky',
        '前兩者的差別在服務「時好時壞」時特別重要：readiness probe 失敗會讓 Pod 暫時退出輪替，但重啟次數一直是零。',
      ),
      cmd(
        'probe-settings',
        '看看 kubelet 替 `my-app` 執行的 probe 設定。',
        'control-plane',
        CMD.describePods,
      ),
    ),
    section(
      'down',
      'kubelet 停掉的時候',
      warning(
        'keeps-running',
        '容器比 kubelet 長命',
        '沒有 kubelet，runtime 照樣讓容器跑著。節點只是失去了管理者：不會在這裡啟動新 Pod、沒有狀態回報，也沒有 probe 去重啟任何東西。',
      ),
      p(
        'timeline',
        '節點的心跳停了。過了 node monitor grace period（v1.32 是 50 秒），node lifecycle controller 會把節點標成 `NotReady` 並加上 taint。Pod 預設對這個 taint 有 300 秒的 toleration（容忍），時間一到就被驅逐，由 ReplicaSet 在別的節點補上。',
      ),
      tryIt(
        'stop-kubelet',
        '停掉 `node-1` 的 kubelet，檢查容器，再從 Control Plane 觀察這台節點。',
        'control-plane',
        [CMD.sshNode1, CMD.stopKubelet, CMD.crictlPs, CMD.kubeletLog, CMD.exit, CMD.getNodes],
        '`crictl ps` 仍顯示 `Running` 的容器，journal 的最後幾行是 kubelet 停止。大約 50 秒後，`kubectl get nodes` 顯示 `node-1` 為 `NotReady`；再過五分鐘，它的 Pod 會在別處重建。',
      ),
      note(
        'taint-name',
        '到底是哪個 taint',
        'kubelet 不再回報時，節點的 Ready condition 會變成 `Unknown`，所以加上的是 `node.kubernetes.io/unreachable`。kubelet 自己回報「沒準備好」時，才是 `node.kubernetes.io/not-ready`。兩者 Pod 都容忍 300 秒，`kubectl describe pod` 看得到。',
      ),
      cmd(
        'start-kubelet',
        '把 kubelet 啟動回來，節點會恢復 `Ready`。',
        'control-plane',
        CMD.sshNode1,
        CMD.startKubelet,
        CMD.exit,
        CMD.getNodes,
      ),
    ),
  ],
  quiz: [
    quiz(
      'creates',
      '真正讓節點上出現容器的是哪個元件？',
      [
        ['a', 'kube-scheduler。'],
        ['b', 'kubelet，透過 CRI runtime。'],
        ['c', 'ReplicaSet controller。'],
      ],
      'b',
      'scheduler 和 controller 都只寫物件；是 kubelet 請 containerd 執行容器。',
    ),
    quiz(
      'readiness',
      '某個 Pod 的 readiness probe 開始失敗，會發生什麼事？',
      [
        ['a', '容器被重啟。'],
        ['b', 'Pod 從 Service 的 endpoints 移除，但繼續跑。'],
        ['c', 'Pod 被重新排到別的節點。'],
      ],
      'b',
      'readiness 決定誰接流量；只有 liveness 失敗才會重啟容器。',
    ),
    quiz(
      'kubelet-down',
      '某台節點的 kubelet 停了，一分鐘後你會看到什麼？',
      [
        ['a', '容器停了，節點消失。'],
        ['b', '容器還在跑，節點顯示 `NotReady`。'],
        ['c', 'Pod 已經在別的節點上跑起來。'],
      ],
      'b',
      '50 秒寬限期過後才是 NotReady；驅逐要等 300 秒的 toleration 用完。',
    ),
  ],
};
