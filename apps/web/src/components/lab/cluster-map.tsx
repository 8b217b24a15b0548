import { COMPONENT_COLOURS, formatMessage, type TMessages } from '@kubejourney/content';
import type { TLabPodView, TLabView } from '@kubejourney/contracts';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';

// The cluster map: control plane above (its components in their journey colours, with health),
// worker nodes below with their Pods inside, then Services with their ready endpoints. Health and
// Pod trouble use red/orange outlines, never a component's fill (UX.md).

type TLabMessages = TMessages['lab'];

const FAILING = /BackOff|Err|Error|Failed|OOMKilled|Unknown|Evicted|Invalid/;

function podTone(pod: TLabPodView): { box: string; badge: string } {
  if (pod.status === 'Terminating')
    return { box: 'border-dashed border-orange-500 bg-orange-50', badge: 'text-orange-800' };
  if (FAILING.test(pod.status)) return { box: 'border-red-600 bg-red-50', badge: 'text-red-800' };
  if (pod.isReady) return { box: 'border-stone-700 bg-white', badge: 'text-emerald-800' };
  if (pod.phase === 'Running') return { box: 'border-amber-600 bg-white', badge: 'text-amber-900' };
  return { box: 'border-dashed border-stone-400 bg-stone-50', badge: 'text-stone-700' };
}

function PodChip({ pod, messages }: { pod: TLabPodView; messages: TLabMessages }) {
  const tone = podTone(pod);
  return (
    <li
      data-testid="map-pod"
      data-pod={pod.name}
      data-status={pod.status}
      data-ready={pod.isReady}
      className={`min-w-0 rounded-md border-2 px-2 py-1 text-xs leading-tight ${tone.box}`}
      title={`${pod.namespace}/${pod.name} · ${pod.status} · ${pod.podIP ?? '-'}`}
    >
      <span className="block truncate font-mono font-medium text-stone-900">{pod.name}</span>
      <span className={`flex gap-2 ${tone.badge}`}>
        <span className="font-semibold">{pod.status}</span>
        <span>{formatMessage(messages.podReady, { ready: pod.ready })}</span>
        {pod.restarts > 0 && (
          <span className="text-red-800">
            {formatMessage(messages.podRestarts, { count: pod.restarts })}
          </span>
        )}
      </span>
    </li>
  );
}

function healthText(health: string, messages: TLabMessages): string {
  if (health === 'Healthy') return messages.healthHealthy;
  if (health === 'Unhealthy') return messages.healthUnhealthy;
  return messages.healthUnknown;
}

function componentColour(component: string) {
  const family = COMPONENT_COLOURS[component as keyof typeof COMPONENT_COLOURS] ?? 'stone';
  return COLOUR_CLASSES[family];
}

