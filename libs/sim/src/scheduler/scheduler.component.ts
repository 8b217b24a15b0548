// kube-scheduler as a simulated component: it watches pods without a node and the nodes, runs one
// scheduling cycle at a time (about 10 ms of sim time each), binds through the pods/binding
// subresource 10 ms later, and on failure writes exactly what the real one writes: a
// FailedScheduling event and the PodScheduled=False condition. It never touches a node or a
// container: it only writes spec.nodeName (through the binding) and the pod's status condition.

import type { ApiResponse, WatchEvent } from '../client/api-client';
import type {
  Binding,
  Condition,
  KubeObject,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  Service,
  StorageClass,
} from '../model';
import type { ReplicaSet } from '../model/apps';
import { isStatus } from '../model';
import type { ComponentContext } from '../runtime/component';
import { Informer, keyOf } from '../shared/informer';
import { EventRecorder } from '../shared/event-recorder';
import type { TraceObjectRef } from '../trace/trace-event';
import type { SchedulingDecision } from './framework/decision';
import type { DecisionRecord } from './framework/decision-record';
import type { NodeSummary, PodSummary } from './framework/cluster-events';
import {
  assignedPodEvents,
  nodeUpdateEvents,
  summarizeNode,
  summarizePod,
} from './framework/cluster-events';
import type { VolumeListers } from './framework/node-info';
import { cmp, podKey } from './framework/node-info';
import type { ClusterEvent } from './framework/plugin-types';
import { podPriority, runPreemption } from './framework/preemption';
import { failureMessage, scheduleOne } from './framework/schedule-one';
import { SnapshotCache } from './framework/snapshot-cache';
import type { Profile } from './plugins/default-plugins';
import { DEFAULT_PROFILE } from './plugins/default-plugins';
import type { DelayedBinding } from './plugins/volume-binding.plugin';
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  delayedBindings,
  podClaimNames,
  usesClaims,
  VOLUME_BINDING,
} from './plugins/volume-binding.plugin';
import type { QueuedPod, QueueState } from './queue/scheduling-queue';
import { SchedulingQueue, UNSCHEDULABLE_FLUSH_PERIOD_MS } from './queue/scheduling-queue';

export const SCHEDULER_COMPONENT = 'kube-scheduler';
export const SCHEDULER_IDENTITY = 'system:kube-scheduler';
/** sim ms one scheduling cycle takes; the binding lands this long after the decision */
/** Events from the scheduler carry source.component default-scheduler (its profile name). */
const SCHEDULER_EVENT_SOURCE = { component: 'default-scheduler' };
export const CYCLE_MS = 10;
export const MAX_DECISIONS = 500;
/** BindPodVolumes polls the claims once a second while it waits for the PV controller */
export const VOLUME_BIND_POLL_MS = 1000;

export interface Scheduler {
  decisions(): SchedulingDecision[];
  decisionFor(namespace: string, podName: string): SchedulingDecision | undefined;
}

interface PendingBind {
  key: string;
  uid?: string;
  node: string;
  at: number;
  causedBy?: number;
  /** PreBind wrote the volume bindings; the pod is bound once these claims are */
  waitingForClaims?: string[];
}

interface SavedState {
  queue: QueueState;
  decisions: SchedulingDecision[];
  pendingBinds: PendingBind[];
  assumed: [string, string][];
  nextPopAt: number;
  startIndex: number;
  nodes: [string, NodeSummary][];
  pods: [string, PodSummary][];
  events: [string, number][];
  volumeUsers?: boolean;
  followClasses?: boolean;
  volumes?: [string, string][];
  /** how far the pod and node informers had read the watch (a restore resumes from there) */
  revisions?: { pods?: number; nodes?: number };
}

export class KubeScheduler implements Scheduler {
  readonly name = SCHEDULER_COMPONENT;
  readonly identity = SCHEDULER_IDENTITY;
  /** the unschedulable-pods ticker; every other timer is asked for with ctx.wakeAt */
  readonly periodMs = UNSCHEDULABLE_FLUSH_PERIOD_MS;
  readonly watches = [
    'pods',
    'nodes',
    'persistentvolumeclaims',
    'persistentvolumes',
    'storageclasses',
  ] as const;

