// NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity): Filter enforces spec.nodeSelector
// and requiredDuringScheduling node affinity; Score sums the weights of the matching
// preferredDuringScheduling terms (normalized to 0..100).

import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../../model';
import type { FilterPlugin, ScorePlugin, Status } from '../framework/plugin-types';
import { defaultNormalizeScore, SKIP, SUCCESS, unresolvable } from '../framework/plugin-types';

export const NODE_AFFINITY = 'NodeAffinity';
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

function matchRequirement(r: NodeSelectorRequirement, values: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(values, r.key);
  const v = values[r.key];
  switch (r.operator) {
    case 'In':
      return has && (r.values ?? []).includes(v as string);
    case 'NotIn':
      return !has || !(r.values ?? []).includes(v as string);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || (r.values ?? []).length !== 1) return false;
      const label = Number.parseInt(v as string, 10);
      const bound = Number.parseInt((r.values as string[])[0] as string, 10);
      if (Number.isNaN(label) || Number.isNaN(bound)) return false;
      return r.operator === 'Gt' ? label > bound : label < bound;
    }
  }
}

/** One NodeSelectorTerm: all expressions and fields ANDed; an empty term matches nothing. */
export function matchNodeSelectorTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const fieldValues = { 'metadata.name': node.metadata.name ?? '' };
  return (
    exprs.every((r) => matchRequirement(r, labels)) &&
    fields.every((r) => r.key === 'metadata.name' && matchRequirement(r, fieldValues))
  );
}

/** nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): nodeSelector AND (terms ORed). */
export function matchesRequiredNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) {
    if (labels[k] !== v) return false;
  }
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return required.nodeSelectorTerms.some((t) => matchNodeSelectorTerm(t, node));
}

interface NodeAffinityPreFilter {
  /** node names the pod is pinned to through matchFields metadata.name (DaemonSet style) */
  nodeNames?: string[];
}

export const nodeAffinityPlugin: FilterPlugin<NodeAffinityPreFilter> & ScorePlugin = {
  name: NODE_AFFINITY,
  events: ['NodeAdd', 'NodeLabel', 'UnscheduledPodUpdate'],
  preFilter(pod) {
    const required =
      pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!required && pod.spec.nodeSelector === undefined) return { status: SKIP };
    if (!required || required.nodeSelectorTerms.length === 0) return { status: SUCCESS };
    let union: Set<string> | undefined;
    for (const term of required.nodeSelectorTerms) {
      let termNames: Set<string> | undefined;
      for (const f of term.matchFields ?? []) {
        if (f.key !== 'metadata.name' || f.operator !== 'In') continue;
        const s = new Set(f.values ?? []);
        termNames = termNames ? new Set([...termNames].filter((n) => s.has(n))) : s;
      }
      // A term without a node-name field allows every node: the terms are ORed.
      if (!termNames) return { status: SUCCESS };
      union = new Set([...(union ?? []), ...termNames]);
    }
    if (union && union.size === 0) return { status: unresolvable(ERR_REASON_CONFLICT) };
    return { status: SUCCESS, state: { nodeNames: [...(union ?? [])].sort() } };
  },
  filter(pod, node): Status {
    return matchesRequiredNodeAffinity(pod, node.node) ? SUCCESS : unresolvable(ERR_REASON_POD);
  },
  preScore(pod) {
    const preferred =
      pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    return { skip: preferred.length === 0 };
  },
  score(pod, node) {
    let sum = 0;
    for (const term of pod.spec.affinity?.nodeAffinity
      ?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
      if (term.weight === 0) continue;
      if (matchNodeSelectorTerm(term.preference, node.node)) sum += term.weight;
    }
    return sum;
  },
  normalize(scores) {
    return defaultNormalizeScore(scores, false);
  },
};
