// The DaemonSet controller (k/k pkg/controller/daemon, v1.32): one pod per eligible node. For each
// node it asks "should a daemon pod run here?" (the template's nodeSelector and required node
// affinity, and its tolerations against the node's NoSchedule/NoExecute taints, with the default
// daemon tolerations added), creates the missing pods and deletes the ones that must go. It does
// not place pods itself: each new pod carries a required node affinity `matchFields
// metadata.name In [<node>]`, so the scheduler binds it like any other pod. A template change
// rolls out node by node, never taking more than maxUnavailable daemon pods down at once.

import type { WatchEvent } from '../client/api-client';
import type {
  DaemonSet,
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  OwnerReference,
  Pod,
  PodSpec,
  Taint,
  Toleration,
} from '../model';
import { isStatus } from '../model';
import { computePodTemplateHash, hex16 } from '../shared/hash';
import type { ObservedChange } from '../runtime/component';
import type { Pass } from './base-controller';
import {
  BaseController,
  controllerRef,
  deepClone,
  errorText,
  isOk,
  keyOf,
  lookup,
  refOf,
  splitKey,
  type SyncResult,
} from './base-controller';
import { scaledValue } from './deployment-util';
import { byControllerUid, Index } from './indexer';
import { availableAt, isPodAvailable, isPodReady } from './pod-util';
import { toleratesTaint } from './taint-eviction-controller';

export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

// util.AddOrUpdateDaemonPodTolerations adds these (network-unavailable only to hostNetwork pods)
const DAEMON_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];
const NETWORK_UNAVAILABLE: Toleration = {
  key: 'node.kubernetes.io/network-unavailable',
  operator: 'Exists',
  effect: 'NoSchedule',
};

/** util.AddOrUpdateDaemonPodTolerations: what every daemon pod tolerates on top of its template. */
export function daemonPodTolerations(spec: PodSpec): Toleration[] {
  const out = [...(spec.tolerations ?? [])];
  for (const t of DAEMON_TOLERATIONS) addToleration(out, t);
  if (spec.hostNetwork) addToleration(out, NETWORK_UNAVAILABLE);
  return out;
}

/** Appends a copy of t unless an equal toleration (no value) is already there. */
function addToleration(out: Toleration[], t: Toleration): void {
  for (const o of out)
    if (o.key === t.key && o.operator === t.operator && o.effect === t.effect && !o.value) return;
  out.push({ ...t });
}

function matchRequirement(r: NodeSelectorRequirement, values: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(values, r.key);
  const v = values[r.key] as string;
  switch (r.operator) {
    case 'In':
      return has && (r.values ?? []).includes(v);
    case 'NotIn':
      return !has || !(r.values ?? []).includes(v);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default: {
      if (!has || (r.values ?? []).length !== 1) return false;
      const label = Number.parseInt(v, 10);
      const bound = Number.parseInt((r.values as string[])[0] as string, 10);
      if (Number.isNaN(label) || Number.isNaN(bound)) return false;
      return r.operator === 'Gt' ? label > bound : label < bound;
    }
  }
}

function matchTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const fieldValues = { 'metadata.name': node.metadata.name ?? '' };
  return (
    exprs.every((r) => matchRequirement(r, labels)) &&
    fields.every((r) => r.key === 'metadata.name' && matchRequirement(r, fieldValues))
  );
}

/** nodeaffinity.GetRequiredNodeAffinity(pod).Match(node) for the template. */
function fitsNodeAffinity(spec: PodSpec, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return !required || required.nodeSelectorTerms.some((t) => matchTerm(t, node));
}

function untolerated(taints: Taint[], tolerations: Toleration[], effects: string[]): boolean {
  return taints.some(
    (taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)),
  );
}

/** NodeShouldRunDaemonPod: whether a new daemon pod belongs here, and whether one may stay. */
export function nodeShouldRunDaemonPod(
  ds: DaemonSet,
  node: Node,
): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const spec = ds.spec.template.spec;
  if (spec.nodeName && spec.nodeName !== node.metadata.name)
    return { shouldRun: false, shouldContinueRunning: false };
  if (!fitsNodeAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = daemonPodTolerations(spec);
  const taints = node.spec.taints ?? [];
  if (untolerated(taints, tolerations, ['NoSchedule', 'NoExecute'])) {
    // scheduled daemon pods keep running as long as they tolerate the NoExecute taints
    return {
      shouldRun: false,
      shouldContinueRunning: !untolerated(taints, tolerations, ['NoExecute']),
    };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

/** util.GetTargetNodeName: the bound node, or the node the affinity pins an unbound pod to. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1)
        return f.values[0];
    }
  }
  return undefined;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: pin the pod to one node, keeping other affinities. */
function pinToNode(spec: PodSpec, nodeName: string): void {
  const affinity = spec.affinity ?? {};
  affinity.nodeAffinity = {
    ...(affinity.nodeAffinity ?? {}),
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        {
          matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }],
        },
      ],
    },
  };
  spec.affinity = affinity;
}

