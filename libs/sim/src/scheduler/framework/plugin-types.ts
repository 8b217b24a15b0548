// The scheduling framework's extension points, as TypeScript values instead of Go interfaces:
// a plugin returns a Status value (never throws), and the framework records every verdict so the
// UI can explain why a node won or why none fit.

import type { Pod } from '../../model';
import type { NodeInfo, Snapshot } from './node-info';

export const MAX_NODE_SCORE = 100;

export type StatusCode = 'Success' | 'Skip' | 'Unschedulable' | 'UnschedulableAndUnresolvable';

export type Status =
  | { code: 'Success' }
  | { code: 'Skip' }
  | { code: 'Unschedulable' | 'UnschedulableAndUnresolvable'; reasons: string[] };

export const SUCCESS: Status = { code: 'Success' };
export const SKIP: Status = { code: 'Skip' };

export function unschedulable(...reasons: string[]): Status {
  return { code: 'Unschedulable', reasons };
}

export function unresolvable(...reasons: string[]): Status {
  return { code: 'UnschedulableAndUnresolvable', reasons };
}

export function isRejected(s: Status): s is Extract<Status, { reasons: string[] }> {
  return s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable';
}

/** Cluster events a plugin's rejection can be cured by (EventsToRegister / queueing hints). */
export type ClusterEvent =
  | 'NodeAdd'
  | 'NodeDelete'
  | 'NodeAllocatable'
  | 'NodeLabel'
  | 'NodeTaint'
  | 'NodeCondition'
  | 'NodeAnnotation'
  | 'AssignedPodAdd'
  | 'AssignedPodUpdate'
  | 'AssignedPodDelete'
  | 'UnscheduledPodUpdate'
  | 'PvcChange'
  | 'PvChange'
  | 'StorageClassChange';

export interface PreFilterResult<S> {
  status: Status;
  state?: S;
}

export interface FilterPlugin<S = unknown> {
  readonly name: string;
  /** Skip means the plugin has nothing to check for this pod: its Filter is not run. */
  preFilter?(pod: Pod, snapshot: Snapshot): PreFilterResult<S>;
  filter(pod: Pod, node: NodeInfo, state: S | undefined, snapshot: Snapshot): Status;
  readonly events: readonly ClusterEvent[];
}

export interface PreScoreResult<S> {
  skip: boolean;
  state?: S;
}

export interface ScorePlugin<S = unknown> {
  readonly name: string;
  /** Skip means this plugin does not score this pod at all (contributes nothing). */
  preScore?(pod: Pod, feasible: NodeInfo[], snapshot: Snapshot): PreScoreResult<S>;
  score(pod: Pod, node: NodeInfo, state: S | undefined, snapshot: Snapshot): number;
  /**
   * NormalizeScore: maps the raw scores of `nodes` (same order) onto 0..100; absent when the raw
   * score already is. Plain numbers, not (node, score) pairs: it runs in every cycle.
   */
  normalize?(scores: readonly number[], nodes: readonly NodeInfo[], state: S | undefined): number[];
}

/** helper.DefaultNormalizeScore: scale to the max (optionally reversed: fewer is better). */
export function defaultNormalizeScore(scores: readonly number[], reverse: boolean): number[] {
  let max = 0;
  for (let i = 0; i < scores.length; i++) max = Math.max(max, scores[i] as number);
  const out = new Array<number>(scores.length);
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    if (max === 0) {
      out[i] = reverse ? MAX_NODE_SCORE : s;
      continue;
    }
    const v = Math.trunc((MAX_NODE_SCORE * s) / max);
    out[i] = reverse ? MAX_NODE_SCORE - v : v;
  }
  return out;
}
