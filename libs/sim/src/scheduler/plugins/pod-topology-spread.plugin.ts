// PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread): Filter enforces the pod's
// DoNotSchedule constraints (skew = matching pods in the node's domain + self - global minimum
// must stay <= maxSkew); Score prefers domains with fewer matching pods for ScheduleAnyway
// constraints, and for pods without constraints uses the system defaults (hostname maxSkew 3,
// zone maxSkew 5) with a selector taken from the pod's Services and owning ReplicaSet. This is
// what spreads a Deployment's replicas now that SelectorSpread is gone.

import type { Node, Pod, Service, TopologySpreadConstraint } from '../../model';
import type { ReplicaSet } from '../../model/apps';
import type { ParsedSelector, SelectorRequirement } from '../../shared/labels';
import { fromLabelSelector, matchesRequirements } from '../../shared/labels';
import type { FilterPlugin, ScorePlugin, Status } from '../framework/plugin-types';
import {
  MAX_NODE_SCORE,
  SKIP,
  SUCCESS,
  unresolvable,
  unschedulable,
} from '../framework/plugin-types';
import type { NodeInfo, Snapshot } from '../framework/node-info';
import { registerPodCounter } from '../framework/node-info';
import { matchesRequiredNodeAffinity } from './node-affinity.plugin';

export const POD_TOPOLOGY_SPREAD = 'PodTopologySpread';
export const ERR_REASON_CONSTRAINTS_NOT_MATCH =
  "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH =
  "node(s) didn't match pod topology spread constraints (missing required label)";

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';

/** A selector that can also be "nothing" (a constraint without labelSelector matches no pod). */
export interface SpreadSelector {
  nothing: boolean;
  reqs: ParsedSelector;
}

export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  minDomains: number;
  selector: SpreadSelector;
}

/** v1.32 system default constraints (ScheduleAnyway), in upstream order. */
export const SYSTEM_DEFAULT_CONSTRAINTS = [
  { topologyKey: LABEL_HOSTNAME, maxSkew: 3 },
  { topologyKey: LABEL_ZONE, maxSkew: 5 },
] as const;

function selectorMatches(sel: SpreadSelector, labels: Record<string, string> | undefined): boolean {
  return !sel.nothing && matchesRequirements(labels, sel.reqs);
}

/** A selector as counted on nodes: its key in NodeInfo.selectorCounts and the pods it counts. */
interface CountedSelector {
  key: string;
  selector: SpreadSelector;
  namespace: string;
  matches: (pod: Pod) => boolean;
}

const countedSelectors = new WeakMap<SpreadSelector, CountedSelector>();

/** A selector object belongs to one pod's constraint, hence to one namespace. */
function countedSelector(sel: SpreadSelector, namespace: string): CountedSelector {
  let counted = countedSelectors.get(sel);
  if (counted === undefined) {
    counted = {
      key: `${namespace}\u0000${sel.nothing ? '!' : JSON.stringify(sel.reqs)}`,
      selector: sel,
      namespace,
      matches: podCounter(sel, namespace),
    };
    countedSelectors.set(sel, counted);
  }
  return counted;
}

/**
 * Matching pods on a node, remembered in NodeInfo.selectorCounts; the scheduler's cache keeps
 * the count up to date as pods come and go, so a cycle only counts a node it never counted.
 */
function countOnNode(info: NodeInfo, counted: CountedSelector): number {
  let n = info.selectorCounts.get(counted.key);
  if (n === undefined) {
    n = countPodsMatchSelector(info.pods, counted.selector, counted.namespace);
    info.selectorCounts.set(counted.key, n);
    registerPodCounter(counted.key, counted.matches);
  }
  return n;
}

type EqualityRequirement = Extract<SelectorRequirement, { op: '=' | '!=' }>;

/**
 * isCountedPod as the cache's counter, which runs it for every selector counted on a node each
 * time a pod joins the node, and mostly for pods of other workloads: a pod without the value of
 * the selector's first equality label is turned away before the selector itself is read.
 */
