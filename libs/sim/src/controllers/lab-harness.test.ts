// Test support for the controller specs (a `.test.ts` file: neither built nor collected as a
// spec). It runs a real lab — etcd, apiserver, kube-controller-manager — but without scheduler,
// kubelets and kube-proxy, so each spec plays their part by hand through the apiserver (bind a
// pod, report it ready, renew a node's Lease) and controls every step the controllers react to.

import { afterEach, beforeEach } from 'vitest';
import { componentFactories } from '../lab/components';
import { createLab } from '../lab/lab';
import type { SimLab } from '../lab/lab';
import type { LabOptions } from '../lab/lab-types';
import type { Deployment, KubeList, KubeObject, Node, Pod, ReplicaSet, Status } from '../model';
import { isStatus } from '../model';
import { createControllerManager } from './index';
import { PodGcController } from './pod-gc-controller';

export const ADMIN = 'kubernetes-admin';

/** Installs controller-only factories for the specs of the calling file. */
export function useControllerOnlyLab(opts: { podGc?: boolean } = {}): void {
  const withPodGc = opts.podGc === true;
  let saved: typeof componentFactories | undefined;
  beforeEach(() => {
    saved = { ...componentFactories };
    // Specs bind pods to nodes without Node objects; the pod GC would (rightly) delete them.
    componentFactories.createControllerManager = () =>
      createControllerManager().filter((c) => !(c instanceof PodGcController) || withPodGc);
    componentFactories.createScheduler = () => null;
    componentFactories.createKubelet = () => null;
    componentFactories.createKubeProxy = () => null;
  });
  afterEach(() => {
    if (saved) Object.assign(componentFactories, saved);
  });
}

export function newLab(opts: LabOptions = {}): SimLab {
  return createLab({
    nodes: [
      { name: 'control-plane', controlPlane: true },
      { name: 'node-1' },
      { name: 'node-2' },
      { name: 'node-3' },
    ],
    ...opts,
  });
}

export function ok<T extends KubeObject>(res: unknown): T {
  if (isStatus(res))
    throw new Error(`request failed: ${(res as Status).code} ${(res as Status).message}`);
  return res as T;
}

export function list<T extends KubeObject>(
  lab: SimLab,
  resource: string,
  namespace = 'default',
): T[] {
  const body = lab.request(ADMIN, 'list', resource, { namespace }) as KubeList<T>;
  return [...body.items].sort((a, b) =>
    (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
  );
}

export function get<T extends KubeObject>(
  lab: SimLab,
  resource: string,
  name: string,
  namespace: string | undefined = 'default',
): T | undefined {
  const res = lab.request(ADMIN, 'get', resource, { namespace, name });
  return isStatus(res) ? undefined : (res as T);
}

export function deployment(
  name: string,
  replicas: number,
  image = 'nginx:1.27',
  extra: Partial<Deployment['spec']> = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'app', image, ports: [{ containerPort: 80, name: 'http' }] }],
        },
      },
      ...extra,
    },
  };
}

export function createObj<T extends KubeObject>(
  lab: SimLab,
  resource: string,
  body: KubeObject,
  namespace: string | undefined = 'default',
): T {
  return ok<T>(lab.request(ADMIN, 'create', resource, { namespace, body }));
}

/** Registers a Node as its kubelet would: Ready condition, podCIDR-less, plus a Lease. */
export function registerNode(lab: SimLab, name: string, labels: Record<string, string> = {}): void {
  const now = isoNow(lab);
  createObj<Node>(
    lab,
    'nodes',
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
      spec: {},
    },
    undefined,
  );
  setNodeReady(lab, name, 'True');
  createObj(
    lab,
    'leases',
    {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'kube-node-lease' },
      spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microNow(lab) },
    },
    'kube-node-lease',
  );
  void now;
}

export function setNodeReady(lab: SimLab, name: string, status: 'True' | 'False'): void {
  const node = ok<Node>(lab.request(ADMIN, 'get', 'nodes', { name }));
  const now = isoNow(lab);
  const prev = node.status?.conditions?.find((c) => c.type === 'Ready');
  const ready = {
    type: 'Ready',
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : now,
    reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady',
    message:
      status === 'True' ? 'kubelet is posting ready status' : 'container runtime network not ready',
  };
  node.status = {
    ...(node.status ?? {}),
    conditions: [...(node.status?.conditions ?? []).filter((c) => c.type !== 'Ready'), ready],
  };
  ok(
    lab.request(ADMIN, {
      verb: 'update',
      resource: 'nodes',
      subresource: 'status',
      name,
      body: node,
    }).body,
  );
}

