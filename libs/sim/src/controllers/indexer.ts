// Secondary indexes over an informer's cache (client-go's Indexer): "pods owned by uid X",
// "pods on node Y", "objects in namespace Z". They are kept up to date from the watch events, so
// a controller never scans every object of the cluster to answer a question about one owner.

import type { WatchEvent } from '../client/api-client';
import type { KubeObject, OwnerReference } from '../model';
import type { Informer } from '../shared/informer';
import { keyOf } from '../shared/informer';

export type IndexFunc = (obj: KubeObject) => string[];

export class Index {
  private readonly byValue = new Map<string, Set<string>>();
  private readonly valuesOf = new Map<string, string[]>();
  /** keys(value), sorted, until the value's set changes (most events are status writes) */
  private readonly sorted = new Map<string, string[]>();

  constructor(private readonly fn: IndexFunc) {}

  /**
   * `keys` (one per event) name the objects otherwise than by keyOf (e.g. tagged with their
   * resource), or are keyOf's, worked out once for several indexes over the same events.
   */
  apply(events: readonly WatchEvent[], keys?: readonly string[]): void {
    for (let i = 0; i < events.length; i++) {
      const ev = events[i] as WatchEvent;
      const key = keys ? (keys[i] as string) : keyOf(ev.object);
      const values = ev.type === 'ADDED' || ev.type === 'MODIFIED' ? this.fn(ev.object) : undefined;
      const old = this.valuesOf.get(key);
      if (values && old && (old === values || sameValues(old, values))) continue;
      this.remove(key);
      if (values) this.add(key, values);
    }
  }

  /** Rebuild from scratch (after a relist, which reports every object as ADDED). */
  reset(): void {
    this.byValue.clear();
    this.valuesOf.clear();
    this.sorted.clear();
  }

  keys(value: string): string[] {
    return this.sortedKeys(value).slice();
  }

  /** keys(value) without the defensive copy, for a caller that only reads it before the next apply. */
  sortedKeys(value: string): readonly string[] {
    let keys = this.sorted.get(value);
    if (!keys) {
      keys = [...(this.byValue.get(value) ?? [])].sort();
      this.sorted.set(value, keys);
    }
    return keys;
  }

  private add(key: string, values: string[]): void {
    this.valuesOf.set(key, values);
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as string;
      let set = this.byValue.get(v);
      if (!set) this.byValue.set(v, (set = new Set()));
      set.add(key);
      this.sorted.delete(v);
    }
  }

  private remove(key: string): void {
    const values = this.valuesOf.get(key);
    if (values === undefined) return;
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as string;
      this.byValue.get(v)?.delete(key);
      this.sorted.delete(v);
    }
    this.valuesOf.delete(key);
  }
}

/**
 * An Index over an informer's cache built on its first read, then kept up to date from the events
 * like any other: a controller that may never ask (no Job, no Service with a selector) does not
 * index every pod change of the cluster meanwhile. For reads through `lookup` only: unlike an
 * index fed since the first list, it holds no keys of objects that went away during a relist,
 * which lookup skips anyway.
 */
export class LazyIndex {
  private index: Index | undefined;

  constructor(
    private readonly fn: IndexFunc,
    private readonly cache: () => Informer,
  ) {}

  apply(events: readonly WatchEvent[], keys?: readonly string[]): void {
    this.index?.apply(events, keys);
  }

  /** The index's own sorted array, for a caller that only reads it before the next apply. */
  sortedKeys(value: string): readonly string[] {
    return this.built().sortedKeys(value);
  }

  private built(): Index {
    if (!this.index) {
      this.index = new Index(this.fn);
      const cached: WatchEvent[] = this.cache()
        .list()
        .map((object) => ({ type: 'ADDED', object, revision: 0 }));
      this.index.apply(cached);
    }
    return this.index;
  }
}

