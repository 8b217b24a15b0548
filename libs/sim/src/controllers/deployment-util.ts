// Pure helpers of the deployment controller, ported from k/k pkg/controller/deployment/util
// (deployment_util.go) and the rolling/recreate/sync files: fenceposts, how far the new
// ReplicaSet may scale up, how far old ones may scale down, revisions, status and conditions.
// No I/O here, so every rule has a table test.

import type { Condition, Deployment, PodTemplateSpec, ReplicaSet } from '../model';
import { parseIso } from '../shared/time';
import { stableEqual } from './stable-equal';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

/** Annotations a Deployment never copies onto its ReplicaSets (skipCopyAnnotation). */
const SKIP_COPY = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

// Condition reasons (deployment_util.go).
export const REASON = {
  NewRS: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  RSUpdated: 'ReplicaSetUpdated',
  NewRSAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  FailedRSCreate: 'ReplicaSetCreateError',
  Paused: 'DeploymentPaused',
  Resumed: 'DeploymentResumed',
  MinAvailable: 'MinimumReplicasAvailable',
  MinUnavailable: 'MinimumReplicasUnavailable',
} as const;

export interface ResolvedDeployment {
  replicas: number;
  strategy: 'RollingUpdate' | 'Recreate';
  maxSurge: number | string;
  maxUnavailable: number | string;
  revisionHistoryLimit: number;
  /** undefined = no deadline (MaxInt32) */
  progressDeadlineSeconds?: number;
  minReadySeconds: number;
  paused: boolean;
}

/** Defaults of k/k pkg/apis/apps/v1/defaults.go, in case the object reached us without them. */
export function resolveSpec(d: Deployment): ResolvedDeployment {
  const s = d.spec;
  const strategy = s.strategy?.type ?? 'RollingUpdate';
  const pds = s.progressDeadlineSeconds ?? 600;
  return {
    replicas: s.replicas ?? 1,
    strategy,
    maxSurge: s.strategy?.rollingUpdate?.maxSurge ?? '25%',
    maxUnavailable: s.strategy?.rollingUpdate?.maxUnavailable ?? '25%',
    revisionHistoryLimit: s.revisionHistoryLimit ?? 10,
    progressDeadlineSeconds: pds >= 2147483647 ? undefined : pds,
    minReadySeconds: s.minReadySeconds ?? 0,
    paused: s.paused === true,
  };
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(v: number | string, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = v.match(/^(\d+)%$/);
  if (!m) {
    const n = Number(v);
    return Number.isInteger(n) ? n : 0;
  }
  const raw = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(raw) : Math.floor(raw);
}

/** ResolveFenceposts: surge rounds up, unavailable rounds down; both 0 → unavailable 1. */
export function resolveFenceposts(
  maxSurge: number | string | undefined,
  maxUnavailable: number | string | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: ResolvedDeployment): number {
  if (d.strategy !== 'RollingUpdate') return 0;
  return resolveFenceposts(d.maxSurge, d.maxUnavailable, d.replicas).surge;
}

export function maxUnavailable(d: ResolvedDeployment): number {
  if (d.strategy !== 'RollingUpdate' || d.replicas === 0) return 0;
  const { unavailable } = resolveFenceposts(d.maxSurge, d.maxUnavailable, d.replicas);
  return Math.min(unavailable, d.replicas);
}

export function rsReplicas(rs: ReplicaSet): number {
  return rs.spec.replicas ?? 1;
}

export function sumSpecReplicas(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + rsReplicas(rs), 0);
}
export function sumStatusReplicas(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
}
export function sumReady(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + (rs.status?.readyReplicas ?? 0), 0);
}
export function sumAvailable(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
}

/** NewRSNewReplicas: how many replicas the new ReplicaSet may have right now. */
export function newRSNewReplicas(
  d: ResolvedDeployment,
  allRSs: ReplicaSet[],
  newRS: ReplicaSet,
): number {
  if (d.strategy === 'Recreate') return d.replicas;
  const surge = scaledValue(d.maxSurge, d.replicas, true);
  const current = sumSpecReplicas(allRSs);
  const maxTotal = d.replicas + surge;
  if (current >= maxTotal) return rsReplicas(newRS);
  const up = Math.min(maxTotal - current, d.replicas - rsReplicas(newRS));
  return rsReplicas(newRS) + up;
}

