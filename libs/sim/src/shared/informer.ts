// A tiny client-go informer: list once, then follow the watch stream from the list's
// resourceVersion, keeping a local cache. Components read their cache instead of re-listing the
// world every loop, which is how real controllers keep the apiserver's load flat. A 410 Expired
// (watch cache too old, e.g. after a restore) makes it relist, as client-go's reflector does.

import type { ApiClient, ApiResponse, WatchEvent } from '../client/api-client';
import type { KubeList, KubeObject } from '../model';
import { isStatus } from '../model';

export class Informer<T extends KubeObject = KubeObject> {
  private readonly cache = new Map<string, T>();
  private revision = -1;
  /** Lists that replaced the cache: after the first, indexes fed by the events may hold stale keys. */
  relists = 0;
  /** until its first list: the informer of a restored component (see `markRestored`) */
  private restored = false;
  /** the revision the saved component's cache stood at, if known */
  private restoredAt: number | undefined;
  /** list exactly at `restoredAt`, whether the apiserver runs or not (see `markRestored`) */
  private restoreExactly = false;
  /** The last list stood at the restored component's resume point (its cache as saved). */
  listedAtResumePoint = false;
  /** the watch options of every sync, made once */
  private readonly watchOpts: {
    namespace?: string;
    labelSelector?: string;
    fieldSelector?: string;
    allowWatchBookmarks: true;
  };

  constructor(
    readonly resource: string,
    private readonly opts: {
      namespace?: string;
      labelSelector?: string;
      fieldSelector?: string;
    } = {},
  ) {
    this.watchOpts = { ...opts, allowWatchBookmarks: true };
  }

  /** Brings the cache up to date. Returns the changes seen (a relist reports every object as ADDED). */
  sync(client: ApiClient): WatchEvent<T>[] {
    if (this.revision < 0) return this.relist(client);
    const events = client.watch(this.resource, this.revision, this.watchOpts);
    if (isStatus(events)) {
      // 410 Expired relists; any other failure (apiserver down, no quorum) keeps the stale cache.
      return events.code === 410 ? this.relist(client) : [];
    }
    // most syncs of a busy cluster find nothing new (another component's change woke them)
    if (events.length === 0) return events as WatchEvent<T>[];
    let revision = this.revision;
    const last = events[events.length - 1] as WatchEvent;
    if (last.type === 'BOOKMARK') {
      // a filtered watch read further than its last event: resume from there next time
      if (last.revision > revision) revision = last.revision;
      events.pop();
    }
    const cache = this.cache;
    for (let i = 0; i < events.length; i++) {
      const ev = events[i] as WatchEvent;
      if (ev.revision > revision) revision = ev.revision;
      const type = ev.type;
      if (type === 'DELETED') cache.delete(keyOf(ev.object));
      else if (type === 'ADDED' || type === 'MODIFIED') cache.set(keyOf(ev.object), ev.object as T);
    }
    this.revision = revision;
    return events as WatchEvent<T>[];
  }

  get synced(): boolean {
    return this.revision >= 0;
  }

  /** The revision the watch has read up to (-1 before the first list). */
  get lastRevision(): number {
    return this.revision;
  }

  /**
   * Carries on watching from `revision`, at most the revision of the list just made: a restored
   * component resumes where the saved one had read to, so it asks the same questions after.
   */
  resumeAt(revision: number): void {
    if (revision >= 0 && revision <= this.revision) this.revision = revision;
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  /** By cache key (`namespace/name`, or `name` for cluster-scoped objects), as keyOf builds it. */
  getByKey(key: string): T | undefined {
    return this.cache.get(key);
  }

  list(filter?: (obj: T) => boolean): T[] {
    if (!filter) return [...this.cache.values()];
    const out: T[] = [];
    for (const obj of this.cache.values()) if (filter(obj)) out.push(obj);
    return out;
  }

  /** Forget everything (e.g. the component restarted); the next sync relists. */
  reset(): void {
    this.cache.clear();
    this.revision = -1;
    this.restored = false;
  }

  /**
   * This informer belongs to a component restored from a saved lab. Its cache is not saved, so
   * its first list rebuilds it: that is the saved component's memory, not a call the running
   * cluster makes, and it is answered even if the apiserver is stopped now, as the cache stood
   * at `at` (a lab saved and restored acts as one that never was). `exactly`: as it stood at `at`
   * even while the apiserver runs (the component then reads what changed since from its watch,
   * as the saved one would have), unless the apiserver's history no longer reaches back.
   */
  markRestored(at?: number, exactly = false): void {
    this.reset();
    this.restored = true;
    this.restoredAt = at;
    this.restoreExactly = exactly;
  }

  /** Whether the next sync is the first list of a restored component's informer. */
  get restoring(): boolean {
    return this.restored && this.revision < 0;
  }

  private relist(client: ApiClient): WatchEvent<T>[] {
    const query = {
      labelSelector: this.opts.labelSelector,
      fieldSelector: this.opts.fieldSelector,
    };
    const request = (exactly: boolean): ApiResponse =>
      client.request({
        verb: 'list',
        resource: this.resource,
        namespace: this.opts.namespace,
        query:
          exactly && this.restoredAt !== undefined
            ? { ...query, resourceVersion: String(this.restoredAt), resourceVersionMatch: 'Exact' }
            : query,
        // the cache holds the apiserver's frozen objects, as the watch delivers them
        readOnly: true,
        ...(this.restored ? { rebuild: true, rebuildAt: this.restoredAt } : {}),
      });
    const exactly = this.restored && this.restoreExactly && this.restoredAt !== undefined;
    let res = request(exactly);
    // the history no longer reaches back to the save: the cache as it is now
    if (exactly && res.code === 410) res = request(false);
    if (res.code !== 200 || typeof res.body === 'string' || isStatus(res.body)) return [];
    const list = res.body as KubeList<T>;
    this.cache.clear();
    this.relists++;
    this.listedAtResumePoint =
      exactly && res.code === 200 && list.metadata.resourceVersion === String(this.restoredAt);
    this.restored = false;
    for (const item of list.items) this.cache.set(keyOf(item), item);
    this.revision = Number(list.metadata.resourceVersion ?? 0);
    return list.items.map((object) => ({
      type: 'ADDED' as const,
      object,
      revision: this.revision,
    }));
  }
}

// Watch events hand the same frozen object to every informer and index of every controller:
// its key is built once, and reusing the one string spares each Map lookup from hashing it anew.
const frozenKeys = new WeakMap<KubeObject, string>();

export function keyOf(obj: KubeObject): string {
  // only frozen objects are remembered, and they stay frozen: a hit needs no frozen check
  let key = frozenKeys.get(obj);
  if (key !== undefined) return key;
  key = buildKey(obj);
  if (Object.isFrozen(obj) && Object.isFrozen(obj.metadata)) frozenKeys.set(obj, key);
  return key;
}

function buildKey(obj: KubeObject): string {
  return obj.metadata.namespace
    ? `${obj.metadata.namespace}/${obj.metadata.name}`
    : `${obj.metadata.name}`;
}
