// The public face of the simulator. Keep it stable: the CLI, the lab runtime (worker/api),
// content graders and tests all build on it.

import type { ApiResponse, Credentials, PatchType, RequestQuery, Verb } from '../client/api-client';
import type { KubeObject, Status } from '../model';
import type { ComponentName, TraceEvent } from '../trace/trace-event';

export interface NodeSpec {
  name: string;
  /** e.g. { cpu: '2', memory: '4Gi', pods: '110' } */
  capacity?: Record<string, string>;
  labels?: Record<string, string>;
  taints?: {
    key: string;
    value?: string;
    effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  }[];
  /** images already in the node's containerd cache, e.g. ['nginx:1.27'] */
  cachedImages?: string[];
  controlPlane?: boolean;
}

export interface LabOptions {
  seed?: number;
  /** 1..7 etcd members (default 1; kubeadm stacked etcd on the control-plane node) */
  etcdMembers?: number;
  /** default: `control-plane` + node-1..node-3 */
  nodes?: NodeSpec[];
  /** wall-clock instant that sim time 0 maps to (only used to print timestamps) */
  startTime?: string;
  /** encryption at rest for secrets (`aescbc` with a named key) */
  encryptionAtRest?: { provider: 'aescbc'; keyName: string } | null;
  /** extra kubeconfig users: name -> token, bound to the given ClusterRole (default cluster-admin) */
  users?: { name: string; token: string; clusterRole?: string }[];
}

/** A process the learner can stop/start: control-plane components, or a per-node daemon. */
export interface ProcessRef {
  /** a component, or `containerd` (per node) */
  component: ComponentName | 'containerd';
  /** for kubelet / kube-proxy / containerd: the node name */
  node?: string;
}

export interface AdvanceResult {
  /** simulated ms now */
  now: number;
  /** etcd keys whose value changed (put) during this advance */
  changedKeys: string[];
  /** etcd keys deleted during this advance */
  deletedKeys: string[];
  /** trace events emitted during this advance */
  events: TraceEvent[];
  /** true when nothing is pending: no timers, no unreconciled differences */
  quiescent: boolean;
}

export interface LabRequest {
  verb: Verb;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  body?: unknown;
  patchType?: PatchType;
  query?: RequestQuery;
  /** trace seq of the step that sent this request (kubectl's own event), so the journey starts there */
  causedBy?: number;
  /** `kubectl --as` / `--as-group`: the apiserver's impersonation filter acts on these */
  impersonate?: { user: string; groups?: string[]; uid?: string };
}

/**
 * What `serialize` leaves out. A lab runtime that stores the keyspace per key and the trace per
 * event (and learns what changed from `advance`) asks for the rest only: restoring that text with
 * the keys and events put back (`etcd.kvs` in key order, `trace.events`) gives the same lab as
 * restoring the full text.
 */
export interface SerializeOptions {
  /** write etcd's keys (`etcd.kvs`); default true */
  keyspace?: boolean;
  /** write the trace events kept in memory (`trace.events`; `nextSeq` is always written); default true */
  traceEvents?: boolean;
}

export interface Lab {
  /** simulated ms since start */
  readonly now: number;
  /** an apiserver call as kubeconfig user `user` (e.g. `kubernetes-admin`) */
  request(user: string, req: LabRequest): ApiResponse;
  /** shorthand: returns the object or the Status */
  request(
    user: string,
    verb: Verb,
    resource: string,
    opts?: Omit<LabRequest, 'verb' | 'resource'>,
  ): KubeObject | Status | unknown;
  /** the raw request with explicit credentials (bad token, client cert, ...) */
  requestAs(credentials: Credentials, req: LabRequest): ApiResponse;
  advance(ms: number): AdvanceResult;
  /** sim time of the next pending timer, or null when quiescent */
  nextWakeAt(): number | null;
  trace(sinceSeq?: number): TraceEvent[];
  /** the whole lab as JSON text (`restoreLab` takes it back); see SerializeOptions */
  serialize(options?: SerializeOptions): string;
}