  private podInformer = new Informer<Pod>('pods');
  private nodeInformer = new Informer<Node>('nodes');
  private serviceInformer = new Informer<Service>('services');
  private rsInformer = new Informer<ReplicaSet>('replicasets');
  private pvcInformer = new Informer<PersistentVolumeClaim>('persistentvolumeclaims');
  private pvInformer = new Informer<PersistentVolume>('persistentvolumes');
  private classInformer = new Informer<StorageClass>('storageclasses');
  /**
   * Set once a pod that uses a claim shows up: only then are claims, volumes and classes watched,
   * so a lab without PersistentVolumeClaims pays nothing for VolumeBinding.
   */
  private volumeUsers = false;
  /** the class list was allowed once: from then on classes are followed like claims */
  private followClasses = false;
  /** `resource:key` -> resourceVersion of every claim, volume and class seen */
  private knownVolumes = new Map<string, string>();
  private cache = new SnapshotCache();
  private events = new EventRecorder();
  private queue = new SchedulingQueue();
  /** the decisions, oldest first; only the last MAX_DECISIONS count */
  private records: SchedulingDecision[] = [];
  private pendingBinds: PendingBind[] = [];
  /** pod key -> node: bound (or about to be) by us, not yet seen bound in the informer */
  private assumed = new Map<string, string>();
  private nextPopAt = 0;
  private startIndex = 0;
  /** pending pods that a preemption nominated to a node (the scheduler's nominator) */
  private nominated = new Map<string, Pod>();
  /**
   * The Service and ReplicaSet lists the cycles read, kept while their informers report no change:
   * PodTopologySpread remembers the default constraints it builds from them per pair of lists.
   */
  private listed: { services?: Listed<Service>; replicaSets?: Listed<ReplicaSet> } = {};
  private lastFeasible: { names: readonly string[]; text: string } = {
    names: Object.freeze([]),
    text: '',
  };
  private knownNodes = new Map<string, NodeSummary>();
  private knownPods = new Map<string, PodSummary>();
  private readonly interest: Map<string, Set<ClusterEvent>>;

  constructor(private readonly profile: Profile = DEFAULT_PROFILE) {
    this.interest = new Map(profile.filters.map((p) => [p.name, new Set(p.events)]));
  }

  decisions(): SchedulingDecision[] {
    return this.records.slice(-MAX_DECISIONS);
  }

  decisionFor(namespace: string, podName: string): SchedulingDecision | undefined {
    const oldest = Math.max(0, this.records.length - MAX_DECISIONS);
    for (let i = this.records.length - 1; i >= oldest; i--) {
      const d = this.records[i] as SchedulingDecision;
      if (d.namespace === namespace && d.name === podName) return d;
    }
    return undefined;
  }

  reconcile(ctx: ComponentContext): void {
    if (!this.sync(ctx)) return;
    this.runDueBinds(ctx);
    this.queue.flush(ctx.now);
    if (ctx.now >= this.nextPopAt) {
      const next = this.queue.pop();
      if (next) {
        this.scheduleOnePod(ctx, next);
        this.nextPopAt = ctx.now + CYCLE_MS;
      }
    }
    this.requestWake(ctx);
  }

  // ------------------------------------------------------------------ informers -> queue/cache

  /** Saved revisions whose watch a restored scheduler has not resumed yet (see changesSince). */
  private resumeFrom: { pods?: number; nodes?: number } = {};
  /** How far the pod and node watches were read (saved, so a restore resumes from there). */
  private bookmarks: { pods?: number; nodes?: number } = {};

  /**
   * What changed for an informer since the last sync. After a restore the informer relists, which
   * reports every object in key order; the original lab's watch reported only what changed since
   * the save, in revision order, and the queue's order follows it. So the first sync after a
   * restore hands over the relisted objects that did not change (they fill the caches and are no
   * cluster event), then the watch from the saved revision, in its order; when the apiserver no
   * longer has that history (410) the relist's events stand.
   */
  private changesSince<T extends KubeObject>(
    informer: Informer<T>,
    resource: 'pods' | 'nodes',
    ctx: ComponentContext,
  ): WatchEvent<T>[] {
    const wasSynced = informer.synced;
    let events = informer.sync(ctx.client);
    if (!informer.synced) return events;
    // how far the watch was read: a list sets it, then only watch events move it
    let seen = this.bookmarks[resource] ?? -1;
    let read: readonly WatchEvent[] = wasSynced ? events : [];
    if (!wasSynced) seen = informer.lastRevision;
    const from = this.resumeFrom[resource];
    if (!wasSynced && from !== undefined) {
      delete this.resumeFrom[resource];
      const since = ctx.client.watch(resource, from, { rebuild: true });
      if (!isStatus(since)) {
        const changed = new Set(since.map((ev) => keyOf(ev.object)));
        events = [
          ...events.filter((ev) => !changed.has(keyOf(ev.object))),
          ...(since as WatchEvent<T>[]),
        ];
        seen = from;
        read = since;
      }
    }
    for (const ev of read) if (ev.revision > seen) seen = ev.revision;
    // after a replay, the watch goes on from where the saved one would have read to
    if (read !== events) informer.resumeAt(seen);
    this.bookmarks[resource] = seen;
    return events;
  }

