// The node lifecycle controller (k/k pkg/controller/nodelifecycle). Every node-monitor-period
// (5 s) it checks each node's heartbeats — Lease renewals in kube-node-lease and the Ready
// condition's lastHeartbeatTime. When it has seen neither for node-monitor-grace-period (50 s in
// v1.32), it sets the node's conditions to Unknown ("Kubelet stopped posting node status."),
// marks its pods not ready, and taints the node `node.kubernetes.io/unreachable:NoExecute` (rate
// limited per zone); the taint eviction controller then evicts the pods. Condition-based
// NoSchedule taints keep the scheduler away meanwhile. The kubelet's containers keep running:
// only the control plane's view of the node changed.

import type { WatchEvent } from '../client/api-client';
import type { Condition, Lease, Node, Pod, Taint } from '../model';
import type { CurrentObjects, ObservedChange } from '../runtime/component';
import type { Pass } from './base-controller';
import { BaseController, byKey, deepClone, isOk, refOf, type SyncResult } from './base-controller';
import { computeZoneState, TokenBucket, type ZoneState, zoneKey } from './node-zones';

export const NODE_MONITOR_PERIOD_MS = 5_000;
export const NODE_MONITOR_GRACE_MS = 50_000;
export const NODE_STARTUP_GRACE_MS = 60_000;
export const EVICTION_QPS = 0.1;
export const SECONDARY_EVICTION_QPS = 0.01;
export const LARGE_CLUSTER_THRESHOLD = 50;

export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';

/** nodeConditionToTaintKeyStatusMap: conditions that become NoSchedule taints. */
const CONDITION_TAINTS: Record<string, Partial<Record<Condition['status'], string>>> = {
  Ready: { False: NOT_READY_TAINT, Unknown: UNREACHABLE_TAINT },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const CONDITION_TAINT_KEYS = new Set(
  Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)),
);
const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

/** doNoScheduleTaintingPass: the NoSchedule taints a node should carry for its conditions. */
export function desiredNoScheduleTaints(node: Node): { add: Taint[]; remove: Taint[] } {
  const want: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key) want.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) want.push({ key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule' });
  const have = (node.spec?.taints ?? []).filter(
    (t) =>
      t.effect === 'NoSchedule' &&
      (t.key === UNSCHEDULABLE_TAINT || CONDITION_TAINT_KEYS.has(t.key)),
  );
  return {
    add: want.filter((w) => !have.some((h) => h.key === w.key)),
    remove: have.filter((h) => !want.some((w) => w.key === h.key)),
  };
}

interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** the Ready condition as last seen (heartbeat and transition times) */
  savedHeartbeat?: string;
  savedTransition?: string;
  hadCondition: boolean;
  leaseRenewTime?: string;
}

interface TainterItem {
  node: string;
  uid?: string;
}

interface Extra {
  health: [string, NodeHealth][];
  known: string[];
  zoneStates: [string, ZoneState][];
  tainter: [string, TainterItem[]][];
  buckets: [string, ReturnType<TokenBucket['save']>][];
  retry: string[];
  lastMonitor: number;
}

export class NodeLifecycleController extends BaseController {
  readonly controllerName = 'nodelifecycle';
  readonly eventSource = 'node-controller';
  readonly periodMs = NODE_MONITOR_PERIOD_MS;
  private health = new Map<string, NodeHealth>();
  private known = new Set<string>();
  private zoneStates = new Map<string, ZoneState>();
  private tainter = new Map<string, TainterItem[]>();
  private buckets = new Map<string, TokenBucket>();
  private retry = new Set<string>();
  private lastMonitor = -Infinity;

  constructor() {
    // Leases are read at each node-monitor pass (every 5 s), not watched: upstream, too, only
    // looks at them when it monitors node health.
    super(['nodes', 'pods'], ['leases']);
  }