export function renewLease(lab: SimLab, name: string): void {
  const lease = ok<KubeObject & { spec: Record<string, unknown> }>(
    lab.request(ADMIN, 'get', 'leases', { namespace: 'kube-node-lease', name }),
  );
  lease.spec = { ...lease.spec, renewTime: microNow(lab) };
  ok(
    lab.request(ADMIN, {
      verb: 'update',
      resource: 'leases',
      namespace: 'kube-node-lease',
      name,
      body: lease,
    }).body,
  );
}

export function isoNow(lab: SimLab): string {
  return new Date(Date.parse(lab.options.startTime) + lab.now)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}
function microNow(lab: SimLab): string {
  return new Date(Date.parse(lab.options.startTime) + lab.now)
    .toISOString()
    .replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** What the scheduler does: bind through pods/binding. */
export function bind(lab: SimLab, pod: Pod, node: string): void {
  const res = lab.request(ADMIN, {
    verb: 'create',
    resource: 'pods',
    subresource: 'binding',
    namespace: pod.metadata.namespace,
    name: pod.metadata.name,
    body: {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: pod.metadata.name },
      target: { kind: 'Node', name: node },
    },
  });
  if (res.code >= 300) throw new Error(`bind failed: ${JSON.stringify(res.body)}`);
}

/** What a kubelet reports: Running with an IP, Ready or not. */
export function setPodStatus(
  lab: SimLab,
  pod: Pod,
  opts: {
    ready: boolean;
    ip?: string;
    phase?: Pod['status'] extends infer S ? (S extends { phase?: infer P } ? P : never) : never;
    restarts?: number;
  },
): void {
  const cur = ok<Pod>(
    lab.request(ADMIN, 'get', 'pods', {
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
    }),
  );
  const now = isoNow(lab);
  const prevReady = cur.status?.conditions?.find((c) => c.type === 'Ready');
  const readyStatus = opts.ready ? 'True' : 'False';
  cur.status = {
    ...(cur.status ?? {}),
    phase: opts.phase ?? 'Running',
    ...(opts.ip ? { podIP: opts.ip, podIPs: [{ ip: opts.ip }] } : {}),
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
      {
        type: 'Ready',
        status: readyStatus,
        lastTransitionTime:
          prevReady && prevReady.status === readyStatus ? prevReady.lastTransitionTime : now,
      },
    ],
    containerStatuses: [
      {
        name: 'app',
        state: { running: { startedAt: now } },
        lastState: {},
        ready: opts.ready,
        restartCount: opts.restarts ?? 0,
        image: cur.spec.containers[0]?.image ?? '',
        imageID: '',
      },
    ],
  };
  ok(
    lab.request(ADMIN, {
      verb: 'update',
      resource: 'pods',
      subresource: 'status',
      namespace: cur.metadata.namespace,
      name: cur.metadata.name,
      body: cur,
    }).body,
  );
}

const ipCounters = new WeakMap<SimLab, number>();
/** Schedules every Pending pod round-robin over worker nodes and reports it ready. */
export function runPods(
  lab: SimLab,
  opts: { ready?: boolean; nodes?: string[]; namespace?: string } = {},
): Pod[] {
  const nodes = opts.nodes ?? ['node-1', 'node-2', 'node-3'];
  const out: Pod[] = [];
  let i = 0;
  let ip = ipCounters.get(lab) ?? 10;
  for (const pod of list<Pod>(lab, 'pods', opts.namespace ?? 'default')) {
    if (pod.metadata.deletionTimestamp) continue;
    if (!pod.spec.nodeName) bind(lab, pod, nodes[i++ % nodes.length] as string);
    if (
      pod.status?.phase !== 'Running' ||
      (opts.ready ?? true) !==
        (pod.status.conditions?.find((c) => c.type === 'Ready')?.status === 'True')
    ) {
      setPodStatus(lab, pod, {
        ready: opts.ready ?? true,
        ip: pod.status?.podIP ?? `10.244.1.${ip++}`,
      });
    }
    out.push(pod);
  }
  ipCounters.set(lab, ip);
  return out;
}

/** What a kubelet does when a pod is deleted gracefully: finish the deletion. */
export function finishTerminating(lab: SimLab, namespace = 'default'): number {
  let n = 0;
  for (const pod of list<Pod>(lab, 'pods', namespace)) {
    if (!pod.metadata.deletionTimestamp) continue;
    lab.request(ADMIN, 'delete', 'pods', {
      namespace,
      name: pod.metadata.name,
      query: { gracePeriodSeconds: 0 },
    });
    n++;
  }
  return n;
}

export function rsOf(lab: SimLab, name: string): ReplicaSet[] {
  return list<ReplicaSet>(lab, 'replicasets').filter(
    (rs) => rs.metadata.ownerReferences?.[0]?.name === name,
  );
}

export function kcmErrors(lab: SimLab): string[] {
  return lab
    .trace()
    .filter((e) => e.component === 'kube-controller-manager' && e.verb === 'error')
    .map((e) => e.message);
}
