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
  tip,
  tryIt,
  warning,
} from '../chapter-builders.util';

export const KUBE_PROXY_ZH_TW: TChapter = {
  slug: 'kube-proxy',
  locale: 'zh-TW',
  lede: '容器跑起來了。剩下一個問題：Pod 每重建一次 IP 就換一個，別人要怎麼找到它？',
  sections: [
    section(
      'service',
      '會動的 Pod，前面擺一個固定地址',
      p(
        'why-service',
        'Pod 的 IP 用過即丟，換一個 Pod 就換一個 IP。所以用戶端連的是 Service（服務）：一個永遠不變的虛擬 IP，背後是此刻符合 selector 的那些 Pod。讓這個虛擬 IP 真的通到某處的，就是 kube-proxy。',
      ),
      handoff(
        'handoff',
        'Service 與其 endpoints（端點清單）的 watch 事件，也就是每個 Service 背後 ready 的 Pod 位址。',
        '這台節點需要哪些規則，才能讓送往每個 Service IP 的流量落到某個 ready 的 Pod 上。',
        '寫進節點本機 kernel 的 iptables 規則。除了自己的事件，它不會寫任何東西回 apiserver。',
      ),
      tryIt(
        'expose',
        '替 `my-app` 建立 Service，再看它的 IP 和 endpoints。',
        'control-plane',
        [CMD.applyService, CMD.getService, CMD.getEndpoints],
        '一個取自 service 網段的 `ClusterIP`，以及三組 `IP:80`，跟 `kubectl get pods -o wide` 裡的 Pod IP 對得上。',
      ),
    ),
    section(
      'rules',
      '它寫規則，搬封包的是 kernel',
      p(
        'not-a-proxy',
        '名字雖然叫 proxy，但沒有任何流量會經過 kube-proxy 這個程序。它把 Service 和 endpoints 翻譯成 iptables（或 IPVS）規則，再由 Linux kernel 套用到每個封包上。它比較像設定紅綠燈的人，而不是站在路口指揮的交警。',
      ),
      tryIt(
        'iptables',
        '讀 `node-1` 上的 NAT 規則。',
        'control-plane',
        [CMD.sshNode1, CMD.iptablesSave, CMD.exit],
        '`KUBE-SERVICES` 鏈比對 Service IP 後跳到一條 `KUBE-SVC-...` 鏈，它隨機挑三條 `KUBE-SEP-...` 之一，每一條把目的地改寫成某一個 Pod。',
      ),
      p(
        'rule-stays',
        '這個設計帶來一個好處：kube-proxy 停了，規則還留在 kernel 裡，既有的 Service 照常運作。只是之後的變化，例如新的 Service、剛變成 ready 的 Pod，在那台節點上不會生效。',
      ),
      cmd(
        'stop-proxy',
        '停掉 `node-1` 的 kube-proxy，規則依然在。',
        'control-plane',
        CMD.sshNode1,
        CMD.stopKubeProxy,
        CMD.iptablesSave,
        CMD.startKubeProxy,
        CMD.exit,
      ),
    ),
    section(
      'chain',
      '從 probe 通過到封包被導過去',
      list(
        'steps',
        true,
        'kubelet 回報某個 Pod 的 readiness probe 通過了。',
        'endpoints controller 把這個 Pod 的位址加進 Service 的 endpoints。',
        '每台節點的 kube-proxy 看到變化，重寫自己的規則。',
      ),
      p(
        'rolling',
        '滾動更新不會中斷服務，靠的就是這條鏈：新 Pod 要 ready 之後才會收到流量，在那之前舊 Pod 繼續服務。',
      ),
      note(
        'slices',
        'Endpoints 還是 EndpointSlice',
        '現在的 kube-proxy 讀的是 EndpointSlice，由另一個 controller 維護，內容是同一批 ready 位址。要快速查看，`kubectl get endpoints` 仍然最方便。',
      ),
      tryIt(
        'empty',
        '把 `my-app` 縮到零，再看一次 endpoints。',
        'control-plane',
        [CMD.scale0, CMD.getEndpoints],
        'ENDPOINTS 欄位顯示 `<none>`。Service 還在，IP 也還在，但後面沒有 Pod，連線會被拒絕。',
      ),
      cmd('scale-back', '把三個副本加回來。', 'control-plane', CMD.scale3, CMD.getEndpoints),
      tip(
        'order',
        'Service 連不上時',
        '照這個順序查：endpoints 裡有沒有 Pod IP？沒有的話，看 readiness probe，以及 Pod 的 label 是否對得上 Service 的 selector。兩者都沒問題，才輪到懷疑 kube-proxy 或 CNI plugin。',
      ),
      warning(
        'empty-warning',
        'Running 不等於 ready',
        'Pod 可以全部 `Running`，Service 卻一個 endpoint 都沒有：Pod 要 ready、label 也相符，才會被列進去。',
      ),
    ),
  ],
  quiz: [
    quiz(
      'forwards',
      '送往 Service ClusterIP 的封包，是誰轉送的？',
      [
        ['a', '節點上的 kube-proxy 程序。'],
        ['b', 'Linux kernel，依照 kube-proxy 寫好的規則。'],
        ['c', 'kube-apiserver。'],
      ],
      'b',
      'kube-proxy 只設定 iptables 或 IPVS，封包從不經過它。',
    ),
    quiz(
      'empty-endpoints',
      '`kubectl get endpoints my-app-svc` 顯示 `<none>`，最可能的原因是？',
      [
        ['a', '某台節點的 kube-proxy 當掉了。'],
        ['b', '沒有任何符合 selector 的 Pod 處於 ready。'],
        ['c', 'etcd 失去 quorum。'],
      ],
      'b',
      'endpoints 只列出 label 相符且 ready 的 Pod；這份清單不是 kube-proxy 產生的。',
    ),
    quiz(
      'proxy-down',
      '某台節點的 kube-proxy 停了，那台節點上既有的 Service 會怎樣？',
      [
        ['a', '靠 kernel 裡已有的規則繼續運作。'],
        ['b', '所有流量立刻被丟棄。'],
        ['c', '上面的 Pod 被驅逐。'],
      ],
      'a',
      '規則原封不動；只是之後 Service 或 endpoints 的變化不會被套用。',
    ),
  ],
};
