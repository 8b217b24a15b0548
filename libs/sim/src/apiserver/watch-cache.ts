// The apiserver's watch cache (k8s.io/apiserver/pkg/storage/cacher): the decoded current state of
// every resource plus a bounded, revision-ordered history of changes per resource. It follows
// etcd's change stream (so it also sees writes that bypass the apiserver, like a disaster or a
// snapshot restore) and serves lists and watches even when etcd has lost quorum.

import type { WatchEvent } from '../client/api-client';
import type { KubeObject } from '../model';
import type { ResourceInfo } from '../model/resources';
import { etcdKey, RESOURCES } from '../model/resources';
import type { PreparedRow } from './printers';
import { deepFreeze } from '../shared/deep-freeze';

export interface CachedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  prev?: KubeObject;
  revision: number;
  traceSeq?: number;
  /**
   * the frozen WatchEvent every unfiltered watcher is given for this event, made by the first
   * watch that hands it out (the event itself never changes)
   */
  shared?: WatchEvent;
}

/** An object whose stored bytes the apiserver cannot decode (corrupted, or an unknown key). */
export interface CorruptEntry {
  corrupt: true;
  key: string;
  error: string;
}

export type CacheEntry = KubeObject | CorruptEntry;

export function isCorrupt(e: CacheEntry | undefined): e is CorruptEntry {
  return !!e && (e as CorruptEntry).corrupt === true;
}

interface ResourceCache {
  info: ResourceInfo;
  objects: Map<string, CacheEntry>;
  /** the keys of `objects` in etcd order, kept sorted as keys come and go (null: rebuild) */
  sorted: string[] | null;
  history: CachedEvent[];
  /** every event with revision > bound is in history */
  bound: number;
  /**
   * pods only: the history events touching each node (object or previous object bound there),
   * so a kubelet's `spec.nodeName=<node>` watch reads its own events instead of all of them
   */
  byNode?: Map<string, CachedEvent[]>;
}

