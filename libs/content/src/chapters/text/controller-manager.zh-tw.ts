import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, handoff, list, note, p, quiz, section, table, tryIt } from '../chapter-builders.util';

export const CONTROLLER_MANAGER_ZH_TW: TChapter = {
  slug: 'controller-manager',
  locale: 'zh-TW',
  lede: 'etcd 裡現在有一個要三個 Pod 的 Deployment，可是 Pod 一個都沒有。發現這個落差、把它補起來的，就是 controller-manager。',
  sections: [
    section(
      'loop',
      'reconcile loop',
      p(
        'many-controllers',
        '`kube-controller-manager` 是一個程式，裡面跑著幾十個 controller。每一個都在重複同樣三步：讀期望、看現況、針對差距動手；沒有差距就什麼都不做。這叫 reconcile loop（調和迴圈），叢集的自我修復就是從這裡來的。',
      ),
      handoff(
        'handoff',
        'apiserver 送來的 watch 事件：新出現的 Deployment `my-app`，之後還有它底下 ReplicaSet 和 Pod 的每一次變化。',
        '現況離期望有多遠：想要三個 Pod，實際是零個。',
        '透過 apiserver 建立新物件：先是 `my-app` 的 ReplicaSet，再來是三個 `spec.nodeName` 為空的 Pod。',
      ),
      table(
        'moments',
        '同一個迴圈，在 my-app 生命中的四個時刻',
        ['時刻', '期望', '現況', '動作'],
        ['剛 apply 完', '3 個 Pod', '0 個 Pod', '建立 3 個 Pod'],
        ['穩定運作', '3 個 Pod', '3 個 Pod', '不動作'],
        ['某台節點壞了', '3 個 Pod', '2 個 Pod', '補建 1 個 Pod'],
        ['你手動刪了一個', '3 個 Pod', '2 個 Pod', '補建 1 個：它分不出你是故意的'],
      ),
      tryIt(
        'delete',
        '把 `my-app` 的 Pod 全部刪掉，再列一次。',
        'control-plane',
        [CMD.deletePods, CMD.getPods],
        '還是三個 Pod，但名字換了，AGE 只有幾秒。你改的是現況，不是期望，所以迴圈把它補了回來。',
      ),
      p(
        'scale',
        '想要少一點 Pod，就去改期望：用 `kubectl scale`，或改 YAML 裡的 `replicas`。刪掉結果只會讓迴圈多做一次工。',
      ),
    ),
    section(
      'two-layers',
      '兩層：Deployment 與 ReplicaSet',
      p(
        'layers',
        'Deployment controller 並不直接建 Pod。它建一個 ReplicaSet（副本集），再由 ReplicaSet controller 建 Pod。多這一層，rolling update（滾動更新）才做得到：換了 image，Deployment controller 就開第二個 ReplicaSet，一步步把新的加大、舊的縮小。舊的 ReplicaSet 縮到零但沒有刪掉，所以 `kubectl rollout undo` 才有東西可以退回去。',
      ),
      tryIt(
        'rollout',
        '換掉 image，再看 ReplicaSet 和 rollout 歷史。',
        'control-plane',
        [CMD.setImage, CMD.getRs, CMD.rolloutHistory],
        '兩個 ReplicaSet：新的 DESIRED 是 3，舊的是 0。歷史裡列出 revision 1 和 2。',
      ),
      cmd(
        'undo',
        '退回 nginx:1.27，舊的 ReplicaSet 會再長回來。',
        'control-plane',
        CMD.rolloutUndo,
        CMD.getRs,
      ),
      list(
        'others',
        false,
        '`Node` controller：盯著節點的心跳，把沒聲音的節點做記號，並驅逐上面的 Pod。',
        '`Job` controller：讓 Pod 跑到任務完成就收工。',
        '`Endpoints` controller：維護每個 Service 背後那份 ready Pod 位址清單。',
      ),
    ),
    section(
      'pending',
      '還沒有家的 Pod',
      p(
        'no-node',
        'ReplicaSet controller 寫出來的三個 Pod 沒有 `spec.nodeName`。還沒人決定它們要跑在哪，所以 `kubectl get pods` 顯示 `Pending`。健康的叢集裡這只會持續不到一秒，下一站馬上接手。嚴格來說，在容器啟動之前 Pod 的 phase 都是 `Pending`，只是一旦有了節點，kubectl 會改顯示 `ContainerCreating`。',
      ),
      note(
        'down',
        'controller-manager 停掉的時候',
        '已經在跑的東西不受影響，但也沒有東西會被修好：刪掉的 Pod 不會回來，scale 上去也不會多出 Pod，要等 controller-manager 回來，把積著的差距一次補齊。',
      ),
    ),
  ],
  quiz: [
    quiz(
      'comes-back',
      '你刪掉 `my-app` 的一個 Pod，結果又冒出一個新的。為什麼？',
      [
        ['a', 'kubectl 預設會重建被刪的 Pod。'],
        ['b', 'ReplicaSet 仍然要三個 Pod，reconcile loop 把差距補上。'],
        ['c', 'kubelet 在同一台節點上重啟了容器。'],
      ],
      'b',
      '刪除改變的是現況而不是期望，controller 針對兩者的差距動手。',
    ),
    quiz(
      'why-rs',
      'ReplicaSet 這一層讓什麼變得可能？',
      [
        ['a', '滾動更新與回滾，因為新舊兩種 Pod 範本可以同時存在。'],
        ['b', '把 Pod 分散到不同節點。'],
        ['c', '重啟當掉的容器。'],
      ],
      'a',
      '每個範本各有自己的 ReplicaSet，Deployment 才能在它們之間來回調配副本數。',
    ),
    quiz(
      'pending-means',
      'ReplicaSet 剛建出 Pod 時，`Pending` 代表什麼？',
      [
        ['a', '正在拉 image。'],
        ['b', 'Pod 還沒有節點：`spec.nodeName` 是空的。'],
        ['c', 'readiness probe 還沒通過。'],
      ],
      'b',
      '在 scheduler 寫下節點名稱之前，沒有任何 kubelet 會接手這個 Pod。',
    ),
  ],
};
