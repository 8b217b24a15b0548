// What every simulated component is: a reconcile loop with its own period and identity, that
// observes the cluster through its ApiClient (watch/list) and changes it only by writing objects.

import type { ApiClient } from '../client/api-client';
import type { KubeObject } from '../model';
import type { ComponentName, TraceSink } from '../trace/trace-event';
import type { Rng } from './rng';

export interface ComponentContext {
  /** simulated milliseconds since the lab started */
  now: number;
  /** RFC3339 timestamp for `now` (the lab maps sim time onto a fixed epoch) */
  nowIso: string;
  client: ApiClient;
  rng: Rng;
  trace: TraceSink;
  /**
   * asks the lab to run this component again at `at` (sim ms), e.g. for a timer. `periodic`
   * marks a heartbeat or resync that changes nothing in a converged cluster (Lease renewal, a
   * probe of a healthy container, kube-proxy's resync): the lab counts as quiescent when only
   * such wake-ups are pending.
   */
  wakeAt(at: number, opts?: { periodic?: boolean }): void;
}

/** A change to a watched resource, as a component's event handler is given it. */
export interface ObservedChange {
  resource: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  /** the object before a modification */
  prev?: KubeObject;
  /** written by this very component, in the pass now running (its own write coming back) */
  own: boolean;
}

/** Read-only access to the objects the apiserver holds now (frozen: never change them). */
export interface CurrentObjects {
  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  list(resource: string, namespace?: string): readonly KubeObject[];
}

export interface Component {
  readonly name: ComponentName;
  /** for per-node components (kubelet, kube-proxy) */
  readonly node?: string;
  /** the user name the apiserver sees, e.g. `system:kube-scheduler`, `system:node:node-1` */
  readonly identity: string;
  /** resync period of the reconcile loop, in simulated ms */
  readonly periodMs: number;
  /**
   * Resources this component watches. A change to one of them wakes the component shortly after
   * (the lab's watch latency), so it reacts to events instead of waiting for its next period.
   */
  readonly watches: readonly string[];
  /**
   * Optional: whether a change to a watched resource concerns this component (its watch is
   * filtered, like a kubelet's spec.nodeName field selector, or its event handler drops it).
   * Without it every change wakes it. `current` is the cluster as the change leaves it: upstream,
   * an event handler reads informer caches that a streaming watch keeps that fresh (here a
   * component's own informers are only synced at its passes). A change that wakes nobody is
   * still seen by the next pass, whatever starts it.
   */
  wakeOn?(change: ObservedChange, current: CurrentObjects): boolean;
  /**
   * Optional: its pod watch only concerns pods bound to its own `node`, before or after the
   * change (a kubelet's spec.nodeName field selector), so the lab asks no other component's
   * question for a pod on another node.
   */
  readonly watchesOwnNodePods?: boolean;
  /**
   * Optional: true when a timer this component asked for at `t` no longer has anything to do
   * (timers cannot be withdrawn; the lab ignores stale ones when it decides it is quiescent).
   */
  timerStale?(t: number): boolean;
  /** one pass of the loop: observe, compare with desired state, act on the difference */
  reconcile(ctx: ComponentContext): void;
  /** component-private state that must survive serialize/restore (caches are rebuilt) */
  saveState(): unknown;
  /**
   * Optional: per watched resource, the revision its watch resumes from after a restore (its
   * saved bookmark). A saved lab keeps the apiserver's watch history from the oldest of them on.
   */
  resumePoints?(): Readonly<Record<string, number>>;
  loadState(state: unknown): void;
}
