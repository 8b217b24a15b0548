import type {
  TLabControlPlaneView,
  TLabEtcdView,
  TLabNodeView,
  TLabPodView,
  TLabServiceView,
  TLabSummary,
  TLabView,
} from '@kubejourney/contracts';
import { targetSimTime, type TLabHeader, type TLabObjectRecord } from '@kubejourney/db';

// The lab's view model (cluster map, component health), computed from what the database holds:
// the etcd keyspace rows and the core state. Reading never restores or touches the simulator,
// so watching a lab costs a query, not a simulation.

type TRec = Record<string, unknown>;

const rec = (v: unknown): TRec => (v && typeof v === 'object' ? (v as TRec) : {});
const arr = <T = TRec>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function toLabSummary(header: TLabHeader): TLabSummary {
  return {
    id: header.id,
    kind: header.kind === 'SANDBOX' ? 'sandbox' : 'scenario',
    scenarioId: header.scenarioId,
    status: header.status === 'ACTIVE' ? 'active' : 'hibernated',
    revision: header.revision,
    simTimeMs: header.simTimeMs,
    createdAt: header.createdAt.toISOString(),
    lastActiveAt: header.lastActiveAt.toISOString(),
  };
}

function decodeAll(objects: TLabObjectRecord[], prefix: string): TRec[] {
  const out: TRec[] = [];
  for (const o of objects) {
    if (!o.key.startsWith(prefix)) continue;
    try {
      out.push(rec(JSON.parse(o.value)));
    } catch {
      // a value corrupted on purpose by a break-fix exercise: the apiserver cannot decode it either
    }
  }
  return out;
}

function nodeView(node: TRec, pods: TLabPodView[]): TLabNodeView {
  const meta = rec(node.metadata);
  const spec = rec(node.spec);
  const status = rec(node.status);
  const name = str(meta.name);
  const ready = arr(status.conditions).find((c) => c.type === 'Ready');
  const labels = rec(meta.labels);
  const roles = Object.keys(labels)
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .sort();
  const internal = arr(status.addresses).find((a) => a.type === 'InternalIP');
  return {
    name,
    status: !ready ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady',
    roles,
    unschedulable: spec.unschedulable === true,
    internalIP: str(internal?.address) || null,
    podCIDR: str(spec.podCIDR) || null,
    taints: arr(spec.taints).map(
      (t) => `${str(t.key)}${t.value ? `=${str(t.value)}` : ''}:${str(t.effect)}`,
    ),
    pods: pods.filter((p) => p.node === name).map((p) => `${p.namespace}/${p.name}`),
  };
}

/** The STATUS column of `kubectl get pods`, for the common cases the map shows. */
function podStatus(meta: TRec, status: TRec): string {
  if (meta.deletionTimestamp) return 'Terminating';
  let reason = str(status.reason) || str(status.phase) || 'Unknown';
  for (const cs of arr(status.containerStatuses)) {
    const state = rec(cs.state);
    const waiting = rec(state.waiting);
    const terminated = rec(state.terminated);
    if (str(waiting.reason)) reason = str(waiting.reason);
    else if (str(terminated.reason)) reason = str(terminated.reason);
  }
  return reason;
}

function podView(pod: TRec): TLabPodView {
  const meta = rec(pod.metadata);
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const statuses = arr(status.containerStatuses);
  const total = arr(spec.containers).length;
  const readyCount = statuses.filter((c) => c.ready === true).length;
  const readyCondition = arr(status.conditions).find((c) => c.type === 'Ready');
  return {
    namespace: str(meta.namespace),
    name: str(meta.name),
    phase: str(status.phase) || 'Pending',
    status: podStatus(meta, status),
    node: str(spec.nodeName) || null,
    ready: `${readyCount}/${total}`,
    isReady: readyCondition?.status === 'True',
    podIP: str(status.podIP) || null,
    restarts: statuses.reduce((n, c) => n + (Number(c.restartCount) || 0), 0),
    ownerKind: str(arr(meta.ownerReferences)[0]?.kind) || null,
  };
}