export function ClusterMap({ view, messages }: { view: TLabView; messages: TLabMessages }) {
  const isControlPlane = (roles: readonly string[]) => roles.includes('control-plane');
  const controlNodes = view.nodes.filter((n) => isControlPlane(n.roles));
  const workers = view.nodes.filter((n) => !isControlPlane(n.roles));
  const userPods = view.pods.filter((p) => p.namespace !== 'kube-system');
  const systemCount = (node: string) =>
    view.pods.filter((p) => p.namespace === 'kube-system' && p.node === node).length;
  const unscheduled = userPods.filter((p) => p.node === null);

  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="cluster-map">
      <section
        aria-label={messages.controlPlane}
        className="rounded-xl border border-stone-300 bg-white p-3"
      >
        <h3 className="flex flex-wrap items-baseline gap-2 text-xs font-semibold tracking-wide text-stone-700 uppercase">
          {messages.controlPlane}
          {controlNodes.map((n) => (
            <span key={n.name} className="font-mono font-normal normal-case" data-node={n.name}>
              {n.name} · {n.status}
            </span>
          ))}
        </h3>
        <ul className="mt-2 grid grid-cols-2 gap-2 xl:grid-cols-4">
          {view.controlPlane.map((cp) => {
            const colour = componentColour(cp.component);
            const isBad = cp.health !== 'Healthy';
            return (
              <li
                key={`${cp.component}-${cp.node}`}
                data-component={cp.component}
                data-health={cp.health}
                className={`relative overflow-hidden rounded-lg px-2.5 py-1.5 ring-1 ${colour.chip} ${
                  isBad ? 'outline-2 outline-offset-1 outline-red-600' : ''
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`absolute inset-y-0 left-0 w-1 ${colour.accent}`}
                />
                <span className="block truncate font-mono text-xs font-semibold">
                  {cp.component}
                </span>
                <span className={`text-xs ${isBad ? 'font-semibold text-red-800' : ''}`}>
                  {healthText(cp.health, messages)}
                </span>
              </li>
            );
          })}
        </ul>
        {view.etcd.members.length > 0 && (
          <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-stone-700">
            <span className={`rounded px-1.5 py-0.5 font-mono ring-1 ${COLOUR_CLASSES.amber.chip}`}>
              etcd
            </span>
            {view.etcd.members.map((m) => (
              <span
                key={m.id}
                data-etcd-member={m.name}
                className={`rounded px-1.5 py-0.5 font-mono ring-1 ${
                  m.healthy ? 'ring-amber-300' : 'text-red-800 ring-red-600'
                }`}
              >
                {m.name}
                {m.isLeader ? ` ★ ${messages.etcdLeader}` : ''}
                {m.healthy ? '' : ` · ${messages.healthUnhealthy}`}
              </span>
            ))}
            <span className={view.etcd.hasQuorum ? '' : 'font-semibold text-red-800'}>
              {view.etcd.hasQuorum ? messages.etcdQuorum : messages.etcdNoQuorum} · rev{' '}
              {view.etcd.revision}
            </span>
          </p>
        )}
      </section>

      <section aria-label={messages.workers}>
        <h3 className="sr-only">{messages.workers}</h3>
        <ul className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          {workers.map((node) => {
            const pods = userPods.filter((p) => p.node === node.name);
            const isBad = node.status !== 'Ready';
            const system = systemCount(node.name);
            return (
              <li
                key={node.name}
                data-testid="map-node"
                data-node={node.name}
                data-status={node.status}
                className={`min-w-0 rounded-xl border bg-white p-2 ${
                  isBad ? 'border-2 border-red-600' : 'border-stone-300'
                }`}
              >
                <p className="flex flex-wrap items-center gap-x-2 text-xs">
                  <span
                    aria-hidden="true"
                    className={`size-2 rounded-full ${COLOUR_CLASSES.teal.dot}`}
                  />
                  <span className="font-mono font-semibold text-stone-900">{node.name}</span>
                  <span className={isBad ? 'font-semibold text-red-800' : 'text-stone-700'}>
                    {node.status}
                  </span>
                  {node.unschedulable && (
                    <span className="text-orange-800">{messages.nodeCordoned}</span>
                  )}
                  {node.internalIP && (
                    <span className="font-mono text-stone-600">{node.internalIP}</span>
                  )}
                </p>
                {pods.length > 0 ? (
                  <ul className="mt-1.5 flex flex-col gap-1">
                    {pods.map((pod) => (
                      <PodChip key={`${pod.namespace}/${pod.name}`} pod={pod} messages={messages} />
                    ))}
                  </ul>
                ) : (
                  <p className="mt-1.5 text-xs text-stone-600">{messages.noPods}</p>
                )}
                {system > 0 && (
                  <p className="mt-1 text-xs text-stone-600">
                    {formatMessage(messages.systemPods, { count: system })}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
        {unscheduled.length > 0 && (
          <div className="mt-2 rounded-xl border border-dashed border-stone-400 p-2">
            <h4 className="text-xs font-semibold text-stone-700">{messages.unscheduled}</h4>
            <ul className="mt-1 grid grid-cols-2 gap-1 sm:grid-cols-3">
              {unscheduled.map((pod) => (
                <PodChip key={`${pod.namespace}/${pod.name}`} pod={pod} messages={messages} />
              ))}
            </ul>
          </div>
        )}
      </section>

      <section aria-label={messages.services}>
        <h3 className="text-xs font-semibold tracking-wide text-stone-700 uppercase">
          {messages.services}
        </h3>
        {view.services.length === 0 ? (
          <p className="text-xs text-stone-600">{messages.noServices}</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1">
            {view.services.map((svc) => (
              <li
                key={`${svc.namespace}/${svc.name}`}
                data-testid="map-service"
                data-service={svc.name}
                className="flex flex-wrap items-baseline gap-x-2 rounded-lg border border-stone-300 bg-white px-2 py-1 text-xs"
              >
                <span
                  aria-hidden="true"
                  className={`size-2 self-center rounded-full ${COLOUR_CLASSES.rose.dot}`}
                />
                <span className="font-mono font-semibold text-stone-900">
                  {svc.namespace}/{svc.name}
                </span>
                <span className="text-stone-700">
                  {svc.type} {svc.clusterIP ?? ''} {svc.ports.join(',')}
                </span>
                <span aria-hidden="true">→</span>
                <span
                  className={`font-mono ${svc.endpoints.length ? 'text-stone-800' : 'text-orange-800'}`}
                >
                  {svc.endpoints.length ? svc.endpoints.join('  ') : messages.noEndpoints}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
