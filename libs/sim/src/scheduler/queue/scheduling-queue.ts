// The scheduling queue (pkg/scheduler/backend/queue/scheduling_queue.go) with its three parts:
// activeQ (ready, ordered by priority then the time the pod entered the queue), backoffQ
// (failed recently: 1 s doubling to 10 s, flushed by a 1 s ticker) and unschedulablePods
// (waiting for a cluster event one of its rejecting plugins cares about, or for the 5 min
// leftover flush run by a 30 s ticker). Plain data, so it serializes with the lab.

import type { ClusterEvent } from '../framework/plugin-types';

export const INITIAL_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 10_000;
export const BACKOFF_FLUSH_PERIOD_MS = 1_000;
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;
export const MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;

export type SubQueue = 'active' | 'backoff' | 'unschedulable';

export interface QueuedPod {
  /** namespace/name */
  key: string;
  uid?: string;
  priority: number;
  /** sim ms the pod (re-)entered the queue: the activeQ order and the backoff start */
  timestamp: number;
  /** scheduling attempts so far */
  attempts: number;
  /** insertion counter: a deterministic tie-break */
  seq: number;
  where: SubQueue;
  /** plugins that rejected it last time (decide which cluster events can help) */
  unschedulablePlugins: string[];
  /** trace seq of the watch event that announced the pod (causes of the scheduler's events) */
  causedBy?: number;
}

export interface QueueState {
  pods: QueuedPod[];
  seq: number;
}

/** calculateBackoffDuration: 1 s for the first failure, doubling, capped at 10 s. */
export function backoffDuration(attempts: number): number {
  let d = INITIAL_BACKOFF_MS;
  for (let i = 1; i < attempts; i++) {
    if (d > MAX_BACKOFF_MS - d) return MAX_BACKOFF_MS;
    d += d;
  }
  return d;
}

const ceilTo = (t: number, period: number): number => Math.ceil(t / period) * period;

/** activeQ's order (Less in scheduling_queue.go): higher priority, then earlier timestamp, then seq. */
function before(a: ActiveEntry, b: ActiveEntry): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
  return a.seq < b.seq;
}

/** A heap slot: the pod plus the ordering keys it had when it entered activeQ. */
interface ActiveEntry {
  p: QueuedPod;
  priority: number;
  timestamp: number;
  seq: number;
}

export class SchedulingQueue {
  private readonly pods = new Map<string, QueuedPod>();
  private seq = 0;
  // Indexes over `pods`, so a cycle does not scan every queued pod (thousands when a big
  // Deployment is created): activeQ is a binary heap whose slots go stale when their pod leaves
  // or changes (checked on pop), backoffQ and unschedulablePods share one map for the tickers.
  private heap: ActiveEntry[] = [];
  private active = 0;
  private readonly waiting = new Map<string, QueuedPod>();

  has(key: string): boolean {
    return this.pods.has(key);
  }

  get(key: string): QueuedPod | undefined {
    return this.pods.get(key);
  }

  list(): QueuedPod[] {
    return [...this.pods.values()].sort((a, b) => a.seq - b.seq);
  }

  /** A new pending pod goes straight to activeQ. */
  add(p: { key: string; uid?: string; priority: number; causedBy?: number }, now: number): void {
    const existing = this.pods.get(p.key);
    if (existing) {
      if (existing.priority !== p.priority) {
        existing.priority = p.priority;
        if (existing.where === 'active') this.push(existing);
      }
      return;
    }
    // Field by field (in the order a spread of the caller's fields gave), not a spread followed
    // by more fields: V8 adds each field after a spread through a slow path (~1 µs apiece), and
    // every pod of a big Deployment comes through here.
    this.insert({
      key: p.key,
      uid: p.uid,
      priority: p.priority,
      causedBy: p.causedBy,
      timestamp: now,
      attempts: 0,
      seq: this.seq++,
      where: 'active',
      unschedulablePlugins: [],
    });
  }

  delete(key: string): void {
    const p = this.pods.get(key);
    if (!p) return;
    this.pods.delete(key);
    if (p.where === 'active') this.active--;
    else this.waiting.delete(key);
  }

  /** Pop: the highest priority, then the earliest timestamp, from activeQ. */
  pop(): QueuedPod | undefined {
    while (this.heap.length > 0) {
      const top = this.heap[0] as ActiveEntry;
      this.removeTop();
      const p = top.p;
      if (!this.isLive(top)) continue;
      this.pods.delete(p.key);
      this.active--;
      p.attempts++;
      return p;
    }
    return undefined;
  }

  activeCount(): number {
    return this.active;
  }

  /**
   * AddUnschedulableIfNotPresent after a failed attempt: rejected by plugins → unschedulablePods
   * (until an event helps); failed with an error (no rejecting plugin) → backoffQ.
   */
  requeueAfterFailure(p: QueuedPod, unschedulablePlugins: string[], now: number): void {
    if (this.pods.has(p.key)) return;
    this.insert({
      ...p,
      timestamp: now,
      unschedulablePlugins,
      where: unschedulablePlugins.length > 0 ? 'unschedulable' : 'backoff',
    });
  }

