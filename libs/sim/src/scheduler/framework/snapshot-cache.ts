// The scheduler cache (pkg/scheduler/backend/cache): node and bound-pod state kept up to date from
// watch events, including pods the scheduler has *assumed* onto a node before the apiserver
// confirmed the binding. Only nodes whose pods changed are re-summed for the next Snapshot, so a
// 100-node cluster does not re-add 3,000 pods for every scheduling cycle.

import type { Node, Pod, Service } from '../../model';
import type { ReplicaSet } from '../../model/apps';
import type { NodeInfo, Snapshot, VolumeListers } from './node-info';
import { addPodToNodeInfo, cmp, createNodeInfo, isTerminal } from './node-info';

export class SnapshotCache {
  private readonly nodes = new Map<string, Node>();
  /** pod key -> the pod as the cache counts it (bound or assumed, not terminal) */
  private readonly pods = new Map<string, Pod>();
  private readonly podsByNode = new Map<string, Map<string, Pod>>();
  private readonly infos = new Map<string, NodeInfo>();
  private readonly dirty = new Set<string>();
  private nodesChanged = true;
  private ordered: NodeInfo[] = [];

  setNode(name: string, node: Node | undefined): void {
    if (node) this.nodes.set(name, node);
    else this.nodes.delete(name);
    this.dirty.add(name);
    this.nodesChanged = true;
  }

  /** Adds, moves or removes a pod; unbound and terminal pods are not counted. */
  setPod(key: string, pod: Pod | undefined): void {
    const old = this.pods.get(key);
    const counted = pod && pod.spec.nodeName && !isTerminal(pod) ? pod : undefined;
    if (old?.spec.nodeName) {
      this.podsByNode.get(old.spec.nodeName)?.delete(key);
      this.dirty.add(old.spec.nodeName);
    }
    if (!counted) {
      this.pods.delete(key);
      return;
    }
    const node = counted.spec.nodeName as string;
    this.pods.set(key, counted);
    let m = this.podsByNode.get(node);
    if (!m) this.podsByNode.set(node, (m = new Map()));
    m.set(key, counted);
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
      const node = this.nodes.get(name);
      if (!node) {
        this.infos.delete(name);
        continue;
      }
      const info = createNodeInfo(node);
      // sorted by pod key (the map keys are podKey(pod)), built once per pod
      const pods = [...(this.podsByNode.get(name)?.entries() ?? [])].sort((a, b) =>
        cmp(a[0], b[0]),
      );
      for (const [, p] of pods) addPodToNodeInfo(info, p);
      this.infos.set(name, info);
    }
    this.dirty.clear();
    if (this.nodesChanged) {
      this.ordered = [...this.infos.values()].sort((a, b) => cmp(a.name, b.name));
      this.recountImages();
      this.nodesChanged = false;
    } else {
      // Re-summed NodeInfos replace their old objects; keep image states (nodes did not change).
      this.ordered = this.ordered.map((old) => {
        const fresh = this.infos.get(old.name) as NodeInfo;
        if (fresh !== old) for (const [k, v] of old.imageStates) fresh.imageStates.set(k, v);
        return fresh;
      });
    }
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
