import { ZScenario, type TScenario, type TScenarioInput } from './scenario.schema';

// The break-fix scenarios. Each starts from the default cluster (control-plane + node-1..3),
// breaks one thing the way it breaks in real clusters, and is graded on the cluster's state.
// Texts are our own, in both locales.

const web = (image: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image }] },
    },
  },
});

const WEB_READY = {
  kind: 'podsReady' as const,
  namespace: 'default',
  selector: { app: 'web' },
  count: 3,
};

const INPUTS: TScenarioInput[] = [
  {
    id: 'image-pull-backoff',
    title: { en: 'The image that does not exist', 'zh-TW': '不存在的映像檔' },
    brief: {
      en: 'Someone rolled out the web Deployment with a mistyped image tag. None of its pods start. Find out why and get all three replicas serving.',
      'zh-TW':
        '有人部署 web 時把映像檔標籤打錯了，三個 Pod 一個也跑不起來。請查出原因，讓三個副本都恢復服務。',
    },
    setup: {
      manifests: [web('nginx:1.27-alpine-typo')],
      settleMs: 5_000,
      faults: [],
      brokenMs: 20_000,
    },
    objectives: [
      {
        id: 'web-ready',
        text: {
          en: 'Deployment web has 3 ready pods',
          'zh-TW': 'web 這個 Deployment 有 3 個就緒的 Pod',
        },
        check: WEB_READY,
        hint: {
          en: 'Look at the Events at the bottom of `kubectl describe pod` for one of the web pods: the kubelet says which image it failed to pull. `kubectl set image deployment/web nginx=nginx:1.27` starts a new rollout.',
          'zh-TW':
            '對任一個 web Pod 執行 `kubectl describe pod`，最下方的 Events 會寫出 kubelet 拉不到哪個映像檔。可以用 `kubectl set image deployment/web nginx=nginx:1.27` 觸發新的滾動更新。',
        },
        points: 10,
      },
    ],
  },
  {
    id: 'service-without-endpoints',
    title: { en: 'A Service that reaches nobody', 'zh-TW': '找不到任何後端的 Service' },
    brief: {
      en: 'The web pods are healthy, yet the web Service sends traffic nowhere. Make the Service reach the pods without recreating the Deployment.',
      'zh-TW':
        'web 的 Pod 都很健康，可是 web 這個 Service 卻把流量送往虛空。請讓 Service 接上這些 Pod，而且不要重建 Deployment。',
    },
    setup: {
      manifests: [
        web('nginx:1.27'),
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'web', namespace: 'default' },
          spec: { selector: { app: 'wbe' }, ports: [{ port: 80, targetPort: 80 }] },
        },
      ],
      settleMs: 5_000,
      faults: [],
      brokenMs: 10_000,
    },
    objectives: [
      {
        id: 'service-endpoints',
        text: { en: 'Service web has endpoints', 'zh-TW': 'web 這個 Service 有端點' },
        check: { kind: 'serviceHasEndpoints', namespace: 'default', name: 'web' },
        hint: {
          en: 'Compare the selector in `kubectl describe service web` with the labels in `kubectl get pods --show-labels`. The endpoints controller only lists pods whose labels match every key of the selector.',
          'zh-TW':
            '比對 `kubectl describe service web` 裡的 Selector 和 `kubectl get pods --show-labels` 顯示的標籤。endpoints 控制器只會收錄標籤完全符合選擇器的 Pod。',
        },
        points: 7,
      },
      {
        id: 'web-ready',
        text: { en: 'The web pods stay ready', 'zh-TW': 'web 的 Pod 維持就緒' },
        check: WEB_READY,
        hint: {
          en: 'Fix the Service, not the pods: relabeling the pods makes the Deployment replace them.',
          'zh-TW': '要修的是 Service，不是 Pod：改 Pod 的標籤會讓 Deployment 另外補上新的 Pod。',
        },
        points: 3,
      },
    ],
  },
  {
    id: 'kubelet-stopped',
    title: { en: 'A node went quiet', 'zh-TW': '沉默的節點' },
    brief: {
      en: 'node-2 shows NotReady and nothing new lands on it. Bring the node back without rebuilding it.',
      'zh-TW': 'node-2 顯示 NotReady，新的 Pod 也不再排到它上面。請在不重建節點的前提下讓它恢復。',
    },
    setup: {
      manifests: [],
      settleMs: 5_000,
      faults: [{ type: 'stopComponent', ref: { component: 'kubelet', node: 'node-2' } }],
      brokenMs: 60_000,
    },
    objectives: [
      {
        id: 'node-ready',
        text: { en: 'node-2 is Ready', 'zh-TW': 'node-2 回到 Ready' },
        check: { kind: 'nodeReady', node: 'node-2' },
        hint: {
          en: 'A node turns NotReady when its kubelet stops posting status. Log in with `ssh node-2` and ask systemd with `systemctl status kubelet`.',
          'zh-TW':
            '節點的 kubelet 停止回報狀態後，節點就會變成 NotReady。用 `ssh node-2` 登入，再以 `systemctl status kubelet` 看看 systemd 怎麼說。',
        },
        points: 10,
      },
    ],
  },
  {
    id: 'untolerated-taint',
    title: { en: 'Nowhere to schedule', 'zh-TW': '無處可排的 Pod' },
    brief: {
      en: 'Every worker node was reserved for GPU jobs with a taint, and the web pods now wait in Pending. Get web running on those nodes while keeping the reservation in place.',
      'zh-TW':
        '所有工作節點都被加上 taint，保留給 GPU 工作，web 的 Pod 因此卡在 Pending。請讓 web 在這些節點上跑起來，同時保留這項保留設定。',
    },
    setup: {
      manifests: [web('nginx:1.27')],
      // the kubelets register their nodes first: the taints go on existing nodes
      settleMs: 5_000,
      faults: ['node-1', 'node-2', 'node-3'].map((node) => ({
        type: 'addNodeTaint' as const,
        node,
        taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const },
      })),
      brokenMs: 10_000,
    },
    objectives: [
      {
        id: 'web-ready',
        text: {
          en: 'Deployment web has 3 ready pods',
          'zh-TW': 'web 這個 Deployment 有 3 個就緒的 Pod',
        },
        check: WEB_READY,
        hint: {
          en: '`kubectl describe pod` on a Pending pod shows the scheduler’s FailedScheduling event. A pod may land on a tainted node only if its spec lists a matching toleration.',
          'zh-TW':
            '對 Pending 的 Pod 執行 `kubectl describe pod`，可以看到排程器留下的 FailedScheduling 事件。Pod 的 spec 必須列出相符的 toleration，才能落在有 taint 的節點上。',
        },
        points: 7,
      },
      ...['node-1', 'node-2', 'node-3'].map((node) => ({
        id: `taint-kept-${node}`,
        text: {
          en: `${node} keeps its dedicated=gpu:NoSchedule taint`,
          'zh-TW': `${node} 保留 dedicated=gpu:NoSchedule 這個 taint`,
        },
        check: {
          kind: 'nodeHasTaint' as const,
          node,
          key: 'dedicated',
          effect: 'NoSchedule' as const,
        },
        hint: {
          en: 'Removing the taint opens the node to every workload; tolerate it in the Deployment’s pod template instead.',
          'zh-TW':
            '拿掉 taint 等於讓所有工作負載都能進來；請改在 Deployment 的 Pod 範本中加上 toleration。',
        },
        points: 1,
      })),
    ],
  },
];

/** Every scenario, validated when the module loads (a broken scenario fails the build's tests). */
export const SCENARIOS: readonly TScenario[] = INPUTS.map((input) => ZScenario.parse(input));

export function findScenario(id: string): TScenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}
