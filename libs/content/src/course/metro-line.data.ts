import type { TMetroLine, TStation, TStop } from './metro-line.schema';

// The course index. Facts follow the source article; every sentence is written for KubeJourney.
// Technical terms stay in English inside the Chinese text, the way engineers in Taiwan say them,
// with a Chinese gloss on first use.

export const METRO_LINE: TMetroLine = {
  id: 'apply-line',
  name: { 'zh-TW': 'kubectl apply 線', en: 'The kubectl apply line' },
  zones: {
    laptop: { 'zh-TW': '你的筆電', en: 'Your laptop' },
    'control-plane': { 'zh-TW': 'Control Plane（控制平面）', en: 'Control plane' },
    node: { 'zh-TW': 'Worker Node（工作節點）', en: 'Worker node' },
  },
  stops: [
    {
      kind: 'hall',
      id: 'prologue',
      slug: 'prologue',
      colour: 'stone',
      title: {
        'zh-TW': '按下 Enter 之後的兩秒',
        en: 'The two seconds after Enter',
      },
      summary: {
        'zh-TW':
          '一行 apply、一句 created，幾秒後三個 Pod 已經在跑。出發前先看路線圖，並記住兩條規則：所有元件都透過 apiserver 溝通，也只有 apiserver 讀寫 etcd。',
        en: 'One apply, one line of output, and a few seconds later three Pods are running. Before setting off: the route map, and two rules every station obeys — everyone talks through the apiserver, and only the apiserver touches etcd.',
      },
    },
    {
      kind: 'station',
      id: 'kubectl',
      slug: 'kubectl',
      component: 'kubectl',
      zone: 'laptop',
      colour: 'slate',
      title: {
        'zh-TW': 'kubectl：不在叢集裡的客戶端',
        en: 'kubectl: a client outside the cluster',
      },
      summary: {
        'zh-TW':
          'kubectl 只是你電腦上的 API client（API 客戶端）：把 YAML 轉成 JSON，用 HTTP POST 送到 apiserver 的 REST API。加上 -v=8 就能親眼看到那個請求。',
        en: 'kubectl is an API client on your own machine: it turns the YAML into JSON and POSTs it to the apiserver’s REST API. Add -v=8 and you can watch the request leave.',
      },
    },
    {
      kind: 'station',
      id: 'kube-apiserver',
      slug: 'kube-apiserver',
      component: 'kube-apiserver',
      zone: 'control-plane',
      colour: 'green',
      title: {
        'zh-TW': 'kube-apiserver：每條路都經過這裡',
        en: 'kube-apiserver: every road runs through here',
      },
      summary: {
        'zh-TW':
          '請求依序通過 authentication（身分驗證，失敗回 401）、authorization（授權，RBAC 擋下回 403）、admission（准入控制，先 mutating 再 validating），才會被寫進 etcd。',
        en: 'A request must pass authentication (401 if not), authorization through RBAC (403 if not) and admission control — mutating first, then validating — before anything is written to etcd.',
      },
    },
    {
      kind: 'station',
      id: 'etcd',
      slug: 'etcd',
      component: 'etcd',
      zone: 'control-plane',
      colour: 'amber',
      title: {
        'zh-TW': 'etcd：叢集狀態唯一的來源',
        en: 'etcd: the one source of truth',
      },
      summary: {
        'zh-TW':
          'Deployment 成為 /registry/ 底下的一個 key，它就「存在」了，但還沒有任何容器。這站也說明 quorum（法定多數）為什麼要奇數台，以及沒還原過的備份為什麼不算數。',
        en: 'Once the Deployment is a key under /registry/, it exists — yet no container runs. This stop also covers why quorum wants an odd number of members, and why a backup you never restored does not count.',
      },
    },
    {
      kind: 'station',
      id: 'controller-manager',
      slug: 'controller-manager',
      component: 'kube-controller-manager',
      zone: 'control-plane',
      colour: 'violet',
      title: {
        'zh-TW': 'controller-manager：把期望變成 Pod',
        en: 'controller-manager: turning intent into Pods',
      },
      summary: {
        'zh-TW':
          'reconcile loop（調和迴圈）不停比對期望與現況：Deployment controller 建出 ReplicaSet，ReplicaSet controller 再建出三個 Pod。它們還沒有 nodeName，所以停在 Pending。',
        en: 'Reconcile loops keep comparing what you asked for with what exists: the Deployment controller creates a ReplicaSet, which creates three Pods. Without a nodeName yet, they wait in Pending.',
      },
    },
    {
      kind: 'station',
      id: 'kube-scheduler',
      slug: 'kube-scheduler',
      component: 'kube-scheduler',
      zone: 'control-plane',
      colour: 'blue',
      title: {
        'zh-TW': 'kube-scheduler：替 Pod 挑一台 Node',
        en: 'kube-scheduler: choosing a node for each Pod',
      },
      summary: {
        'zh-TW':
          '先 filter（篩選）刷掉放不下的 Node——資源、affinity、taint、port——再 score（評分）挑出最合適的一台，最後只把 nodeName 寫回 apiserver，從不啟動容器。',
        en: 'It filters out nodes that cannot take the Pod — resources, affinity, taints, ports — scores the rest, and writes only nodeName back through the apiserver. It never starts a container.',
      },
    },
    {
      kind: 'station',
      id: 'kubelet',
      slug: 'kubelet',
      component: 'kubelet',
      zone: 'node',
      colour: 'teal',
      title: {
        'zh-TW': 'kubelet：容器終於跑起來',
        en: 'kubelet: containers, at last',
      },
      summary: {
        'zh-TW':
          '被選中的 Node 上，kubelet 經 CNI 取得 IP、經 CSI 掛上 volume、拉 image，再透過 CRI 請 containerd 啟動容器；之後持續執行 probe 並回報狀態。',
        en: 'On the chosen node, the kubelet gets an IP through CNI, mounts volumes through CSI, pulls the image and asks the runtime to start the containers through CRI — then keeps probing them and reporting status.',
      },
    },
    {
      kind: 'station',
      id: 'kube-proxy',
      slug: 'kube-proxy',
      component: 'kube-proxy',
      zone: 'node',
      colour: 'rose',
      title: {
        'zh-TW': 'kube-proxy：把 Service 接上 Pod',
        en: 'kube-proxy: wiring Services to Pods',
      },
      summary: {
        'zh-TW':
          'Pod 通過 readinessProbe 才會被列進 Endpoints，kube-proxy 依此在每台 Node 上寫好 iptables 規則。真正轉送封包的是 Linux kernel，不是 kube-proxy 本身。',
        en: 'A Pod joins the Endpoints only after its readinessProbe passes; kube-proxy turns that list into iptables rules on every node. The Linux kernel forwards the packets, not kube-proxy.',
      },
    },
    {
      kind: 'terminus',
      id: 'recap',
      slug: 'recap',
      colour: 'stone',
      title: {
        'zh-TW': '回頭看完整路線',
        en: 'The whole route at a glance',
      },
      summary: {
        'zh-TW':
          '把七站串成一張時序圖，整理三條貫穿全程的設計原則，再用「看到什麼症狀 → 先查哪一站」的對照表練習除錯。',
        en: 'The seven stations as one sequence diagram, the three design principles behind them, and a symptom-to-station table to start every debugging session with.',
      },
    },
  ],
};

export function isStation(stop: TStop): stop is TStation {
  return stop.kind === 'station';
}

/** The seven stations, in journey order. */
export function listStations(line: TMetroLine = METRO_LINE): TStation[] {
  return line.stops.filter(isStation);
}

export function findStopBySlug(slug: string, line: TMetroLine = METRO_LINE): TStop | undefined {
  return line.stops.find((stop) => stop.slug === slug);
}
