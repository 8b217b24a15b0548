// One scheduling cycle (pkg/scheduler/schedule_one.go schedulePod): PreFilter, Filter over the
// nodes (stopping per node at the first rejecting plugin), then — with two or more feasible nodes
// — PreScore, Score, NormalizeScore, weights, and selectHost's reservoir sampling among the
// top-scored nodes. Pure: the same snapshot and rng state give the same decision.

import type { Pod } from '../../model';
import type { Rng } from '../../runtime/rng';
import type { Profile } from '../plugins/default-plugins';
import type {
  FilterVerdict,
  NodeDecision,
  PreFilterVerdict,
  SchedulingDecision,
  ScoreEntry,
} from './decision';
import type { Diagnosis } from './fit-error';
import { ERR_NO_NODES_AVAILABLE, formatFitError, statusMessage } from './fit-error';
import type { NodeInfo, Snapshot } from './node-info';
import { addPodToNodeInfo, createNodeInfo, podKey } from './node-info';
import type { Status } from './plugin-types';
import { isRejected, SUCCESS, unresolvable } from './plugin-types';

export interface PreFilterOutcome {
  states: Map<string, unknown>;
  skipped: Set<string>;
  verdicts: PreFilterVerdict[];
  rejected?: { plugin: string; status: Status };
  /** PreFilterResult narrowing: only these nodes are candidates */
  nodeNames?: { plugins: string[]; names: Set<string> };
}

export function runPreFilters(pod: Pod, snapshot: Snapshot, profile: Profile): PreFilterOutcome {
  const out: PreFilterOutcome = { states: new Map(), skipped: new Set(), verdicts: [] };
  for (const p of profile.filters) {
    if (!p.preFilter) continue;
    const r = p.preFilter(pod, snapshot);
    if (r.status.code === 'Skip') {
      out.skipped.add(p.name);
      out.verdicts.push({ plugin: p.name, verdict: 'skip' });
      continue;
    }
    if (isRejected(r.status)) {
      out.verdicts.push({ plugin: p.name, verdict: 'fail', reasons: r.status.reasons });
      out.rejected = { plugin: p.name, status: r.status };
      return out;
    }
    out.states.set(p.name, r.state);
    const names = (r.state as { nodeNames?: string[] } | undefined)?.nodeNames;
    const verdict: PreFilterVerdict = { plugin: p.name, verdict: 'pass' };
    if (names) {
      verdict.nodeNames = names;
      const prev = out.nodeNames;
      out.nodeNames = {
        plugins: [...(prev?.plugins ?? []), p.name],
        names: prev ? new Set(names.filter((n) => prev.names.has(n))) : new Set(names),
      };
    }
    out.verdicts.push(verdict);
  }
  return out;
}

export interface FilterOutcome {
  status: Status;
  plugin?: string;
  verdicts: FilterVerdict[];
}

// pass/skip/not-run verdicts carry no per-node data: one frozen object per plugin and kind keeps
// a 100-node decision record from allocating hundreds of identical objects per cycle.
const verdictPool = new Map<string, Partial<Record<string, FilterVerdict>>>();

function sharedVerdict(plugin: string, verdict: 'pass' | 'skip' | 'not-run'): FilterVerdict {
  let byVerdict = verdictPool.get(plugin);
  if (!byVerdict) verdictPool.set(plugin, (byVerdict = {}));
  let v = byVerdict[verdict];
  if (!v) {
    v = Object.freeze(
      verdict === 'pass' ? { plugin, verdict, code: 'Success' as const } : { plugin, verdict },
    );
    byVerdict[verdict] = v;
  }
  return v;
}

/** RunFilterPlugins: the first rejection wins; later plugins are not run for this node. */
export function runFilters(
  pod: Pod,
  node: NodeInfo,
  pre: PreFilterOutcome,
  snapshot: Snapshot,
  profile: Profile,
): FilterOutcome {
  const verdicts: FilterVerdict[] = [];
  let rejected: { plugin: string; status: Status } | undefined;
  for (const p of profile.filters) {
    if (rejected) {
      verdicts.push(sharedVerdict(p.name, 'not-run'));
      continue;
    }
    if (pre.skipped.has(p.name)) {
      verdicts.push(sharedVerdict(p.name, 'skip'));
      continue;
    }
    const status = p.filter(pod, node, pre.states.get(p.name), snapshot);
    if (isRejected(status)) {
      verdicts.push({
        plugin: p.name,
        verdict: 'fail',
        code: status.code,
        reasons: status.reasons,
      });
      rejected = { plugin: p.name, status };
    } else {
      verdicts.push(sharedVerdict(p.name, 'pass'));
    }
  }
  return rejected
    ? { status: rejected.status, plugin: rejected.plugin, verdicts }
    : { status: SUCCESS, verdicts };
}

