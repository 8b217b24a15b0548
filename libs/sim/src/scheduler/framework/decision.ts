// The decision record of one scheduling attempt, kept for the UI (like kube-scheduler-simulator's
// result store): every node, every plugin verdict with its reasons, every score before and after
// normalization and weighting, and the winner.

import type { StatusCode } from './plugin-types';

export type FilterVerdictKind = 'pass' | 'fail' | 'skip' | 'not-run';

export interface FilterVerdict {
  plugin: string;
  /** skip: PreFilter said there is nothing to check; not-run: an earlier plugin already rejected */
  verdict: FilterVerdictKind;
  code?: StatusCode;
  reasons?: string[];
}

export interface ScoreEntry {
  plugin: string;
  weight: number;
  raw: number;
  normalized: number;
  weighted: number;
}

export interface NodeDecision {
  node: string;
  /** false when the node was not examined at all (sampling over 100+ nodes, PreFilter narrowing) */
  evaluated: boolean;
  feasible: boolean;
  filters: FilterVerdict[];
  scores: ScoreEntry[];
  total: number | null;
}

export interface PreFilterVerdict {
  plugin: string;
  verdict: 'pass' | 'skip' | 'fail';
  reasons?: string[];
  /** NodeAffinity can narrow the candidates to named nodes */
  nodeNames?: string[];
}

export interface PostFilterRecord {
  plugin: 'DefaultPreemption';
  /** the `preemption: ...` message, or '' when a candidate node was found */
  message: string;
  nominatedNode?: string;
  victims?: string[];
}

export type DecisionOutcome = 'scheduled' | 'unschedulable' | 'error';

export interface SchedulingDecision {
  namespace: string;
  name: string;
  uid?: string;
  /** 1 for the first try, counting every attempt of this pod */
  attempt: number;
  /** sim ms of the attempt */
  t: number;
  outcome: DecisionOutcome;
  /** the winner (scheduled) */
  node: string | null;
  /** FitError message (unschedulable) or error text */
  message: string | null;
  numAllNodes: number;
  evaluatedNodes: number;
  feasibleNodes: number;
  preFilter: PreFilterVerdict[];
  nodes: NodeDecision[];
  scorePlugins: { plugin: string; weight: number; skipped: boolean }[];
  /** with one feasible node the framework skips scoring entirely */
  scoringSkipped: boolean;
  /** nodes sharing the highest total (the winner was drawn among them) */
  tiedNodes: string[];
  postFilter?: PostFilterRecord;
  /** set when the binding failed after a successful scheduling cycle */
  bindError?: string;
}
