// Pod predicates the controllers share (k/k pkg/api/v1/pod/util.go, controller_utils.go).

import type { Condition, Pod } from '../model';
import { parseIso } from '../shared/time';

export function podCondition(pod: Pod, type: string): Condition | undefined {
  // an index loop, not find with a closure nor for-of over the frozen array (a generic iterator):
  // every controller asks this of every pod it looks at
  const conditions = pod.status?.conditions;
  if (!conditions) return undefined;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i] as Condition;
    if (c.type === type) return c;
  }
  return undefined;
}

export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/** Ready for at least minReadySeconds (IsPodAvailable), on the timestamps' clock. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowEpochMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = parseIso(podCondition(pod, 'Ready')?.lastTransitionTime);
  return !Number.isNaN(since) && since + minReadySeconds * 1000 <= nowEpochMs;
}

/** Epoch ms at which a ready pod becomes available, or undefined. */
export function availableAt(pod: Pod, minReadySeconds: number): number | undefined {
  if (!isPodReady(pod) || minReadySeconds <= 0) return undefined;
  const since = parseIso(podCondition(pod, 'Ready')?.lastTransitionTime);
  return Number.isNaN(since) ? undefined : since + minReadySeconds * 1000;
}

/** FilterActivePods: not terminal and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * ActivePodsWithRanks.Less: which pods a ReplicaSet deletes first when it has too many.
 * Unscheduled before scheduled, Pending before Running, not ready before ready, higher
 * deletion cost last, doubled-up (rank) first, ready for less time first, more restarts first,
 * newer first.
 */
export function comparePodsForDeletion(a: Pod, b: Pod, rank: (p: Pod) => number): number {
  const assigned = (p: Pod): number => (p.spec.nodeName ? 1 : 0);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Pod): number => PHASE_RANK[p.status?.phase ?? 'Pending'] ?? 0;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Pod): number => (isPodReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  const cost = (p: Pod): number =>
    Number(p.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? 0) || 0;
  if (cost(a) !== cost(b)) return cost(a) - cost(b);
  if (rank(a) !== rank(b)) return rank(b) - rank(a);
  if (isPodReady(a) && isPodReady(b)) {
    const ta = parseIso(podCondition(a, 'Ready')?.lastTransitionTime);
    const tb = parseIso(podCondition(b, 'Ready')?.lastTransitionTime);
    if (ta !== tb) return tb - ta;
  }
  const restarts = (p: Pod): number =>
    Math.max(0, ...(p.status?.containerStatuses ?? []).map((c) => c.restartCount));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  const ca = parseIso(a.metadata.creationTimestamp);
  const cb = parseIso(b.metadata.creationTimestamp);
  if (ca !== cb) return (Number.isNaN(cb) ? 0 : cb) - (Number.isNaN(ca) ? 0 : ca);
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? 1 : -1;
}
