import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, list, p, quiz, section, table, tip } from '../chapter-builders.util';

export const RECAP_ZH_TW: TChapter = {
  slug: 'recap',
  locale: 'zh-TW',
  lede: '終點站到了。這裡把整趟路收成一頁，整理每一站都成立的規則，再附一張出事那天用得上的地圖。',
  sections: [
    section(
      'replay',
      '重播那兩秒',
      list(
        'sequence',
        true,
        'kubectl 把 `deployment.yaml` 轉成 JSON，POST 給 apiserver。',
        'apiserver 驗證身分、檢查授權、跑過 admission，再把 Deployment 存進 etcd。',
        'kubectl 印出 `deployment.apps/my-app created`。以下每一步，都發生在你已經拿回提示字元之後。',
        'Deployment controller 建出 ReplicaSet，ReplicaSet controller 建出三個還沒有節點的 Pod。',
        'scheduler 對節點做 filter 和 score，再替每個 Pod 寫上節點名稱。',
        '被選中的 kubelet 設好網路和 volume、拉 image、透過 CRI 啟動容器，然後回報 `Running`。',
        'Pod ready 之後，endpoints controller 把它們列進清單，每台節點的 kube-proxy 隨之改寫規則。',
      ),
      p(
        'async',
        '第 3 步出現得很早。apply 成功代表請求被記錄下來，不代表服務能用。在旅程時間軸按下重播，就能看到第 4 到第 7 步一條泳道接一條泳道地出現。',
      ),
    ),
    section(
      'principles',
      '每一站都成立的三條規則',
      list(
        'rules',
        true,
        'hub-and-spoke（軸輻式）：每個元件只跟 apiserver 說話。scheduler 從沒打給 kubelet，它改了 Pod，kubelet 自己看到。安全檢查因此集中一處，元件之間也互不牽扯。',
        '沒有人下命令：每個元件只負責一種變化，而且只寫狀態。scheduler 寫 `nodeName`，controller 寫 Pod。',
        '一切都是 reconcile loop：比對期望與現況、修正差距、再來一次。自我修復不是額外加上去的功能，它就是這個迴圈本身。',
      ),
      p(
        'consequences',
        '前面那些意外都能用這三條解釋：刪掉的 Pod 會回來，因為你動的是現況而不是期望；apiserver 停了服務還在，因為容器活在節點上；Pod 會卡在 `Pending`，因為安排節點是獨立的一步，還沒有人做。',
      ),
    ),
    section(
      'troubleshooting',
      '除錯地圖',
      p(
        'ask-who',
        '看到不對勁的時候，先問旅程的這一段歸哪個元件管。答案一出來，要找的範圍就只剩一處。',
      ),
      table(
        'symptoms',
        '症狀、負責的站，以及第一個要查的地方',
        ['你看到的', '哪一站', '先查什麼'],
        ['kubectl 卡住或連線被拒', 'kube-apiserver', 'apiserver 有沒有在跑；kubeconfig 是否指向它'],
        ['`401 Unauthorized`', 'kube-apiserver，身分驗證', 'kubeconfig 裡的憑證'],
        ['`403 Forbidden`', 'kube-apiserver，授權', '用 `kubectl auth can-i` 問那個動作'],
        ['物件建立時被拒絕或被改寫', 'kube-apiserver，准入控制', 'admission webhook 與各種政策'],
        ['讀得到，寫入全部逾時', 'etcd，失去 quorum', '`etcdctl endpoint health` 和 `member list`'],
        ['刪掉的 Pod 沒有被補回來', 'controller-manager', 'controller-manager 有沒有在跑'],
        [
          'Pod 一直 `Pending`',
          'kube-scheduler',
          '`kubectl describe pod` 裡的 `FailedScheduling` 事件',
        ],
        ['Pod 一直 `ContainerCreating`', 'kubelet', 'Pod 事件裡的 image 下載、volume 掛載、Pod IP'],
        ['`CrashLoopBackOff`', '應用程式本身', '`kubectl logs --previous`'],
        [
          'Pod 都 `Running`，Service 卻沒流量',
          '先看 endpoints，再看 kube-proxy',
          '`kubectl get endpoints`；readiness；label 與 selector 是否相符',
        ],
        [
          '節點顯示 `NotReady`',
          '那台節點的 kubelet',
          '在節點上跑 `systemctl status kubelet` 和 `journalctl -u kubelet`',
        ],
      ),
      cmd(
        'health',
        '快速巡一輪：每個可能出事的站各一個指令。',
        'control-plane',
        CMD.getNodes,
        CMD.getPodsWide,
        CMD.getEndpoints,
        CMD.etcdHealth,
        CMD.canCreateDeployments,
      ),
      tip(
        'practice',
        '刻意練習',
        '練習題每次只弄壞一站。動手修之前，先光憑症狀說出是哪一站，再用一個指令驗證你的猜測。',
      ),
    ),
  ],
  quiz: [
    quiz(
      'read-only',
      '`kubectl get` 都正常，`apply` 卻每次逾時。第一個該查哪一站？',
      [
        ['a', 'kube-scheduler。'],
        ['b', 'etcd：叢集很可能失去了 quorum。'],
        ['c', '每台節點上的 kube-proxy。'],
      ],
      'b',
      '讀取可以由 apiserver 的快取回應，但每一筆寫入都需要 etcd 多數成員同意。',
    ),
    quiz(
      'running-no-traffic',
      'Pod 全都 `Running`，Service 卻毫無回應。第一個指令該跑什麼？',
      [
        ['a', '對這個 Service 跑 `kubectl get endpoints`。'],
        ['b', '`etcdctl member list`。'],
        ['c', '`kubectl rollout undo`。'],
      ],
      'a',
      'endpoints 是空的，問題就在 readiness 或 selector 不符，還輪不到 kube-proxy。',
    ),
    quiz(
      'crashloop',
      'Pod 處於 `CrashLoopBackOff`，最可能是哪個元件的問題？',
      [
        ['a', 'kubelet。'],
        ['b', 'scheduler。'],
        ['c', '都不是：容器裡的應用程式一直自己結束。'],
      ],
      'c',
      'kubelet 用 back-off 重啟它正是在盡本分；容器自己的 log 會說明它為什麼退出。',
    ),
  ],
};
