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
import type { FilterPlugin, Status } from './plugin-types';
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

/** One filter plugin as a cycle runs it: what PreFilter left for it, looked up once per cycle. */
interface FilterStep {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  plugin: FilterPlugin<any>;
  skipped: boolean;
  state: unknown;
  pass: FilterVerdict;
  skip: FilterVerdict;
  notRun: FilterVerdict;
}

function filterSteps(pre: PreFilterOutcome, profile: Profile): FilterStep[] {
  return profile.filters.map((plugin) => ({
    plugin,
    skipped: pre.skipped.has(plugin.name),
    state: pre.states.get(plugin.name),
    pass: sharedVerdict(plugin.name, 'pass'),
    skip: sharedVerdict(plugin.name, 'skip'),
    notRun: sharedVerdict(plugin.name, 'not-run'),
  }));
}

/** RunFilterPlugins: the first rejection wins; later plugins are not run for this node. */
export function runFilters(
  pod: Pod,
  node: NodeInfo,
  pre: PreFilterOutcome,
  snapshot: Snapshot,
  profile: Profile,
): FilterOutcome {
  return runFilterSteps(pod, node, filterSteps(pre, profile), snapshot);
}

function runFilterSteps(
  pod: Pod,
  node: NodeInfo,
  steps: FilterStep[],
  snapshot: Snapshot,
): FilterOutcome {
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as FilterStep;
    if (step.skipped) continue;
    const status = step.plugin.filter(pod, node, step.state, snapshot);
    if (isRejected(status)) return rejectedAt(steps, i, status);
  }
  return passedAll(steps);
}

/**
 * The outcome of a node rejected by step `at`: earlier steps passed (or were skipped), later ones
 * did not run. Apart from the loop above, so that no closure captures its index (a captured loop
 * variable costs an allocation on every iteration).
 */
function rejectedAt(
  steps: FilterStep[],
  at: number,
  status: Extract<Status, { reasons: string[] }>,
): FilterOutcome {
  const plugin = (steps[at] as FilterStep).plugin.name;
  const verdicts = steps.map((s, j) => (j < at ? (s.skipped ? s.skip : s.pass) : s.notRun));
  verdicts[at] = { plugin, verdict: 'fail', code: status.code, reasons: status.reasons };
  return { status, plugin, verdicts };
}

// The outcome of a node that passes every filter depends on the cycle's steps only: one frozen
// outcome per cycle, shared by the records of all its feasible nodes (decision records are kept
// for hundreds of cycles, and a verdict list per node was much of what they held).
const allPassed = new WeakMap<FilterStep[], FilterOutcome>();

function passedAll(steps: FilterStep[]): FilterOutcome {
  let out = allPassed.get(steps);
  if (out === undefined) {
    const verdicts = Object.freeze(steps.map((s) => (s.skipped ? s.skip : s.pass)));
    out = Object.freeze({ status: SUCCESS, verdicts: verdicts as FilterVerdict[] });
    allPassed.set(steps, out);
  }
  return out;
}

