// The decision record as a cycle leaves it: the cycle's own lists (each node's verdicts, each
// scoring plugin's raw and normalized column, the totals) instead of an object per node and a
// score list per node. Records are kept for hundreds of cycles and read rarely (the UI asks for
// one pod's), so the per-node view of SchedulingDecision.nodes is built the first time it is read,
// and a record serializes exactly as the plain SchedulingDecision it stands for.

import type { Pod } from '../../model';
import type {
  DecisionOutcome,
  FilterVerdict,
  NodeDecision,
  PostFilterRecord,
  PreFilterVerdict,
  SchedulingDecision,
  ScoreEntry,
} from './decision';

/** One scoring plugin's scores, by feasible node in the order the cycle found them. */
export interface ScoreColumn {
  plugin: string;
  weight: number;
  raw: readonly number[];
  normalized: readonly number[];
}

/** What a cycle found for the nodes, in the order a record shows them (the snapshot's). */
export interface CycleNodes {
  names: readonly string[];
  /** per node: its filter verdicts, or undefined when it was not evaluated */
  verdicts: readonly (readonly FilterVerdict[] | undefined)[];
  /** the verdicts of every node that passed all filters (one list per cycle) */
  passed: readonly FilterVerdict[] | undefined;
  /** the index of each feasible node, in the order the cycle found (and scored) them */
  feasibleAt: readonly number[];
  /** one column per plugin that scored, empty when scoring did not run */
  columns: ScoreColumn[];
  /** per feasible node (same order as feasibleAt); null when scoring did not run */
  totals: readonly number[] | null;
}

/**
 * The feasible names of the last scored cycle, and an object with those keys (in that order) that
 * the next scores objects over the same nodes are copied from. Built key by key, an object of a
 * hundred nodes ends up a hash table (V8 stops giving keys added by computed name their own slot
 * after about a dozen): ~12 KB each, and the trace keeps every one. A copy of an object built at
 * once shares its compact layout, and setting the values of keys it has keeps it.
 */
let totalsShape: { names: readonly string[]; object: Readonly<Record<string, number>> } = {
  names: [],
  object: {},
};

/** The names and feasible indexes (both frozen) a list of feasible names was last found to match. */
const matchedLists = new WeakMap<
  readonly string[],
  { names: readonly string[]; feasibleAt: readonly number[] }
>();

// The lists of a node that was not evaluated or not scored, shared (and frozen) by all records.
const NO_VERDICTS = Object.freeze([]) as unknown as FilterVerdict[];
const NO_SCORES = Object.freeze([]) as unknown as ScoreEntry[];

export class DecisionRecord implements SchedulingDecision {
  // Declared in the order of SchedulingDecision's plain object (toJSON writes that order).
  namespace: string;
  name: string;
  uid: string | undefined;
  attempt: number;
  t: number;
  outcome: DecisionOutcome = 'unschedulable';
  node: string | null = null;
  message: string | null = null;
  numAllNodes: number;
  evaluatedNodes = 0;
  feasibleNodes = 0;
  preFilter: PreFilterVerdict[] = [];
  scorePlugins: { plugin: string; weight: number; skipped: boolean }[] = [];
  scoringSkipped = false;
  tiedNodes: string[] = [];
  // set after the cycle, only when they apply (own properties then, as on a plain record)
  declare postFilter?: PostFilterRecord;
  declare bindError?: string;

  readonly #cycle: CycleNodes;
  #nodes: NodeDecision[] | undefined;
  /** per node: its position in feasibleAt, -1 when not feasible */
  #positions: number[] | undefined;

  constructor(pod: Pod, attempt: number, t: number, cycle: CycleNodes) {
    this.namespace = pod.metadata.namespace ?? 'default';
    this.name = pod.metadata.name ?? '';
    this.uid = pod.metadata.uid;
    this.attempt = attempt;
    this.t = t;
    this.numAllNodes = cycle.names.length;
    this.#cycle = cycle;
  }

  get nodes(): NodeDecision[] {
    this.#nodes ??= this.buildNodes();
    return this.#nodes;
  }

  /** The names of the feasible nodes, in the snapshot's order. */
  feasibleNames(): string[] {
    const { names, feasibleAt } = this.#cycle;
    const out = new Array<string>(feasibleAt.length);
    const wrap = wrapOf(feasibleAt);
    for (let k = 0; k < feasibleAt.length; k++)
      out[k] = names[feasibleAt[(wrap + k) % feasibleAt.length] as number] as string;
    return out;
  }

  /** Whether `list` (never changed once made) holds the feasible nodes' names, in snapshot order. */
  isFeasibleList(list: readonly string[]): boolean {
    const { names, feasibleAt } = this.#cycle;
    if (list.length !== feasibleAt.length) return false;
    // Consecutive cycles mostly share their frozen names and feasible indexes: a list found to
    // match them once matches them again without comparing every name.
    const matched = matchedLists.get(list);
    if (matched !== undefined && matched.names === names && matched.feasibleAt === feasibleAt)
      return true;
    const wrap = wrapOf(feasibleAt);
    for (let k = 0; k < feasibleAt.length; k++) {
      if (list[k] !== names[feasibleAt[(wrap + k) % feasibleAt.length] as number]) return false;
    }
    if (Object.isFrozen(names) && Object.isFrozen(feasibleAt))
      matchedLists.set(list, { names, feasibleAt });
    return true;
  }

