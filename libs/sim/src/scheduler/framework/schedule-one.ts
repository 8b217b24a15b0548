// One scheduling cycle (pkg/scheduler/schedule_one.go schedulePod): PreFilter, Filter over the
// nodes (stopping per node at the first rejecting plugin), then — with two or more feasible nodes
// — PreScore, Score, NormalizeScore, weights, and selectHost's reservoir sampling among the
// top-scored nodes. Pure: the same snapshot and rng state give the same decision.

import type { Pod } from '../../model';
import type { Rng } from '../../runtime/rng';
import type { Profile, WeightedScorePlugin } from '../plugins/default-plugins';
import type { FilterVerdict, PreFilterVerdict } from './decision';
import type { CycleNodes, ScoreColumn } from './decision-record';
import { DecisionRecord } from './decision-record';
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

/** The filter plugins of one cycle, and the outcome of a node that passes them all. */
interface FilterSteps {
  steps: FilterStep[];
  /**
   * Depends on the steps only: one frozen outcome per cycle, shared by the records of all its
   * feasible nodes (and telling them apart from the rejected ones).
   */
  passed: FilterOutcome;
}

function filterSteps(pre: PreFilterOutcome, profile: Profile): FilterSteps {
  const steps = profile.filters.map((plugin) => ({
    plugin,
    skipped: pre.skipped.has(plugin.name),
    state: pre.states.get(plugin.name),
    pass: sharedVerdict(plugin.name, 'pass'),
    skip: sharedVerdict(plugin.name, 'skip'),
    notRun: sharedVerdict(plugin.name, 'not-run'),
  }));
  const verdicts = steps.map((s) => (s.skipped ? s.skip : s.pass));
  if (!isSameVerdicts(lastPassed, verdicts)) lastPassed = Object.freeze(verdicts);
  const passed = Object.freeze({ status: SUCCESS, verdicts: lastPassed as FilterVerdict[] });
  return { steps, passed };
}

// The verdicts of the last cycle: of a node that passed, and of every node. Consecutive cycles
// mostly judge every node alike, and their records (kept for hundreds of cycles) then share one
// frozen list instead of a list per node and one per record.
let lastPassed: readonly FilterVerdict[] = Object.freeze([]);
let lastNodeVerdicts: readonly (readonly FilterVerdict[] | undefined)[] = Object.freeze([]);

/** Whether two nodes' verdicts say the same (a failure's reasons compared by content). */
function isSameVerdicts(a: readonly FilterVerdict[], b: readonly FilterVerdict[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as FilterVerdict;
    const y = b[i] as FilterVerdict;
    if (x === y) continue;
    if (x.plugin !== y.plugin || x.verdict !== y.verdict || x.code !== y.code) return false;
    if (!isSameStrings(x.reasons, y.reasons)) return false;
  }
  return true;
}

function isSameStrings(
  a: readonly string[] | undefined,
  b: readonly string[] | undefined,
): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * This cycle's per-node verdicts, or the last cycle's when they say the same for every node (a
 * node that passed has the shared passed list in both, see filterSteps).
 */
function keptNodeVerdicts(
  verdicts: (readonly FilterVerdict[] | undefined)[],
): readonly (readonly FilterVerdict[] | undefined)[] {
  const last = lastNodeVerdicts;
  let same = last.length === verdicts.length;
  for (let i = 0; same && i < verdicts.length; i++) {
    const a = last[i];
    const b = verdicts[i];
    same = a === b || (a !== undefined && b !== undefined && isSameVerdicts(a, b));
  }
  if (!same) lastNodeVerdicts = Object.freeze(verdicts);
  return lastNodeVerdicts;
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
  cycle: FilterSteps,
  snapshot: Snapshot,
): FilterOutcome {
  const steps = cycle.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as FilterStep;
    if (step.skipped) continue;
    const status = step.plugin.filter(pod, node, step.state, snapshot);
    if (isRejected(status)) return rejectedAt(steps, i, status);
  }
  return cycle.passed;
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

