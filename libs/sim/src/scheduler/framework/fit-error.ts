// FitError.Error() of v1.32 (pkg/scheduler/framework/types.go): the message users read in
// `kubectl describe pod` under FailedScheduling and in the PodScheduled condition.

import type { Status } from './plugin-types';

export const NO_NODE_AVAILABLE_MSG = '0/%v nodes are available';
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

export interface Diagnosis {
  /** node name -> the status of the plugin that rejected it */
  nodeToStatus: Map<string, Status>;
  /** status of every node missing from nodeToStatus (e.g. narrowed away by a PreFilter) */
  absentStatus?: Status;
  /** a PreFilter rejection replaces the histogram */
  preFilterMsg?: string;
  /** DefaultPreemption's message, already prefixed with `preemption: ` */
  postFilterMsg?: string;
}

export function statusMessage(s: Status): string {
  return 'reasons' in s ? s.reasons.join(', ') : '';
}

export function formatFitError(numAllNodes: number, d: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg) {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const reasons = new Map<string, number>();
    for (const status of d.nodeToStatus.values()) {
      for (const r of 'reasons' in status ? status.reasons : []) {
        reasons.set(r, (reasons.get(r) ?? 0) + 1);
      }
    }
    const absent = numAllNodes - d.nodeToStatus.size;
    if (absent > 0 && d.absentStatus && 'reasons' in d.absentStatus) {
      for (const r of d.absentStatus.reasons) reasons.set(r, (reasons.get(r) ?? 0) + absent);
    }
    // sort.Strings over "%v %v" (count, reason): plain byte order, so "10 x" sorts before "2 y".
    const entries = [...reasons.entries()].map(([r, n]) => `${n} ${r}`).sort(byteOrder);
    if (entries.length > 0) msg += ` ${entries.join(', ')}.`;
  }
  if (d.postFilterMsg) msg += ` ${d.postFilterMsg}`;
  return msg;
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