  /** The reasons of the plugin that rejected each evaluated node that did not fit. */
  rejectedReasons(): Record<string, string[]> {
    const { names, verdicts, passed } = this.#cycle;
    const out: Record<string, string[]> = {};
    for (let i = 0; i < names.length; i++) {
      const v = verdicts[i];
      if (v === undefined || v === passed) continue;
      const failed = v.find((f) => f.verdict === 'fail');
      if (failed) out[names[i] as string] = failed.reasons ?? [];
    }
    return out;
  }

  /** Each scored node's total, in the snapshot's order. */
  totalsByNode(): Record<string, number> {
    const { names, feasibleAt, totals } = this.#cycle;
    if (!totals) return {};
    if (!this.isFeasibleList(totalsShape.names)) {
      const feasible = this.feasibleNames();
      totalsShape = { names: feasible, object: Object.fromEntries(feasible.map((n) => [n, 0])) };
    }
    // every key is there already: the loop below only sets values, in the same order
    const out: Record<string, number> = { ...totalsShape.object };
    const wrap = wrapOf(feasibleAt);
    for (let k = 0; k < feasibleAt.length; k++) {
      const j = (wrap + k) % feasibleAt.length;
      out[names[feasibleAt[j] as number] as string] = totals[j] as number;
    }
    return out;
  }

  toJSON(): SchedulingDecision {
    const out: SchedulingDecision = {
      namespace: this.namespace,
      name: this.name,
      uid: this.uid,
      attempt: this.attempt,
      t: this.t,
      outcome: this.outcome,
      node: this.node,
      message: this.message,
      numAllNodes: this.numAllNodes,
      evaluatedNodes: this.evaluatedNodes,
      feasibleNodes: this.feasibleNodes,
      preFilter: this.preFilter,
      // built for the text only: a saved lab's records stay compact
      nodes: this.#nodes ?? this.buildNodes(),
      scorePlugins: this.scorePlugins,
      scoringSkipped: this.scoringSkipped,
      tiedNodes: this.tiedNodes,
    };
    if (this.postFilter !== undefined) out.postFilter = this.postFilter;
    if (this.bindError !== undefined) out.bindError = this.bindError;
    return out;
  }

  private positions(): number[] {
    if (this.#positions) return this.#positions;
    const { names, feasibleAt } = this.#cycle;
    const positions = new Array<number>(names.length).fill(-1);
    for (let j = 0; j < feasibleAt.length; j++) positions[feasibleAt[j] as number] = j;
    this.#positions = positions;
    return positions;
  }

  private buildNodes(): NodeDecision[] {
    const { names, verdicts, passed, columns, totals } = this.#cycle;
    const positions = this.positions();
    const nodes = new Array<NodeDecision>(names.length);
    for (let i = 0; i < names.length; i++) {
      const filters = verdicts[i];
      const at = positions[i] as number;
      const isScored = totals !== null && at >= 0;
      nodes[i] = {
        node: names[i] as string,
        evaluated: filters !== undefined,
        feasible: filters !== undefined && filters === passed,
        filters: (filters ?? NO_VERDICTS) as FilterVerdict[],
        scores: isScored ? scoresAt(columns, at) : NO_SCORES,
        total: isScored ? (totals[at] as number) : null,
      };
    }
    return nodes;
  }
}

/**
 * Where snapshot order starts in a cycle's feasible indexes: the cycle scanned the nodes round
 * from where the last one stopped, so they rise, wrap once, and rise again.
 */
function wrapOf(feasibleAt: readonly number[]): number {
  // consecutive cycles mostly share one frozen list, and a cycle asks several times
  if (feasibleAt === lastWrap.feasibleAt) return lastWrap.wrap;
  let wrap = 0;
  for (let j = 1; j < feasibleAt.length; j++) {
    if ((feasibleAt[j] as number) < (feasibleAt[j - 1] as number)) {
      wrap = j;
      break;
    }
  }
  if (Object.isFrozen(feasibleAt)) lastWrap = { feasibleAt, wrap };
  return wrap;
}

let lastWrap: { feasibleAt: readonly number[]; wrap: number } = { feasibleAt: [], wrap: 0 };

function scoresAt(columns: ScoreColumn[], at: number): ScoreEntry[] {
  const scores = new Array<ScoreEntry>(columns.length);
  for (let p = 0; p < columns.length; p++) {
    const c = columns[p] as ScoreColumn;
    const normalized = c.normalized[at] as number;
    scores[p] = Object.freeze({
      plugin: c.plugin,
      weight: c.weight,
      raw: c.raw[at] as number,
      normalized,
      weighted: normalized * c.weight,
    });
  }
  return scores;
}