  /**
   * A pod change matters only on a node that is not Ready (its pods are marked not ready);
   * node health itself is monitored every period, as upstream's monitorNodeHealth ticker does.
   */
  override wakeOn({ resource, type, object }: ObservedChange, current: CurrentObjects): boolean {
    if (resource !== 'pods') return true;
    const node = (object as Pod).spec.nodeName;
    if (type === 'DELETED' || !node) return false;
    const known = current.get('nodes', undefined, node) as Node | undefined;
    return known !== undefined && readyCondition(known)?.status !== 'True';
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    if (resource === 'nodes')
      return ev.type === 'DELETED' ? [] : [`node/${ev.object.metadata.name}`];
    if (resource === 'pods' && ev.type !== 'DELETED') {
      const node = (ev.object as Pod).spec.nodeName;
      if (node && this.health.has(node) && !this.nodeReady(node))
        return [`pod/${ev.object.metadata.namespace}/${ev.object.metadata.name}`];
    }
    return [];
  }

  protected allKeys(): string[] {
    return this.informer<Node>('nodes')
      .list()
      .map((n) => `node/${n.metadata.name}`);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    if (key.startsWith('pod/')) {
      const pod = this.informer<Pod>('pods').getByKey(key.slice(4));
      if (!pod || !pod.spec.nodeName || this.nodeReady(pod.spec.nodeName)) return 'done';
      return this.markPodsNotReady([pod], pass, cause) ? 'done' : 'retry';
    }
    const node = this.informer<Node>('nodes').get(undefined, key.slice(5));
    if (!node) return 'done';
    const { add, remove } = desiredNoScheduleTaints(node);
    if (add.length === 0 && remove.length === 0) return 'done';
    return this.swapTaints(node, add, remove, pass, cause) ? 'done' : 'retry';
  }

  private nodeReady(name: string): boolean {
    const node = this.informer<Node>('nodes').get(undefined, name);
    return readyCondition(node)?.status === 'True';
  }

  protected override afterSync(pass: Pass): void {
    if (pass.now >= this.lastMonitor + NODE_MONITOR_PERIOD_MS) {
      this.lastMonitor = pass.now;
      this.monitorNodeHealth(pass);
    }
    this.taintingPass(pass);
    // A node whose heartbeats stopped has a deadline pending: make sure the lab runs us then,
    // even if nothing else happens (healthy nodes need no timer: their kubelets keep us busy).
    // by key, not by [name, h] entry: this runs at every wake (one array per node each)
    for (const name of this.health.keys()) {
      const h = this.health.get(name) as NodeHealth;
      const stale = pass.now - h.probeTimestamp > 2 * NODE_MONITOR_PERIOD_MS;
      if (!stale) continue;
      const deadline = h.probeTimestamp + NODE_MONITOR_GRACE_MS;
      if (
        deadline >= pass.now &&
        readyCondition(this.informer<Node>('nodes').get(undefined, name))?.status === 'True'
      ) {
        pass.ctx.wakeAt(deadline + NODE_MONITOR_PERIOD_MS);
      }
    }
  }

  // --- monitorNodeHealth ------------------------------------------------------------------