function filterWithNominated(
  pod: Pod,
  info: NodeInfo,
  steps: FilterStep[],
  snapshot: Snapshot,
  nominated: Map<string, Pod[]> | undefined,
): FilterOutcome {
  const onNode = nominated?.get(info.name);
  if (!onNode) return runFilterSteps(pod, info, steps, snapshot);
  const prio = pod.spec.priority ?? 0;
  const key = podKey(pod);
  const others = onNode.filter((p) => (p.spec.priority ?? 0) >= prio && podKey(p) !== key);
  if (others.length === 0) return runFilterSteps(pod, info, steps, snapshot);
  // Upstream runs the filters twice — with the nominated pods added and without — and the node
  // must pass both.
  const withNominated = createNodeInfo(info.node);
  for (const [k, v] of info.imageStates) withNominated.imageStates.set(k, v);
  for (const p of [...info.pods, ...others]) addPodToNodeInfo(withNominated, p);
  const first = runFilterSteps(pod, withNominated, steps, snapshot);
  if (first.plugin) return first;
  return runFilterSteps(pod, info, steps, snapshot);
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
      // replaced for the nodes that are evaluated (filters) and scored (scores)
      filters: NO_VERDICTS,
      scores: NO_SCORES,
      total: null,
    })),
    scorePlugins: [],
    scoringSkipped: false,
    tiedNodes: [],
  };
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
  // the decision record of each candidate (decision.nodes follows snapshot.nodes)
  let candidateRecs = decision.nodes;
  if (pre.nodeNames) {
    const names = pre.nodeNames.names;
    candidates = all.filter((n) => names.has(n.name));
    candidateRecs = decision.nodes.filter((d) => names.has(d.node));
    diagnosis.absentStatus = unresolvable(
      `node(s) didn't satisfy plugin(s) [${[...new Set(pre.nodeNames.plugins)].sort().join(' ')}]`,
    );
  }

  // findNodesThatPassFilters: start where the last cycle stopped, stop once enough fit.
  const toFind = numFeasibleNodesToFind(candidates.length);
  const feasible: NodeInfo[] = [];
  const feasibleRecs: NodeDecision[] = [];
  const unschedulablePlugins = new Set<string>();
  let processed = 0;
  const start = candidates.length > 0 ? input.startIndex % candidates.length : 0;
  const steps = filterSteps(pre, profile);
  for (let i = 0; i < candidates.length && feasible.length < toFind; i++) {
    const at = (start + i) % candidates.length;
    const info = candidates[at] as NodeInfo;
    const rec = candidateRecs[at] as NodeDecision;
    const f = filterWithNominated(pod, info, steps, snapshot, input.nominated);
    rec.evaluated = true;
    rec.filters = f.verdicts;
    processed++;
    if (f.plugin) {
      diagnosis.nodeToStatus.set(info.name, f.status);
      unschedulablePlugins.add(f.plugin);
    } else {
      rec.feasible = true;
      feasible.push(info);
      feasibleRecs.push(rec);
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

  const totals = prioritizeNodes(pod, feasible, feasibleRecs, snapshot, profile, decision);
  const winner = selectHost(feasible, totals, input.rng);
  decision.node = winner.node;
  decision.tiedNodes = winner.tied;
  return { decision, pre, nextStartIndex, result: { kind: 'scheduled', node: winner.node } };
}

function prioritizeNodes(
  pod: Pod,
  feasible: NodeInfo[],
  feasibleRecs: NodeDecision[],
  snapshot: Snapshot,
  profile: Profile,
  decision: SchedulingDecision,
): number[] {
  const totals = feasible.map(() => 0);
  // per plugin that scored, its entry for each feasible node
  const byPlugin: ScoreEntry[][] = [];
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
    const entries = scoreEntriesOf(plugin.name, weight);
    const column: ScoreEntry[] = new Array<ScoreEntry>(feasible.length);
    for (let i = 0; i < feasible.length; i++) {
      const entry = scoreEntry(
        entries,
        plugin.name,
        weight,
        raw[i] as number,
        normalized[i] as number,
      );
      column[i] = entry;
      totals[i] = (totals[i] as number) + entry.weighted;
    }
    byPlugin.push(column);
  }
  for (let i = 0; i < feasible.length; i++) {
    const rec = feasibleRecs[i] as NodeDecision;
    // each node's list made at its final length: records are kept for hundreds of cycles, and a
    // list grown by push carried room for a dozen more entries (a loop, not a map whose closure
    // would capture i)
    const scores = new Array<ScoreEntry>(byPlugin.length);
    for (let p = 0; p < byPlugin.length; p++)
      scores[p] = (byPlugin[p] as ScoreEntry[])[i] as ScoreEntry;
    rec.scores = scores;
    rec.total = totals[i] as number;
  }
  return totals;
}

// The lists of a node that was not evaluated or not scored, shared (and frozen) by all records.
const NO_VERDICTS = Object.freeze([]) as unknown as FilterVerdict[];
const NO_SCORES = Object.freeze([]) as unknown as ScoreEntry[];

// Score entries hold no per-node data beyond their numbers, and most nodes score alike: one
// frozen entry per plugin, weight and score pair, shared by every record that has it.
const MAX_SCORE_ENTRIES = 10_000;
type ScoreEntries = Map<number, Map<number, ScoreEntry>>;
const scoreEntries = new Map<string, Map<number, ScoreEntries>>();
let scoreEntryCount = 0;

/** The shared entries of one plugin at one weight, by raw then normalized score. */
function scoreEntriesOf(plugin: string, weight: number): ScoreEntries {
  if (scoreEntryCount >= MAX_SCORE_ENTRIES) {
    scoreEntries.clear();
    scoreEntryCount = 0;
  }
  let byWeight = scoreEntries.get(plugin);
  if (byWeight === undefined) scoreEntries.set(plugin, (byWeight = new Map()));
  let entries = byWeight.get(weight);
  if (entries === undefined) byWeight.set(weight, (entries = new Map()));
  return entries;
}

function scoreEntry(
  byRaw: ScoreEntries,
  plugin: string,
  weight: number,
  raw: number,
  normalized: number,
): ScoreEntry {
  let byNormalized = byRaw.get(raw);
  if (byNormalized === undefined) byRaw.set(raw, (byNormalized = new Map()));
  let entry = byNormalized.get(normalized);
  if (entry === undefined) {
    entry = Object.freeze({ plugin, weight, raw, normalized, weighted: normalized * weight });
    byNormalized.set(normalized, entry);
    scoreEntryCount++;
  }
  return entry;
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
