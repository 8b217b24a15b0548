// DefaultPreemption's PostFilter (pkg/scheduler/framework/preemption, plugins/defaultpreemption):
// when no node fits, would evicting lower-priority pods help? Nodes rejected with
// UnschedulableAndUnresolvable (taints, selectors, cordons) cannot be helped; on the others the
// dry run removes every lower-priority pod, re-runs the filters, then reprieves as many victims
// as possible. No candidate gives the `preemption: 0/N nodes are available: ...` message.

import type { Pod } from '../../model';
import type { Profile } from '../plugins/default-plugins';
import type { Diagnosis } from './fit-error';
import { formatFitError } from './fit-error';
import type { NodeInfo, Snapshot } from './node-info';
import { addPodToNodeInfo, createNodeInfo, podKey } from './node-info';
import type { Status } from './plugin-types';
import { unresolvable } from './plugin-types';
import { runFilters, runPreFilters } from './schedule-one';

export const ERR_PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const ERR_NO_VICTIMS = 'No preemption victims found for incoming pod';
export const ERR_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const ERR_TERMINATING_ON_NOMINATED =
  'not eligible due to a terminating pod on the nominated node.';

export interface PreemptionCandidate {
  node: string;
  victims: Pod[];
}

export interface PreemptionResult {
  /** the PostFilter status message ('' on success) */
  message: string;
  candidate?: PreemptionCandidate;
}

export function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

function rebuildNodeInfo(info: NodeInfo, pods: Pod[]): NodeInfo {
  const fresh = createNodeInfo(info.node);
  for (const [k, v] of info.imageStates) fresh.imageStates.set(k, v);
  for (const p of pods) addPodToNodeInfo(fresh, p);
  return fresh;
}

function withNode(snapshot: Snapshot, replaced: NodeInfo): Snapshot {
  const nodes = snapshot.nodes.map((n) => (n.name === replaced.name ? replaced : n));
  return { ...snapshot, nodes, get: (name) => nodes.find((n) => n.name === name) };
}

function fits(pod: Pod, info: NodeInfo, snapshot: Snapshot, profile: Profile): Status {
  const snap = withNode(snapshot, info);
  const pre = runPreFilters(pod, snap, profile);
  if (pre.rejected) return pre.rejected.status;
  return runFilters(pod, info, pre, snap, profile).status;
}

/** SelectVictimsOnNode: remove all lower-priority pods, check the fit, then reprieve greedily. */
function selectVictimsOnNode(
  pod: Pod,
  info: NodeInfo,
  snapshot: Snapshot,
  profile: Profile,
): { victims: Pod[] } | { status: Status } {
  const prio = podPriority(pod);
  const potential = info.pods.filter((p) => podPriority(p) < prio);
  if (potential.length === 0) return { status: unresolvable(ERR_NO_VICTIMS) };
  const remaining = info.pods.filter((p) => podPriority(p) >= prio);
  const status = fits(pod, rebuildNodeInfo(info, remaining), snapshot, profile);
  if (status.code !== 'Success') return { status };
  // Most important first: higher priority, then the one that started earlier.
  const ordered = [...potential].sort(
    (a, b) =>
      podPriority(b) - podPriority(a) ||
      (a.status?.startTime ?? '').localeCompare(b.status?.startTime ?? '') ||
      podKey(a).localeCompare(podKey(b)),
  );
  const kept = [...remaining];
  const victims: Pod[] = [];
  for (const p of ordered) {
    const trial = rebuildNodeInfo(info, [...kept, p]);
    if (fits(pod, trial, snapshot, profile).code === 'Success') kept.push(p);
    else victims.push(p);
  }
  return { victims };
}

/** pickOneNodeForPreemption: lowest top victim priority, lowest priority sum, fewest victims. */
function pickCandidate(candidates: PreemptionCandidate[]): PreemptionCandidate | undefined {
  const key = (c: PreemptionCandidate): number[] => [
    Math.max(...c.victims.map(podPriority)),
    c.victims.reduce((s, v) => s + podPriority(v) + 2 ** 31, 0),
    c.victims.length,
  ];
  let best: PreemptionCandidate | undefined;
  for (const c of candidates) {
    if (!best) {
      best = c;
      continue;
    }
    const a = key(c);
    const b = key(best);
    for (let i = 0; i < a.length; i++) {
      if ((a[i] as number) < (b[i] as number)) {
        best = c;
        break;
      }
      if ((a[i] as number) > (b[i] as number)) break;
    }
  }
  return best;
}

export function runPreemption(
  pod: Pod,
  snapshot: Snapshot,
  diagnosis: Diagnosis,
  profile: Profile,
): PreemptionResult {
  if (pod.spec.preemptionPolicy === 'Never') return { message: ERR_POLICY_NEVER };
  const nominated = pod.status?.nominatedNodeName;
  if (nominated) {
    const info = snapshot.get(nominated);
    const prio = podPriority(pod);
    if (info?.pods.some((p) => p.metadata.deletionTimestamp && podPriority(p) < prio)) {
      return { message: ERR_TERMINATING_ON_NOMINATED };
    }
  }
  const statuses = new Map<string, Status>();
  const candidates: PreemptionCandidate[] = [];
  for (const info of snapshot.nodes) {
    const status = diagnosis.nodeToStatus.get(info.name) ?? diagnosis.absentStatus;
    if (!status || status.code === 'UnschedulableAndUnresolvable') {
      statuses.set(info.name, unresolvable(ERR_PREEMPTION_NOT_HELPFUL));
      continue;
    }
    const r = selectVictimsOnNode(pod, info, snapshot, profile);
    if ('status' in r) statuses.set(info.name, r.status);
    else candidates.push({ node: info.name, victims: r.victims });
  }
  const best = pickCandidate(candidates);
  if (best) return { message: '', candidate: best };
  const inner = formatFitError(snapshot.nodes.length, {
    nodeToStatus: statuses,
    absentStatus: unresolvable(ERR_PREEMPTION_NOT_HELPFUL),
  });
  return { message: `preemption: ${inner}` };
}