  private sync(ctx: ComponentContext): boolean {
    const { now } = ctx;
    for (const ev of this.changesSince(this.nodeInformer, 'nodes', ctx)) {
      const name = ev.object.metadata.name ?? '';
      const old = this.knownNodes.get(name);
      if (ev.type === 'DELETED') {
        this.knownNodes.delete(name);
        this.cache.setNode(name, undefined);
        this.emitClusterEvent('NodeDelete', now);
        continue;
      }
      const node = this.nodeInformer.get(undefined, name);
      if (!node) continue;
      const cur = summarizeNode(node);
      this.knownNodes.set(name, cur);
      this.cache.setNode(name, node);
      if (!old) this.emitClusterEvent('NodeAdd', now);
      else if (old.rv !== cur.rv)
        for (const e of nodeUpdateEvents(old, cur)) this.emitClusterEvent(e, now);
    }
    for (const ev of this.changesSince(this.podInformer, 'pods', ctx)) {
      const { namespace, name } = ev.object.metadata;
      // the informer's key is the pod key (and built once per object) when both are there
      const isKeyed = !!namespace && !!name;
      const key = isKeyed ? keyOf(ev.object) : podKey(ev.object);
      const old = this.knownPods.get(key);
      const pod =
        ev.type === 'DELETED'
          ? undefined
          : isKeyed
            ? this.podInformer.getByKey(key)
            : this.podInformer.get(namespace, name ?? '');
      const cur = pod ? summarizePod(pod) : undefined;
      if (pod && !this.volumeUsers && usesClaims(pod)) this.volumeUsers = true;
      if (pod?.spec.nodeName) this.assumed.delete(key);
      this.cache.setPod(key, this.withAssumption(key, pod));
      if (pod && !pod.spec.nodeName && pod.status?.nominatedNodeName) this.nominated.set(key, pod);
      else this.nominated.delete(key);
      // A relist after restore re-reports unchanged objects: they are no cluster events.
      if (cur && old && cur.rv === old.rv) continue;
      if (cur) this.knownPods.set(key, cur);
      else this.knownPods.delete(key);
      for (const e of assignedPodEvents(old, cur)) this.emitClusterEvent(e, now);
      this.updateQueueForPod(
        key,
        pod,
        old,
        cur,
        ev.type === 'ADDED' ? ev.traceSeq : undefined,
        now,
      );
    }
    this.listed.services = listedAfterSync(this.serviceInformer, ctx, this.listed.services);
    this.listed.replicaSets = listedAfterSync(this.rsInformer, ctx, this.listed.replicaSets);
    if (this.volumeUsers) this.syncVolumes(ctx);
    return this.podInformer.synced && this.nodeInformer.synced;
  }

  private syncVolumes(ctx: ComponentContext): void {
    this.syncVolumeInformer(ctx, this.pvcInformer, 'PvcChange');
    this.syncVolumeInformer(ctx, this.pvInformer, 'PvChange');
    if (this.followClasses) this.syncStorageClasses(ctx);
  }

  /**
   * Only real changes are cluster events: the relist after a restore re-reports objects the queue
   * has already reacted to, so each object's last seen resourceVersion is remembered.
   */
  private syncVolumeInformer(
    ctx: ComponentContext,
    informer: Informer<KubeObject>,
    event: ClusterEvent,
  ): void {
    let changed = false;
    for (const ev of informer.sync(ctx.client)) {
      const key = `${informer.resource}:${keyOf(ev.object)}`;
      if (ev.type === 'DELETED') {
        changed = this.knownVolumes.delete(key) || changed;
        continue;
      }
      const rv = ev.object.metadata.resourceVersion ?? '';
      if (this.knownVolumes.get(key) === rv) continue;
      this.knownVolumes.set(key, rv);
      changed = true;
    }
    if (changed) this.emitClusterEvent(event, ctx.now);
  }

  /**
   * Classes are listed only once a pod with claims is scheduled: a lab whose RBAC was changed so
   * the scheduler may not read them (system:volume-scheduler removed) would otherwise retry a
   * refused list on every wake-up and flood the trace with the same 403.
   */
  private syncStorageClasses(ctx: ComponentContext): void {
    this.syncVolumeInformer(ctx, this.classInformer, 'StorageClassChange');
    if (this.classInformer.synced) this.followClasses = true;
  }

  private volumeListers(): VolumeListers | undefined {
    if (!this.volumeUsers) return undefined;
    return {
      claim: (namespace, name) => this.pvcInformer.get(namespace, name),
      volume: (name) => this.pvInformer.get(undefined, name),
      storageClass: (name) => this.classInformer.get(undefined, name),
      volumes: () =>
        this.pvInformer.list().sort((a, b) => cmp(a.metadata.name ?? '', b.metadata.name ?? '')),
    };
  }

