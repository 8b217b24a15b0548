// The replicaset controller (k/k pkg/controller/replicaset): keeps exactly spec.replicas active
// pods. It does not know *why* a pod is missing — a node died, or you deleted it by hand — it only
// sees that the current count differs from the desired one, and creates (or deletes) pods until
// they match. That is the article's self-healing table. New pods have no nodeName: they are
// Pending until the scheduler binds them.

import type { WatchEvent } from '../client/api-client';
import type { Condition, OwnerReference, Pod, ReplicaSet } from '../model';
import { isStatus } from '../model';
import { selectorMatcher, selectorMatches } from '../shared/labels';
import { parseIso } from '../shared/time';
import type { Pass } from './base-controller';
import {
  BaseController,
  controllerRef,
  errorText,
  isOk,
  keyOf,
  lookup,
  refOf,
  splitKey,
  type SyncResult,
} from './base-controller';
import { byControllerUid, Index, noValues } from './indexer';
import { OwnedPodCounts } from './owned-pod-counts';
import { comparePodsForDeletion, isPodActive, podCondition } from './pod-util';

/** --burst-replicas */
const BURST_REPLICAS = 500;

/** What to do about a ReplicaSet's pod count (manageReplicas): create n, delete these, or nothing. */
export function computeScaleAction(
  desired: number,
  active: Pod[],
  rank: (p: Pod) => number = () => 0,
): { create: number; delete: Pod[] } {
  const diff = active.length - desired;
  if (diff < 0) return { create: Math.min(-diff, BURST_REPLICAS), delete: [] };
  if (diff > 0) {
    const sorted = [...active].sort((a, b) => comparePodsForDeletion(a, b, rank));
    return { create: 0, delete: sorted.slice(0, Math.min(diff, BURST_REPLICAS)) };
  }
  return { create: 0, delete: [] };
}

/** slowStartBatch sizes: 1, 2, 4, ... until `count` is reached. */
export function slowStartBatches(count: number, initial = 1): number[] {
  const out: number[] = [];
  let remaining = count;
  let size = Math.min(remaining, initial);
  while (size > 0) {
    out.push(size);
    remaining -= size;
    size = Math.min(2 * size, remaining);
  }
  return out;
}

export class ReplicaSetController extends BaseController {
  readonly controllerName = 'replicaset';
  readonly eventSource = 'replicaset-controller';
  readonly periodMs = 5_000;
  private readonly podsByOwner = new Index(byControllerUid);
  private readonly orphansByNs = new Index((o) =>
    controllerRef(o) ? noValues : [o.metadata.namespace ?? ''],
  );
  private readonly ownedCounts = new OwnedPodCounts();

  constructor() {
    super(['replicasets', 'pods']);
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (resource !== 'pods' || events.length === 0) return;
    const keys = events.map((ev) => keyOf(ev.object));
    this.podsByOwner.apply(events, keys);
    this.orphansByNs.apply(events, keys);
    if (this.countsTrusted()) this.ownedCounts.apply(events, keys);
  }

  /** The totals mirror the index only while the pod cache was never relisted over old state. */
  private countsTrusted(): boolean {
    return this.informer<Pod>('pods').relists === 1;
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    const obj = ev.object;
    if (resource === 'replicasets') return [keyOf(obj)];
    const ref = controllerRef(obj);
    if (ref) return ref.kind === 'ReplicaSet' ? ownerKeys(obj.metadata.namespace, ref) : [];
    if (ev.type === 'DELETED') return [];
    return this.informer<ReplicaSet>('replicasets')
      .list(
        (rs) =>
          rs.metadata.namespace === obj.metadata.namespace &&
          selectorMatches(rs.spec.selector, obj.metadata.labels),
      )
      .map(keyOf);
  }

  protected allKeys(): string[] {
    return this.informer<ReplicaSet>('replicasets').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const { namespace, name } = splitKey(key);
    const cached = this.informer<ReplicaSet>('replicasets').get(namespace, name);
    if (!cached) return 'done';
    // read only here (writes send new bodies): the frozen informer object needs no copy
    const rs = cached;
    const nowEpoch = pass.nowEpoch;
    let counts = this.countsFromTotals(rs);
    let error: string | undefined;
    if (counts) {
      const desired = rs.spec.replicas ?? 1;
      if (!rs.metadata.deletionTimestamp && counts.replicas < desired) {
        const create = Math.min(desired - counts.replicas, BURST_REPLICAS);
        error = this.createPods(rs, counts.replicas, create, pass, cause);
      }
    } else {
      const claimed = this.claimPods(rs, pass, cause);
      if (claimed === undefined) return 'retry';
      const active = claimed.filter(isPodActive);
      if (!rs.metadata.deletionTimestamp) error = this.manageReplicas(rs, active, pass, cause);
      counts = countPods(rs, active, nowEpoch);
    }
    const statusOk = this.updateStatus(rs, counts, nowEpoch, error, pass, cause);
    return error === undefined && statusOk ? 'done' : 'retry';
  }