function filterWithNominated(
  pod: Pod,
  info: NodeInfo,
  pre: PreFilterOutcome,
  snapshot: Snapshot,
  profile: Profile,
  nominated: Map<string, Pod[]> | undefined,
): FilterOutcome {
  const prio = pod.spec.priority ?? 0;
  const key = podKey(pod);
  const others = (nominated?.get(info.name) ?? []).filter(
    (p) => (p.spec.priority ?? 0) >= prio && podKey(p) !== key,
  );
  if (others.length === 0) return runFilters(pod, info, pre, snapshot, profile);
  // Upstream runs the filters twice — with the nominated pods added and without — and the node
  // must pass both.
  const withNominated = createNodeInfo(info.node);
  for (const [k, v] of info.imageStates) withNominated.imageStates.set(k, v);
  for (const p of [...info.pods, ...others]) addPodToNodeInfo(withNominated, p);
  const first = runFilters(pod, withNominated, pre, snapshot, profile);
  if (first.plugin) return first;
  return runFilters(pod, info, pre, snapshot, profile);
}

/** numFeasibleNodesToFind with the adaptive percentage (percentageOfNodesToScore unset). */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  const MIN_FEASIBLE = 100;
  if (numAllNodes < MIN_FEASIBLE) return numAllNodes;
  const percentage = Math.max(5, 50 - Math.trunc(numAllNodes / 125));
  return Math.max(MIN_FEASIBLE, Math.trunc((numAllNodes * percentage) / 100));
}

export type CycleResult =
  | { kind: 'scheduled'; node: string }
  | {
      kind: 'unschedulable';
      diagnosis: Diagnosis;
      /** plugins that rejected at least one node (queueing hints use them) */
      unschedulablePlugins: string[];
      /** false when there are no nodes at all (ErrNoNodesAvailable: no PostFilter) */
      runPostFilter: boolean;
    };

export interface CycleOutput {
  decision: SchedulingDecision;
  result: CycleResult;
  pre: PreFilterOutcome;
  nextStartIndex: number;
}

export interface CycleInput {
  pod: Pod;
  snapshot: Snapshot;
  profile: Profile;
  rng: Rng;
  t: number;
  attempt: number;
  /** nextStartNodeIndex: where the previous cycle stopped (matters with 100+ nodes) */
  startIndex: number;
  /**
   * Pending pods nominated to a node by an earlier preemption (status.nominatedNodeName). Those
   * of equal or higher priority count as already placed there, so the space freed for them is
   * not taken by someone else (RunFilterPluginsWithNominatedPods).
   */
  nominated?: Map<string, Pod[]>;
}