  private withAssumption(key: string, pod: Pod | undefined): Pod | undefined {
    const node = this.assumed.get(key);
    if (!pod || !node || pod.spec.nodeName) return pod;
    return { ...pod, spec: { ...pod.spec, nodeName: node } };
  }

  private isOurPending(pod: Pod | undefined): pod is Pod {
    return (
      !!pod &&
      !pod.spec.nodeName &&
      !pod.metadata.deletionTimestamp &&
      pod.status?.phase !== 'Succeeded' &&
      pod.status?.phase !== 'Failed' &&
      (pod.spec.schedulerName ?? this.profile.schedulerName) === this.profile.schedulerName
    );
  }

  private updateQueueForPod(
    key: string,
    pod: Pod | undefined,
    old: PodSummary | undefined,
    cur: PodSummary | undefined,
    causedBy: number | undefined,
    now: number,
  ): void {
    if (!this.isOurPending(pod) || this.assumed.has(key)) {
      this.queue.delete(key);
      return;
    }
    if (!this.queue.has(key)) {
      this.queue.add({ key, uid: pod.metadata.uid, priority: podPriority(pod), causedBy }, now);
      return;
    }
    if (old && cur && old.spec !== cur.spec) {
      this.queue.onClusterEvent('UnscheduledPodUpdate', this.isInterested, now, key);
    }
  }

  private readonly isInterested = (plugin: string, event: ClusterEvent): boolean =>
    this.interest.get(plugin)?.has(event) ?? false;

  private emitClusterEvent(event: ClusterEvent, now: number): void {
    this.queue.onClusterEvent(event, this.isInterested, now);
  }

  // ------------------------------------------------------------------ scheduling cycle

  private scheduleOnePod(ctx: ComponentContext, qp: QueuedPod): void {
    const [namespace, name] = splitKey(qp.key);
    const pod = this.podInformer.get(namespace, name);
    if (!this.isOurPending(pod)) return;
    if (this.volumeUsers && !this.followClasses && podClaimNames(pod).length > 0)
      this.syncStorageClasses(ctx);
    const snapshot = this.cache.snapshot({
      services: (this.listed.services ??= listed(this.serviceInformer)).items,
      replicaSets: (this.listed.replicaSets ??= listed(this.rsInformer)).items,
      volumes: this.volumeListers(),
    });
    const out = scheduleOne({
      pod,
      snapshot,
      profile: this.profile,
      rng: ctx.rng,
      t: ctx.now,
      attempt: qp.attempts,
      startIndex: this.startIndex,
      nominated: this.nominatedByNode(),
    });
    this.startIndex = out.nextStartIndex;
    const decision = out.decision;
    const object: TraceObjectRef = { kind: 'Pod', namespace, name };
    const rejected = decision.rejectedReasons();
    const { names: feasible, text: feasibleText } = this.feasibleList(decision);
    ctx.trace.emit({
      component: 'kube-scheduler',
      verb: 'filter',
      object,
      message: `Filtered ${decision.numAllNodes} node(s) for pod ${qp.key}: ${feasible.length} feasible${feasible.length ? ` (${feasibleText})` : ''}`,
      causedBy: qp.causedBy,
      data: { attempt: qp.attempts, nodes: decision.numAllNodes, feasible, rejected },
    });

    if (out.result.kind === 'scheduled') {
      const node = out.result.node;
      const scores = decision.totalsByNode();
      ctx.trace.emit({
        component: 'kube-scheduler',
        verb: 'score',
        object,
        message: decision.scoringSkipped
          ? `Only ${node} fits pod ${qp.key}: scoring skipped`
          : `Scored ${feasible.length} node(s) for pod ${qp.key}: ${node} wins with ${scores[node]}`,
        causedBy: qp.causedBy,
        data: { scores, winner: node, tied: decision.tiedNodes, skipped: decision.scoringSkipped },
      });
      this.record(decision);
      // assume: count the pod on its node now, so the next cycle sees the space taken
      this.assumed.set(qp.key, node);
      this.cache.setPod(qp.key, { ...pod, spec: { ...pod.spec, nodeName: node } });
      this.pendingBinds.push({
        key: qp.key,
        uid: pod.metadata.uid,
        node,
        at: ctx.now + CYCLE_MS,
        causedBy: qp.causedBy,
      });
      return;
    }

    const result = out.result;
    let nominatedNodeName: string | undefined;
    if (result.runPostFilter) {
      const pre = runPreemption(pod, snapshot, result.diagnosis, this.profile);
      result.diagnosis.postFilterMsg = pre.message;
      decision.postFilter = { plugin: 'DefaultPreemption', message: pre.message };
      if (pre.candidate) {
        nominatedNodeName = pre.candidate.node;
        decision.postFilter.nominatedNode = pre.candidate.node;
        decision.postFilter.victims = pre.candidate.victims.map(podKey);
        this.preempt(ctx, pod, pre.candidate.node, pre.candidate.victims, qp.causedBy);
        this.nominated.set(qp.key, {
          ...pod,
          status: { ...(pod.status ?? {}), nominatedNodeName: pre.candidate.node },
        });
      }
    }
    const message = failureMessage(snapshot.nodes.length, result);
    decision.message = message;
    this.record(decision);
    ctx.trace.emit({
      component: 'kube-scheduler',
      verb: 'unschedulable',
      object,
      message,
      causedBy: qp.causedBy,
      data: { attempt: qp.attempts, rejected, nominatedNodeName: nominatedNodeName ?? null },
    });
    this.handleFailure(
      ctx,
      pod,
      qp,
      result.unschedulablePlugins,
      message,
      'Unschedulable',
      nominatedNodeName,
    );
  }