const STORED = RESOURCES.filter(
  (r) => !['bindings', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews'].includes(r.resource),
);

// A key is /registry/<prefix>/<name> or /registry/<prefix>/<namespace>/<name>, and a prefix may
// itself hold a slash (services/specs): so the prefix ends at the last or the second-to-last
// slash. The first resource with a prefix wins, as a longer prefix does (the last slash's).
const REGISTRY = '/registry/';
const CLUSTER_PREFIXES = new Map<string, ResourceInfo>();
const NAMESPACED_PREFIXES = new Map<string, ResourceInfo>();
for (const r of STORED) {
  const byPrefix = r.namespaced ? NAMESPACED_PREFIXES : CLUSTER_PREFIXES;
  if (!byPrefix.has(r.etcdPrefix)) byPrefix.set(r.etcdPrefix, r);
}

// Parsed on every write and every change etcd reports; most keys (Events) are seen once, so a
// memo would only cost. Only the resource is wanted: the key's namespace and name are not cut out.
export function resourceForKey(key: string): ResourceInfo | undefined {
  if (!key.startsWith(REGISTRY)) return undefined;
  const last = key.lastIndexOf('/');
  const cluster = CLUSTER_PREFIXES.get(key.slice(REGISTRY.length, last));
  if (cluster) return cluster;
  const second = key.lastIndexOf('/', last - 1);
  if (second < REGISTRY.length) return undefined;
  return NAMESPACED_PREFIXES.get(key.slice(REGISTRY.length, second));
}

export class WatchCache {
  private caches = new Map<string, ResourceCache>();
  /**
   * The printed Table rows of cached objects. The objects are frozen and each stored version is
   * one object, so identity is (resource, uid, resourceVersion); the entries go with the objects
   * (bounded by the cache itself) and are never part of the lab's serialized state.
   */
  readonly printedRows = new WeakMap<KubeObject, PreparedRow>();

  constructor(
    startRevision: number,
    private readonly capacity = 20_000,
  ) {
    for (const info of STORED) {
      this.caches.set(info.resource, {
        info,
        objects: new Map(),
        sorted: null,
        history: [],
        bound: startRevision,
        ...(info.resource === 'pods' ? { byNode: new Map<string, CachedEvent[]>() } : {}),
      });
    }
  }

  resourceCache(resource: string): ResourceCache | undefined {
    return this.caches.get(resource);
  }

  get(resource: string, key: string): CacheEntry | undefined {
    return this.caches.get(resource)?.objects.get(key);
  }

  /** Entries of a resource, sorted by etcd key (namespace/name order, as etcd ranges return). */
  list(resource: string, namespace?: string): CacheEntry[] {
    const c = this.caches.get(resource);
    if (!c) return [];
    const keys = (c.sorted ??= [...c.objects.keys()].sort());
    const objects = c.objects;
    // sized once: lists of thousands of pods would otherwise regrow their array many times
    if (!(namespace && c.info.namespaced)) return keys.map((k) => objects.get(k) as CacheEntry);
    const prefix = `/registry/${c.info.etcdPrefix}/${namespace}/`;
    const start = lowerBound(keys, prefix);
    let end = start;
    while (end < keys.length && (keys[end] as string).startsWith(prefix)) end++;
    const out = new Array<CacheEntry>(end - start);
    for (let i = start; i < end; i++) out[i - start] = objects.get(keys[i] as string) as CacheEntry;
    return out;
  }

  /**
   * Entries of a resource as they stood at `revision` (etcd key order), rolled back from the
   * current ones through the history; null when the history does not reach back that far.
   */
  listAt(resource: string, namespace: string | undefined, revision: number): CacheEntry[] | null {
    const c = this.caches.get(resource);
    if (!c || revision < c.bound) return null;
    const at = new Map<string, CacheEntry | null>();
    for (const ev of after(c.history, revision)) {
      const key = keyOfEvent(c, ev);
      if (at.has(key)) continue;
      // the first change after `revision`: what it replaced is what was there
      if (ev.type === 'ADDED') at.set(key, null);
      else if (ev.prev) at.set(key, ev.prev);
      else return null;
    }
    const prefix =
      namespace && c.info.namespaced ? `/registry/${c.info.etcdPrefix}/${namespace}/` : '';
    const keys = new Set<string>();
    for (const key of (c.sorted ??= [...c.objects.keys()].sort())) keys.add(key);
    for (const key of at.keys()) keys.add(key);
    const out: CacheEntry[] = [];
    for (const key of [...keys].sort()) {
      if (!key.startsWith(prefix)) continue;
      const entry = at.has(key) ? at.get(key) : c.objects.get(key);
      if (entry) out.push(entry);
    }
    return out;
  }

  /** Seeds the current state without history (startup / restore). */
  seed(resource: string, key: string, entry: CacheEntry): void {
    const c = this.caches.get(resource);
    if (!c) return;
    if (!c.objects.has(key)) addKey(c, key);
    c.objects.set(key, deepFreeze(entry));
  }

  apply(
    resource: string,
    key: string,
    entry: CacheEntry | null,
    revision: number,
    traceSeq?: number,
  ): CachedEvent | null {
    const c = this.caches.get(resource);
    if (!c) return null;
    const prevEntry = c.objects.get(key);
    const prev = prevEntry && !isCorrupt(prevEntry) ? prevEntry : undefined;
    let ev: CachedEvent | null = null;
    // every event is one literal of the same shape (no field added later)
    if (entry === null) {
      if (c.objects.delete(key)) removeKey(c, key);
      if (prev)
        ev = {
          type: 'DELETED',
          object: withRv(prev, revision),
          prev,
          revision,
          traceSeq,
          shared: undefined,
        };
    } else {
      deepFreeze(entry);
      if (!prevEntry) addKey(c, key);
      c.objects.set(key, entry);
      if (!isCorrupt(entry))
        ev = {
          type: prev ? 'MODIFIED' : 'ADDED',
          object: entry,
          prev,
          revision,
          traceSeq,
          shared: undefined,
        };
    }
    if (ev) {
      c.history.push(ev);
      if (c.byNode) indexByNode(c.byNode, ev);
      if (c.history.length > this.capacity) {
        const drop = c.history.length - Math.floor(this.capacity / 2);
        c.bound = (c.history[drop - 1] as CachedEvent).revision;
        c.history = c.history.slice(drop);
        if (c.byNode) {
          for (const [node, list] of [...c.byNode]) {
            const kept = list.filter((e) => e.revision > c.bound);
            if (kept.length) c.byNode.set(node, kept);
            else c.byNode.delete(node);
          }
        }
      }
    }
    return ev;
  }

  /**
   * The recent history, as a restored lab needs it to answer the watches its components resume
   * from their saved revisions (the original lab would answer them from its history, so a
   * restored lab must too, or its components relist and act in another order). Per resource
   * someone resumes (from `cutoffs[resource]` on): the events after it, and the revision after
   * which that list is complete. An event whose
   * object is still the current one is saved by reference; older versions and deletions carry
   * their object, except a Secret's: a Secret is kept decrypted only in memory, as by the real
   * apiserver, so such a history is left out and its watchers relist after a restore.
   */
  historyState(cutoffs: Readonly<Record<string, number>>, maxEvents: number): WatchHistoryState {
    const out: WatchHistoryState = {};
    for (const [resource, cutoff] of Object.entries(cutoffs).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const c = this.caches.get(resource);
      if (!c) continue;
      // Complete after the cutoff itself: the same answer whether this cache ran from the start
      // or was restored since (its history then starts later). A component further behind than
      // the history reaches (e.g. since the apiserver restarted) is answered 410 Expired by the
      // original too: the others still resume.
      const bound = Math.max(cutoff, c.bound);
      const i = firstAfter(c.history, bound);
      if (c.history.length - i > maxEvents) continue;
      const events: SavedEvent[] = [];
      const seen = new Set<string>();
      for (let j = i; j < c.history.length; j++) {
        const ev = c.history[j] as CachedEvent;
        const key = keyOfEvent(c, ev);
        const saved: SavedEvent = { type: ev.type, key, revision: ev.revision };
        if (ev.traceSeq !== undefined) saved.traceSeq = ev.traceSeq;
        if (ev.type === 'DELETED' || c.objects.get(key) !== ev.object) saved.object = ev.object;
        // what a key's first change replaced: a restored lab can answer a list as it stood at
        // the cutoff (see listAt), as a component restored while the apiserver is stopped needs
        if (!seen.has(key)) {
          seen.add(key);
          if (ev.type !== 'ADDED' && ev.prev) saved.prev = ev.prev;
        }
        events.push(saved);
      }
      if (
        resource === 'secrets' &&
        events.some((e) => e.object !== undefined || e.prev !== undefined)
      )
        continue;
      out[resource] = { bound, events };
    }
    return out;
  }

  /**
   * Puts a saved history back (a freshly seeded cache of a restored lab): each resource answers
   * watches from its saved bound on. The first event of each key gets the object it replaced
   * back, so filtered watches and `listAt` answer as the original's history would.
   */
  loadHistory(state: WatchHistoryState): void {
    for (const [resource, saved] of Object.entries(state)) {
      const c = this.caches.get(resource);
      if (!c || saved.bound > c.bound) continue;
      const history = rebuildHistory(c, saved.events);
      // an event whose object cannot be found: this resource's watchers relist, as before
      if (!history) continue;
      c.history = history;
      c.bound = saved.bound;
      if (c.byNode) for (const ev of history) indexByNode(c.byNode, ev);
    }
  }

  /** Forgets all history (after a snapshot restore): every watcher must relist. */
  markCompacted(revision: number): void {
    for (const c of this.caches.values()) {
      c.history = [];
      c.bound = revision;
      c.byNode?.clear();
    }
  }

  /** The oldest revision still answerable when `since` is too old, else null. */
  expiredBefore(resource: string, since: number): number | null {
    const c = this.caches.get(resource);
    return c && since < c.bound ? c.bound + 1 : null;
  }

  /** True when nothing happened to `resource` after `since` (and `since` is not expired). */
  quietSince(resource: string, since: number): boolean {
    const c = this.caches.get(resource);
    if (!c) return true;
    return since >= c.bound && (lastRevision(c) ?? since) <= since;
  }

  /**
   * Events with revision > since, or `{ expired: oldest }` when the history no longer reaches back
   * that far (the caller answers 410 Expired).
   */
  eventsSince(resource: string, since: number): CachedEvent[] | { expired: number } {
    const c = this.caches.get(resource);
    if (!c) return [];
    if (since < c.bound) return { expired: c.bound + 1 };
    return after(c.history, since);
  }

  /**
   * Pods events after `since` that touch `node` (a superset of what a spec.nodeName=<node> watch
   * matches), plus the newest revision scanned; null when the resource keeps no node index.
   */
  nodeEventsSince(
    resource: string,
    node: string,
    since: number,
  ): { events: CachedEvent[]; upTo: number } | { expired: number } | null {
    const c = this.caches.get(resource);
    if (!c?.byNode) return null;
    if (since < c.bound) return { expired: c.bound + 1 };
    return {
      events: after(c.byNode.get(node) ?? [], since),
      upTo: Math.max(since, lastRevision(c) ?? since),
    };
  }
}

/** The newest revision in a resource's history (or null when it has none). */
/** One event of a saved history (see WatchCache.historyState). */
export interface SavedEvent {
  type: CachedEvent['type'];
  /** the object's etcd key */
  key: string;
  revision: number;
  traceSeq?: number;
  /** the object at that revision, when it is no longer the current one */
  object?: KubeObject;
  /** the object this change replaced, for the first change of each key */
  prev?: KubeObject;
}

export type WatchHistoryState = Record<string, { bound: number; events: SavedEvent[] }>;

function rebuildHistory(c: ResourceCache, saved: SavedEvent[]): CachedEvent[] | null {
  const history: CachedEvent[] = [];
  const last = new Map<string, KubeObject>();
  for (const e of saved) {
    const current = c.objects.get(e.key);
    const object =
      e.object !== undefined
        ? deepFreeze(e.object)
        : current && !isCorrupt(current)
          ? current
          : undefined;
    if (!object) return null;
    const ev: CachedEvent = { type: e.type, object, revision: e.revision };
    const prev = last.get(e.key) ?? (e.prev === undefined ? undefined : deepFreeze(e.prev));
    if (prev && e.type !== 'ADDED') ev.prev = prev;
    if (e.traceSeq !== undefined) ev.traceSeq = e.traceSeq;
    last.set(e.key, object);
    history.push(ev);
  }
  return history;
}

function keyOfEvent(c: ResourceCache, ev: CachedEvent): string {
  return etcdKey(c.info, ev.object.metadata.namespace, ev.object.metadata.name ?? '');
}

/** Index of the first event with revision > since. */
function firstAfter(list: CachedEvent[], since: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as CachedEvent).revision <= since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function lastRevision(c: ResourceCache): number | null {
  const last = c.history[c.history.length - 1];
  return last ? last.revision : null;
}

/** The first index whose key is >= `key` (code-unit order, as Array.prototype.sort). */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function addKey(c: ResourceCache, key: string): void {
  if (c.sorted) c.sorted.splice(lowerBound(c.sorted, key), 0, key);
}

function removeKey(c: ResourceCache, key: string): void {
  if (!c.sorted) return;
  const i = lowerBound(c.sorted, key);
  if (c.sorted[i] === key) c.sorted.splice(i, 1);
}

function nodeOf(o: KubeObject | undefined): string | undefined {
  return (o as { spec?: { nodeName?: string } } | undefined)?.spec?.nodeName || undefined;
}

function indexByNode(byNode: Map<string, CachedEvent[]>, ev: CachedEvent): void {
  const a = nodeOf(ev.object);
  const b = nodeOf(ev.prev);
  for (const node of a === b ? [a] : [a, b]) {
    if (!node) continue;
    const list = byNode.get(node);
    if (list) list.push(ev);
    else byNode.set(node, [ev]);
  }
}

function after(list: CachedEvent[], since: number): CachedEvent[] {
  return list.slice(firstAfter(list, since));
}

function withRv(obj: KubeObject, revision: number): KubeObject {
  return Object.freeze({
    ...obj,
    metadata: Object.freeze({ ...obj.metadata, resourceVersion: String(revision) }),
  });
}

export type { WatchEvent };
