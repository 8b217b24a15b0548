// What every controller of kube-controller-manager shares: informers kept in sync through the
// watch stream, a work queue of keys with the trace seq of the change that queued them, retries
// on the next pass when a write fails (apiserver down, etcd without quorum), delayed requeues
// (progress deadlines, minReadySeconds, toleration timers) and the full resync of each period.
// The queue is state: it survives serialize/restore, so a restored lab acts exactly as the
// original would have; the informer caches are rebuilt by a relist.

import type { ApiRequest, ApiResponse, WatchEvent } from '../client/api-client';
import type { KubeObject, OwnerReference } from '../model';
import { isStatus } from '../model';
import type {
  Component,
  ComponentContext,
  CurrentObjects,
  ObservedChange,
} from '../runtime/component';
import { EventRecorder } from '../shared/event-recorder';
import { Informer, keyOf } from '../shared/informer';
import { parseIso } from '../shared/time';
import type { TraceObjectRef } from '../trace/trace-event';

export const KCM_NAME = 'kube-controller-manager' as const;
export const KCM_IDENTITY = 'system:kube-controller-manager';

interface QueueEntry {
  cause?: number;
}

interface SavedState {
  queue: [string, QueueEntry][];
  delayed: [string, number][];
  lastResync: number;
  /** last watch revision seen per resource, to replay what changed since the save */
  revisions?: Record<string, number>;
  extra?: unknown;
  /** the event correlator's counts (repeats are patched without reading the Event back) */
  events?: [string, number][];
}

// the controllers' passes of one instant (a busy cluster wakes many) share one parse of its clock
const parsedNow = { iso: '', epochMs: NaN };

/** One pass of a controller: the context plus helpers that trace every action with its cause. */
export class Pass {
  constructor(
    readonly ctx: ComponentContext,
    private readonly controller: BaseController,
  ) {}

  get now(): number {
    return this.ctx.now;
  }

  /** `nowIso` as epoch ms (what status timestamps compare against), parsed once per instant. */
  get nowEpoch(): number {
    const iso = this.ctx.nowIso;
    if (iso !== parsedNow.iso) {
      parsedNow.iso = iso;
      parsedNow.epochMs = parseIso(iso);
    }
    return parsedNow.epochMs;
  }

  emit(
    verb: string,
    object: TraceObjectRef | undefined,
    message: string,
    causedBy?: number,
    data?: Record<string, unknown>,
  ): number {
    return this.ctx.trace.emit({
      component: KCM_NAME,
      verb,
      object,
      message,
      causedBy,
      data: { controller: this.controller.controllerName, ...data },
    });
  }

  /**
   * Traces the intent, then sends the request with the trace seq as its cause, so the
   * apiserver's events hang under the controller's decision. Failures are traced too.
   */
  write(
    req: Omit<ApiRequest, 'credentials' | 'causedBy'>,
    object: TraceObjectRef,
    message: string,
    causedBy?: number,
  ): ApiResponse {
    const seq = this.emit(req.verb, object, message, causedBy);
    const res = this.ctx.client.request({ ...req, causedBy: seq });
    if (!isOk(res)) {
      this.emit(
        'write-failed',
        object,
        `${req.verb} ${describeRef(object)} failed: ${errorText(res)}`,
        seq,
        {
          code: res.code,
        },
      );
    }
    return res;
  }

  event(
    involved: KubeObject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    source = this.controller.eventSource,
  ): void {
    this.controller.events.record(
      this.ctx.client,
      this.ctx.nowIso,
      { component: source },
      { involved, type, reason, message },
    );
  }

  /** Process `key` again at sim time `at` (or earlier if something changes). */
  requeueAt(key: string, at: number): void {
    this.controller.delay(key, at);
    this.ctx.wakeAt(at);
  }
}

export function isOk(res: ApiResponse): boolean {
  return res.code >= 200 && res.code < 300;
}

export function errorText(res: ApiResponse): string {
  if (res.code === 0) return typeof res.body === 'string' ? res.body : 'connection refused';
  if (isStatus(res.body)) return res.body.message ?? res.body.reason ?? `HTTP ${res.code}`;
  return typeof res.body === 'string' ? res.body : `HTTP ${res.code}`;
}