  /**
   * What claimPods + countPods would find, from the running totals, when that needs no write
   * (no pod to release or adopt), no choice of pods (no scale down) and no pod's ready time
   * (minReadySeconds); otherwise undefined, and the pods are visited one by one.
   */
  private countsFromTotals(rs: ReplicaSet): PodCounts | undefined {
    if (!this.countsTrusted() || !((rs.spec.minReadySeconds ?? 0) <= 0)) return undefined;
    const template = Object.entries(rs.spec.template.metadata?.labels ?? {});
    const counts: PodCounts = { replicas: 0, fullyLabeled: 0, ready: 0, available: 0 };
    for (const group of this.ownedCounts.groups(rs.metadata.uid ?? '')) {
      if (!selectorMatches(rs.spec.selector, group.labels)) return undefined;
      counts.replicas += group.active;
      if (hasLabels(group.labels, template)) counts.fullyLabeled += group.active;
      counts.ready += group.activeReady;
    }
    counts.available = counts.ready;
    if (rs.metadata.deletionTimestamp) return counts;
    if (counts.replicas > (rs.spec.replicas ?? 1)) return undefined;
    const pods = this.informer<Pod>('pods');
    for (const pod of lookup(pods, this.orphansByNs.sortedKeys(rs.metadata.namespace ?? ''))) {
      if (!pod.metadata.deletionTimestamp && selectorMatches(rs.spec.selector, pod.metadata.labels))
        return undefined;
    }
    return counts;
  }

