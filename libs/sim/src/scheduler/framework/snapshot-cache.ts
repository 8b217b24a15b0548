// The scheduler cache (pkg/scheduler/backend/cache): node and bound-pod state kept up to date from
// watch events, including pods the scheduler has *assumed* onto a node before the apiserver
// confirmed the binding. Like upstream's NodeInfo.AddPod/RemovePod, a pod event adjusts its
// node's sums in place, and only nodes that changed get a new NodeInfo in the next Snapshot, so a
// 100-node cluster does not re-add 3,000 pods for every scheduling cycle.

import type { Node, Pod, Service } from '../../model';
import type { ReplicaSet } from '../../model/apps';
import type { HostPort, ImageState, NodeInfo, PodSums, Snapshot, VolumeListers } from './node-info';
import {
  adjustedCounts,
  cmp,
  createNodeInfo,
  isLabelsChange,
  isTerminal,
  sumsOf,
} from './node-info';
import type { Resources } from './resources';
import { addResources, emptyResources } from './resources';

interface CountedPod {
  pod: Pod;
  sums: PodSums;
}

/** Running totals of one kind of request (requested or non-zero requested) over plain pods. */
class RunningSum {
  milliCpu = 0;
  memory = 0;
  ephemeralStorage = 0;
  /** a total went past 2^53 at some point: it may no longer be exact, even after removals */
  overflowed = false;

  add(r: Resources, sign: 1 | -1): void {
    this.milliCpu += sign * r.milliCpu;
    this.memory += sign * r.memory;
    this.ephemeralStorage += sign * r.ephemeralStorage;
    if (
      this.milliCpu > Number.MAX_SAFE_INTEGER ||
      this.memory > Number.MAX_SAFE_INTEGER ||
      this.ephemeralStorage > Number.MAX_SAFE_INTEGER
    )
      this.overflowed = true;
  }

  toResources(): Resources {
    return {
      milliCpu: this.milliCpu,
      memory: this.memory,
      ephemeralStorage: this.ephemeralStorage,
      scalar: {},
    };
  }
}

/** One node's counted pods and their sums; pods may arrive before their node does. */
class NodeState {
  node: Node | undefined;
  /** the node's NodeInfo without pods (allocatable parsed once per Node object) */
  private base: NodeInfo | undefined;
  /** image states survive pod changes: they only depend on the nodes */
  readonly imageStates = new Map<string, ImageState>();
  /** counted pods sorted by key, as NodeInfo.pods lists them */
  private readonly keys: string[] = [];
  private readonly pods: CountedPod[] = [];
  private requested = new RunningSum();
  private nonZero = new RunningSum();
  /** pods whose requests are not plain (see isPlain) */
  private unplainPods = 0;
  private portPods = 0;
  private selectorCounts = new Map<string, number>();

  get isEmpty(): boolean {
    return this.pods.length === 0 && !this.node;
  }

  setPod(key: string, pod: Pod | undefined): void {
    const i = this.indexOf(key);
    const old = this.keys[i] === key ? this.pods[i] : undefined;
    if (old && pod) {
      const sums = sumsOf(pod);
      if (sums === old.sums && !isLabelsChange(old.pod, pod)) {
        // Most pod events are status writes, which keep the (frozen) containers and so the sums
        // object: taking the sums off and putting them back on would change nothing (plain sums
        // are exact integers, and overflowed ones are summed again anyway), nor would the counts.
        old.pod = pod;
        return;
      }
    }
    if (old) this.account(old.sums, -1);
    if (!old || !pod || isLabelsChange(old.pod, pod)) {
      this.selectorCounts =
        this.selectorCounts.size === 0
          ? new Map()
          : adjustedCounts(this.selectorCounts, old?.pod, pod);
    }
    if (!pod) {
      if (old) {
        this.keys.splice(i, 1);
        this.pods.splice(i, 1);
      }
      return;
    }
    const counted: CountedPod = { pod, sums: sumsOf(pod) };
    this.account(counted.sums, 1);
    if (old) {
      this.pods[i] = counted;
      return;
    }
    this.keys.splice(i, 0, key);
    this.pods.splice(i, 0, counted);
  }

