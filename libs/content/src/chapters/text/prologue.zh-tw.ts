import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, list, note, p, quiz, section, table, tryIt } from '../chapter-builders.util';

export const PROLOGUE_ZH_TW: TChapter = {
  slug: 'prologue',
  locale: 'zh-TW',
  lede: '打一行指令，回來一行字，再過一會兒就有三個 Pod（Kubernetes 執行容器的最小單位）在跑。這門課要把那一會兒拆開來，一格一格看。',
  sections: [
    section(
      'the-question',
      '一行輸出，背後一串問題',
      p(
        'start',
        '你的 lab 裡有一個 `deployment.yaml`，內容是一個叫 `my-app` 的 Deployment（部署），要三份 nginx。把它送進叢集，看看回來什麼。',
      ),
      cmd(
        'first-apply',
        '建立 Deployment，接著列出 Pod。',
        'control-plane',
        CMD.apply,
        CMD.getPods,
      ),
      p(
        'output',
        'kubectl 幾乎立刻回 `deployment.apps/my-app created`。手夠快的話，列出來的 Pod 還是 `Pending` 或 `ContainerCreating`；等個兩三秒再看，三個都變成 `Running`。',
      ),
      p(
        'gap',
        '這幾秒裡發生的事，不是 kubectl 做的。YAML 被送到哪？機器是誰挑的？容器是誰真正啟動的？Pod 掛了誰會發現、誰來補？每個問題的答案都是不同的元件。',
      ),
    ),
    section(
      'the-route',
      '路線圖',
      p(
        'route-intro',
        '與其背七個名詞解釋，不如跟著這個請求坐一趟車。每個元件在輪到它的時候才上場：它收到什麼、做了什麼判斷、又把什麼交出去。',
      ),
      table(
        'stops',
        '請求依序經過的七站',
        ['站', '跑在哪', '一句話說它的工作'],
        ['`kubectl`', '你的筆電', '把 YAML 變成 HTTP 請求'],
        ['`kube-apiserver`', 'Control Plane', '檢查請求，再把它存起來'],
        ['`etcd`', 'Control Plane', '保存叢集狀態，而且只此一份'],
        ['`controller-manager`', 'Control Plane', '把 Deployment 展開成 Pod'],
        ['`kube-scheduler`', 'Control Plane', '替每個 Pod 選節點'],
        ['`kubelet`', '每個節點', '啟動容器，並回報狀況'],
        ['`kube-proxy`', '每個節點', '寫好讓 Service 流量找到 Pod 的規則'],
      ),
      p(
        'lab-map',
        '右邊的叢集地圖畫的是同一件事：上面是 Control Plane（控制平面），下面是 `node-1` 到 `node-3`。底部的旅程時間軸每個元件一條泳道，元件每動一次就多一個箭頭。',
      ),
    ),
    section(
      'two-rules',
      '隨身帶著的兩條規則',
      list(
        'rules',
        true,
        '每個元件只跟 kube-apiserver 說話，不跟彼此直接聯絡。scheduler 從來不會去找 kubelet，它改一個物件，kubelet 自己會看到。',
        '只有 kube-apiserver 能讀寫 etcd。別的元件若想看叢集現況，必須向 apiserver 查詢。',
      ),
      p(
        'rules-why',
        '接下來每一站都會遇到這兩條。它們解釋了為什麼一個元件倒下時其他元件還能照常運作，也告訴你卡住的時候該往哪裡查。',
      ),
      tryIt(
        'watch-lanes',
        '把 Deployment 縮成兩份，然後盯著底部的旅程時間軸。',
        'control-plane',
        [CMD.scale2, CMD.getPods],
        '箭頭都是從各元件指向 `kube-apiserver` 再回來，沒有任何兩個元件直接相連。一個 Pod 進入終止流程，剩兩個 `Running`。',
      ),
      note(
        'assumption',
        '我們的假設',
        '你用過 kubectl，大概知道 Pod 和 Service 是什麼。背後怎麼運作不用先懂，那正是這趟路要帶你看的。',
      ),
      cmd('restore', '繼續之前，先把副本數改回三。', 'control-plane', CMD.scale3),
    ),
  ],
  quiz: [
    quiz(
      'created-means',
      'kubectl 印出 `deployment.apps/my-app created` 的那一刻，哪一句是對的？',
      [
        ['a', '三個容器已經在跑。'],
        ['b', 'Deployment 已經存下來，Pod 可能都還沒出現。'],
        ['c', 'scheduler 已經選好三個節點。'],
      ],
      'b',
      'apiserver 一存好物件就回應，後面的事都是非同步進行的。',
    ),
    quiz(
      'who-talks',
      'scheduler 要怎麼讓某個 kubelet 啟動 Pod？',
      [
        ['a', '直接連線到那個節點上的 kubelet。'],
        ['b', '寫進 etcd，由 etcd 通知 kubelet。'],
        ['c', '透過 apiserver 更新 Pod，kubelet 看到變化後自己動手。'],
      ],
      'c',
      '元件之間只透過 apiserver 修改物件，沒有誰對誰下命令。',
    ),
  ],
};