  /** claimPods: adopt matching orphans, release owned pods whose labels no longer match. */
  private claimPods(rs: ReplicaSet, pass: Pass, cause?: number): Pod[] | undefined {
    const pods = this.informer<Pod>('pods');
    const matches = selectorMatcher(rs.spec.selector);
    const out: Pod[] = [];
    // the index is read, not copied: nothing below applies watch events to it
    for (const key of this.podsByOwner.sortedKeys(rs.metadata.uid ?? '')) {
      const pod = pods.getByKey(key);
      if (!pod) continue; // left stale by a relist
      if (matches(pod.metadata.labels)) {
        out.push(pod);
        continue;
      }
      const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== rs.metadata.uid);
      if (
        !this.patchOwners(
          pod,
          refs,
          `Releasing Pod ${pod.metadata.name}: its labels no longer match ReplicaSet ${rs.metadata.name}`,
          pass,
          cause,
        )
      ) {
        return undefined;
      }
    }
    if (rs.metadata.deletionTimestamp) return out;
    for (const pod of lookup(pods, this.orphansByNs.sortedKeys(rs.metadata.namespace ?? ''))) {
      if (pod.metadata.deletionTimestamp || !matches(pod.metadata.labels)) continue;
      const refs = [...(pod.metadata.ownerReferences ?? []), ownerRefTo(rs)];
      const adopted = this.patchOwners(
        pod,
        refs,
        `Adopting orphan Pod ${pod.metadata.name} into ReplicaSet ${rs.metadata.name}`,
        pass,
        cause,
      );
      if (!adopted) return undefined;
      out.push(adopted);
    }
    return out;
  }

  private patchOwners(
    pod: Pod,
    refs: OwnerReference[],
    message: string,
    pass: Pass,
    cause?: number,
  ): Pod | undefined {
    const res = pass.write(
      {
        verb: 'patch',
        resource: 'pods',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
        patchType: 'merge',
        body: { metadata: { ownerReferences: refs, uid: pod.metadata.uid } },
      },
      refOf(pod),
      message,
      cause,
    );
    return isOk(res) ? (res.body as Pod) : undefined;
  }

  /** Returns an error message when a create/delete failed (the key is retried). */
  private manageReplicas(
    rs: ReplicaSet,
    active: Pod[],
    pass: Pass,
    cause?: number,
  ): string | undefined {
    const desired = rs.spec.replicas ?? 1;
    let perNode: Map<string, number> | undefined;
    const action = computeScaleAction(desired, active, (p) => {
      perNode ??= this.activePodsPerNode(rs);
      return p.spec.nodeName ? (perNode.get(p.spec.nodeName) ?? 0) : 0;
    });
    if (action.create > 0) return this.createPods(rs, active.length, action.create, pass, cause);
    for (const pod of action.delete) {
      const res = pass.write(
        {
          verb: 'delete',
          resource: 'pods',
          namespace: pod.metadata.namespace,
          name: pod.metadata.name,
        },
        refOf(pod),
        `Deleting Pod ${pod.metadata.name}: ReplicaSet ${rs.metadata.name} has ${active.length} pods, wants ${desired}`,
        cause,
      );
      if (isOk(res) || res.code === 404) {
        if (isOk(res))
          pass.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
        continue;
      }
      if (res.code !== 0)
        pass.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${errorText(res)}`);
      return errorText(res);
    }
    return undefined;
  }

  /** Creates `count` pods in slow-start batches; returns the first error, if any. */
  private createPods(
    rs: ReplicaSet,
    active: number,
    count: number,
    pass: Pass,
    cause?: number,
  ): string | undefined {
    const desired = rs.spec.replicas ?? 1;
    let created = 0;
    for (const batch of slowStartBatches(count)) {
      let failed: string | undefined;
      for (let i = 0; i < batch; i++) {
        const err = this.createPod(rs, pass, cause, active + created + 1, desired);
        if (err === undefined) created++;
        else failed ??= err;
      }
      if (failed !== undefined) return failed;
    }
    return undefined;
  }

  private createPod(
    rs: ReplicaSet,
    pass: Pass,
    cause: number | undefined,
    n: number,
    desired: number,
  ): string | undefined {
    const t = rs.spec.template;
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${rs.metadata.name}-`,
        namespace: rs.metadata.namespace,
        labels: { ...(t.metadata?.labels ?? {}) },
        ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
        ...(t.metadata?.finalizers ? { finalizers: [...t.metadata.finalizers] } : {}),
        ownerReferences: [ownerRefTo(rs)],
      },
      // the apiserver decodes (copies) the body; the frozen template is not changed
      spec: t.spec,
    };
    const res = pass.write(
      // only the generated name is read back
      {
        verb: 'create',
        resource: 'pods',
        namespace: rs.metadata.namespace,
        body: pod,
        readOnly: true,
      },
      { kind: 'Pod', namespace: rs.metadata.namespace, name: `${rs.metadata.name}-` },
      `Creating Pod ${rs.metadata.name}-<random> for ReplicaSet ${rs.metadata.name} (${n} of ${desired}); it has no nodeName yet`,
      cause,
    );
    if (isOk(res)) {
      const created = res.body as Pod;
      pass.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
      return undefined;
    }
    if (res.code !== 0)
      pass.event(rs, 'Warning', 'FailedCreate', `Error creating: ${errorText(res)}`);
    return errorText(res);
  }

  /**
   * The ReplicaSet's active pods per node, for the doubled-up rank (pods sharing a node with
   * pods of the same owner are deleted first); counted once per scale down, not per comparison.
   */
  private activePodsPerNode(rs: ReplicaSet): Map<string, number> {
    const pods = this.informer<Pod>('pods');
    const uid = rs.metadata.uid;
    const candidates =
      uid === undefined ? pods.list() : lookup(pods, this.podsByOwner.sortedKeys(uid));
    const perNode = new Map<string, number>();
    for (const p of candidates) {
      const node = (p.spec as Pod['spec'] | undefined)?.nodeName;
      if (node && isPodActive(p) && controllerRef(p)?.uid === uid)
        perNode.set(node, (perNode.get(node) ?? 0) + 1);
    }
    return perNode;
  }

  private updateStatus(
    rs: ReplicaSet,
    counts: PodCounts,
    nowEpoch: number,
    error: string | undefined,
    pass: Pass,
    cause?: number,
  ): boolean {
    const { replicas, fullyLabeled, ready, available, nextAvailable } = counts;
    const status: NonNullable<ReplicaSet['status']> = { replicas };
    if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled;
    if (ready) status.readyReplicas = ready;
    if (available) status.availableReplicas = available;
    if (rs.metadata.generation !== undefined) status.observedGeneration = rs.metadata.generation;
    const failure = rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
    const others = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
    let conditions: Condition[] = others;
    if (error !== undefined && !failure) {
      const desired = rs.spec.replicas ?? 1;
      const reason = replicas < desired ? 'FailedCreate' : 'FailedDelete';
      conditions = [
        ...others,
        {
          type: 'ReplicaFailure',
          status: 'True',
          lastTransitionTime: pass.ctx.nowIso,
          reason,
          message: error,
        },
      ];
    } else if (error !== undefined && failure) conditions = [...others, failure];
    if (conditions.length) status.conditions = conditions;
    if (nextAvailable !== undefined)
      pass.requeueAt(keyOf(rs), pass.now + Math.max(0, nextAvailable - nowEpoch) + 1000);
    if (sameStatus(rs.status, status)) return true;
    const res = pass.write(
      {
        verb: 'update',
        resource: 'replicasets',
        subresource: 'status',
        namespace: rs.metadata.namespace,
        name: rs.metadata.name,
        body: { ...rs, status },
        // the status was built for this write alone: the apiserver may keep it uncopied
        handOver: true,
      },
      refOf(rs),
      `Updating status of ReplicaSet ${rs.metadata.name}: ${replicas} replicas, ${ready} ready, ${available} available`,
      cause,
    );
    return isOk(res) || (res.code !== 0 && isStatus(res.body) && res.code === 404);
  }
}