export function templateGeneration(ds: DaemonSet): string {
  return ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '1';
}

export function daemonSetHash(ds: DaemonSet): string {
  return computePodTemplateHash(ds.spec.template, ds.status?.collisionCount);
}

/** IsPodUpdated: the pod carries the current revision hash (or, for old pods, generation). */
function isPodUpdated(pod: Pod, hash: string, generation: string): boolean {
  const labels = pod.metadata.labels ?? {};
  if (labels[CONTROLLER_REVISION_HASH_LABEL] !== undefined)
    return labels[CONTROLLER_REVISION_HASH_LABEL] === hash;
  return labels[POD_TEMPLATE_GENERATION_LABEL] === generation;
}

function oldestFirst(a: Pod, b: Pod): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

interface NodePlan {
  node: Node;
  shouldRun: boolean;
  /** live (not terminating) daemon pods that may stay on the node, oldest first */
  pods: Pod[];
  /** every live daemon pod on the node */
  all: Pod[];
}

export class DaemonSetController extends BaseController {
  readonly controllerName = 'daemonset';
  readonly eventSource = 'daemonset-controller';
  readonly periodMs = 30_000;
  private readonly podsByOwner = new Index(byControllerUid);
  /**
   * A digest of each node's labels and taints as last seen, so status-only updates wake nothing.
   * Saved with the lab: a restored controller must tell the same node changes apart as the
   * original, not take its relisted nodes for new ones.
   */
  private nodeSigs = new Map<string, string>();
  private nodesChanged = false;

  constructor() {
    super(['daemonsets', 'pods', 'nodes']);
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (resource === 'pods') this.podsByOwner.apply(events);
    if (resource !== 'nodes') return;
    this.nodesChanged = false;
    for (const ev of events) {
      const name = ev.object.metadata.name ?? '';
      const sig = ev.type === 'DELETED' ? undefined : schedulingSignature(ev.object as Node);
      if (this.nodeSigs.get(name) === sig) continue;
      this.nodesChanged = true;
      if (sig === undefined) this.nodeSigs.delete(name);
      else this.nodeSigs.set(name, sig);
    }
  }