/**
 * reconcileOldReplicaSets: the new sizes of old ReplicaSets in one rolling step. First unhealthy
 * replicas (spec − available) are cleaned up, oldest first, within maxScaledDown; then healthy
 * ones are scaled down as long as available pods stay ≥ replicas − maxUnavailable.
 */
export function planOldScaleDown(
  d: ResolvedDeployment,
  allRSs: ReplicaSet[],
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
): Map<string, number> {
  const plan = new Map<string, number>();
  const size = (rs: ReplicaSet): number => plan.get(rs.metadata.name as string) ?? rsReplicas(rs);
  const oldPods = sumSpecReplicas(oldRSs);
  if (oldPods === 0) return plan;
  const allPods = sumSpecReplicas(allRSs);
  const minAvailable = d.replicas - maxUnavailable(d);
  const newUnavailable = rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return plan;
  const sorted = [...oldRSs].sort(byCreation);
  // cleanupUnhealthyReplicas
  let cleaned = 0;
  for (const rs of sorted) {
    if (cleaned >= maxScaledDown) break;
    const replicas = rsReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === available) continue;
    const down = Math.min(maxScaledDown - cleaned, replicas - available);
    plan.set(rs.metadata.name as string, replicas - down);
    cleaned += down;
  }
  // scaleDownOldReplicaSetsForRollingUpdate (available counts come from status, unchanged)
  const available = sumAvailable([...oldRSs, newRS]);
  if (available <= minAvailable) return plan;
  const total = available - minAvailable;
  let scaled = 0;
  for (const rs of sorted) {
    if (scaled >= total) break;
    const replicas = size(rs);
    if (replicas === 0) continue;
    const down = Math.min(replicas, total - scaled);
    plan.set(rs.metadata.name as string, replicas - down);
    scaled += down;
  }
  return plan;
}

export function creationMs(obj: { metadata: { creationTimestamp?: string } }): number {
  const t = parseIso(obj.metadata.creationTimestamp);
  return Number.isNaN(t) ? 0 : t;
}

/** ReplicaSetsByCreationTimestamp (ties by name). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const d = creationMs(a) - creationMs(b);
  if (d !== 0) return d;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** ReplicaSetsBySizeNewer (scale up: larger first, newer first on ties). */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  if (rsReplicas(a) !== rsReplicas(b)) return rsReplicas(b) - rsReplicas(a);
  return -byCreation(a, b);
}
/** ReplicaSetsBySizeOlder (scale down: larger first, older first on ties). */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  if (rsReplicas(a) !== rsReplicas(b)) return rsReplicas(b) - rsReplicas(a);
  return byCreation(a, b);
}

export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number {
  const v = obj.metadata.annotations?.[REVISION_ANNOTATION];
  const n = v === undefined ? 0 : Number(v);
  return Number.isInteger(n) ? n : 0;
}

