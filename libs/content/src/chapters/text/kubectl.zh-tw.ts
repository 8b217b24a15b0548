import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, handoff, note, p, quiz, section, tip, tryIt } from '../chapter-builders.util';

export const KUBECTL_ZH_TW: TChapter = {
  slug: 'kubectl',
  locale: 'zh-TW',
  lede: '第一站根本不在叢集裡。kubectl 是裝在你電腦上的程式，它做的事只有一件：用 HTTP 跟 apiserver 對話。',
  sections: [
    section(
      'role',
      '是客戶端，不是元件',
      p(
        'client',
        '很多人以為 kubectl 屬於 Kubernetes 的一部分，其實不然。它是一支命令列的 client（客戶端），本質上跟 `curl` 差不多：讀 kubeconfig、把 YAML 轉成 JSON、對 apiserver 發出 REST 請求。請求送出之後的一切都在伺服器那端發生。',
      ),
      handoff(
        'handoff',
        '你打的指令、`deployment.yaml` 這個檔案，以及 kubeconfig 裡的伺服器位址和憑證。',
        '這個物件該打哪條 API 路徑、用哪個 HTTP 動詞。`apply` 會先問 `my-app` 在不在，再決定要建立還是送 patch。',
        '對 kube-apiserver 發一個 HTTP 請求，這裡是 POST 到 `/apis/apps/v1/namespaces/default/deployments`。除此之外它什麼都不寫。',
      ),
    ),
    section(
      'see-the-request',
      '親眼看請求送出去',
      p(
        'verbose',
        '加上 `-v=8`，kubectl 會把每一次 HTTP 往返印到 stderr：URL、標頭（token 會遮住）、請求與回應的內容。拿剛才建好的 Deployment 再跑一次。',
      ),
      cmd('apply-v8', '帶著請求紀錄再 apply 一次。', 'control-plane', CMD.applyVerbose),
      p(
        'reading-v8',
        '找 `round_trippers.go` 開頭的那幾行。因為 `my-app` 已經存在，你會先看到一個對 Deployment 的 GET，最後回 `deployment.apps/my-app unchanged`。如果是全新的叢集，GET 會拿到 404，接著一個 POST 把轉成 JSON 的物件放在 body 裡送出。',
      ),
      note(
        'nuance-post',
        '為什麼先 GET',
        'client-side 的 `apply` 要拿你的檔案跟線上的版本比對，所以一定先讀後寫。文章裡說「送一個 POST」，講的是第一次建立的情況。',
      ),
    ),
    section(
      'curl',
      '用 curl 做 kubectl 的工作',
      p(
        'proxy',
        '`kubectl proxy` 會在本機開一個 port，把一般的 HTTP 轉給 apiserver，途中替你附上憑證。它跑著的時候，任何 HTTP 工具都能直接問 API。',
      ),
      tryIt(
        'curl-pods',
        '啟動 proxy，用 curl 要 Pod 清單，再請 kubectl 用 JSON 格式列出同一份清單。',
        'control-plane',
        [CMD.proxy, CMD.curlPods, CMD.getPodsJson],
        '兩邊拿到的是同樣三個 `my-app` Pod，欄位也一樣。kubectl 沒有什麼祕密通道，它打的就是同一個 URL。',
      ),
      p(
        'table',
        '再補一個細節：`kubectl get` 那些排得整整齊齊的欄位，是 apiserver 組出來的。kubectl 在 Accept 標頭裡要求 `Table` 格式，拿回來幾乎直接印出。',
      ),
    ),
    section(
      'failure',
      '這一站出問題時',
      p(
        'errors',
        'kubectl 只是客戶端，所以它的問題都跟「連不連得到、說不說得動伺服器」有關：kubeconfig 設錯、位址連不到、token 過期。叢集本身完全不受影響，你在這裡打錯什麼，都不會讓正在跑的容器停下來。',
      ),
      tip(
        'skew',
        '版本差距',
        '既然 kubectl 跑在叢集外面，官方對它的版本要求就寬鬆一些：可以比 apiserver 新或舊一個 minor 版本。Control Plane 的元件規定比較嚴，任何一個都不能比 apiserver 新。',
      ),
    ),
  ],
  quiz: [
    quiz(
      'what-is-kubectl',
      '從叢集的角度看，kubectl 是什麼？',
      [
        ['a', '跟 apiserver 一起跑的 Control Plane 元件。'],
        ['b', 'apiserver REST API 的 HTTP 客戶端。'],
        ['c', '每個節點上都有的代理程式。'],
      ],
      'b',
      'kubectl 只負責組 HTTP 請求；透過 `kubectl proxy` 用 `curl` 問，答案一模一樣。',
    ),
    quiz(
      'v8-shows',
      '`kubectl apply -f deployment.yaml -v=8` 比平常多印了什麼？',
      [
        ['a', 'scheduler 替每個 Pod 做的決定。'],
        ['b', 'kubectl 與 apiserver 之間往來的 HTTP 請求和回應。'],
        ['c', '被寫進去的 etcd key。'],
      ],
      'b',
      '第 8 級會記下 URL、標頭和 body；kubectl 根本碰不到 etcd 或 scheduler。',
    ),
    quiz(
      'apply-existing',
      '`my-app` 已經在叢集裡時，`apply -v=8` 第一個請求是什麼？',
      [
        ['a', '對 Deployment 的 GET，用來跟你的檔案比對。'],
        ['b', '先 DELETE 再 POST。'],
        ['c', '直接寫進 etcd。'],
      ],
      'a',
      'client-side apply 會先讀線上物件，再決定要建立還是 patch。',
    ),
  ],
};