  private monitorNodeHealth(pass: Pass): void {
    const nodes = this.informer<Node>('nodes')
      .list()
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const names = new Set(nodes.map((n) => n.metadata.name as string));
    for (const node of nodes) {
      const name = node.metadata.name as string;
      if (this.known.has(name)) continue;
      this.known.add(name);
      pass.event(
        node,
        'Normal',
        'RegisteredNode',
        `Node ${name} event: Registered Node ${name} in Controller`,
      );
      pass.emit(
        'register-node',
        refOf(node),
        `Node ${name} registered with the node lifecycle controller`,
      );
    }
    for (const name of [...this.known].sort()) {
      if (names.has(name)) continue;
      this.known.delete(name);
      this.health.delete(name);
      for (const items of this.tainter.values()) removeItem(items, name);
      const ref = { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: name } };
      pass.event(
        ref,
        'Normal',
        'RemovingNode',
        `Node ${name} event: Removing Node ${name} from Controller`,
      );
    }
    const zoneConditions = new Map<string, (Condition | undefined)[]>();
    for (const node of nodes) {
      const name = node.metadata.name as string;
      const result = this.tryUpdateNodeHealth(node, pass);
      if (!result) continue;
      const { observed, current } = result;
      const zone = zoneKey(node);
      if (!zoneConditions.has(zone)) zoneConditions.set(zone, []);
      (zoneConditions.get(zone) as (Condition | undefined)[]).push(current);
      if (!current) continue;
      this.processTaintBaseEviction(node, observed, pass);
      const needsRetry = this.retry.has(name);
      if (current.status !== 'True' && observed.status === 'True') {
        pass.event(node, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
        pass.emit(
          'node-not-ready',
          refOf(node),
          `Node ${name} is NotReady: no heartbeat for ${NODE_MONITOR_GRACE_MS / 1000}s`,
        );
      }
      if (
        (current.status !== 'True' && observed.status === 'True') ||
        (needsRetry && observed.status !== 'True')
      ) {
        // rare (a node stops being Ready): a scan of the cache costs less than an index kept
        // up to date through every pod change of the cluster
        const pods = this.informer<Pod>('pods')
          .list((p) => p.spec?.nodeName === name)
          .sort(byKey);
        if (this.markPodsNotReady(pods, pass)) this.retry.delete(name);
        else this.retry.add(name);
      }
    }
    this.handleDisruption(zoneConditions, nodes, pass);
  }

