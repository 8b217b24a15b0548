// The journey: every action of every component becomes one trace event. The UI draws the live
// sequence diagram from these, graders check them, and `causedBy` links each event to the one
// that triggered it (e.g. the scheduler's bind is caused by the replicaset controller's create).

export const COMPONENTS = [
  'kubectl',
  'kube-apiserver',
  'etcd',
  'kube-controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
] as const;

export type ComponentName = (typeof COMPONENTS)[number];

export interface TraceObjectRef {
  kind: string;
  namespace?: string;
  name: string;
}

export interface TraceEvent {
  /** strictly increasing, starts at 1 */
  seq: number;
  /** simulated milliseconds since the lab started */
  t: number;
  component: ComponentName;
  /** kubelet / kube-proxy instance, or the etcd member */
  node?: string;
  /** short machine-readable verb, e.g. `authenticate`, `etcd.put`, `bind`, `pull-image` */
  verb: string;
  object?: TraceObjectRef;
  /** one human sentence, in English; the UI localises by verb */
  message: string;
  /** seq of the event that caused this one */
  causedBy?: number;
  /** extra structured facts (e.g. etcd revision, HTTP code, scheduler scores) */
  data?: Record<string, unknown>;
}

export type TraceInput = Omit<TraceEvent, 'seq' | 't'>;

/** What components hold: they can emit, and get back the seq to chain causes. */
export interface TraceSink {
  emit(event: TraceInput): number;
  /**
   * emit with the event's fields as arguments (undefined for an absent one), where the sink has
   * it: the apiserver's ~200,000 events a settle then make no input literal to be copied.
   */
  emitFields?(
    component: ComponentName,
    node: string | undefined,
    verb: string,
    object: TraceObjectRef | undefined,
    message: string,
    causedBy: number | undefined,
    data: Record<string, unknown> | undefined,
  ): number;
}
