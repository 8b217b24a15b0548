// The scheduler's view of the cluster (framework.NodeInfo + the cache Snapshot): for each node,
// the pods bound to it and what they add up to. It is rebuilt from informer caches, never from
// the kubelet, so it shows what the scheduler *promised* (requests), not what is used.

import type {
  Container,
  Labels,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  Service,
  StorageClass,
  Taint,
} from '../../model';
import type { ReplicaSet } from '../../model/apps';
import { intValue } from '../../shared/quantity';
import {
  addResources,
  emptyResources,
  fromResourceList,
  podRequests,
  type Resources,
} from './resources';

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

export interface ImageState {
  sizeBytes: number;
  /** how many nodes of the snapshot have this image */
  numNodes: number;
}

export interface NodeInfo {
  readonly name: string;
  readonly node: Node;
  /*
   * The Node fields the filter and score plugins read for every node of every cycle, taken once
   * per Node object (Node objects are replaced, never changed): a cycle mostly waits on memory,
   * and these save it reaching the Node and its spec and metadata on each node.
   */
  /** node.spec.unschedulable */
  readonly unschedulable: boolean;
  /** node.spec.taints */
  readonly taints: Taint[] | undefined;
  /** node.metadata.labels (empty when it has none) */
  readonly labels: Labels;
  readonly pods: Pod[];
  requested: Resources;
  /** requests with the 100m / 200Mi defaults for containers that state none (for scoring) */
  nonZeroRequested: Resources;
  readonly allocatable: Resources;
  /** allocatable `pods` */
  readonly allowedPodNumber: number;
  readonly usedPorts: HostPort[];
  /*
   * The numbers NodeResourcesFit and BalancedAllocation read for every node of every cycle, flat
   * for the same reason as unschedulable above: pods.length, and the cpu and memory of
   * allocatable, requested and nonZeroRequested. Whatever sets those sets these (createNodeInfo,
   * addPodToNodeInfo, the cache's build).
   */
  numPods: number;
  readonly allocatableMilliCpu: number;
  readonly allocatableMemory: number;
  requestedMilliCpu: number;
  requestedMemory: number;
  nonZeroMilliCpu: number;
  nonZeroMemory: number;
  /** image name (every entry of node.status.images[].names) -> state */
  readonly imageStates: Map<string, ImageState>;
  /**
   * Plugins' memo of label-selector counts over `pods` (keys are theirs to choose). A new map
   * comes whenever a pod joins or leaves, or changes its namespace, labels or deletion mark, so
   * NodeInfos of the same node share it for as long as such counts cannot change. The scheduler's
   * cache carries the counts of keys with a registered counter (registerPodCounter) over into the
   * new map, adjusted for the pod that changed, instead of counting every pod again.
   */
  selectorCounts: Map<string, number>;
}

export interface Snapshot {
  /** every node, in a stable order (by name) */
  readonly nodes: NodeInfo[];
  get(name: string): NodeInfo | undefined;
  /** listers PodTopologySpread needs for its system-default selector */
  readonly services: Service[];
  readonly replicaSets: ReplicaSet[];
  /** listers VolumeBinding reads; absent when no pod in the cluster uses a claim */
  readonly volumes?: VolumeListers;
}

export interface VolumeListers {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
  storageClass(name: string): StorageClass | undefined;
  /** every PersistentVolume, sorted by name */
  volumes(): PersistentVolume[];
}

/**
 * How the pods under a selectorCounts key are told apart: a pure function of the pod's
 * namespace, labels and deletion mark (the fields whose change makes a new map). A key without
 * one is dropped from the next map and counted again when asked for.
 */
const podCounters = new Map<string, (pod: Pod) => boolean>();
const MAX_POD_COUNTERS = 10_000;