function podCounter(sel: SpreadSelector, namespace: string): (pod: Pod) => boolean {
  const first = sel.nothing
    ? undefined
    : sel.reqs.find((r): r is EqualityRequirement => r.op === '=');
  if (first === undefined) return (pod) => isCountedPod(pod, sel, namespace);
  const label = first.key;
  const value = first.values[0];
  // a label's value is a string: equal to one, it is the pod's own label, as the selector asks
  return (pod) => pod.metadata.labels?.[label] === value && isCountedPod(pod, sel, namespace);
}

/** One pod as countPodsMatchSelector counts it. */
function isCountedPod(pod: Pod, sel: SpreadSelector, namespace: string): boolean {
  if (sel.nothing || sel.reqs.length === 0) return false;
  if (pod.metadata.deletionTimestamp || (pod.metadata.namespace ?? 'default') !== namespace)
    return false;
  return matchesRequirements(pod.metadata.labels, sel.reqs);
}

/** countPodsMatchSelector: same namespace, not terminating; an empty selector counts nothing. */
export function countPodsMatchSelector(
  pods: Pod[],
  sel: SpreadSelector,
  namespace: string,
): number {
  if (sel.nothing || sel.reqs.length === 0) return 0;
  let n = 0;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp || (p.metadata.namespace ?? 'default') !== namespace) continue;
    if (matchesRequirements(p.metadata.labels, sel.reqs)) n++;
  }
  return n;
}

function toConstraint(c: TopologySpreadConstraint): SpreadConstraint {
  const minDomains = (c as { minDomains?: number }).minDomains ?? 1;
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    minDomains,
    selector: c.labelSelector
      ? { nothing: false, reqs: fromLabelSelector(c.labelSelector) }
      : { nothing: true, reqs: [] },
  };
}

