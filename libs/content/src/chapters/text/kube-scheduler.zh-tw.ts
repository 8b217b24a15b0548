import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, handoff, list, note, p, quiz, section, tip, tryIt } from '../chapter-builders.util';

export const KUBE_SCHEDULER_ZH_TW: TChapter = {
  slug: 'kube-scheduler',
  locale: 'zh-TW',
  lede: '三個 Pod 停在 Pending，因為它們都還沒有節點。scheduler 只負責一件事：替這樣的 Pod 填上節點名稱。',
  sections: [
    section(
      'job',
      '每個 Pod 一個問題',
      p(
        'watch',
        'kube-scheduler 盯著 `spec.nodeName` 為空的 Pod。對每一個它只問一個問題：「放哪台？」，並分兩個階段回答。',
      ),
      handoff(
        'handoff',
        '一個沒有 `spec.nodeName` 的 Pod，加上它對每台節點的了解：容量、label、taint，還有上面已經排了哪些 Pod。',
        'Pod 該跑在哪台節點：先找出「放得下」的，再從中挑「最好」的。',
        '透過 apiserver 做一次 binding（綁定），替 Pod 設好 `spec.nodeName`。就這樣：不連到節點、不拉 image、不碰容器。',
      ),
    ),
    section(
      'phases',
      '先 filter，再 score',
      p('filter', 'filter（篩選）只有過與不過。只要有一條硬性規則說不行，這台節點就出局：'),
      list(
        'filters',
        false,
        '空間不夠：Pod 要 2 顆 CPU，節點只剩半顆沒被預留。',
        'label 不符：Pod 的 `nodeSelector` 或 affinity 指定 `disktype=ssd`，這台沒有。',
        '有 Pod 不容忍的 taint（污點），例如這個 lab 裡 `control-plane` 身上那個。',
        'Pod 要用的 `hostPort` 已經被節點上別的 Pod 佔走。',
      ),
      p(
        'score',
        'score（評分）替通過的節點排名次。各個 plugin 會替這些情況加分：同一個 owner 的 Pod 分散開來、資源用得平均、image 已經在節點上。總分最高的勝出，同分時隨機挑一台。',
      ),
      tryIt(
        'placement',
        '看看三個 Pod 落在哪裡，以及是哪個元件做的決定。',
        'control-plane',
        [CMD.getPodsWide, CMD.describePods],
        'NODE 欄位把 Pod 分散在 `node-1` 到 `node-3`，不會出現 `control-plane`。每個 Pod 的 Events 第一筆是 `default-scheduler` 發出的 `Scheduled`：`Successfully assigned default/... to node-2`。',
      ),
    ),
    section(
      'only-writes',
      '只負責配對，不負責搬家',
      p(
        'binding',
        '選定之後，scheduler 透過 apiserver 寫下節點名稱，就不再理這個 Pod。它不會聯絡那台節點，也不啟動任何東西。那台節點上的 kubelet 看到有 Pod 寫著自己的名字，剩下的事由它來做。跟這裡每個元件一樣，scheduler 只修改期望狀態，實現它的是另一個迴圈。',
      ),
      tryIt(
        'unschedulable',
        '要求一個沒有任何節點擁有的 label，讀讀看原因，再替一台節點加上這個 label。',
        'control-plane',
        [CMD.requireSsd, CMD.getPods, CMD.describePods, CMD.labelSsd, CMD.getPodsWide],
        "一個新 Pod 卡在 `Pending`，它的 `FailedScheduling` 事件寫著 `0/4 nodes are available`，列出 `control-plane` 的 taint，以及三台 `didn't match Pod's node affinity/selector` 的節點。加上 label 之後，新的 Pod 都落在 `node-2`。",
      ),
      cmd(
        'undo',
        '拿掉 node selector，新一輪 rollout 會把 Pod 重新分散到各節點。',
        'control-plane',
        CMD.dropSsd,
        CMD.getPodsWide,
      ),
      tip(
        'debug-pending',
        '排查 Pending',
        'Pod 卡在 `Pending`，代表 scheduler 找不到能通過所有 filter 的節點。`kubectl describe pod` 的 Events 會寫出它的理由，例如 `3 Insufficient cpu`，或某個不被容忍的 taint。',
      ),
      note(
        'down',
        'scheduler 停掉的時候',
        '正在跑的 Pod 不受影響。controller 照樣建出新的 Pod，但它們只能在 `Pending` 等著，因為沒有人替它們填節點名稱。',
      ),
    ),
  ],
  quiz: [
    quiz(
      'writes',
      'scheduler 替某個 Pod 選好 `node-5` 之後，它寫了什麼？',
      [
        ['a', '一個請 node-5 的 kubelet 啟動容器的請求。'],
        ['b', '透過 apiserver 寫入 Pod 的 `spec.nodeName`。'],
        ['c', '一個綁在 node-5 上的新 ReplicaSet。'],
      ],
      'b',
      '它只把 Pod 綁到節點上；kubelet 會自己發現這個綁定。',
    ),
    quiz(
      'filter-vs-score',
      '某台節點缺少 Pod 要求的 `disktype=ssd` label，它在哪個階段被淘汰？',
      [
        ['a', 'filter：不符合硬性條件。'],
        ['b', 'score：只是分數比較低。'],
        ['c', '都不是，之後 kubelet 會拒收這個 Pod。'],
      ],
      'a',
      'label、資源、taint、port 都屬於 filter；score 只替通過的節點排名。',
    ),
    quiz(
      'pending-where',
      'Pod 卡在 `Pending` 好幾分鐘，第一步該看哪裡？',
      [
        ['a', '`kubectl describe pod` 裡的 FailedScheduling 事件。'],
        ['b', '容器的 log。'],
        ['c', '節點上的 iptables 規則。'],
      ],
      'a',
      '這時候連容器都還沒有；scheduler 的事件會說明每台節點被哪個 filter 擋掉。',
    ),
  ],
};