export function registerPodCounter(key: string, counts: (pod: Pod) => boolean): void {
  if (podCounters.has(key)) return;
  // a long-lived lab sees ever new selectors: forgetting them only costs a recount
  if (podCounters.size >= MAX_POD_COUNTERS) podCounters.clear();
  podCounters.set(key, counts);
}

/**
 * The counts of `counts` after pod `removed` left and `added` came (either may be absent), for
 * every key with a counter; a new map, as the old one may still be read through older NodeInfos.
 */
export function adjustedCounts(
  counts: Map<string, number>,
  removed: Pod | undefined,
  added: Pod | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  // forEach: no entry pair per key (and faster than a native copy patched after)
  counts.forEach((n, key) => {
    const matches = podCounters.get(key);
    if (!matches) return;
    out.set(key, n + (added && matches(added) ? 1 : 0) - (removed && matches(removed) ? 1 : 0));
  });
  return out;
}

/** Host ports a pod asks for (hostIP defaults to 0.0.0.0, protocol to TCP). */
export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  addHostPorts(out, pod.spec.initContainers);
  addHostPorts(out, pod.spec.containers);
  return out;
}

function addHostPorts(out: HostPort[], containers: Container[] | undefined): void {
  for (const c of containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      const hostIP = (p as { hostIP?: string }).hostIP;
      out.push({ ip: hostIP || '0.0.0.0', protocol: p.protocol ?? 'TCP', port: p.hostPort });
    }
  }
}

// without a prototype: a lookup of any key finds nothing, as on an absent labels map
const NO_LABELS: Labels = Object.freeze(Object.create(null) as Labels);

export function createNodeInfo(node: Node): NodeInfo {
  const alloc = node.status?.allocatable ?? node.status?.capacity ?? {};
  const allocatable = fromResourceList(alloc);
  return {
    name: node.metadata.name ?? '',
    node,
    unschedulable: !!node.spec.unschedulable,
    taints: node.spec.taints,
    labels: node.metadata.labels ?? NO_LABELS,
    pods: [],
    requested: emptyResources(),
    nonZeroRequested: emptyResources(),
    allocatable,
    allowedPodNumber: intValue(alloc['pods'] ?? '0'),
    usedPorts: [],
    numPods: 0,
    allocatableMilliCpu: allocatable.milliCpu,
    allocatableMemory: allocatable.memory,
    requestedMilliCpu: 0,
    requestedMemory: 0,
    nonZeroMilliCpu: 0,
    nonZeroMemory: 0,
    imageStates: new Map(),
    selectorCounts: new Map(),
  };
}

export interface PodSums {
  req: Resources;
  nonZero: Resources;
  ports: HostPort[];
  /** both sums plain (see isPlain): the cache keeps them as running totals */
  plain: boolean;
}

/**
 * Requests without extended resources, in non-negative safe integers, add up to the same total in
 * any order, so a running sum equals a re-sum. Anything else is re-summed in pod-key order.
 */
function isPlain(r: Resources): boolean {
  return (
    Number.isSafeInteger(r.milliCpu) &&
    r.milliCpu >= 0 &&
    Number.isSafeInteger(r.memory) &&
    r.memory >= 0 &&
    Number.isSafeInteger(r.ephemeralStorage) &&
    r.ephemeralStorage >= 0 &&
    Object.keys(r.scalar).length === 0
  );
}

/**
 * Pod objects are replaced, never mutated, on updates, and the sums read only the containers and
 * init containers. A status write keeps the whole (frozen) spec and a binding's new spec keeps
 * the frozen containers list, so the sums are memoized per containers list, with the init
 * containers they were taken with (per spec when the list is not frozen).
 */
const podSums = new WeakMap<object, { initContainers: unknown; sums: PodSums }>();