  /**
   * The feasible list of a filter event and its text: consecutive cycles mostly find the same
   * nodes, so their events share one frozen list and one joined text (trace data is never
   * changed once emitted).
   */
  private feasibleList(decision: DecisionRecord): { names: readonly string[]; text: string } {
    if (!decision.isFeasibleList(this.lastFeasible.names)) {
      const names = decision.feasibleNames();
      this.lastFeasible = { names: Object.freeze(names), text: names.join(', ') };
    }
    return this.lastFeasible;
  }

  private nominatedByNode(): Map<string, Pod[]> | undefined {
    if (this.nominated.size === 0) return undefined;
    const out = new Map<string, Pod[]>();
    for (const key of [...this.nominated.keys()].sort()) {
      const p = this.nominated.get(key) as Pod;
      const node = p.status?.nominatedNodeName as string;
      out.set(node, [...(out.get(node) ?? []), p]);
    }
    return out;
  }

  private record(decision: SchedulingDecision): void {
    this.records.push(decision);
    // Trimmed in batches: shifting 500 records every cycle cost more than the rest of record
    // keeping. Readers only look at the last MAX_DECISIONS.
    if (this.records.length >= 2 * MAX_DECISIONS)
      this.records.splice(0, this.records.length - MAX_DECISIONS);
  }

  /** handleSchedulingFailure: event, PodScheduled=False condition, back into the queue. */
  private handleFailure(
    ctx: ComponentContext,
    pod: Pod,
    qp: QueuedPod,
    unschedulablePlugins: string[],
    message: string,
    reason: 'Unschedulable' | 'SchedulerError',
    nominatedNodeName?: string,
  ): void {
    const current = this.podInformer.get(pod.metadata.namespace, pod.metadata.name ?? '');
    if (current && !current.spec.nodeName)
      this.queue.requeueAfterFailure(qp, unschedulablePlugins, ctx.now);
    this.events.record(ctx.client, ctx.nowIso, SCHEDULER_EVENT_SOURCE, {
      involved: pod,
      type: 'Warning',
      reason: 'FailedScheduling',
      message,
    });
    if (current) this.updatePodCondition(ctx, current, reason, message, nominatedNodeName);
  }

  private updatePodCondition(
    ctx: ComponentContext,
    pod: Pod,
    reason: string,
    message: string,
    nominatedNodeName?: string,
    retry = true,
  ): void {
    const conditions = pod.status?.conditions ?? [];
    const existing = conditions.find((c) => c.type === 'PodScheduled');
    const sameCondition =
      existing?.status === 'False' && existing.reason === reason && existing.message === message;
    const nominatedChanged =
      nominatedNodeName !== undefined && pod.status?.nominatedNodeName !== nominatedNodeName;
    if (sameCondition && !nominatedChanged) return;
    const condition: Condition = {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime:
        existing?.status === 'False' ? (existing.lastTransitionTime ?? ctx.nowIso) : ctx.nowIso,
      reason,
      message,
    };
    const status = {
      ...(pod.status ?? {}),
      conditions: [...conditions.filter((c) => c.type !== 'PodScheduled'), condition],
      ...(nominatedNodeName !== undefined ? { nominatedNodeName } : {}),
    };
    const res = ctx.client.request({
      verb: 'update',
      resource: 'pods',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      subresource: 'status',
      body: { ...pod, status },
    });
    if (res.code !== 409 || !retry) return;
    // Our copy was stale (e.g. the kubelet or a user wrote meanwhile): read it again, once.
    const fresh = ctx.client.request({
      verb: 'get',
      resource: 'pods',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
    });
    const latest = fresh.body as Pod;
    if (fresh.code !== 200 || latest.spec?.nodeName) return;
    this.updatePodCondition(ctx, latest, reason, message, nominatedNodeName, false);
  }