export function scheduleOne(input: CycleInput): CycleOutput {
  const { pod, snapshot, profile } = input;
  const all = snapshot.nodes;
  const decision: SchedulingDecision = {
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name ?? '',
    uid: pod.metadata.uid,
    attempt: input.attempt,
    t: input.t,
    outcome: 'unschedulable',
    node: null,
    message: null,
    numAllNodes: all.length,
    evaluatedNodes: 0,
    feasibleNodes: 0,
    preFilter: [],
    nodes: all.map((n) => ({
      node: n.name,
      evaluated: false,
      feasible: false,
      filters: [],
      scores: [],
      total: null,
    })),
    scorePlugins: [],
    scoringSkipped: false,
    tiedNodes: [],
  };
  const byNode = new Map(decision.nodes.map((d) => [d.node, d]));
  const emptyPre: PreFilterOutcome = { states: new Map(), skipped: new Set(), verdicts: [] };
  if (all.length === 0) {
    decision.message = ERR_NO_NODES_AVAILABLE;
    const diagnosis: Diagnosis = { nodeToStatus: new Map() };
    return {
      decision,
      pre: emptyPre,
      nextStartIndex: input.startIndex,
      result: { kind: 'unschedulable', diagnosis, unschedulablePlugins: [], runPostFilter: false },
    };
  }

  const pre = runPreFilters(pod, snapshot, profile);
  decision.preFilter = pre.verdicts;
  if (pre.rejected) {
    const status = pre.rejected.status;
    const diagnosis: Diagnosis = {
      nodeToStatus: new Map(all.map((n) => [n.name, status])),
      preFilterMsg: statusMessage(status),
    };
    return {
      decision,
      pre,
      nextStartIndex: input.startIndex,
      result: {
        kind: 'unschedulable',
        diagnosis,
        unschedulablePlugins: [pre.rejected.plugin],
        runPostFilter: true,
      },
    };
  }

  const diagnosis: Diagnosis = { nodeToStatus: new Map() };
  let candidates = all;
  if (pre.nodeNames) {
    const names = pre.nodeNames.names;
    candidates = all.filter((n) => names.has(n.name));
    diagnosis.absentStatus = unresolvable(
      `node(s) didn't satisfy plugin(s) [${[...new Set(pre.nodeNames.plugins)].sort().join(' ')}]`,
    );
  }

  // findNodesThatPassFilters: start where the last cycle stopped, stop once enough fit.
  const toFind = numFeasibleNodesToFind(candidates.length);
  const feasible: NodeInfo[] = [];
  const unschedulablePlugins = new Set<string>();
  let processed = 0;
  const start = candidates.length > 0 ? input.startIndex % candidates.length : 0;
  for (let i = 0; i < candidates.length && feasible.length < toFind; i++) {
    const info = candidates[(start + i) % candidates.length] as NodeInfo;
    const rec = byNode.get(info.name) as NodeDecision;
    const f = filterWithNominated(pod, info, pre, snapshot, profile, input.nominated);
    rec.evaluated = true;
    rec.filters = f.verdicts;
    processed++;
    if (f.plugin) {
      diagnosis.nodeToStatus.set(info.name, f.status);
      unschedulablePlugins.add(f.plugin);
    } else {
      rec.feasible = true;
      feasible.push(info);
    }
  }
  const nextStartIndex = candidates.length > 0 ? (start + processed) % candidates.length : 0;
  decision.evaluatedNodes = processed;
  decision.feasibleNodes = feasible.length;

  if (feasible.length === 0) {
    return {
      decision,
      pre,
      nextStartIndex,
      result: {
        kind: 'unschedulable',
        diagnosis,
        unschedulablePlugins: [...unschedulablePlugins].sort(),
        runPostFilter: true,
      },
    };
  }

  decision.outcome = 'scheduled';
  if (feasible.length === 1) {
    // "When only one node after predicate, just use it."
    decision.scoringSkipped = true;
    decision.node = (feasible[0] as NodeInfo).name;
    return { decision, pre, nextStartIndex, result: { kind: 'scheduled', node: decision.node } };
  }

  const totals = prioritizeNodes(pod, feasible, snapshot, profile, decision, byNode);
  const winner = selectHost(feasible, totals, input.rng);
  decision.node = winner.node;
  decision.tiedNodes = winner.tied;
  return { decision, pre, nextStartIndex, result: { kind: 'scheduled', node: winner.node } };
}

function prioritizeNodes(
  pod: Pod,
  feasible: NodeInfo[],
  snapshot: Snapshot,
  profile: Profile,
  decision: SchedulingDecision,
  byNode: Map<string, NodeDecision>,
): number[] {
  const totals = feasible.map(() => 0);
  for (const { plugin, weight } of profile.scores) {
    const pre = plugin.preScore ? plugin.preScore(pod, feasible, snapshot) : { skip: false };
    decision.scorePlugins.push({ plugin: plugin.name, weight, skipped: pre.skip });
    if (pre.skip) continue;
    const raw = feasible.map((n) => plugin.score(pod, n, pre.state, snapshot));
    const normalized = plugin.normalize
      ? plugin.normalize(
          feasible.map((n, i) => ({ node: n.name, score: raw[i] as number })),
          pre.state,
        )
      : raw;
    feasible.forEach((n, i) => {
      const entry: ScoreEntry = {
        plugin: plugin.name,
        weight,
        raw: raw[i] as number,
        normalized: normalized[i] as number,
        weighted: (normalized[i] as number) * weight,
      };
      (byNode.get(n.name) as NodeDecision).scores.push(entry);
      totals[i] = (totals[i] as number) + entry.weighted;
    });
  }
  feasible.forEach((n, i) => {
    (byNode.get(n.name) as NodeDecision).total = totals[i] as number;
  });
  return totals;
}

/** selectHost: the highest total wins; ties are broken by reservoir sampling on the rng. */
export function selectHost(
  nodes: NodeInfo[],
  totals: number[],
  rng: Rng,
): { node: string; tied: string[] } {
  const best = Math.max(...totals);
  let count = 0;
  let selected = '';
  const tied: string[] = [];
  nodes.forEach((n, i) => {
    if (totals[i] !== best) return;
    tied.push(n.name);
    count++;
    // Replace the candidate with probability 1/count.
    if (count === 1 || rng.int(count) === 0) selected = n.name;
  });
  return { node: selected, tied };
}

/** The message a failed cycle produces (the FailedScheduling event and PodScheduled condition). */
export function failureMessage(numAllNodes: number, result: CycleResult): string {
  if (result.kind !== 'unschedulable') return '';
  if (!result.runPostFilter) return ERR_NO_NODES_AVAILABLE;
  return formatFitError(numAllNodes, result.diagnosis);
}