  backoffExpiry(p: QueuedPod): number {
    return p.timestamp + backoffDuration(p.attempts);
  }

  private moveOut(p: QueuedPod, now: number): void {
    this.setWhere(p, this.backoffExpiry(p) > now ? 'backoff' : 'active');
  }

  /**
   * MoveAllToActiveOrBackoffQueue for one cluster event: unschedulable pods whose rejecting
   * plugins registered the event go to backoffQ (if still backing off) or activeQ.
   * Returns the keys moved.
   */
  onClusterEvent(
    event: ClusterEvent,
    interested: (plugin: string, event: ClusterEvent) => boolean,
    now: number,
    only?: string,
  ): string[] {
    const moved: string[] = [];
    // most events come while no pod waits (every bound pod is one)
    if (this.waiting.size === 0) return moved;
    const candidates =
      only === undefined ? [...this.waiting.values()] : [this.waiting.get(only)].filter(Boolean);
    for (const p of candidates as QueuedPod[]) {
      if (p.where !== 'unschedulable') continue;
      if (!p.unschedulablePlugins.some((pl) => interested(pl, event))) continue;
      this.moveOut(p, now);
      moved.push(p.key);
    }
    return moved.sort();
  }

  /** The two tickers: flushBackoffQCompleted (1 s) and flushUnschedulablePodsLeftover (30 s). */
  flush(now: number): string[] {
    const moved: string[] = [];
    if (this.waiting.size === 0) return moved;
    for (const p of [...this.waiting.values()]) {
      if (p.where === 'backoff' && ceilTo(this.backoffExpiry(p), BACKOFF_FLUSH_PERIOD_MS) <= now) {
        this.setWhere(p, 'active');
        moved.push(p.key);
      } else if (p.where === 'unschedulable' && this.leftoverFlushAt(p) <= now) {
        this.moveOut(p, now);
        moved.push(p.key);
      }
    }
    return moved.sort();
  }

  /** The first 30 s tick at which the pod has waited strictly longer than 5 min. */
  private leftoverFlushAt(p: QueuedPod): number {
    const due = p.timestamp + MAX_IN_UNSCHEDULABLE_MS;
    const tick = ceilTo(due, UNSCHEDULABLE_FLUSH_PERIOD_MS);
    return tick > due ? tick : tick + UNSCHEDULABLE_FLUSH_PERIOD_MS;
  }

  /** When a ticker will next have something to move (for ctx.wakeAt). */
  nextTimerAt(): number | null {
    let next: number | null = null;
    for (const p of this.waiting.values()) {
      let at: number | null = null;
      if (p.where === 'backoff') at = ceilTo(this.backoffExpiry(p), BACKOFF_FLUSH_PERIOD_MS);
      else if (p.where === 'unschedulable') at = this.leftoverFlushAt(p);
      if (at !== null && (next === null || at < next)) next = at;
    }
    return next;
  }

  toJSON(): QueueState {
    return { pods: this.list().map((p) => ({ ...p })), seq: this.seq };
  }

  static fromJSON(state: QueueState | undefined): SchedulingQueue {
    const q = new SchedulingQueue();
    if (!state) return q;
    q.seq = state.seq;
    for (const p of state.pods) q.insert({ ...p });
    return q;
  }

  // ---------------------------------------------------------------- indexes

  private insert(p: QueuedPod): void {
    this.pods.set(p.key, p);
    if (p.where === 'active') {
      this.active++;
      this.push(p);
    } else this.waiting.set(p.key, p);
  }

  private setWhere(p: QueuedPod, where: SubQueue): void {
    if (p.where === where) return;
    if (p.where === 'active') this.active--;
    else this.waiting.delete(p.key);
    p.where = where;
    if (where === 'active') {
      this.active++;
      this.push(p);
    } else this.waiting.set(p.key, p);
  }

  /** A slot is live while its pod is still this queued object, active, with the same keys. */
  private isLive(e: ActiveEntry): boolean {
    const p = e.p;
    return (
      this.pods.get(p.key) === p &&
      p.where === 'active' &&
      p.priority === e.priority &&
      p.timestamp === e.timestamp &&
      p.seq === e.seq
    );
  }

  private push(p: QueuedPod): void {
    const h = this.heap;
    const e: ActiveEntry = { p, priority: p.priority, timestamp: p.timestamp, seq: p.seq };
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = h[parent] as ActiveEntry;
      if (!before(e, up)) break;
      h[i] = up;
      i = parent;
    }
    h[i] = e;
  }

  private removeTop(): void {
    const h = this.heap;
    const last = h.pop() as ActiveEntry;
    if (h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && before(h[r] as ActiveEntry, h[l] as ActiveEntry) ? r : l;
      if (!before(h[c] as ActiveEntry, last)) break;
      h[i] = h[c] as ActiveEntry;
      i = c;
    }
    h[i] = last;
  }
}
