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

export class SchedulingQueue {
  private readonly pods = new Map<string, QueuedPod>();
  private seq = 0;

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
      existing.priority = p.priority;
      return;
    }
    this.pods.set(p.key, {
      ...p,
      timestamp: now,
      attempts: 0,
      seq: this.seq++,
      where: 'active',
      unschedulablePlugins: [],
    });
  }

  delete(key: string): void {
    this.pods.delete(key);
  }

  /** Pop: the highest priority, then the earliest timestamp, from activeQ. */
  pop(): QueuedPod | undefined {
    let best: QueuedPod | undefined;
    for (const p of this.pods.values()) {
      if (p.where !== 'active') continue;
      if (
        !best ||
        p.priority > best.priority ||
        (p.priority === best.priority &&
          (p.timestamp < best.timestamp || (p.timestamp === best.timestamp && p.seq < best.seq)))
      ) {
        best = p;
      }
    }
    if (!best) return undefined;
    this.pods.delete(best.key);
    best.attempts++;
    return best;
  }

  activeCount(): number {
    let n = 0;
    for (const p of this.pods.values()) if (p.where === 'active') n++;
    return n;
  }

  /**
   * AddUnschedulableIfNotPresent after a failed attempt: rejected by plugins → unschedulablePods
   * (until an event helps); failed with an error (no rejecting plugin) → backoffQ.
   */
  requeueAfterFailure(p: QueuedPod, unschedulablePlugins: string[], now: number): void {
    if (this.pods.has(p.key)) return;
    this.pods.set(p.key, {
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
    p.where = this.backoffExpiry(p) > now ? 'backoff' : 'active';
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
    for (const p of this.pods.values()) {
      if (p.where !== 'unschedulable') continue;
      if (only !== undefined && p.key !== only) continue;
      if (!p.unschedulablePlugins.some((pl) => interested(pl, event))) continue;
      this.moveOut(p, now);
      moved.push(p.key);
    }
    return moved.sort();
  }

  /** The two tickers: flushBackoffQCompleted (1 s) and flushUnschedulablePodsLeftover (30 s). */
  flush(now: number): string[] {
    const moved: string[] = [];
    for (const p of this.pods.values()) {
      if (p.where === 'backoff' && ceilTo(this.backoffExpiry(p), BACKOFF_FLUSH_PERIOD_MS) <= now) {
        p.where = 'active';
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
    for (const p of this.pods.values()) {
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
    for (const p of state.pods) q.pods.set(p.key, { ...p });
    return q;
  }
}