  /** DefaultPreemption's prepareCandidate: mark, delete and report every victim. */
  private preempt(
    ctx: ComponentContext,
    preemptor: Pod,
    node: string,
    victims: Pod[],
    causedBy?: number,
  ): void {
    for (const victim of victims) {
      const seq = ctx.trace.emit({
        component: 'kube-scheduler',
        verb: 'preempt',
        object: {
          kind: 'Pod',
          namespace: victim.metadata.namespace,
          name: victim.metadata.name ?? '',
        },
        message: `Preempting ${podKey(victim)} on ${node} for ${podKey(preemptor)}`,
        causedBy,
      });
      const disruption: Condition = {
        type: 'DisruptionTarget',
        status: 'True',
        lastTransitionTime: ctx.nowIso,
        reason: 'PreemptionByScheduler',
        message: `${preemptor.spec.schedulerName ?? this.profile.schedulerName}: preempting to accommodate a higher priority pod`,
      };
      ctx.client.request({
        verb: 'update',
        resource: 'pods',
        namespace: victim.metadata.namespace,
        name: victim.metadata.name,
        subresource: 'status',
        body: {
          ...victim,
          status: {
            ...(victim.status ?? {}),
            conditions: [
              ...(victim.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
              disruption,
            ],
          },
        },
        causedBy: seq,
      });
      ctx.client.request({
        verb: 'delete',
        resource: 'pods',
        namespace: victim.metadata.namespace,
        name: victim.metadata.name,
        causedBy: seq,
      });
      this.events.record(ctx.client, ctx.nowIso, SCHEDULER_EVENT_SOURCE, {
        involved: victim,
        type: 'Normal',
        reason: 'Preempted',
        message: `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${node}`,
      });
    }
  }

  // ------------------------------------------------------------------ binding cycle

  private runDueBinds(ctx: ComponentContext): void {
    // most wake-ups have nothing due: no lists made then
    if (!this.pendingBinds.some((b) => b.at <= ctx.now)) return;
    const due = this.pendingBinds.filter((b) => b.at <= ctx.now);
    this.pendingBinds = this.pendingBinds.filter((b) => b.at > ctx.now);
    for (const b of due) this.bind(ctx, b);
  }

  /**
   * VolumeBinding's PreBind (BindPodVolumes): write the bindings the decision implies (a claimRef
   * on a matching volume, or the selected-node annotation for the provisioner), then hold the pod
   * back until the PV controller reports every claim bound. False while the pod must wait.
   */
  private preBindVolumes(ctx: ComponentContext, b: PendingBind): boolean {
    if (!this.volumeUsers) return true;
    const [namespace, name] = splitKey(b.key);
    const pod = this.podInformer.get(namespace, name);
    if (!pod) return true;
    const waitAgain = (claims: string[]): false => {
      this.pendingBinds.push({ ...b, waitingForClaims: claims, at: ctx.now + VOLUME_BIND_POLL_MS });
      return false;
    };
    if (b.waitingForClaims) {
      const unbound = b.waitingForClaims.filter((c) => {
        const claim = this.pvcInformer.get(namespace, c);
        return !claim?.spec.volumeName || !claim.metadata.annotations?.[ANN_BIND_COMPLETED];
      });
      return unbound.length === 0 ? true : waitAgain(b.waitingForClaims);
    }
    const delayed: PersistentVolumeClaim[] = [];
    for (const claimName of podClaimNames(pod)) {
      const claim = this.pvcInformer.get(namespace, claimName);
      if (claim && !(claim.spec.volumeName && claim.metadata.annotations?.[ANN_BIND_COMPLETED]))
        delayed.push(claim);
    }
    if (delayed.length === 0) return true;
    const node = this.nodeInformer.get(undefined, b.node);
    const listers = this.volumeListers() as VolumeListers;
    const bindings = node ? delayedBindings(delayed, node, listers) : undefined;
    if (!bindings) {
      // Reserve found the volumes gone meanwhile (AssumePodVolumes): schedule the pod again.
      this.forgetAssumption(b.key, pod);
      this.queue.requeueAfterFailure(this.retryEntry(b, pod, ctx.now), [VOLUME_BINDING], ctx.now);
      return false;
    }
    for (const binding of bindings) {
      const res = this.writeVolumeBinding(ctx, binding, b.node, b.causedBy);
      if (res.code === 200) continue;
      this.forgetAssumption(b.key, pod);
      const message = `running PreBind plugin "${VOLUME_BINDING}": ${errorText(res)}`;
      const decision = this.decisionFor(namespace, name);
      if (decision && decision.node === b.node) decision.bindError = message;
      this.handleFailure(ctx, pod, this.retryEntry(b, pod, ctx.now), [], message, 'SchedulerError');
      return false;
    }
    return waitAgain(delayed.map((c) => c.metadata.name ?? ''));
  }

  private writeVolumeBinding(
    ctx: ComponentContext,
    binding: DelayedBinding,
    node: string,
    causedBy?: number,
  ): ApiResponse {
    const claim = binding.claim;
    if (binding.kind === 'provision') {
      return ctx.client.request({
        verb: 'update',
        resource: 'persistentvolumeclaims',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        body: {
          ...claim,
          metadata: {
            ...claim.metadata,
            annotations: { ...(claim.metadata.annotations ?? {}), [ANN_SELECTED_NODE]: node },
          },
        },
        causedBy,
      });
    }
    // volume.GetBindVolumeToClaim: the PV controller finishes the claim side
    const volume = binding.volume;
    return ctx.client.request({
      verb: 'update',
      resource: 'persistentvolumes',
      name: volume.metadata.name,
      body: {
        ...volume,
        metadata: {
          ...volume.metadata,
          annotations: { ...(volume.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' },
        },
        spec: {
          ...volume.spec,
          claimRef: {
            kind: 'PersistentVolumeClaim',
            namespace: claim.metadata.namespace,
            name: claim.metadata.name,
            uid: claim.metadata.uid,
            apiVersion: 'v1',
            resourceVersion: claim.metadata.resourceVersion,
          },
        },
      },
      causedBy,
    });
  }

  private forgetAssumption(key: string, pod: Pod | undefined): void {
    this.assumed.delete(key);
    this.cache.setPod(key, pod);
  }

  private retryEntry(b: PendingBind, pod: Pod, now: number): QueuedPod {
    const [namespace, name] = splitKey(b.key);
    return {
      key: b.key,
      uid: b.uid,
      priority: podPriority(pod),
      timestamp: now,
      attempts: this.decisionFor(namespace, name)?.attempt ?? 1,
      seq: 0,
      where: 'backoff',
      unschedulablePlugins: [],
      causedBy: b.causedBy,
    };
  }

  private bind(ctx: ComponentContext, b: PendingBind): void {
    if (!this.preBindVolumes(ctx, b)) return;
    const [namespace, name] = splitKey(b.key);
    const seq = ctx.trace.emit({
      component: 'kube-scheduler',
      verb: 'bind',
      object: { kind: 'Pod', namespace, name },
      message: `Binding ${b.key} to ${b.node} (POST pods/binding: only spec.nodeName changes)`,
      causedBy: b.causedBy,
      data: { node: b.node },
    });
    const body: Binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, namespace, ...(b.uid ? { uid: b.uid } : {}) },
      target: { kind: 'Node', name: b.node },
    };
    const res = ctx.client.request({
      verb: 'create',
      resource: 'pods',
      namespace,
      name,
      subresource: 'binding',
      body,
      causedBy: seq,
    });
    const pod = this.podInformer.get(namespace, name);
    if (res.code === 200 || res.code === 201) {
      if (pod) {
        this.events.record(ctx.client, ctx.nowIso, SCHEDULER_EVENT_SOURCE, {
          involved: pod,
          type: 'Normal',
          reason: 'Scheduled',
          message: `Successfully assigned ${namespace}/${name} to ${b.node}`,
        });
      }
      return;
    }
    // The binding failed: forget the assumption and retry after a back-off.
    this.assumed.delete(b.key);
    this.cache.setPod(b.key, pod);
    const message = errorText(res);
    const decision = this.decisionFor(namespace, name);
    if (decision && decision.node === b.node) decision.bindError = message;
    ctx.trace.emit({
      component: 'kube-scheduler',
      verb: 'bind-failed',
      object: { kind: 'Pod', namespace, name },
      message: `Binding ${b.key} to ${b.node} failed: ${message}`,
      causedBy: res.traceSeq ?? seq,
    });
    if (!pod || res.code === 404) return;
    const qp: QueuedPod = {
      key: b.key,
      uid: b.uid,
      priority: podPriority(pod),
      timestamp: ctx.now,
      attempts: decision?.attempt ?? 1,
      seq: 0,
      where: 'backoff',
      unschedulablePlugins: [],
      causedBy: b.causedBy,
    };
    if (res.code === 0) {
      // apiserver unreachable: no event can be written either; just retry later
      this.queue.requeueAfterFailure(qp, [], ctx.now);
      return;
    }
    this.handleFailure(ctx, pod, qp, [], message, 'SchedulerError');
  }

  // ------------------------------------------------------------------ timers and state

  private requestWake(ctx: ComponentContext): void {
    let at = Infinity;
    for (const b of this.pendingBinds) at = Math.min(at, b.at);
    if (this.queue.activeCount() > 0) at = Math.min(at, Math.max(this.nextPopAt, ctx.now + 1));
    const timer = this.queue.nextTimerAt();
    if (timer !== null) at = Math.min(at, Math.max(timer, ctx.now + 1));
    if (at !== Infinity) ctx.wakeAt(at);
  }

  saveState(): SavedState {
    return {
      queue: this.queue.toJSON(),
      decisions: this.records.slice(-MAX_DECISIONS),
      pendingBinds: this.pendingBinds,
      assumed: [...this.assumed.entries()].sort(),
      nextPopAt: this.nextPopAt,
      startIndex: this.startIndex,
      nodes: [...this.knownNodes.entries()].sort(),
      pods: [...this.knownPods.entries()].sort(),
      events: this.events.toJSON(),
      ...(this.volumeUsers ? { volumeUsers: true } : {}),
      ...(this.followClasses ? { followClasses: true } : {}),
      ...(this.knownVolumes.size > 0 ? { volumes: [...this.knownVolumes.entries()].sort() } : {}),
      ...this.savedRevisions(),
    };
  }

  resumePoints(): Readonly<Record<string, number>> {
    return this.savedRevisions().revisions ?? {};
  }

  /** How far each informer had read (or, not synced since a restore, where it must resume). */
  private savedRevisions(): { revisions?: { pods?: number; nodes?: number } } {
    const at = (resource: 'pods' | 'nodes') =>
      this.resumeFrom[resource] ?? this.bookmarks[resource];
    const pods = at('pods');
    const nodes = at('nodes');
    if (pods === undefined && nodes === undefined) return {};
    return {
      revisions: {
        ...(pods === undefined ? {} : { pods }),
        ...(nodes === undefined ? {} : { nodes }),
      },
    };
  }

  private informers(): Informer<KubeObject>[] {
    return [
      this.podInformer,
      this.nodeInformer,
      this.serviceInformer,
      this.rsInformer,
      this.pvcInformer,
      this.pvInformer,
      this.classInformer,
    ] as Informer<KubeObject>[];
  }

  loadState(state: unknown): void {
    const s = (state ?? {}) as Partial<SavedState>;
    this.queue = SchedulingQueue.fromJSON(s.queue);
    this.records = s.decisions ?? [];
    this.pendingBinds = s.pendingBinds ?? [];
    this.assumed = new Map(s.assumed ?? []);
    this.nextPopAt = s.nextPopAt ?? 0;
    this.startIndex = s.startIndex ?? 0;
    this.knownNodes = new Map(s.nodes ?? []);
    this.knownPods = new Map(s.pods ?? []);
    this.events = EventRecorder.fromJSON(s.events);
    // Caches are rebuilt from a relist; the summaries above make it report only real changes.
    this.podInformer = new Informer<Pod>('pods');
    this.nodeInformer = new Informer<Node>('nodes');
    this.serviceInformer = new Informer<Service>('services');
    this.rsInformer = new Informer<ReplicaSet>('replicasets');
    this.pvcInformer = new Informer<PersistentVolumeClaim>('persistentvolumeclaims');
    this.pvInformer = new Informer<PersistentVolume>('persistentvolumes');
    this.classInformer = new Informer<StorageClass>('storageclasses');
    if (state)
      for (const informer of this.informers())
        informer.markRestored(
          (s.revisions as Record<string, number> | undefined)?.[informer.resource],
        );
    this.volumeUsers = s.volumeUsers ?? false;
    this.followClasses = s.followClasses ?? false;
    this.knownVolumes = new Map(s.volumes ?? []);
    this.resumeFrom = { ...(s.revisions ?? {}) };
    this.bookmarks = {};
    this.cache = new SnapshotCache();
    this.nominated = new Map();
    this.listed = {};
  }
}

/** An informer's list, and how many relists it had then (a relist of nothing reports no event). */
interface Listed<T> {
  items: T[];
  relists: number;
}

function listed<T extends KubeObject>(informer: Informer<T>): Listed<T> {
  return { items: informer.list(), relists: informer.relists };
}

/** The list, or undefined when the sync changed the informer's cache. */
function listedAfterSync<T extends KubeObject>(
  informer: Informer<T>,
  ctx: ComponentContext,
  list: Listed<T> | undefined,
): Listed<T> | undefined {
  const events = informer.sync(ctx.client);
  if (events.length > 0 || informer.relists !== list?.relists) return undefined;
  return list;
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

function errorText(res: ApiResponse): string {
  if (typeof res.body === 'string') return res.body;
  if (isStatus(res.body)) return res.body.message ?? res.body.reason ?? `HTTP ${res.code}`;
  return `HTTP ${res.code}`;
}