  /** where key is, or would be inserted, in the sorted keys */
  private indexOf(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(this.keys[mid] as string, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private account(sums: PodSums, sign: 1 | -1): void {
    if (sums.plain) {
      this.requested.add(sums.req, sign);
      this.nonZero.add(sums.nonZero, sign);
    } else {
      this.unplainPods += sign;
    }
    if (sums.ports.length > 0) this.portPods += sign;
  }

  private hasExactSums(): boolean {
    if (this.requested.overflowed || this.nonZero.overflowed) {
      this.requested = new RunningSum();
      this.nonZero = new RunningSum();
      this.unplainPods = 0;
      this.portPods = 0;
      for (const c of this.pods) this.account(c.sums, 1);
    }
    return this.unplainPods === 0 && !this.requested.overflowed && !this.nonZero.overflowed;
  }

  /** The NodeInfo as createNodeInfo plus addPodToNodeInfo in pod-key order would build it. */
  build(node: Node): NodeInfo {
    if (this.base?.node !== node) this.base = createNodeInfo(node);
    const counted = this.pods;
    let requested: Resources;
    let nonZeroRequested: Resources;
    if (this.hasExactSums()) {
      requested = this.requested.toResources();
      nonZeroRequested = this.nonZero.toResources();
    } else {
      requested = emptyResources();
      nonZeroRequested = emptyResources();
      for (const c of counted) {
        requested = addResources(requested, c.sums.req);
        nonZeroRequested = addResources(nonZeroRequested, c.sums.nonZero);
      }
    }
    const usedPorts: HostPort[] = [];
    if (this.portPods > 0) for (const c of counted) usedPorts.push(...c.sums.ports);
    const pods = counted.map((c) => c.pod);
    return {
      name: this.base.name,
      node,
      unschedulable: this.base.unschedulable,
      taints: this.base.taints,
      labels: this.base.labels,
      pods,
      requested,
      nonZeroRequested,
      allocatable: this.base.allocatable,
      allowedPodNumber: this.base.allowedPodNumber,
      usedPorts,
      numPods: pods.length,
      allocatableMilliCpu: this.base.allocatableMilliCpu,
      allocatableMemory: this.base.allocatableMemory,
      requestedMilliCpu: requested.milliCpu,
      requestedMemory: requested.memory,
      nonZeroMilliCpu: nonZeroRequested.milliCpu,
      nonZeroMemory: nonZeroRequested.memory,
      imageStates: this.imageStates,
      selectorCounts: this.selectorCounts,
    };
  }
}

export class SnapshotCache {
  private readonly states = new Map<string, NodeState>();
  /** pod key -> the node it is counted on (bound or assumed, not terminal) */
  private readonly podNodes = new Map<string, string>();
  private readonly pods = new Map<string, Pod>();
  private readonly infos = new Map<string, NodeInfo>();
  private readonly dirty = new Set<string>();
  private nodesChanged = true;
  private ordered: NodeInfo[] = [];
  /** node name -> its index in `ordered` */
  private positions = new Map<string, number>();

  private state(name: string): NodeState {
    let s = this.states.get(name);
    if (!s) this.states.set(name, (s = new NodeState()));
    return s;
  }

  setNode(name: string, node: Node | undefined): void {
    const s = this.state(name);
    s.node = node;
    if (s.isEmpty) this.states.delete(name);
    this.dirty.add(name);
    this.nodesChanged = true;
  }

  /** Adds, moves or removes a pod; unbound and terminal pods are not counted. */
  setPod(key: string, pod: Pod | undefined): void {
    const oldNode = this.podNodes.get(key);
    const counted = pod && pod.spec.nodeName && !isTerminal(pod) ? pod : undefined;
    const node = counted?.spec.nodeName;
    if (oldNode !== undefined && oldNode !== node) {
      const s = this.state(oldNode);
      s.setPod(key, undefined);
      if (s.isEmpty) this.states.delete(oldNode);
      this.dirty.add(oldNode);
    }
    if (!counted || !node) {
      this.podNodes.delete(key);
      this.pods.delete(key);
      return;
    }
    this.podNodes.set(key, node);
    this.pods.set(key, counted);
    this.state(node).setPod(key, counted);
    this.dirty.add(node);
  }

  getPod(key: string): Pod | undefined {
    return this.pods.get(key);
  }

  snapshot(listers: {
    services: Service[];
    replicaSets: ReplicaSet[];
    volumes?: VolumeListers;
  }): Snapshot {
    for (const name of this.dirty) {
      const s = this.states.get(name);
      if (!s?.node) {
        this.infos.delete(name);
        continue;
      }
      this.infos.set(name, s.build(s.node));
    }
    if (this.nodesChanged) {
      this.ordered = [...this.infos.values()].sort((a, b) => cmp(a.name, b.name));
      this.positions = new Map(this.ordered.map((info, i) => [info.name, i]));
      this.recountImages();
      this.nodesChanged = false;
    } else if (this.dirty.size > 0) {
      const ordered = this.ordered.slice();
      for (const name of this.dirty) {
        const at = this.positions.get(name);
        if (at !== undefined) ordered[at] = this.infos.get(name) as NodeInfo;
      }
      this.ordered = ordered;
    }
    this.dirty.clear();
    const infos = this.ordered;
    const byName = this.infos;
    return {
      nodes: infos,
      get: (name) => byName.get(name),
      services: listers.services,
      replicaSets: listers.replicaSets,
      ...(listers.volumes ? { volumes: listers.volumes } : {}),
    };
  }

  private recountImages(): void {
    const holders = new Map<string, number>();
    for (const info of this.ordered) {
      const names = new Set<string>();
      for (const img of info.node.status?.images ?? [])
        for (const n of img.names ?? []) names.add(n);
      for (const n of names) holders.set(n, (holders.get(n) ?? 0) + 1);
    }
    for (const info of this.ordered) {
      info.imageStates.clear();
      for (const img of info.node.status?.images ?? []) {
        for (const n of img.names ?? []) {
          info.imageStates.set(n, { sizeBytes: img.sizeBytes, numNodes: holders.get(n) ?? 1 });
        }
      }
    }
  }
}