export function sumsOf(pod: Pod): PodSums {
  const containers = pod.spec?.containers;
  const memoKey: object =
    containers && Object.isFrozen(containers) ? containers : (pod.spec ?? pod);
  const initContainers = pod.spec?.initContainers;
  const memo = podSums.get(memoKey);
  if (memo && memo.initContainers === initContainers) return memo.sums;
  const req = podRequests(pod);
  const nonZero = podRequests(pod, { nonMissingDefaults: true });
  const sums = { req, nonZero, ports: podHostPorts(pod), plain: isPlain(req) && isPlain(nonZero) };
  podSums.set(memoKey, { initContainers, sums });
  return sums;
}

export function addPodToNodeInfo(info: NodeInfo, pod: Pod): void {
  const s = sumsOf(pod);
  info.pods.push(pod);
  info.requested = addResources(info.requested, s.req);
  info.nonZeroRequested = addResources(info.nonZeroRequested, s.nonZero);
  info.numPods = info.pods.length;
  info.requestedMilliCpu = info.requested.milliCpu;
  info.requestedMemory = info.requested.memory;
  info.nonZeroMilliCpu = info.nonZeroRequested.milliCpu;
  info.nonZeroMemory = info.nonZeroRequested.memory;
  info.usedPorts.push(...s.ports);
  info.selectorCounts = new Map();
}

/** Whether label-selector counts over a node's pods can change when `before` becomes `after`. */
export function isLabelsChange(before: Pod, after: Pod): boolean {
  return (
    (before.metadata.namespace ?? 'default') !== (after.metadata.namespace ?? 'default') ||
    !before.metadata.deletionTimestamp !== !after.metadata.deletionTimestamp ||
    !sameLabels(before.metadata.labels, after.metadata.labels)
  );
}

function sameLabels(a: Labels | undefined, b: Labels | undefined): boolean {
  if (a === b) return true;
  const aKeys = Object.keys(a ?? {});
  if (aKeys.length !== Object.keys(b ?? {}).length) return false;
  return aKeys.every(
    (k) => Object.prototype.hasOwnProperty.call(b, k) && (a as Labels)[k] === (b as Labels)[k],
  );
}

/** Pods in a terminal phase free their resources: the scheduler's informer does not see them. */
export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/**
 * Builds the snapshot: nodes sorted by name, each with its non-terminal bound pods (sorted by
 * namespace/name so sums and ports are order-independent) and image states counted cluster-wide.
 */
export function buildSnapshot(
  nodes: Node[],
  boundPods: Pod[],
  listers: { services?: Service[]; replicaSets?: ReplicaSet[]; volumes?: VolumeListers } = {},
): Snapshot {
  const sorted = [...nodes].sort((a, b) => cmp(a.metadata.name ?? '', b.metadata.name ?? ''));
  const infos = sorted.map(createNodeInfo);
  const byName = new Map(infos.map((i) => [i.name, i]));
  const pods = [...boundPods].sort((a, b) => cmp(podKey(a), podKey(b)));
  for (const pod of pods) {
    if (isTerminal(pod) || !pod.spec.nodeName) continue;
    const info = byName.get(pod.spec.nodeName);
    if (info) addPodToNodeInfo(info, pod);
  }
  const imageNodes = new Map<string, { size: number; nodes: Set<string> }>();
  for (const info of infos) {
    for (const img of info.node.status?.images ?? []) {
      for (const name of img.names ?? []) {
        const e = imageNodes.get(name) ?? { size: img.sizeBytes, nodes: new Set<string>() };
        e.nodes.add(info.name);
        imageNodes.set(name, e);
      }
    }
  }
  for (const info of infos) {
    for (const img of info.node.status?.images ?? []) {
      for (const name of img.names ?? []) {
        const e = imageNodes.get(name);
        if (e) info.imageStates.set(name, { sizeBytes: img.sizeBytes, numNodes: e.nodes.size });
      }
    }
  }
  return {
    nodes: infos,
    get: (name) => byName.get(name),
    services: listers.services ?? [],
    replicaSets: listers.replicaSets ?? [],
    ...(listers.volumes ? { volumes: listers.volumes } : {}),
  };
}

export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