function serviceView(svc: TRec, endpoints: TRec[]): TLabServiceView {
  const meta = rec(svc.metadata);
  const spec = rec(svc.spec);
  const ep = endpoints.find(
    (e) =>
      str(rec(e.metadata).name) === str(meta.name) &&
      str(rec(e.metadata).namespace) === str(meta.namespace),
  );
  const addresses: string[] = [];
  for (const subset of arr(ep?.subsets)) {
    for (const a of arr(subset.addresses)) {
      for (const p of arr(subset.ports)) addresses.push(`${str(a.ip)}:${Number(p.port)}`);
    }
  }
  return {
    namespace: str(meta.namespace),
    name: str(meta.name),
    type: str(spec.type) || 'ClusterIP',
    clusterIP: str(spec.clusterIP) || null,
    ports: arr(spec.ports).map((p) => `${Number(p.port)}/${str(p.protocol) || 'TCP'}`),
    endpoints: addresses,
  };
}

function etcdView(core: TRec): TLabEtcdView {
  const etcd = rec(core.etcd);
  const members = arr(etcd.members);
  const healthy = members.filter((m) => m.healthy === true);
  const hasQuorum = healthy.length >= Math.floor(members.length / 2) + 1;
  // raft elects one leader while a quorum exists (the simulator takes the first healthy member)
  const leader = hasQuorum ? str(healthy[0]?.name) : '';
  return {
    members: members.map((m) => ({
      id: str(m.id),
      name: str(m.name),
      peerURL: str(m.peerURL),
      clientURL: str(m.clientURL),
      healthy: m.healthy === true,
      isLeader: str(m.name) === leader,
    })),
    hasQuorum,
    revision: Number(etcd.revision) || 0,
  };
}

function controlPlaneView(
  core: TRec,
  pods: TLabPodView[],
  etcd: TLabEtcdView,
): TLabControlPlaneView[] {
  const options = rec(core.options);
  const cpNode =
    str(arr(options.nodes).find((n) => n.controlPlane === true)?.name) || 'control-plane';
  const stopped = new Set(arr<string>(core.stopped));
  const running: Record<string, boolean> = {
    'kube-apiserver': core.apiserverRunning !== false,
    etcd: etcd.hasQuorum,
    'kube-controller-manager': !stopped.has('kube-controller-manager'),
    'kube-scheduler': !stopped.has('kube-scheduler'),
  };
  return Object.entries(running).map(([component, isRunning]) => {
    const mirror = pods.find(
      (p) => p.namespace === 'kube-system' && p.name === `${component}-${cpNode}`,
    );
    return {
      component,
      node: cpNode,
      pod: mirror ? `kube-system/${mirror.name}` : null,
      health: isRunning ? 'Healthy' : 'Unhealthy',
    };
  });
}

export function toLabView(
  header: TLabHeader,
  coreState: string,
  objects: TLabObjectRecord[],
  nowWallMs: number,
): TLabView {
  const core = rec(JSON.parse(coreState));
  const pods = decodeAll(objects, '/registry/pods/').map(podView);
  const endpoints = decodeAll(objects, '/registry/services/endpoints/');
  const etcd = etcdView(core);
  const isRunning = header.status === 'ACTIVE' && !header.paused;
  const liveSimTime = isRunning
    ? Math.max(header.simTimeMs, targetSimTime(header, nowWallMs))
    : header.simTimeMs;
  return {
    ...toLabSummary(header),
    clock: {
      simTimeMs: liveSimTime,
      speed: header.speed,
      paused: header.paused,
      quiescent: header.quiescent,
    },
    traceSeq: header.traceSeq,
    nodes: decodeAll(objects, '/registry/minions/').map((n) => nodeView(n, pods)),
    controlPlane: controlPlaneView(core, pods, etcd),
    etcd,
    pods,
    services: decodeAll(objects, '/registry/services/specs/').map((s) => serviceView(s, endpoints)),
  };
}
