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

export const KUBE_APISERVER_ZH_TW: TChapter = {
  slug: 'kube-apiserver',
  locale: 'zh-TW',
  lede: '叢集裡每一個請求，不管來自你還是來自某個元件，都從同一扇門進來。這一站就是那扇門，也是通往資料庫的唯一通道。',
  sections: [
    section(
      'role',
      '唯一的一扇門',
      p(
        'front',
        'Kubernetes 的 REST API 只由 kube-apiserver 提供，etcd 也只有它能讀寫。你的 kubectl 找它，controller-manager、scheduler、每台節點上的 kubelet 也都找它，而且各自用自己的身分。',
      ),
      handoff(
        'handoff',
        '一個 HTTP 請求：你 POST 過來的 `my-app` Deployment，帶著 kubeconfig 裡的 bearer token。',
        '依序判斷：你是誰、你能不能做這件事、這個物件能不能收。任何一關不過，請求就到此為止。',
        '把通過的物件寫進 etcd 的 `/registry/deployments/default/my-app`，回給 kubectl `201 Created`，再對所有正在 watch（監看）Deployment 的元件送出一個事件。',
      ),
    ),
    section(
      'gates',
      '存進去之前的三道檢查',
      table(
        'checks',
        '一個寫入請求依序經過的檢查',
        ['檢查', '要回答的問題', '不通過時'],
        [
          'Authentication（身分驗證）',
          '誰送來的？（用戶端憑證、token、雲端身分）',
          '`401 Unauthorized`',
        ],
        ['Authorization（授權，RBAC）', '這個身分能不能對這種資源做這個動作？', '`403 Forbidden`'],
        [
          'Admission（准入控制）',
          '內容能不能接受？要不要幫它補點東西？',
          '依該 controller 給的理由拒絕',
        ],
      ),
      p(
        'rbac',
        'RBAC（以角色為基礎的存取控制）把身分綁到角色上，角色再列出對哪些資源能做哪些動作。你可以請 apiserver 只回答「可不可以」，而不真的去做。',
      ),
      tryIt(
        'can-i',
        '替自己問兩個授權問題。',
        'control-plane',
        [CMD.canCreateDeployments, CMD.canDeleteNodes],
        '兩次都是 `yes`，結束碼 0：lab 的管理員屬於 `system:masters`，RBAC 允許這個群組做任何事。沒有相應角色的身分會得到 `no`，結束碼 1。',
      ),
      p(
        'admission',
        'admission 分兩種。mutating（變更型）可以改物件，例如塞一個 sidecar、補上預設的 resource limits。validating（驗證型）只能放行或拒絕，例如不准用 `latest` tag、每個 Pod 都要有 team label。變更型先跑，這樣它加進去的東西還會被驗證型再檢查一遍。',
      ),
      note(
        'in-the-wild',
        '你可能早就在用',
        'Istio 網格裡每個 Pod 都多出一個你沒寫過的 Envoy 容器，那是 mutating webhook 加的。部署被 OPA Gatekeeper 的政策擋下來，擋你的是 validating webhook。',
      ),
    ),
    section(
      'why-one-door',
      '為什麼要讓所有東西都走同一個元件',
      list(
        'benefits',
        false,
        '安全檢查集中一處。身分驗證、授權、准入控制只實作一次，不必每個元件各寫一套。',
        '版本轉換集中一處。用舊版 API 送進來的物件，會被轉成 etcd 儲存的版本，所以 API 升級時既有物件不會壞掉。',
        'etcd 只有一個客戶端。每一次存取都經過檢查，也都能稽核。',
      ),
    ),
    section(
      'down',
      'apiserver 停掉的時候',
      warning(
        'deaf',
        '叢集聽不到，但沒有熄燈',
        'kubectl 沒有回應，controller 無法修正任何東西，scheduler 也無法安排新的 Pod。不過正在跑的容器照樣在跑：每個 kubelet 守著它最後知道的狀態，kube-proxy 寫下的規則也還留在 kernel 裡。這就是正式環境要跑好幾台 apiserver 的理由。',
      ),
      p(
        'lab-stop',
        '在 lab 裡，apiserver 是一個 static Pod（靜態 Pod）：`control-plane` 上的 kubelet 會把 `/etc/kubernetes/manifests` 裡的每個檔案跑起來。把 manifest 移走，它就停了。',
      ),
      tryIt(
        'stop-apiserver',
        '停掉 apiserver，試試 kubectl，再直接到 `node-1` 上看容器。',
        'control-plane',
        [CMD.stopApiserver, CMD.getPods, CMD.sshNode1, CMD.crictlPs, CMD.exit],
        'kubectl 回報連到伺服器的連線被拒絕。到了 `node-1`，`crictl ps` 仍然列出狀態為 `Running` 的 `app` 容器。',
      ),
      cmd(
        'start-apiserver',
        '把 manifest 放回去，幾秒後 kubectl 又會有回應。',
        'control-plane',
        CMD.startApiserver,
        CMD.getPods,
      ),
    ),
  ],
  quiz: [
    quiz(
      'order',
      'apiserver 檢查一個寫入請求的順序是？',
      [
        ['a', '授權、身分驗證、准入控制。'],
        ['b', '身分驗證、授權、准入控制。'],
        ['c', '准入控制、身分驗證、授權。'],
      ],
      'b',
      '要先知道你是誰，才能判斷你能做什麼，最後才看內容。',
    ),
    quiz(
      'code-403',
      'kubectl 印出 `Error from server (Forbidden)`，是哪一關擋下你？',
      [
        ['a', '身分驗證。'],
        ['b', '授權（RBAC）。'],
        ['c', '驗證型准入控制。'],
      ],
      'b',
      '403 代表 apiserver 認得你，但你的角色不允許這個動作；用 `kubectl auth can-i` 就能確認。',
    ),
    quiz(
      'apiserver-down',
      '所有 apiserver 都停了，原本在跑的 Pod 會怎樣？',
      [
        ['a', '繼續跑；在 apiserver 回來之前，沒有任何東西能改變它們。'],
        ['b', 'kubelet 會在 50 秒內把它們停掉。'],
        ['c', '它們會被搬到別的節點。'],
      ],
      'a',
      '容器活在節點的 runtime 裡；少了 apiserver，只是少了變更和自我修復的能力。',
    ),
  ],
};