/** helper.DefaultSelector: selectors of the Services selecting the pod, plus its ReplicaSet's. */
export function defaultSelector(pod: Pod, snapshot: Snapshot): SpreadSelector {
  const ns = pod.metadata.namespace ?? 'default';
  const merged: Record<string, string> = {};
  const services = [...snapshot.services].sort((a, b) =>
    (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
  );
  for (const svc of services) {
    if (selectsPod(svc, ns, pod)) Object.assign(merged, svc.spec.selector);
  }
  const reqs: ParsedSelector = Object.keys(merged)
    .sort()
    .map((key) => ({ key, op: '=' as const, values: [merged[key] as string] as [string] }));
  const rs = ownerReplicaSet(pod, snapshot);
  const rsSel = (rs?.spec as { selector?: Parameters<typeof fromLabelSelector>[0] } | undefined)
    ?.selector;
  if (rsSel) reqs.push(...fromLabelSelector(rsSel));
  return { nothing: false, reqs };
}

function hardConstraints(pod: Pod): SpreadConstraint[] {
  return (pod.spec.topologySpreadConstraints ?? [])
    .filter((c) => c.whenUnsatisfiable === 'DoNotSchedule')
    .map(toConstraint);
}

function softConstraints(pod: Pod, snapshot: Snapshot): SpreadConstraint[] {
  const own = pod.spec.topologySpreadConstraints ?? [];
  if (own.length > 0) {
    return own.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway').map(toConstraint);
  }
  return systemDefaultConstraints(pod, snapshot);
}

/**
 * The system defaults of a pod, remembered per Service list (the scheduler hands over the same
 * list until a Service changes) and per what defaultSelector reads of the pod and its
 * ReplicaSet: the replicas of a ReplicaSet share one set of constraints, and so one count per
 * node, even while the ReplicaSet's status keeps changing.
 */
const defaultsMemo = new WeakMap<readonly Service[], Map<string, SpreadConstraint[]>>();
const MAX_DEFAULTS_MEMO = 1000;

function systemDefaultConstraints(pod: Pod, snapshot: Snapshot): SpreadConstraint[] {
  let byInputs = defaultsMemo.get(snapshot.services);
  if (!byInputs) defaultsMemo.set(snapshot.services, (byInputs = new Map()));
  const key = defaultSelectorInputs(pod, snapshot);
  let constraints = byInputs.get(key);
  if (constraints === undefined) {
    const selector = defaultSelector(pod, snapshot);
    constraints =
      selector.reqs.length === 0
        ? []
        : SYSTEM_DEFAULT_CONSTRAINTS.map((c) => ({ ...c, minDomains: 1, selector }));
    if (byInputs.size >= MAX_DEFAULTS_MEMO) byInputs.clear();
    byInputs.set(key, constraints);
  }
  return constraints;
}

/**
 * What defaultSelector's answer depends on besides the Service list: the namespace, the
 * ReplicaSet selector, and which Services of the list select the pod (the pod's labels matter
 * only through those). Every replica has labels of its own, so a key naming them was text built
 * anew for each pod; the matching Services are a short walk of a short list.
 */
function defaultSelectorInputs(pod: Pod, snapshot: Snapshot): string {
  const ns = pod.metadata.namespace ?? 'default';
  const rs = ownerReplicaSet(pod, snapshot);
  const rsSelector = (rs?.spec as { selector?: unknown } | undefined)?.selector;
  let key = `${ns}\u0000${rsSelector ? jsonOf(rsSelector) : ''}`;
  const services = snapshot.services;
  for (let i = 0; i < services.length; i++)
    if (selectsPod(services[i] as Service, ns, pod)) key += `\u0000${i}`;
  return key;
}

/** Whether defaultSelector merges this Service's selector for the pod. */
function selectsPod(svc: Service, ns: string, pod: Pod): boolean {
  if ((svc.metadata.namespace ?? 'default') !== ns || !svc.spec.selector) return false;
  const sel = svc.spec.selector;
  const labels = pod.metadata.labels ?? {};
  return Object.entries(sel).every(([k, v]) => labels[k] === v);
}

// A ReplicaSet's selector text, per selector object: its status writes keep the (frozen) spec.
const selectorTexts = new WeakMap<object, string>();

function jsonOf(v: unknown): string {
  if (typeof v !== 'object' || v === null || !Object.isFrozen(v)) return JSON.stringify(v);
  let text = selectorTexts.get(v);
  if (text === undefined) selectorTexts.set(v, (text = JSON.stringify(v)));
  return text;
}

function ownerReplicaSet(pod: Pod, snapshot: Snapshot): ReplicaSet | undefined {
  const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
  if (!owner || owner.kind !== 'ReplicaSet' || owner.apiVersion !== 'apps/v1') return undefined;
  const ns = pod.metadata.namespace ?? 'default';
  return snapshot.replicaSets.find(
    (r) => r.metadata.name === owner.name && (r.metadata.namespace ?? 'default') === ns,
  );
}

function hasAllKeys(info: NodeInfo, constraints: SpreadConstraint[]): boolean {
  const labels = info.labels;
  return constraints.every((c) => Object.prototype.hasOwnProperty.call(labels, c.topologyKey));
}

/** topology key -> domain (the node's value of that label) -> matching pods (topologyPair counts) */
type PairCounts = Map<string, Map<string, number>>;

function domainsOf(pairs: PairCounts, topologyKey: string): Map<string, number> {
  let domains = pairs.get(topologyKey);
  if (!domains) pairs.set(topologyKey, (domains = new Map()));
  return domains;
}

interface FilterState {
  constraints: SpreadConstraint[];
  pairCounts: PairCounts;
  /** per constraint: the global minimum (0 when fewer domains than minDomains) */
  minMatch: number[];
}

interface ScoreState {
  constraints: SpreadConstraint[];
  /** per constraint: its selector as counted on nodes */
  counted: CountedSelector[];
  ignored: Set<string>;
  pairCounts: PairCounts;
  weights: number[];
}

/** What preScore finds from the feasible nodes' labels alone, for constraints on some keys. */
interface Layout {
  ignored: Set<string>;
  pairCounts: PairCounts;
  weights: number[];
}

/**
 * Layouts without pairs to count (the pods on the nodes do not matter), by the constraints'
 * topology keys, with the Node objects they were found from: every ReplicaSet's system defaults
 * share one while no node changes.
 */
const layouts = new Map<string, { nodes: Node[]; layout: Layout }>();
const MAX_LAYOUTS = 100;

function layoutKey(constraints: SpreadConstraint[], requireAll: boolean): string {
  let key = requireAll ? 'all' : 'any';
  for (const c of constraints) key += `\u0000${c.topologyKey}`;
  return key;
}

function isSameNodes(nodes: Node[], feasible: NodeInfo[]): boolean {
  if (nodes.length !== feasible.length) return false;
  for (let i = 0; i < nodes.length; i++)
    if (nodes[i] !== (feasible[i] as NodeInfo).node) return false;
  return true;
}

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** preScore's look at the nodes: which are ignored, the domains and their counts, the weights. */
function nodeLayout(
  pod: Pod,
  feasible: NodeInfo[],
  snapshot: Snapshot,
  constraints: SpreadConstraint[],
  counted: CountedSelector[],
  requireAll: boolean,
  key: string,
): Layout {
  const ignored = new Set<string>();
  const pairCounts: PairCounts = new Map();
  const topoSize = constraints.map(() => 0);
  // hostname domains are single nodes: they are counted per node in Score
  const domainsByConstraint = constraints.map((c) =>
    c.topologyKey === LABEL_HOSTNAME ? undefined : domainsOf(pairCounts, c.topologyKey),
  );
  for (const info of feasible) {
    if (requireAll && !hasAllKeys(info, constraints)) {
      ignored.add(info.name);
      continue;
    }
    for (let i = 0; i < constraints.length; i++) {
      const domains = domainsByConstraint[i];
      if (!domains) continue;
      const value = info.labels[(constraints[i] as SpreadConstraint).topologyKey];
      if (!domains.has(value ?? '')) {
        domains.set(value ?? '', 0);
        topoSize[i] = (topoSize[i] ?? 0) + 1;
      }
    }
  }
  const weights = constraints.map((c, i) => {
    const size =
      c.topologyKey === LABEL_HOSTNAME ? feasible.length - ignored.size : (topoSize[i] ?? 0);
    return Math.log(size + 2);
  });
  // Score only reads the pair of a node that has the key, so only those pairs need counts
  // (a cluster without zone labels skips the zone default's count entirely).
  let scoredPairs: PairCounts | undefined;
  for (const info of feasible) {
    const labels = info.labels;
    for (const c of constraints) {
      if (c.topologyKey === LABEL_HOSTNAME || !hasOwn(labels, c.topologyKey)) continue;
      scoredPairs ??= new Map();
      domainsOf(scoredPairs, c.topologyKey).set(labels[c.topologyKey] ?? '', 0);
    }
  }
  const layout = { ignored, pairCounts, weights };
  if (!scoredPairs) {
    // the nodes' labels alone: the next cycle over the same nodes can take it as it is
    if (layouts.size >= MAX_LAYOUTS) layouts.clear();
    layouts.set(key, { nodes: feasible.map((n) => n.node), layout });
    return layout;
  }
  for (const info of snapshot.nodes) {
    if (requireAll && !hasAllKeys(info, constraints)) continue;
    if (!matchesRequiredNodeAffinity(pod, info.node)) continue;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i] as SpreadConstraint;
      const value = info.labels[c.topologyKey] ?? '';
      const domains = pairCounts.get(c.topologyKey);
      const cur = domains?.get(value);
      if (cur === undefined || !scoredPairs.get(c.topologyKey)?.has(value)) continue;
      domains?.set(value, cur + countOnNode(info, counted[i] as CountedSelector));
    }
  }
  return layout;
}