  protected override saveExtra(): unknown {
    return this.nodeSigs.size > 0
      ? [...this.nodeSigs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      : undefined;
  }

  protected override loadExtra(extra: unknown): void {
    this.nodeSigs = new Map(Array.isArray(extra) ? (extra as [string, string][]) : []);
  }

  /** Only a DaemonSet's own pods (before or after the change) concern it. */
  override wakeOn({ resource, object, prev }: ObservedChange): boolean {
    if (resource !== 'pods') return true;
    return (
      controllerRef(object)?.kind === 'DaemonSet' ||
      (prev !== undefined && controllerRef(prev)?.kind === 'DaemonSet')
    );
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    const obj = ev.object;
    if (resource === 'daemonsets') return [keyOf(obj)];
    if (resource === 'pods') {
      const ref = controllerRef(obj);
      return ref?.kind === 'DaemonSet' ? [`${obj.metadata.namespace}/${ref.name}`] : [];
    }
    // A node that appears, goes away or changes labels/taints can change every DaemonSet's
    // plan; heartbeats and other status updates cannot.
    return this.nodesChanged ? this.allKeys() : [];
  }

  protected allKeys(): string[] {
    return this.informer<DaemonSet>('daemonsets').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const { namespace, name } = splitKey(key);
    const cached = this.informer<DaemonSet>('daemonsets').get(namespace, name);
    if (!cached || cached.metadata.deletionTimestamp) return 'done';
    const ds = deepClone(cached);
    const hash = daemonSetHash(ds);
    const plans = this.plan(ds);
    let error = this.manage(ds, plans, hash, pass, cause);
    if (
      error === undefined &&
      (ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate'
    )
      error = this.rollingUpdate(ds, plans, hash, pass, cause);
    const statusOk = this.updateStatus(ds, plans, hash, pass, cause);
    return error === undefined && statusOk ? 'done' : 'retry';
  }

  private plan(ds: DaemonSet): NodePlan[] {
    const byNode = new Map<string, Pod[]>();
    const pods = lookup(
      this.informer<Pod>('pods'),
      this.podsByOwner.sortedKeys(ds.metadata.uid ?? ''),
    );
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const node = targetNodeName(pod);
      if (!node) continue;
      const list = byNode.get(node) ?? [];
      list.push(pod);
      byNode.set(node, list);
    }
    const nodes = this.informer<Node>('nodes')
      .list()
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    return nodes.map((node) => {
      const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(ds, node);
      const all = (byNode.get(node.metadata.name ?? '') ?? []).sort(oldestFirst);
      return { node, shouldRun, pods: shouldRun || shouldContinueRunning ? all : [], all };
    });
  }

  /** podsShouldBeOnNode + syncNodes: create where missing, delete failed, extra or misplaced pods. */
  private manage(
    ds: DaemonSet,
    plans: NodePlan[],
    hash: string,
    pass: Pass,
    cause?: number,
  ): string | undefined {
    for (const plan of plans) {
      const nodeName = plan.node.metadata.name as string;
      const toDelete: Pod[] = [];
      if (plan.shouldRun) {
        const failed = plan.pods.filter((p) => p.status?.phase === 'Failed');
        const running = plan.pods.filter((p) => p.status?.phase !== 'Failed');
        toDelete.push(...failed);
        // with maxSurge 0 exactly one pod per node: keep the oldest
        toDelete.push(...running.slice(1));
        if (running.length === 0) {
          const err = this.createPod(ds, nodeName, hash, pass, cause);
          if (err !== undefined) return err;
        }
      } else {
        toDelete.push(...plan.all);
      }
      for (const pod of toDelete) {
        const why = plan.shouldRun
          ? `it is not needed on node ${nodeName}`
          : `node ${nodeName} is not eligible for DaemonSet ${ds.metadata.name}`;
        const err = this.deletePod(ds, pod, why, pass, cause);
        if (err !== undefined) return err;
        plan.pods = plan.pods.filter((p) => p !== pod);
      }
    }
    return undefined;
  }

  /** rollingUpdate with maxSurge 0: replace old pods while at most maxUnavailable are down. */
  private rollingUpdate(
    ds: DaemonSet,
    plans: NodePlan[],
    hash: string,
    pass: Pass,
    cause?: number,
  ): string | undefined {
    const generation = templateGeneration(ds);
    const desired = plans.filter((p) => p.shouldRun).length;
    const raw = ds.spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1;
    const maxUnavailable = Math.max(scaledValue(raw, desired, true), 0);
    const minReady = ds.spec.minReadySeconds ?? 0;
    const nowEpoch = pass.nowEpoch;
    let unavailable = 0;
    const oldAvailable: Pod[] = [];
    const oldUnavailable: Pod[] = [];
    for (const plan of plans) {
      if (!plan.shouldRun) continue;
      const pod = plan.pods[0];
      if (!pod) {
        unavailable++;
        continue;
      }
      const available = isPodAvailable(pod, minReady, nowEpoch);
      if (isPodUpdated(pod, hash, generation)) {
        if (!available) unavailable++;
      } else if (available) oldAvailable.push(pod);
      else {
        unavailable++;
        oldUnavailable.push(pod);
      }
    }
    const victims = [...oldUnavailable];
    for (const pod of oldAvailable) {
      if (unavailable >= maxUnavailable) break;
      victims.push(pod);
      unavailable++;
    }
    for (const pod of victims) {
      const err = this.deletePod(
        ds,
        pod,
        `rolling update to revision ${hash} (at most ${maxUnavailable} unavailable)`,
        pass,
        cause,
      );
      if (err !== undefined) return err;
    }
    return undefined;
  }

  private createPod(
    ds: DaemonSet,
    nodeName: string,
    hash: string,
    pass: Pass,
    cause?: number,
  ): string | undefined {
    const t = ds.spec.template;
    const spec = deepClone(t.spec);
    spec.tolerations = daemonPodTolerations(spec);
    pinToNode(spec, nodeName);
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${ds.metadata.name}-`,
        namespace: ds.metadata.namespace,
        labels: {
          ...(t.metadata?.labels ?? {}),
          [CONTROLLER_REVISION_HASH_LABEL]: hash,
          [POD_TEMPLATE_GENERATION_LABEL]: templateGeneration(ds),
        },
        ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
        ownerReferences: [ownerRefTo(ds)],
      },
      spec,
    };
    const res = pass.write(
      // only the generated name is read back
      {
        verb: 'create',
        resource: 'pods',
        namespace: ds.metadata.namespace,
        body: pod,
        readOnly: true,
      },
      { kind: 'Pod', namespace: ds.metadata.namespace, name: `${ds.metadata.name}-` },
      `Creating Pod ${ds.metadata.name}-<random> for DaemonSet ${ds.metadata.name} on node ${nodeName} (node affinity matchFields metadata.name=${nodeName}; the scheduler binds it)`,
      cause,
    );
    if (isOk(res)) {
      pass.event(
        ds,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${(res.body as Pod).metadata.name}`,
      );
      return undefined;
    }
    if (res.code !== 0)
      pass.event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorText(res)}`);
    return errorText(res);
  }

  private deletePod(
    ds: DaemonSet,
    pod: Pod,
    why: string,
    pass: Pass,
    cause?: number,
  ): string | undefined {
    const res = pass.write(
      {
        verb: 'delete',
        resource: 'pods',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
      },
      refOf(pod),
      `Deleting Pod ${pod.metadata.name} of DaemonSet ${ds.metadata.name}: ${why}`,
      cause,
    );
    if (isOk(res)) {
      pass.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      return undefined;
    }
    if (res.code === 404) return undefined;
    if (res.code !== 0)
      pass.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorText(res)}`);
    return errorText(res);
  }

  /** updateDaemonSetStatus: counts per node, from the pod each node runs. */
  private updateStatus(
    ds: DaemonSet,
    plans: NodePlan[],
    hash: string,
    pass: Pass,
    cause?: number,
  ): boolean {
    const generation = templateGeneration(ds);
    const minReady = ds.spec.minReadySeconds ?? 0;
    const nowEpoch = pass.nowEpoch;
    let desired = 0;
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let available = 0;
    let updated = 0;
    let nextAvailable: number | undefined;
    for (const plan of plans) {
      const pod = plan.pods[0];
      if (!plan.shouldRun) {
        if (plan.all.length) misscheduled++;
        continue;
      }
      desired++;
      if (!pod) continue;
      current++;
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReady, nowEpoch)) available++;
        else {
          const at = availableAt(pod, minReady);
          if (at !== undefined) nextAvailable = Math.min(nextAvailable ?? at, at);
        }
      }
      if (isPodUpdated(pod, hash, generation)) updated++;
    }
    const status: NonNullable<DaemonSet['status']> = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
      ...(ds.metadata.generation !== undefined
        ? { observedGeneration: ds.metadata.generation }
        : {}),
      updatedNumberScheduled: updated,
      numberAvailable: available,
      ...(desired - available > 0 ? { numberUnavailable: desired - available } : {}),
      ...(ds.status?.collisionCount !== undefined
        ? { collisionCount: ds.status.collisionCount }
        : {}),
    };
    if (nextAvailable !== undefined)
      pass.requeueAt(keyOf(ds), pass.now + Math.max(0, nextAvailable - nowEpoch) + 1000);
    if (sameStatus(ds.status, status)) return true;
    const res = pass.write(
      {
        verb: 'update',
        resource: 'daemonsets',
        subresource: 'status',
        namespace: ds.metadata.namespace,
        name: ds.metadata.name,
        body: { ...ds, status },
      },
      refOf(ds),
      `Updating status of DaemonSet ${ds.metadata.name}: desired ${desired}, current ${current}, ready ${ready}, up-to-date ${updated}, available ${available}`,
      cause,
    );
    return isOk(res) || (res.code === 404 && isStatus(res.body));
  }
}

function ownerRefTo(ds: DaemonSet): OwnerReference {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    name: ds.metadata.name as string,
    uid: ds.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Labels and taints decide the plan; a status-only node update does not. */
function schedulingSignature(node: Node): string {
  return hex16(JSON.stringify([node.metadata.labels ?? {}, node.spec?.taints ?? []]));
}

function sameStatus(a: DaemonSet['status'], b: NonNullable<DaemonSet['status']>): boolean {
  if (!a) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