function sameValues(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const byNamespace: IndexFunc = (o) => (o.metadata.namespace ? [o.metadata.namespace] : []);

// These run for every watch event of every controller, and most events are status writes that
// keep the object's frozen ownerReferences and labels: their values are worked out once per
// frozen list (the index never changes the arrays it is given).
const controllerUids = new WeakMap<OwnerReference[], string[]>();
const ownerUids = new WeakMap<OwnerReference[], string[]>();

function refUids(
  refs: OwnerReference[],
  memo: WeakMap<OwnerReference[], string[]>,
  controllerOnly: boolean,
): string[] {
  // only frozen lists are remembered, and they stay frozen: a hit needs no frozen check
  let uids = memo.get(refs);
  if (uids !== undefined) return uids;
  // index loops rather than filter/map or for-of (a generic iterator over a frozen array)
  uids = [];
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i] as OwnerReference;
    if (!controllerOnly || r.controller === true) uids.push(r.uid);
  }
  if (Object.isFrozen(refs) && allFrozen(refs)) memo.set(refs, uids);
  return uids;
}

function allFrozen(refs: OwnerReference[]): boolean {
  for (let i = 0; i < refs.length; i++) if (!Object.isFrozen(refs[i])) return false;
  return true;
}

export const byControllerUid: IndexFunc = (o) => {
  const refs = o.metadata.ownerReferences;
  return refs == null ? [] : refUids(refs, controllerUids, true);
};
export const byOwnerUid: IndexFunc = (o) => {
  const refs = o.metadata.ownerReferences;
  return refs == null ? [] : refUids(refs, ownerUids, false);
};
// one values array per node name (indexes never change the arrays they are given): a pod's
// status writes then keep the very array its entry holds
const nodeValues = new Map<string, string[]>();

/** The values of an object an index leaves out, shared (indexes never change them). */
export const noValues = Object.freeze([]) as unknown as string[];

export const byNodeName: IndexFunc = (o) => {
  const node = (o as { spec?: { nodeName?: string } }).spec?.nodeName;
  if (!node) return noValues;
  let values = nodeValues.get(node);
  if (values === undefined) {
    if (nodeValues.size >= 65_536) nodeValues.clear(); // bounded across the labs of a process
    nodeValues.set(node, (values = [node]));
  }
  return values;
};

const namespacedLabels = new WeakMap<Record<string, string>, { ns: string; values: string[] }>();

/** `ns|key=value` for each label: candidates for a map selector without scanning a namespace. */
export const byNamespacedLabel: IndexFunc = (o) => {
  const labels = o.metadata.labels;
  if (labels == null) return [];
  const ns = o.metadata.namespace ?? '';
  // only frozen maps are remembered, and they stay frozen: a hit needs no frozen check
  const hit = namespacedLabels.get(labels);
  if (hit !== undefined && hit.ns === ns) return hit.values;
  const values = Object.entries(labels).map(([k, v]) => `${ns}|${k}=${v}`);
  if (Object.isFrozen(labels)) namespacedLabels.set(labels, { ns, values });
  return values;
};

/** The first requirement of a map selector, as a byNamespacedLabel value. */
export function selectorIndexValue(
  namespace: string,
  selector: Record<string, string>,
): string | undefined {
  const first = Object.keys(selector).sort()[0];
  return first === undefined ? undefined : `${namespace}|${first}=${selector[first]}`;
}

/** Pods referenced by an Endpoints / EndpointSlice (targetRef), as `ns/name` keys. */
export const byTargetPod: IndexFunc = (o) => {
  const refs: string[] = [];
  const add = (r?: { kind: string; namespace?: string; name: string }): void => {
    if (r?.kind === 'Pod') refs.push(`${r.namespace ?? o.metadata.namespace}/${r.name}`);
  };
  for (const s of (
    o as {
      subsets?: {
        addresses?: { targetRef?: { kind: string; namespace?: string; name: string } }[];
        notReadyAddresses?: { targetRef?: { kind: string; namespace?: string; name: string } }[];
      }[];
    }
  ).subsets ?? []) {
    for (const a of [...(s.addresses ?? []), ...(s.notReadyAddresses ?? [])]) add(a.targetRef);
  }
  for (const e of (
    o as { endpoints?: { targetRef?: { kind: string; namespace?: string; name: string } }[] }
  ).endpoints ?? [])
    add(e.targetRef);
  return refs;
};