export function maxRevision(rss: ReplicaSet[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

/** Template without the pod-template-hash label, for EqualIgnoreHash. */
function withoutHash(t: PodTemplateSpec): PodTemplateSpec {
  const labels = { ...(t.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH_LABEL];
  const metadata = { ...(t.metadata ?? {}), labels };
  return { ...t, metadata };
}

export function equalIgnoreHash(a: PodTemplateSpec, b: PodTemplateSpec): boolean {
  if (!Object.isFrozen(a) || !Object.isFrozen(b))
    return stableEqual(withoutHash(a), withoutHash(b));
  let known = templateComparisons.get(a);
  let equal = known?.get(b);
  if (equal === undefined) {
    equal = stableEqual(withoutHash(a), withoutHash(b));
    if (!known) templateComparisons.set(a, (known = new WeakMap()));
    known.set(b, equal);
  }
  return equal;
}

// Every sync of a Deployment compares its template with each of its ReplicaSets'; both are the
// informers' frozen objects, kept across status writes, so each pair is compared once.
const templateComparisons = new WeakMap<PodTemplateSpec, WeakMap<PodTemplateSpec, boolean>>();

/** FindNewReplicaSet: the oldest RS whose template equals the Deployment's. */
export function findNewReplicaSet(d: Deployment, rss: ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

export function activeRSs(rss: ReplicaSet[]): ReplicaSet[] {
  return rss.filter((rs) => rsReplicas(rs) > 0);
}

/** FindActiveOrLatest: the only active RS, or the newest if none is active, else undefined. */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: ReplicaSet[],
): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const all = [...oldRSs, ...(newRS ? [newRS] : [])].sort((a, b) => -byCreation(a, b));
  const active = activeRSs(all);
  if (active.length === 0) return all[0];
  if (active.length === 1) return active[0];
  return undefined;
}

export function isSaturated(d: ResolvedDeployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = Number(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION]);
  return (
    rsReplicas(rs) === d.replicas &&
    desired === d.replicas &&
    (rs.status?.availableReplicas ?? 0) === d.replicas
  );
}

/**
 * The proportional scaling of `scale()` when a Deployment is resized during a rollout: the extra
 * (or missing) replicas are spread over the active ReplicaSets by their share of max-replicas.
 */
export function planProportionalScale(
  d: ResolvedDeployment,
  active: ReplicaSet[],
  statusReplicas: number,
): { sizes: Map<string, number>; order: ReplicaSet[]; op: 'up' | 'down' | '' } {
  const allowed = d.replicas > 0 ? d.replicas + maxSurge(d) : 0;
  const toAdd = allowed - sumSpecReplicas(active);
  const order =
    toAdd > 0
      ? [...active].sort(bySizeNewer)
      : toAdd < 0
        ? [...active].sort(bySizeOlder)
        : [...active];
  const sizes = new Map<string, number>();
  let added = 0;
  for (const rs of order) {
    if (toAdd !== 0) {
      const p = proportion(rs, d, toAdd, added, statusReplicas);
      sizes.set(rs.metadata.name as string, rsReplicas(rs) + p);
      added += p;
    } else sizes.set(rs.metadata.name as string, rsReplicas(rs));
  }
  const first = order[0];
  if (first && toAdd !== 0) {
    const name = first.metadata.name as string;
    sizes.set(name, Math.max(0, (sizes.get(name) as number) + toAdd - added));
  }
  return { sizes, order, op: toAdd > 0 ? 'up' : toAdd < 0 ? 'down' : '' };
}

function proportion(
  rs: ReplicaSet,
  d: ResolvedDeployment,
  toAdd: number,
  added: number,
  statusReplicas: number,
): number {
  if (rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (d.replicas === 0) fraction = -rsReplicas(rs);
  else {
    const maxReplicas = d.replicas + maxSurge(d);
    let before = Number(rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION]);
    if (!Number.isInteger(before) || before === 0) before = statusReplicas;
    fraction =
      before === 0 ? 0 : Math.round((rsReplicas(rs) * maxReplicas) / before) - rsReplicas(rs);
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** SetReplicasAnnotations; returns true when something changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  if (a[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    a[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (a[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    a[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(
  rs: ReplicaSet,
  desired: number,
  max: number,
): boolean {
  const a = rs.metadata.annotations ?? {};
  return (
    a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max)
  );
}

/** SetNewReplicaSetAnnotations: copy the Deployment's annotations, bump the revision, keep history. */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
  resolved: ResolvedDeployment,
): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {}).sort(([x], [y]) =>
    x < y ? -1 : 1,
  )) {
    if (SKIP_COPY.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const oldRevisionText = a[REVISION_ANNOTATION];
  const oldRevision = oldRevisionText === undefined ? 0 : Number(oldRevisionText);
  if (oldRevision < newRevision) {
    a[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    // A rollback reuses an old ReplicaSet: remember the revisions it used to have.
    if (oldRevisionText !== undefined) {
      const history = a[REVISION_HISTORY_ANNOTATION] ?? '';
      let parts = history === '' ? [] : history.split(',');
      let total = history.length + oldRevisionText.length + 1;
      while (total > MAX_REV_HISTORY_LENGTH_IN_CHARS && parts.length > 0) {
        total -= (parts[0] as string).length + 1;
        parts = parts.slice(1);
      }
      a[REVISION_HISTORY_ANNOTATION] = [...parts, oldRevisionText].join(',');
    }
  }
  if (
    !exists &&
    setReplicasAnnotations(rs, resolved.replicas, resolved.replicas + maxSurge(resolved))
  )
    changed = true;
  return changed;
}

export type DeploymentStatus = NonNullable<Deployment['status']>;

export function getCondition(
  status: DeploymentStatus | undefined,
  type: string,
): Condition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function newCondition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  nowIso: string,
): Condition {
  return { type, status, lastUpdateTime: nowIso, lastTransitionTime: nowIso, reason, message };
}

/** SetDeploymentCondition: unchanged when status and reason match; keeps lastTransitionTime when status matches. */
export function setCondition(status: DeploymentStatus, cond: Condition): void {
  const current = getCondition(status, cond.type);
  if (current && current.status === cond.status && current.reason === cond.reason) return;
  const next = { ...cond };
  if (current && current.status === cond.status)
    next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== cond.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
  if (status.conditions.length === 0) delete status.conditions;
}

/** calculateStatus of sync.go. */
export function calculateStatus(
  allRSs: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  resolved: ResolvedDeployment,
  nowIso: string,
): DeploymentStatus {
  const available = sumAvailable(allRSs);
  const total = sumSpecReplicas(allRSs);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 1,
    replicas: sumStatusReplicas(allRSs),
    updatedReplicas: newRS ? (newRS.status?.replicas ?? 0) : 0,
    readyReplicas: sumReady(allRSs),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (d.status?.conditions) status.conditions = d.status.conditions.map((c) => ({ ...c }));
  if (available >= resolved.replicas - maxUnavailable(resolved)) {
    setCondition(
      status,
      newCondition(
        'Available',
        'True',
        REASON.MinAvailable,
        'Deployment has minimum availability.',
        nowIso,
      ),
    );
  } else {
    setCondition(
      status,
      newCondition(
        'Available',
        'False',
        REASON.MinUnavailable,
        'Deployment does not have minimum availability.',
        nowIso,
      ),
    );
  }
  return status;
}

export function deploymentComplete(
  d: Deployment,
  resolved: ResolvedDeployment,
  s: DeploymentStatus,
): boolean {
  return (
    (s.updatedReplicas ?? 0) === resolved.replicas &&
    (s.replicas ?? 0) === resolved.replicas &&
    (s.availableReplicas ?? 0) === resolved.replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 1)
  );
}

export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** DeploymentTimedOut, with `nowEpochMs` on the same clock as condition timestamps. */
export function deploymentTimedOut(
  resolved: ResolvedDeployment,
  s: DeploymentStatus,
  nowEpochMs: number,
): boolean {
  if (resolved.progressDeadlineSeconds === undefined) return false;
  const cond = getCondition(s, 'Progressing');
  if (!cond) return false;
  if (cond.reason === REASON.NewRSAvailable) return false;
  if (cond.reason === REASON.TimedOut) return true;
  const from = parseIso(cond.lastUpdateTime);
  return from + resolved.progressDeadlineSeconds * 1000 < nowEpochMs;
}

/** ReplicaSetsByRevision for cleanup: lowest revision first, ties by creation. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const d = revisionOf(a) - revisionOf(b);
  return d !== 0 ? d : byCreation(a, b);
}

/** cleanupDeployment: old ReplicaSets at 0 replicas beyond revisionHistoryLimit, oldest revision first. */
export function replicaSetsToPrune(oldRSs: ReplicaSet[], limit: number): ReplicaSet[] {
  const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = cleanable.length - limit;
  if (diff <= 0) return [];
  return [...cleanable]
    .sort(byRevision)
    .slice(0, diff)
    .filter(
      (rs) =>
        (rs.status?.replicas ?? 0) === 0 &&
        rsReplicas(rs) === 0 &&
        (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0),
    );
}
