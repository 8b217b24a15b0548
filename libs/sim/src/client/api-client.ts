// The only door into the cluster. kubectl, every controller, the scheduler, each kubelet and each
// kube-proxy hold an ApiClient bound to their own identity; behind it sits the apiserver's request
// pipeline (authn -> authz -> admission -> validation -> etcd). Nothing else reaches etcd.

import type { KubeList, KubeObject, Status, Table } from '../model';

export type Verb =
  'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** How the caller proves who it is (kubeconfig user, or a component's client certificate). */
export type Credentials =
  { kind: 'token'; token: string } | { kind: 'cert'; certId: string } | { kind: 'anonymous' };

export type PatchType = 'strategic' | 'merge' | 'json' | 'apply';

export interface RequestQuery {
  labelSelector?: string;
  fieldSelector?: string;
  /** server-side dry run (`dryRun=All`) */
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  force?: boolean;
  resourceVersion?: string;
  /** with `resourceVersion`, `Exact`: a list as it stood at that revision (410 if too old) */
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  limit?: number;
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** ask the apiserver for a meta.k8s.io/v1 Table (what `kubectl get` does) */
  asTable?: boolean;
  /** for pods/log */
  container?: string;
  previous?: boolean;
  tailLines?: number;
}

export interface ApiRequest {
  credentials: Credentials;
  verb: Verb;
  /** plural resource name, e.g. `pods`, `deployments` */
  resource: string;
  namespace?: string;
  name?: string;
  /** `status`, `binding`, `scale`, `log`, `eviction` */
  subresource?: string;
  body?: unknown;
  patchType?: PatchType;
  query?: RequestQuery;
  /** for the HTTP log of `kubectl -v=8` */
  userAgent?: string;
  /** trace seq that caused this call (propagated into the apiserver's trace events) */
  causedBy?: number;
  /** Impersonate-User / Impersonate-Group / Impersonate-Uid headers (`kubectl --as`) */
  impersonate?: { user: string; groups?: string[]; uid?: string };
  /**
   * The caller only reads the body (an informer filling its cache, a controller reading back
   * what it wrote): a list or a write may hand out the watch cache's frozen objects instead of
   * copies, as its watch events already do. In-process only; no HTTP client can ask for it.
   */
  readOnly?: boolean;
  /**
   * The caller built the body for this request alone and will not change it afterwards (it may
   * still read it, frozen): the apiserver may keep the body's objects instead of copying them, and
   * change those of a create. Only plain data is kept; anything else is copied as usual.
   * In-process only.
   */
  handOver?: boolean;
  /**
   * A restored component rebuilding the cache its saved self held (see `Informer.markRestored`):
   * the lab's save and restore are not events of the simulated cluster, so this list is answered
   * even while the apiserver is stopped. In-process only.
   */
  rebuild?: boolean;
  /**
   * With `rebuild`: the revision the saved component's cache stood at. A stopped apiserver
   * answers the list as it was then (its saved self reads nothing more until the apiserver is
   * back); a running one answers it as it is now, and the component's watch replays the rest.
   */
  rebuildAt?: number;
}

export type ApiResponseBody = KubeObject | KubeList | Table | Status | string;

export interface ApiResponse {
  /** HTTP status code, e.g. 200, 201, 404, 422 */
  code: number;
  body: ApiResponseBody;
  /** warnings the apiserver sends in `Warning:` headers */
  warnings?: string[];
  /** trace seq of the apiserver's response event (so callers can chain causes) */
  traceSeq?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
  /** etcd revision at which this change happened */
  revision: number;
  /** trace seq of the etcd write that produced this change */
  traceSeq?: number;
}

/** A typed convenience over `ApiRequest`, bound to one identity. */
export interface ApiClient {
  readonly identity: string;
  request(req: Omit<ApiRequest, 'credentials'>): ApiResponse;
  /**
   * Events on `resource` after `sinceRevision`, in revision order (the simulated watch stream).
   * Fails with a 410 Expired Status when `sinceRevision` is older than the watch cache. With
   * `allowWatchBookmarks`, a filtered watch ends with a BOOKMARK event at the revision it has
   * read up to (client-go's informers ask for them, so they resume from there).
   */
  watch(
    resource: string,
    sinceRevision: number,
    opts?: {
      namespace?: string;
      labelSelector?: string;
      fieldSelector?: string;
      allowWatchBookmarks?: boolean;
      /** a restored component replaying what its saved self had not read yet (as `rebuild` above) */
      rebuild?: boolean;
    },
  ): WatchEvent[] | Status;
}
