// Label selectors, in both shapes Kubernetes uses: the structured LabelSelector of specs
// (matchLabels + matchExpressions) and the string form of `kubectl get -l` / `?labelSelector=`.

import type { LabelSelector, LabelSelectorRequirement, Labels } from '../model';

export type SelectorRequirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!exists' }
  | { key: string; op: '=' | '!='; values: [string] };

export type ParsedSelector = SelectorRequirement[];

export function matchesRequirements(labels: Labels | undefined, reqs: ParsedSelector): boolean {
  const l = labels ?? {};
  // a loop, not every with a closure: controllers match selectors against every pod they own
  for (const r of reqs) if (!matchesRequirement(l, r)) return false;
  return true;
}

function matchesRequirement(l: Labels, r: SelectorRequirement): boolean {
  const has = Object.prototype.hasOwnProperty.call(l, r.key);
  switch (r.op) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case '=':
      return has && l[r.key] === r.values[0];
    case '!=':
      return !has || l[r.key] !== r.values[0];
    case 'in':
      return has && r.values.includes(l[r.key] as string);
    case 'notin':
      return !has || !r.values.includes(l[r.key] as string);
  }
}

export function fromLabelSelector(selector: LabelSelector | undefined): ParsedSelector {
  if (!selector) return [];
  const reqs: ParsedSelector = Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({
    key,
    op: '=' as const,
    values: [v] as [string],
  }));
  for (const e of selector.matchExpressions ?? []) reqs.push(fromExpression(e));
  return reqs;
}

function fromExpression(e: LabelSelectorRequirement): SelectorRequirement {
  switch (e.operator) {
    case 'In':
      return { key: e.key, op: 'in', values: e.values ?? [] };
    case 'NotIn':
      return { key: e.key, op: 'notin', values: e.values ?? [] };
    case 'Exists':
      return { key: e.key, op: 'exists' };
    case 'DoesNotExist':
      return { key: e.key, op: '!exists' };
  }
}

/** An empty LabelSelector matches everything; a missing one (nil) matches nothing. */
// Requirements of frozen selectors (informer objects are frozen and shared): a controller matches
// the same Deployment/ReplicaSet selector against each of its pods on every sync.
const frozenSelectors = new WeakMap<LabelSelector, ParsedSelector>();

export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Labels | undefined,
): boolean {
  if (!selector) return false;
  return matchesRequirements(labels, requirementsOf(selector));
}

/** selectorMatches with the selector parsed once, to match it against many objects. */
export function selectorMatcher(
  selector: LabelSelector | undefined,
): (labels: Labels | undefined) => boolean {
  if (!selector) return () => false;
  const reqs = requirementsOf(selector);
  return (labels) => matchesRequirements(labels, reqs);
}

function requirementsOf(selector: LabelSelector): ParsedSelector {
  if (!Object.isFrozen(selector)) return fromLabelSelector(selector);
  let reqs = frozenSelectors.get(selector);
  if (!reqs) {
    reqs = fromLabelSelector(selector);
    frozenSelectors.set(selector, reqs);
  }
  return reqs;
}

/** A Service's plain map selector: empty or missing selects nothing (no endpoints are managed). */
export function mapSelectorMatches(
  selector: Labels | undefined,
  labels: Labels | undefined,
): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  // a for-in rather than Object.keys and entries: asked of every Service for every pod change
  let empty = true;
  for (const k in selector) {
    empty = false;
    if (l[k] !== selector[k]) return false;
  }
  return !empty;
}

export class SelectorParseError extends Error {}

/**
 * Parses `a=b,c!=d,e in (f,g),h notin (i),j,!k` (apimachinery labels.Parse).
 * Throws SelectorParseError with kubectl-like wording on bad input.
 */
export function parseSelector(input: string): ParsedSelector {
  const s = input.trim();
  if (s === '') return [];
  const reqs: ParsedSelector = [];
  for (const part of splitTopLevel(s)) {
    const p = part.trim();
    let m: RegExpMatchArray | null;
    if ((m = p.match(/^([^\s!=(),]+)\s+(in|notin)\s+\(([^)]*)\)$/))) {
      const values = (m[3] as string)
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      reqs.push({ key: validKey(m[1] as string), op: m[2] as 'in' | 'notin', values });
    } else if ((m = p.match(/^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/))) {
      const op = m[2] === '!=' ? '!=' : '=';
      reqs.push({ key: validKey(m[1] as string), op, values: [m[3] as string] });
    } else if ((m = p.match(/^!\s*([^\s!=(),]+)$/))) {
      reqs.push({ key: validKey(m[1] as string), op: '!exists' });
    } else if ((m = p.match(/^([^\s!=(),]+)$/))) {
      reqs.push({ key: validKey(m[1] as string), op: 'exists' });
    } else {
      throw new SelectorParseError(`unable to parse requirement: ${JSON.stringify(p)}`);
    }
  }
  return reqs;
}

function validKey(key: string): string {
  if (
    !/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(key) ||
    key.length > 316
  ) {
    throw new SelectorParseError(`unable to parse requirement: invalid label key "${key}"`);
  }
  return key;
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function formatLabels(labels: Labels | undefined): string {
  const entries = Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
}

/** `metav1.FormatLabelSelector`: the SELECTOR column of `-o wide`. */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  if (!selector) return '<none>';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    parts.push(`${k}=${v}`);
  }
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort();
    if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${e.operator === 'In' ? 'in' : 'notin'} (${values.join(',')})`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}