export function describeRef(ref: TraceObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

export function refOf(obj: KubeObject): TraceObjectRef {
  return {
    kind: obj.kind,
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    name: obj.metadata.name ?? obj.metadata.generateName ?? '',
  };
}

/** Result of syncing one key: done, or keep it queued and retry on the next pass. */
export type SyncResult = 'done' | 'retry';

export abstract class BaseController implements Component {
  readonly name = KCM_NAME;
  readonly identity = KCM_IDENTITY;
  abstract readonly controllerName: string;
  abstract readonly eventSource: string;
  abstract readonly periodMs: number;
  readonly watches: readonly string[];
  protected readonly informers: Record<string, Informer>;

  private queue = new Map<string, QueueEntry>();
  /** the event correlator (its counts are state: saved with the queue) */
  events = new EventRecorder();
  private delayed = new Map<string, number>();
  private lastResync = -Infinity;
  /**
   * Per resource, the revision of the last change seen (a list's, until a change comes): saved,
   * so a restored controller's informers list as they stood then and watch on from there (a
   * passive informer's at the next full resync).
   */
  private revisions: Record<string, number> = {};

  /** Informers read only at each full resync: they do not wake the controller (e.g. Leases). */
  private readonly passive: readonly string[];

  protected constructor(resources: readonly string[], passive: readonly string[] = []) {
    this.watches = resources;
    this.passive = passive;
    this.informers = Object.fromEntries(
      [...resources, ...passive].map((r) => [r, new Informer(r)]),
    );
  }

  /** Keys (namespace/name) a change to `ev` on `resource` makes dirty. */
  protected abstract keysFor(resource: string, ev: WatchEvent, pass: Pass): string[];
  /** Every key a full resync processes. */
  protected abstract allKeys(): string[];
  /** Reconciles one key; must not throw on API failures (return 'retry'). */
  protected abstract syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult;

  /**
   * Whether a change should wake this controller: upstream, an informer's event handler decides
   * whether a change is queued at all (the Deployment controller only handles pod deletions, the
   * Job controller only pods a Job owns).
   */
  wakeOn(_change: ObservedChange, _current: CurrentObjects): boolean {
    return true;
  }

  /** Hook for controllers with timers of their own (e.g. the taint eviction queue). */
  protected afterSync(_pass: Pass): void {}
  protected saveExtra(): unknown {
    return undefined;
  }
  protected loadExtra(_extra: unknown): void {}
  /** Called before event keys are computed, so indexes can be updated from the events. */
  protected observe(_resource: string, _events: WatchEvent[]): void {}

  reconcile(ctx: ComponentContext): void {
    const pass = new Pass(ctx, this);
    try {
      this.runPass(pass);
    } catch (err) {
      // A controller must never take the simulation down; the bug shows up in the trace.
      pass.emit('error', undefined, `${this.controllerName} controller: ${String(err)}`);
    }
  }

  private runPass(pass: Pass): void {
    const resyncDue = pass.now >= this.lastResync + this.periodMs;
    let synced = this.syncInformers(this.watches, pass);
    if (resyncDue) synced = this.syncInformers(this.passive, pass) && synced;
    if (!synced) {
      // Cannot see the cluster (apiserver down at start): try again next period.
      return;
    }
    if (resyncDue) {
      this.lastResync = pass.now;
      for (const key of this.allKeys()) if (!this.queue.has(key)) this.queue.set(key, {});
    }
    // deleting the entry being visited is safe in a Map iteration, and nothing else changes it here
    // by key, not by [key, at] entry (no array per delayed key at each wake)
    for (const key of this.delayed.keys()) {
      const at = this.delayed.get(key) as number;
      if (at <= pass.now) {
        this.delayed.delete(key);
        if (!this.queue.has(key)) this.queue.set(key, {});
      } else pass.ctx.wakeAt(at);
    }
    // most passes of a busy cluster find nothing queued (another controller's change woke them)
    if (this.queue.size > 0) {
      const keys = [...this.queue.keys()];
      // keys are often queued in order already; sorting copies the array into a work area
      if (!isSorted(keys)) keys.sort();
      for (const key of keys) {
        const entry = this.queue.get(key) as QueueEntry;
        this.queue.delete(key);
        if (this.syncKey(key, pass, entry.cause) === 'retry' && !this.queue.has(key)) {
          this.queue.set(key, entry);
        }
      }
    }
    this.afterSync(pass);
  }

  /** Syncs the informers of `resources` and queues what their events touch; false if one never listed. */
  private syncInformers(resources: readonly string[], pass: Pass): boolean {
    this.rebuildRestored(resources, pass);
    let synced = true;
    for (const resource of resources) {
      const informer = this.informers[resource] as Informer;
      const wasSynced = informer.synced;
      const events = informer.sync(pass.ctx.client);
      this.observe(resource, events);
      if (wasSynced) {
        if (events.length > 0) this.noteRevisions(resource, events);
      } else if (informer.synced) {
        // a first list: the cache holds everything up to its revision, then only real watch
        // events move the saved revision
        this.revisions[resource] = informer.lastRevision;
      } else synced = false;
      for (const ev of events) {
        const keys = this.keysFor(resource, ev, pass);
        for (let i = 0; i < keys.length; i++) this.enqueue(keys[i] as string, ev.traceSeq);
      }
    }
    return synced;
  }

  /**
   * A restored controller's first pass: every informer of `resources` lists as it stood when the
   * lab was saved (its indexes with it), before any event is looked at. The pass then goes on
   * as the saved controller's would: each watch delivers what changed since, in resource order,
   * and the keys of one resource's events are worked out from the others' indexes as they
   * stood. An informer whose history is gone lists the cluster as it is now, and every object
   * it lists is reconciled.
   */
  private rebuildRestored(resources: readonly string[], pass: Pass): void {
    for (const resource of resources) {
      const informer = this.informers[resource] as Informer;
      // one that had never listed when the lab was saved lists for the first time, as it would have
      if (!informer.restoring || this.revisions[resource] === undefined) continue;
      const listed = informer.sync(pass.ctx.client);
      if (!informer.synced) continue;
      this.observe(resource, listed);
      if (informer.listedAtResumePoint) continue;
      // as a watch answered 410 Expired would have the saved controller relist
      if (listed.length > 0) this.noteRevisions(resource, listed);
      for (const ev of listed) {
        const keys = this.keysFor(resource, ev, pass);
        for (let i = 0; i < keys.length; i++) this.enqueue(keys[i] as string);
      }
    }
  }

  private noteRevisions(resource: string, events: readonly WatchEvent[]): void {
    let revision = this.revisions[resource] ?? 0;
    for (const ev of events) revision = Math.max(revision, ev.revision);
    this.revisions[resource] = revision;
  }

  enqueue(key: string, cause?: number): void {
    const prev = this.queue.get(key);
    // entries are never changed in place (saved states share them): a repeat keeps the entry
    if (prev && (cause === undefined || cause === prev.cause)) return;
    this.queue.set(key, { cause: cause ?? prev?.cause });
  }

  /** Whether any key waits in the queue or for a delayed requeue. */
  protected hasPendingKeys(): boolean {
    return this.queue.size > 0 || this.delayed.size > 0;
  }

  /** Drops a delayed requeue that has become pointless (e.g. a Deployment that completed). */
  cancelDelay(key: string): void {
    this.delayed.delete(key);
  }

  delay(key: string, at: number): void {
    const prev = this.delayed.get(key);
    if (prev === undefined || at < prev) this.delayed.set(key, at);
  }

  protected informer<T extends KubeObject>(resource: string): Informer<T> {
    return this.informers[resource] as unknown as Informer<T>;
  }

  saveState(): unknown {
    const state: SavedState = {
      queue: [...this.queue].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      delayed: [...this.delayed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      lastResync: Number.isFinite(this.lastResync) ? this.lastResync : -1e15,
      revisions: { ...this.revisions },
      extra: this.saveExtra(),
      events: this.events.toJSON(),
    };
    return state;
  }

  resumePoints(): Readonly<Record<string, number>> {
    return this.revisions;
  }

  /** `undefined` models a process restart: in-memory state (queues, timers) is lost. */
  loadState(state: unknown): void {
    const s = state as SavedState | undefined | null;
    for (const [resource, inf] of Object.entries(this.informers)) {
      if (s) inf.markRestored(s.revisions?.[resource], true);
      else inf.reset();
    }
    if (!s) {
      this.queue = new Map();
      this.delayed = new Map();
      this.lastResync = -Infinity;
      this.revisions = {};
      this.events = new EventRecorder();
      this.loadExtra(undefined);
      return;
    }
    this.queue = new Map(s.queue);
    this.delayed = new Map(s.delayed);
    this.lastResync = s.lastResync;
    this.revisions = { ...(s.revisions ?? {}) };
    this.events = EventRecorder.fromJSON(s.events);
    this.loadExtra(s.extra);
  }
}

export { keyOf };

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++)
    if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

export function splitKey(key: string): { namespace?: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

export function byKey(a: KubeObject, b: KubeObject): number {
  const ka = keyOf(a);
  const kb = keyOf(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** The controller ownerReference of an object, if any. */
export function controllerRef(
  obj: KubeObject,
): { kind: string; name: string; uid: string } | undefined {
  // an index loop, not find with a closure nor for-of: several controllers ask this of every pod
  // change, and V8 walks a frozen array (as the apiserver's objects are) with a generic iterator
  const refs = obj.metadata.ownerReferences;
  if (refs == null) return undefined;
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i] as OwnerReference;
    if (r.controller === true) return r;
  }
  return undefined;
}

/** Objects behind index keys, skipping keys a relist may have left stale. */
export function lookup<T extends KubeObject>(informer: Informer<T>, keys: readonly string[]): T[] {
  const out: T[] = [];
  // an index loop: the keys are often an index's frozen-for-reading array, walked for every sync
  for (let i = 0; i < keys.length; i++) {
    const obj = informer.getByKey(keys[i] as string);
    if (obj) out.push(obj);
  }
  return out;
}

/**
 * A writable copy of an API object (informer objects are frozen, shared with every watcher).
 * Same result as a JSON round trip for API data (undefined properties dropped), without the
 * string detour.
 */
export function deepClone<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x: unknown) => (x === undefined ? null : deepClone(x))) as T;
  const out: Record<string, unknown> = {};
  for (const k in v as Record<string, unknown>) {
    const x = (v as Record<string, unknown>)[k];
    // leaves are copied here rather than by a call each
    if (x !== undefined) out[k] = x !== null && typeof x === 'object' ? deepClone(x) : x;
  }
  return out as T;
}