  /** tryUpdateNodeHealth: returns the Ready condition before and after this pass. */
  private tryUpdateNodeHealth(
    node: Node,
    pass: Pass,
  ): { observed: Condition; current?: Condition } | undefined {
    const name = node.metadata.name as string;
    const now = pass.now;
    const ready = readyCondition(node);
    let health = this.health.get(name);
    let observed: Condition;
    let grace: number;
    if (!ready) {
      observed = {
        type: 'Ready',
        status: 'Unknown',
        lastHeartbeatTime: node.metadata.creationTimestamp,
        lastTransitionTime: node.metadata.creationTimestamp,
      };
      grace = NODE_STARTUP_GRACE_MS;
      if (!health)
        health = { probeTimestamp: now, readyTransitionTimestamp: now, hadCondition: false };
    } else {
      observed = { ...ready };
      grace = NODE_MONITOR_GRACE_MS;
    }
    if (!health) {
      health = { probeTimestamp: now, readyTransitionTimestamp: now, hadCondition: Boolean(ready) };
    } else if (ready && !health.hadCondition) {
      health = {
        probeTimestamp: now,
        readyTransitionTimestamp: now,
        hadCondition: true,
        leaseRenewTime: health.leaseRenewTime,
      };
    } else if (ready && health.savedHeartbeat !== ready.lastHeartbeatTime) {
      const transition =
        health.savedTransition !== ready.lastTransitionTime ? now : health.readyTransitionTimestamp;
      health = { ...health, probeTimestamp: now, readyTransitionTimestamp: transition };
    }
    health.savedHeartbeat = ready?.lastHeartbeatTime;
    health.savedTransition = ready?.lastTransitionTime;
    health.hadCondition = Boolean(ready);
    const lease = this.informer<Lease>('leases').get('kube-node-lease', name);
    const renew = lease?.spec.renewTime;
    if (renew && (health.leaseRenewTime === undefined || renew > health.leaseRenewTime)) {
      health.leaseRenewTime = renew;
      health.probeTimestamp = now;
    }
    this.health.set(name, health);
    if (now <= health.probeTimestamp + grace) return { observed, current: ready };
    // No heartbeat for the grace period: the control plane no longer knows this node's state.
    const updated = deepClone(node);
    const conditions = (updated.status ??= {}).conditions ?? [];
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const c = conditions.find((x) => x.type === type);
      if (!c) {
        conditions.push({
          type,
          status: 'Unknown',
          lastHeartbeatTime: node.metadata.creationTimestamp,
          lastTransitionTime: pass.ctx.nowIso,
          reason: 'NodeStatusNeverUpdated',
          message: 'Kubelet never posted node status.',
        });
      } else if (c.status !== 'Unknown') {
        c.status = 'Unknown';
        c.reason = 'NodeStatusUnknown';
        c.message = 'Kubelet stopped posting node status.';
        c.lastTransitionTime = pass.ctx.nowIso;
      }
    }
    updated.status.conditions = conditions;
    const current = conditions.find((c) => c.type === 'Ready');
    if (JSON.stringify(current) === JSON.stringify(ready ?? observed)) return { observed, current };
    const res = pass.write(
      { verb: 'update', resource: 'nodes', subresource: 'status', name, body: updated },
      refOf(node),
      `Node ${name}: no heartbeat (Lease or status) for ${Math.round((now - health.probeTimestamp) / 1000)}s > ${grace / 1000}s grace period; setting its conditions to Unknown`,
    );
    if (!isOk(res)) return { observed, current: ready };
    health.readyTransitionTimestamp = now;
    health.savedHeartbeat = current?.lastHeartbeatTime;
    health.savedTransition = current?.lastTransitionTime;
    return { observed, current };
  }

  private processTaintBaseEviction(node: Node, observed: Condition, pass: Pass): void {
    const taints = node.spec?.taints ?? [];
    const has = (key: string): boolean =>
      taints.some((t) => t.key === key && t.effect === 'NoExecute');
    const name = node.metadata.name as string;
    if (observed.status === 'False') {
      if (has(UNREACHABLE_TAINT))
        this.swapTaints(
          node,
          [{ key: NOT_READY_TAINT, effect: 'NoExecute' }],
          [{ key: UNREACHABLE_TAINT, effect: 'NoExecute' }],
          pass,
        );
      else this.markForTainting(node);
    } else if (observed.status === 'Unknown') {
      if (has(NOT_READY_TAINT))
        this.swapTaints(
          node,
          [{ key: UNREACHABLE_TAINT, effect: 'NoExecute' }],
          [{ key: NOT_READY_TAINT, effect: 'NoExecute' }],
          pass,
        );
      else this.markForTainting(node);
    } else {
      this.markReachable(node, pass);
    }
    void name;
  }

  private markForTainting(node: Node): void {
    const zone = zoneKey(node);
    const items = this.tainter.get(zone) ?? [];
    if (!items.some((i) => i.node === node.metadata.name))
      items.push({ node: node.metadata.name as string, uid: node.metadata.uid });
    this.tainter.set(zone, items);
  }

  private markReachable(node: Node, pass: Pass): boolean {
    const remove = (node.spec?.taints ?? []).filter(
      (t) => t.effect === 'NoExecute' && (t.key === UNREACHABLE_TAINT || t.key === NOT_READY_TAINT),
    );
    removeItem(this.tainter.get(zoneKey(node)) ?? [], node.metadata.name as string);
    if (remove.length === 0) return true;
    return this.swapTaints(node, [], remove, pass);
  }

  /** doNoExecuteTaintingPass: taint queued nodes, as fast as each zone's rate limiter allows. */
  private taintingPass(pass: Pass): void {
    for (const zone of [...this.tainter.keys()].sort()) {
      const items = this.tainter.get(zone) as TainterItem[];
      const bucket = this.bucket(zone);
      while (items.length > 0) {
        if (!bucket.tryAccept(pass.now)) {
          const at = bucket.nextTokenAt(pass.now);
          if (at !== undefined) pass.ctx.wakeAt(at);
          break;
        }
        const item = items[0] as TainterItem;
        const node = this.informer<Node>('nodes').get(undefined, item.node);
        const ready = readyCondition(node);
        if (!node || !ready || ready.status === 'True') {
          items.shift();
          continue;
        }
        const add = ready.status === 'False' ? NOT_READY_TAINT : UNREACHABLE_TAINT;
        const other = add === NOT_READY_TAINT ? UNREACHABLE_TAINT : NOT_READY_TAINT;
        if (
          this.swapTaints(
            node,
            [{ key: add, effect: 'NoExecute' }],
            [{ key: other, effect: 'NoExecute' }],
            pass,
          )
        )
          items.shift();
        else {
          bucket.refund();
          break;
        }
      }
    }
  }

  private bucket(zone: string): TokenBucket {
    let b = this.buckets.get(zone);
    if (!b) this.buckets.set(zone, (b = new TokenBucket(EVICTION_QPS)));
    return b;
  }

  private handleDisruption(
    zoneConditions: Map<string, (Condition | undefined)[]>,
    nodes: Node[],
    pass: Pass,
  ): void {
    const newStates = new Map<string, ZoneState>();
    let allAreFull = true;
    for (const zone of [...zoneConditions.keys()].sort()) {
      const state = computeZoneState(zoneConditions.get(zone) as (Condition | undefined)[]);
      newStates.set(zone, state);
      if (state !== 'FullDisruption') allAreFull = false;
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial');
    }
    let allWasFull = true;
    for (const zone of [...this.zoneStates.keys()].sort()) {
      if (!zoneConditions.has(zone)) {
        this.zoneStates.delete(zone);
        continue;
      }
      if (this.zoneStates.get(zone) !== 'FullDisruption') {
        allWasFull = false;
        break;
      }
    }
    if (allAreFull && allWasFull) return;
    if (allAreFull) {
      pass.emit(
        'disruption-mode',
        undefined,
        'All nodes are NotReady: entering master disruption mode, no evictions (a control-plane network problem is more likely than every node dying)',
      );
      for (const node of nodes) this.markReachable(node, pass);
      for (const zone of this.zoneStates.keys()) {
        this.bucket(zone).setQps(0, pass.now);
        this.zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWasFull) {
      pass.emit(
        'disruption-mode',
        undefined,
        'Some nodes are Ready again: leaving master disruption mode',
      );
      for (const node of nodes) {
        const h = this.health.get(node.metadata.name as string);
        if (h) {
          h.probeTimestamp = pass.now;
          h.readyTransitionTimestamp = pass.now;
        }
      }
      for (const zone of this.zoneStates.keys()) {
        const state = newStates.get(zone) as ZoneState;
        this.bucket(zone).setQps(
          limiterQps(state, zoneConditions.get(zone)?.length ?? 0),
          pass.now,
        );
        this.zoneStates.set(zone, state);
      }
      return;
    }
    for (const zone of [...this.zoneStates.keys()].sort()) {
      const state = newStates.get(zone) as ZoneState;
      if (this.zoneStates.get(zone) === state) continue;
      pass.emit('zone-state', undefined, `Zone "${zone}" is now in state ${state}`);
      this.bucket(zone).setQps(limiterQps(state, zoneConditions.get(zone)?.length ?? 0), pass.now);
      this.zoneStates.set(zone, state);
    }
  }

  // --- writes -------------------------------------------------------------------------------

  /** MarkPodsNotReady: the pods' Ready condition becomes False; false when a write failed. */
  private markPodsNotReady(pods: Pod[], pass: Pass, cause?: number): boolean {
    let ok = true;
    for (const pod of [...pods].sort((a, b) =>
      (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
    )) {
      const cond = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if (!cond || cond.status === 'False') continue;
      const updated = deepClone(pod);
      const c = (updated.status?.conditions ?? []).find((x) => x.type === 'Ready') as Condition;
      c.status = 'False';
      c.lastTransitionTime = pass.ctx.nowIso;
      const res = pass.write(
        {
          verb: 'update',
          resource: 'pods',
          subresource: 'status',
          namespace: pod.metadata.namespace,
          name: pod.metadata.name,
          body: updated,
        },
        refOf(pod),
        `Marking Pod ${pod.metadata.name} not ready: its node ${pod.spec.nodeName} is not ready`,
        cause,
      );
      if (res.code === 404) continue;
      if (!isOk(res)) {
        ok = false;
        continue;
      }
      pass.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    return ok;
  }

  /** SwapNodeControllerTaint: add (with timeAdded) and remove taints in one update. */
  private swapTaints(
    node: Node,
    add: Taint[],
    remove: Taint[],
    pass: Pass,
    cause?: number,
  ): boolean {
    const existing = node.spec?.taints ?? [];
    const kept = existing.filter(
      (t) =>
        !remove.some((r) => r.key === t.key && r.effect === t.effect) &&
        !add.some((a) => a.key === t.key && a.effect === t.effect),
    );
    const added = add
      .filter((a) => !existing.some((t) => t.key === a.key && t.effect === a.effect))
      .map((a) => ({ ...a, timeAdded: pass.ctx.nowIso }));
    const reAdded = existing.filter((t) =>
      add.some((a) => a.key === t.key && a.effect === t.effect),
    );
    const taints = [...kept, ...reAdded, ...added];
    if (added.length === 0 && taints.length === existing.length) return true;
    const updated = deepClone(node);
    updated.spec = { ...(updated.spec ?? {}), taints };
    if (taints.length === 0) delete updated.spec.taints;
    const parts = [
      ...added.map((t) => `adding taint ${t.key}:${t.effect}`),
      ...remove
        .filter((r) => existing.some((t) => t.key === r.key && t.effect === r.effect))
        .map((t) => `removing taint ${t.key}:${t.effect}`),
    ];
    const res = pass.write(
      { verb: 'update', resource: 'nodes', name: node.metadata.name, body: updated },
      refOf(node),
      `Node ${node.metadata.name}: ${parts.join(', ')}`,
      cause,
    );
    return isOk(res);
  }

  // --- state ----------------------------------------------------------------------------------

  protected override saveExtra(): Extra {
    const sorted = <T>(m: Map<string, T>): [string, T][] =>
      [...m].sort(([a], [b]) => (a < b ? -1 : 1));
    return {
      health: sorted(this.health),
      known: [...this.known].sort(),
      zoneStates: sorted(this.zoneStates),
      tainter: sorted(this.tainter),
      buckets: sorted(this.buckets).map(([k, b]) => [k, b.save()]),
      retry: [...this.retry].sort(),
      lastMonitor: Number.isFinite(this.lastMonitor) ? this.lastMonitor : -1e15,
    };
  }

  protected override loadExtra(extra: unknown): void {
    const e = extra as Extra | undefined;
    this.health = new Map(e?.health ?? []);
    this.known = new Set(e?.known ?? []);
    this.zoneStates = new Map(e?.zoneStates ?? []);
    this.tainter = new Map(e?.tainter ?? []);
    this.buckets = new Map((e?.buckets ?? []).map(([k, s]) => [k, TokenBucket.load(s)]));
    this.retry = new Set(e?.retry ?? []);
    this.lastMonitor = e ? e.lastMonitor : -Infinity;
  }
}

function readyCondition(node: Node | undefined): Condition | undefined {
  return node?.status?.conditions?.find((c) => c.type === 'Ready');
}

function removeItem(items: TainterItem[], node: string): void {
  const i = items.findIndex((x) => x.node === node);
  if (i >= 0) items.splice(i, 1);
}

function limiterQps(state: ZoneState, zoneSize: number): number {
  if (state === 'PartialDisruption')
    return zoneSize <= LARGE_CLUSTER_THRESHOLD ? 0 : SECONDARY_EVICTION_QPS;
  return EVICTION_QPS;
}