function filterWithNominated(
  pod: Pod,
  info: NodeInfo,
  cycle: FilterSteps,
  snapshot: Snapshot,
  nominated: Map<string, Pod[]> | undefined,
): FilterOutcome {
  const onNode = nominated?.get(info.name);
  if (!onNode) return runFilterSteps(pod, info, cycle, snapshot);
  const prio = pod.spec.priority ?? 0;
  const key = podKey(pod);
  const others = onNode.filter((p) => (p.spec.priority ?? 0) >= prio && podKey(p) !== key);
  if (others.length === 0) return runFilterSteps(pod, info, cycle, snapshot);
  // Upstream runs the filters twice — with the nominated pods added and without — and the node
  // must pass both.
  const withNominated = createNodeInfo(info.node);
  for (const [k, v] of info.imageStates) withNominated.imageStates.set(k, v);
  for (const p of [...info.pods, ...others]) addPodToNodeInfo(withNominated, p);
  const first = runFilterSteps(pod, withNominated, cycle, snapshot);
  if (first.plugin) return first;
  return runFilterSteps(pod, info, cycle, snapshot);
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
  decision: DecisionRecord;
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

// The node names of the last snapshot seen: the nodes rarely change, so consecutive records
// share one list.
let lastNames: readonly string[] = [];

function namesOf(nodes: readonly NodeInfo[]): readonly string[] {
  let same = nodes.length === lastNames.length;
  for (let i = 0; same && i < nodes.length; i++)
    same = (nodes[i] as NodeInfo).name === lastNames[i];
  if (!same) lastNames = Object.freeze(nodes.map((n) => n.name));
  return lastNames;
}

export function scheduleOne(input: CycleInput): CycleOutput {
  const { pod, snapshot, profile } = input;
  const all = snapshot.nodes;
  const cycle: CycleNodes = {
    names: namesOf(all),
    verdicts: new Array<FilterVerdict[] | undefined>(all.length),
    passed: undefined,
    feasibleAt: [],
    columns: [],
    totals: null,
  };
  const decision = new DecisionRecord(pod, input.attempt, input.t, cycle);
  if (all.length === 0) {
    decision.message = ERR_NO_NODES_AVAILABLE;
    const diagnosis: Diagnosis = { nodeToStatus: new Map() };
    return {
      decision,
      pre: { states: new Map(), skipped: new Set(), verdicts: [] },
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
  // the snapshot index of each candidate; undefined when every node is one
  let candidates: number[] | undefined;
  if (pre.nodeNames) {
    const names = pre.nodeNames.names;
    candidates = [];
    for (let i = 0; i < all.length; i++)
      if (names.has((all[i] as NodeInfo).name)) candidates.push(i);
    diagnosis.absentStatus = unresolvable(
      `node(s) didn't satisfy plugin(s) [${[...new Set(pre.nodeNames.plugins)].sort().join(' ')}]`,
    );
  }
  const numCandidates = candidates ? candidates.length : all.length;

  // findNodesThatPassFilters: start where the last cycle stopped, stop once enough fit.
  const toFind = numFeasibleNodesToFind(numCandidates);
  // made at their longest and cut to length after: grown by push they left garbage every cycle
  const feasible = new Array<NodeInfo>(Math.min(toFind, numCandidates));
  const feasibleAt = new Array<number>(feasible.length);
  let numFeasible = 0;
  let unschedulablePlugins: Set<string> | undefined;
  let processed = 0;
  const start = numCandidates > 0 ? input.startIndex % numCandidates : 0;
  const steps = filterSteps(pre, profile);
  cycle.passed = steps.passed.verdicts;
  const verdicts = new Array<readonly FilterVerdict[] | undefined>(all.length);
  for (let i = 0; i < numCandidates && numFeasible < toFind; i++) {
    const at = (start + i) % numCandidates;
    const index = candidates ? (candidates[at] as number) : at;
    const info = all[index] as NodeInfo;
    const f = filterWithNominated(pod, info, steps, snapshot, input.nominated);
    verdicts[index] = f.verdicts;
    processed++;
    if (f.plugin) {
      diagnosis.nodeToStatus.set(info.name, f.status);
      (unschedulablePlugins ??= new Set()).add(f.plugin);
    } else {
      feasible[numFeasible] = info;
      feasibleAt[numFeasible] = index;
      numFeasible++;
    }
  }
  feasible.length = numFeasible;
  feasibleAt.length = numFeasible;
  cycle.feasibleAt = keptFeasibleAt(feasibleAt);
  cycle.verdicts = keptNodeVerdicts(verdicts);
  const nextStartIndex = numCandidates > 0 ? (start + processed) % numCandidates : 0;
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
        unschedulablePlugins: [...(unschedulablePlugins ?? [])].sort(),
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

  const totals = prioritizeNodes(pod, feasible, snapshot, profile, decision, cycle);
  const winner = selectHost(feasible, totals, input.rng);
  decision.node = winner.node;
  decision.tiedNodes = winner.tied;
  return { decision, pre, nextStartIndex, result: { kind: 'scheduled', node: winner.node } };
}

// The last cycle's feasible node indexes, frozen: consecutive cycles mostly find the same nodes
// feasible, and their records (kept for hundreds of cycles) then share one list.
let lastFeasibleAt: readonly number[] = Object.freeze([]);

function keptFeasibleAt(feasibleAt: number[]): readonly number[] {
  if (!isSameNumbers(lastFeasibleAt, feasibleAt)) lastFeasibleAt = Object.freeze(feasibleAt);
  return lastFeasibleAt;
}

/**
 * Where every plugin's raw scores are taken, cycle after cycle: most columns score like the last
 * cycle and are not kept, so keptColumn copies the list only when a record keeps it.
 */
const rawScores: number[] = [];

/**
 * RunScorePlugins, NormalizeScore and the weights: each plugin's raw and normalized scores are
 * kept as the record's columns (the record builds per-node entries from them when read).
 */
function prioritizeNodes(
  pod: Pod,
  feasible: NodeInfo[],
  snapshot: Snapshot,
  profile: Profile,
  decision: DecisionRecord,
  cycle: CycleNodes,
): number[] {
  const n = feasible.length;
  const totals = new Array<number>(n).fill(0);
  for (const scorer of profile.scores) {
    const { plugin, weight } = scorer;
    const pre = plugin.preScore ? plugin.preScore(pod, feasible, snapshot) : { skip: false };
    decision.scorePlugins.push(scorePluginRecord(scorer, pre.skip));
    if (pre.skip) continue;
    const raw = rawScores;
    raw.length = n;
    for (let i = 0; i < n; i++)
      raw[i] = plugin.score(pod, feasible[i] as NodeInfo, pre.state, snapshot);
    const normalized = plugin.normalize ? plugin.normalize(raw, feasible, pre.state) : raw;
    for (let i = 0; i < n; i++)
      totals[i] = (totals[i] as number) + (normalized[i] as number) * weight;
    cycle.columns.push(keptColumn(scorer, raw, normalized));
  }
  cycle.totals = totals;
  return totals;
}

/**
 * The last column each scoring plugin of a profile left in a record. Consecutive cycles mostly
 * score the same nodes alike (only the node that took the last pod changed), and a record is kept
 * for hundreds of cycles: one that scored like the last shares its frozen lists instead of
 * keeping copies of its own.
 */
const lastColumns = new WeakMap<WeightedScorePlugin, ScoreColumn>();

/** `raw` is the shared rawScores list; `normalized` is the plugin's own, or that same list. */
function keptColumn(scorer: WeightedScorePlugin, raw: number[], normalized: number[]): ScoreColumn {
  const last = lastColumns.get(scorer);
  const keptRaw = last && isSameNumbers(last.raw, raw) ? last.raw : Object.freeze(raw.slice());
  const keptNormalized =
    normalized === raw
      ? keptRaw
      : last && isSameNumbers(last.normalized, normalized)
        ? last.normalized
        : Object.freeze(normalized);
  if (last && keptRaw === last.raw && keptNormalized === last.normalized) return last;
  const column = Object.freeze({
    plugin: scorer.plugin.name,
    weight: scorer.weight,
    raw: keptRaw,
    normalized: keptNormalized,
  });
  lastColumns.set(scorer, column);
  return column;
}

function isSameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

type ScorePluginRecord = { plugin: string; weight: number; skipped: boolean };

// A record's entry for each scoring plugin of a profile, scored or skipped: frozen, and shared by
// every record.
const scorePluginRecords = new WeakMap<
  WeightedScorePlugin,
  [ScorePluginRecord, ScorePluginRecord]
>();

function scorePluginRecord(scorer: WeightedScorePlugin, skipped: boolean): ScorePluginRecord {
  let pair = scorePluginRecords.get(scorer);
  if (pair === undefined) {
    const { plugin, weight } = scorer;
    pair = [
      Object.freeze({ plugin: plugin.name, weight, skipped: false }),
      Object.freeze({ plugin: plugin.name, weight, skipped: true }),
    ];
    scorePluginRecords.set(scorer, pair);
  }
  return pair[skipped ? 1 : 0];
}

/** selectHost: the highest total wins; ties are broken by reservoir sampling on the rng. */
export function selectHost(
  nodes: NodeInfo[],
  totals: number[],
  rng: Rng,
): { node: string; tied: string[] } {
  let best = -Infinity;
  for (let i = 0; i < totals.length; i++) best = Math.max(best, totals[i] as number);
  let numTied = 0;
  for (let i = 0; i < nodes.length; i++) if (totals[i] === best) numTied++;
  // made at its length: records keep it
  const tied = new Array<string>(numTied);
  let count = 0;
  let selected = '';
  for (let i = 0; i < nodes.length; i++) {
    if (totals[i] !== best) continue;
    const name = (nodes[i] as NodeInfo).name;
    tied[count] = name;
    count++;
    // Replace the candidate with probability 1/count.
    if (count === 1 || rng.int(count) === 0) selected = name;
  }
  return { node: selected, tied };
}

/** The message a failed cycle produces (the FailedScheduling event and PodScheduled condition). */
export function failureMessage(numAllNodes: number, result: CycleResult): string {
  if (result.kind !== 'unschedulable') return '';
  if (!result.runPostFilter) return ERR_NO_NODES_AVAILABLE;
  return formatFitError(numAllNodes, result.diagnosis);
}