/** The counts of a ReplicaSet's status, and when its next pod becomes available. */
interface PodCounts {
  replicas: number;
  fullyLabeled: number;
  ready: number;
  available: number;
  nextAvailable?: number;
}

function countPods(rs: ReplicaSet, active: Pod[], nowEpoch: number): PodCounts {
  const minReady = rs.spec.minReadySeconds ?? 0;
  const templateLabels = Object.entries(rs.spec.template.metadata?.labels ?? {});
  const counts: PodCounts = { replicas: active.length, fullyLabeled: 0, ready: 0, available: 0 };
  // isPodReady / isPodAvailable / availableAt, reading each pod's Ready condition once
  for (const pod of active) {
    if (hasLabels(pod.metadata.labels ?? {}, templateLabels)) counts.fullyLabeled++;
    const readyCondition = podCondition(pod, 'Ready');
    if (readyCondition?.status !== 'True') continue;
    counts.ready++;
    if (minReady <= 0) {
      counts.available++;
      continue;
    }
    const since = parseIso(readyCondition.lastTransitionTime);
    if (Number.isNaN(since)) continue;
    const at = since + minReady * 1000;
    if (at <= nowEpoch) counts.available++;
    else counts.nextAvailable = Math.min(counts.nextAvailable ?? at, at);
  }
  return counts;
}

function hasLabels(labels: Record<string, string>, wanted: [string, string][]): boolean {
  for (const [k, v] of wanted) if (labels[k] !== v) return false;
  return true;
}

function ownerRefTo(rs: ReplicaSet): OwnerReference {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: rs.metadata.name as string,
    uid: rs.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
}

function sameStatus(a: ReplicaSet['status'], b: NonNullable<ReplicaSet['status']>): boolean {
  if (!a) return false;
  return (
    a.replicas === b.replicas &&
    (a.fullyLabeledReplicas ?? 0) === (b.fullyLabeledReplicas ?? 0) &&
    (a.readyReplicas ?? 0) === (b.readyReplicas ?? 0) &&
    (a.availableReplicas ?? 0) === (b.availableReplicas ?? 0) &&
    (a.observedGeneration ?? 0) === (b.observedGeneration ?? 0) &&
    sameConditionReasons(a.conditions ?? [], b.conditions ?? [])
  );
}

/** Same type, status and reason, in order (as their JSON would print: a missing one as null). */
function sameConditionReasons(a: Condition[], b: Condition[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Condition;
    const y = b[i] as Condition;
    if ((x.type ?? null) !== (y.type ?? null)) return false;
    if ((x.status ?? null) !== (y.status ?? null)) return false;
    if ((x.reason ?? null) !== (y.reason ?? null)) return false;
  }
  return true;
}

// A pod's status writes keep its frozen controller reference: the key it queues is built once
// per reference (the queue only reads the array).
const ownerKeysOf = new WeakMap<object, { namespace: string | undefined; keys: string[] }>();

function ownerKeys(namespace: string | undefined, ref: { name: string }): string[] {
  const hit = ownerKeysOf.get(ref);
  if (hit !== undefined && hit.namespace === namespace) return hit.keys;
  const keys = [`${namespace}/${ref.name}`];
  if (Object.isFrozen(ref)) ownerKeysOf.set(ref, { namespace, keys });
  return keys;
}
