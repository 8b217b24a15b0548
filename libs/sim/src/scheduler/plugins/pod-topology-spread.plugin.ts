// PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread): Filter enforces the pod's
// DoNotSchedule constraints (skew = matching pods in the node's domain + self - global minimum
// must stay <= maxSkew); Score prefers domains with fewer matching pods for ScheduleAnyway
// constraints, and for pods without constraints uses the system defaults (hostname maxSkew 3,
// zone maxSkew 5) with a selector taken from the pod's Services and owning ReplicaSet. This is
// what spreads a Deployment's replicas now that SelectorSpread is gone.

import type { Node, Pod, TopologySpreadConstraint } from '../../model';
import type { ParsedSelector } from '../../shared/labels';
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

const selectorKeys = new WeakMap<SpreadSelector, string>();

/** A selector object belongs to one pod's constraint, hence to one namespace. */
function countKey(sel: SpreadSelector, namespace: string): string {
  let key = selectorKeys.get(sel);
  if (key === undefined) {
    key = `${namespace}\u0000${sel.nothing ? '!' : JSON.stringify(sel.reqs)}`;
    selectorKeys.set(sel, key);
  }
  return key;
}

/**
 * Matching pods on a node, remembered in NodeInfo.selectorCounts for as long as the node's pods
 * keep their labels: each cycle only recounts the nodes whose pods came, went or were relabelled,
 * instead of matching every pod of the cluster again.
 */
function countOnNode(info: NodeInfo, sel: SpreadSelector, namespace: string, key: string): number {
  let n = info.selectorCounts.get(key);
  if (n === undefined) {
    n = countPodsMatchSelector(info.pods, sel, namespace);
    info.selectorCounts.set(key, n);
  }
  return n;
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
    if ((svc.metadata.namespace ?? 'default') !== ns || !svc.spec.selector) continue;
    const sel = svc.spec.selector;
    const labels = pod.metadata.labels ?? {};
    if (Object.entries(sel).every(([k, v]) => labels[k] === v)) Object.assign(merged, sel);
  }
  const reqs: ParsedSelector = Object.keys(merged)
    .sort()
    .map((key) => ({ key, op: '=' as const, values: [merged[key] as string] as [string] }));
  const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
  if (owner && owner.kind === 'ReplicaSet' && owner.apiVersion === 'apps/v1') {
    const rs = snapshot.replicaSets.find(
      (r) => r.metadata.name === owner.name && (r.metadata.namespace ?? 'default') === ns,
    );
    const rsSel = (rs?.spec as { selector?: Parameters<typeof fromLabelSelector>[0] } | undefined)
      ?.selector;
    if (rsSel) reqs.push(...fromLabelSelector(rsSel));
  }
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
  const selector = defaultSelector(pod, snapshot);
  if (selector.reqs.length === 0) return [];
  return SYSTEM_DEFAULT_CONSTRAINTS.map((c) => ({ ...c, minDomains: 1, selector }));
}

function hasAllKeys(node: Node, constraints: SpreadConstraint[]): boolean {
  const labels = node.metadata.labels ?? {};
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
  /** per constraint: its key in NodeInfo.selectorCounts */
  countKeys: string[];
  ignored: Set<string>;
  pairCounts: PairCounts;
  weights: number[];
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
    const countKeys = constraints.map((c) => countKey(c.selector, ns));
    const pairCounts: PairCounts = new Map();
    for (const info of snapshot.nodes) {
      // Node inclusion policies (v1.32 defaults): nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore.
      if (!hasAllKeys(info.node, constraints)) continue;
      if (!matchesRequiredNodeAffinity(pod, info.node)) continue;
      constraints.forEach((c, i) => {
        const domains = domainsOf(pairCounts, c.topologyKey);
        const value = info.node.metadata.labels?.[c.topologyKey] ?? '';
        const n = countOnNode(info, c.selector, ns, countKeys[i] as string);
        domains.set(value, (domains.get(value) ?? 0) + n);
      });
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
    const labels = node.node.metadata.labels ?? {};
    for (const [i, c] of state.constraints.entries()) {
      if (!Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) {
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
    const ignored = new Set<string>();
    const pairCounts: PairCounts = new Map();
    const topoSize = constraints.map(() => 0);
    // hostname domains are single nodes: they are counted per node in Score
    const domainsByConstraint = constraints.map((c) =>
      c.topologyKey === LABEL_HOSTNAME ? undefined : domainsOf(pairCounts, c.topologyKey),
    );
    for (const info of feasible) {
      if (requireAll && !hasAllKeys(info.node, constraints)) {
        ignored.add(info.name);
        continue;
      }
      for (let i = 0; i < constraints.length; i++) {
        const domains = domainsByConstraint[i];
        if (!domains) continue;
        const value = info.node.metadata.labels?.[(constraints[i] as SpreadConstraint).topologyKey];
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
    const ns = pod.metadata.namespace ?? 'default';
    const countKeys = constraints.map((c) => countKey(c.selector, ns));
    // Score only reads the pair of a node that has the key, so only those pairs need counts
    // (a cluster without zone labels skips the zone default's count entirely).
    const scoredPairs: PairCounts = new Map();
    for (const info of feasible) {
      const labels = info.node.metadata.labels ?? {};
      for (const c of constraints) {
        if (c.topologyKey === LABEL_HOSTNAME) continue;
        if (Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) {
          domainsOf(scoredPairs, c.topologyKey).set(labels[c.topologyKey] ?? '', 0);
        }
      }
    }
    if (scoredPairs.size > 0) {
      for (const info of snapshot.nodes) {
        if (requireAll && !hasAllKeys(info.node, constraints)) continue;
        if (!matchesRequiredNodeAffinity(pod, info.node)) continue;
        constraints.forEach((c, i) => {
          const value = info.node.metadata.labels?.[c.topologyKey] ?? '';
          const domains = pairCounts.get(c.topologyKey);
          const cur = domains?.get(value);
          if (cur === undefined || !scoredPairs.get(c.topologyKey)?.has(value)) return;
          domains?.set(value, cur + countOnNode(info, c.selector, ns, countKeys[i] as string));
        });
      }
    }
    return { skip: false, state: { constraints, countKeys, ignored, pairCounts, weights } };
  },
  score(pod, node: NodeInfo, state) {
    if (!state || state.ignored.has(node.name)) return 0;
    const labels = node.node.metadata.labels ?? {};
    let score = 0;
    for (let i = 0; i < state.constraints.length; i++) {
      const c = state.constraints[i] as SpreadConstraint;
      if (!Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) continue;
      const cnt =
        c.topologyKey === LABEL_HOSTNAME
          ? countOnNode(
              node,
              c.selector,
              pod.metadata.namespace ?? 'default',
              state.countKeys[i] as string,
            )
          : (state.pairCounts.get(c.topologyKey)?.get(labels[c.topologyKey] ?? '') ?? 0);
      // scoreForCount: cnt * log(domains + 2) + (maxSkew - 1)
      score += cnt * (state.weights[i] ?? 0) + (c.maxSkew - 1);
    }
    return Math.round(score);
  },
  normalize(scores, state) {
    if (!state) return scores.map((s) => s.score);
    let min = Number.MAX_SAFE_INTEGER;
    let max = 0;
    for (const s of scores) {
      if (state.ignored.has(s.node)) continue;
      min = Math.min(min, s.score);
      max = Math.max(max, s.score);
    }
    return scores.map((s) => {
      if (state.ignored.has(s.node)) return 0;
      if (max === 0) return MAX_NODE_SCORE;
      return Math.trunc((MAX_NODE_SCORE * (max + min - s.score)) / max);
    });
  },
};