export const podTopologySpreadPlugin: FilterPlugin<FilterState> & ScorePlugin<ScoreState> = {
  name: POD_TOPOLOGY_SPREAD,
  events: [
    'NodeAdd',
    'NodeDelete',
    'NodeLabel',
    'NodeTaint',
    'AssignedPodAdd',
    'AssignedPodUpdate',
    'AssignedPodDelete',
    'UnscheduledPodUpdate',
  ],
  preFilter(pod, snapshot) {
    const constraints = hardConstraints(pod);
    if (constraints.length === 0) return { status: SKIP };
    const ns = pod.metadata.namespace ?? 'default';
    const counted = constraints.map((c) => countedSelector(c.selector, ns));
    const pairCounts: PairCounts = new Map();
    for (const info of snapshot.nodes) {
      // Node inclusion policies (v1.32 defaults): nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore.
      if (!hasAllKeys(info, constraints)) continue;
      if (!matchesRequiredNodeAffinity(pod, info.node)) continue;
      for (let i = 0; i < constraints.length; i++) {
        const c = constraints[i] as SpreadConstraint;
        const domains = domainsOf(pairCounts, c.topologyKey);
        const value = info.labels[c.topologyKey] ?? '';
        const n = countOnNode(info, counted[i] as CountedSelector);
        domains.set(value, (domains.get(value) ?? 0) + n);
      }
    }
    const minMatch = constraints.map((c) => {
      const counts = [...(pairCounts.get(c.topologyKey)?.values() ?? [])];
      if (counts.length < c.minDomains) return 0;
      return counts.length === 0 ? Number.MAX_SAFE_INTEGER : Math.min(...counts);
    });
    return { status: SUCCESS, state: { constraints, pairCounts, minMatch } };
  },
  filter(pod, node, state): Status {
    if (!state || state.constraints.length === 0) return SUCCESS;
    const labels = node.labels;
    for (let i = 0; i < state.constraints.length; i++) {
      const c = state.constraints[i] as SpreadConstraint;
      if (!hasOwn(labels, c.topologyKey)) {
        return unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
      }
      const self = selectorMatches(c.selector, pod.metadata.labels) ? 1 : 0;
      const matchNum = state.pairCounts.get(c.topologyKey)?.get(labels[c.topologyKey] ?? '') ?? 0;
      const skew = matchNum + self - (state.minMatch[i] ?? 0);
      if (skew > c.maxSkew) return unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
    }
    return SUCCESS;
  },
  preScore(pod, feasible, snapshot) {
    if (feasible.length === 0 || snapshot.nodes.length === 0) return { skip: true };
    const constraints = softConstraints(pod, snapshot);
    if (constraints.length === 0) return { skip: true };
    // Nodes need every topology key only for the pod's own constraints; system defaults let a
    // node without a zone label still take part in hostname spreading.
    const requireAll = (pod.spec.topologySpreadConstraints ?? []).length > 0;
    const ns = pod.metadata.namespace ?? 'default';
    const counted = constraints.map((c) => countedSelector(c.selector, ns));
    const key = layoutKey(constraints, requireAll);
    const remembered = layouts.get(key);
    const layout =
      remembered && isSameNodes(remembered.nodes, feasible)
        ? remembered.layout
        : nodeLayout(pod, feasible, snapshot, constraints, counted, requireAll, key);
    // the layout's fields named, not spread: fields spread after others take a slow path
    const { ignored, pairCounts, weights } = layout;
    return { skip: false, state: { constraints, counted, ignored, pairCounts, weights } };
  },
  score(_pod, node: NodeInfo, state) {
    if (!state || (state.ignored.size > 0 && state.ignored.has(node.name))) return 0;
    const labels = node.labels;
    let score = 0;
    for (let i = 0; i < state.constraints.length; i++) {
      const c = state.constraints[i] as SpreadConstraint;
      if (!hasOwn(labels, c.topologyKey)) continue;
      const cnt =
        c.topologyKey === LABEL_HOSTNAME
          ? countOnNode(node, state.counted[i] as CountedSelector)
          : (state.pairCounts.get(c.topologyKey)?.get(labels[c.topologyKey] ?? '') ?? 0);
      // scoreForCount: cnt * log(domains + 2) + (maxSkew - 1)
      score += cnt * (state.weights[i] ?? 0) + (c.maxSkew - 1);
    }
    return Math.round(score);
  },
  normalize(scores, nodes, state) {
    if (!state) return scores.slice();
    // checked inline: a closure over state and nodes was one more allocation per cycle
    const ignored = state.ignored;
    const anyIgnored = ignored.size > 0;
    let min = Number.MAX_SAFE_INTEGER;
    let max = 0;
    for (let i = 0; i < scores.length; i++) {
      if (anyIgnored && ignored.has((nodes[i] as NodeInfo).name)) continue;
      min = Math.min(min, scores[i] as number);
      max = Math.max(max, scores[i] as number);
    }
    const out = new Array<number>(scores.length);
    for (let i = 0; i < scores.length; i++) {
      const s = scores[i] as number;
      if (anyIgnored && ignored.has((nodes[i] as NodeInfo).name)) out[i] = 0;
      else if (max === 0) out[i] = MAX_NODE_SCORE;
      else out[i] = Math.trunc((MAX_NODE_SCORE * (max + min - s)) / max);
    }
    return out;
  },
};
