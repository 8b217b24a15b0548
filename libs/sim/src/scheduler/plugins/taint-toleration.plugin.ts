// TaintToleration (pkg/scheduler/framework/plugins/tainttoleration): Filter rejects nodes with a
// NoSchedule/NoExecute taint the pod does not tolerate; Score counts untolerated
// PreferNoSchedule taints (fewer is better, so the normalized score is reversed).

import type { Pod, Taint, Toleration } from '../../model';
import type { FilterPlugin, ScorePlugin, Status } from '../framework/plugin-types';
import { defaultNormalizeScore, SUCCESS, unresolvable } from '../framework/plugin-types';

export const TAINT_TOLERATION = 'TaintToleration';

/** v1.25–1.33 wording: the first untolerated taint, with key and value. */
export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

/** v1.Toleration.ToleratesTaint */
export function toleratesTaint(
  t: Toleration,
  taint: Pick<Taint, 'key' | 'value' | 'effect'>,
): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

// Loops rather than some/find/filter with closures: these run for every node of every cycle.
export function tolerationsTolerateTaint(
  tolerations: Toleration[] | undefined,
  taint: Pick<Taint, 'key' | 'value' | 'effect'>,
): boolean {
  if (!tolerations) return false;
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc, in the node's taint order. */
export function findUntoleratedTaint(taints: Taint[] | undefined, pod: Pod): Taint | undefined {
  if (!taints) return undefined;
  for (const taint of taints) {
    if (
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
      !tolerationsTolerateTaint(pod.spec.tolerations, taint)
    )
      return taint;
  }
  return undefined;
}

export const taintTolerationPlugin: FilterPlugin & ScorePlugin<Toleration[]> = {
  name: TAINT_TOLERATION,
  events: ['NodeAdd', 'NodeTaint', 'UnscheduledPodUpdate'],
  filter(pod, node): Status {
    const taint = findUntoleratedTaint(node.taints, pod);
    return taint ? unresolvable(untoleratedTaintReason(taint)) : SUCCESS;
  },
  preScore(pod) {
    // getAllTolerationPreferNoSchedule: only tolerations that can match PreferNoSchedule taints.
    const state = (pod.spec.tolerations ?? []).filter(
      (t) => !t.effect || t.effect === 'PreferNoSchedule',
    );
    return { skip: false, state };
  },
  score(_pod, node, tolerations) {
    const taints = node.taints;
    if (!taints) return 0;
    // an index loop: for-of here left an iterator per node of every cycle
    let untolerated = 0;
    for (let i = 0; i < taints.length; i++) {
      const taint = taints[i] as Taint;
      if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, taint))
        untolerated++;
    }
    return untolerated;
  },
  normalize(scores) {
    return defaultNormalizeScore(scores, true);
  },
};
