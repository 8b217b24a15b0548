// kube-apiserver: the only front door and the only component that touches etcd. Every request
// goes authenticate (401) -> authorize (403) -> mutating admission -> validation (422) ->
// validating admission -> etcd (with quorum) -> response, and each step is a trace event chained
// to the one before it. Reads and watches are served from the watch cache, which follows etcd's
// change stream; that is why reads keep working when etcd loses quorum while writes fail.

import type {
  ApiClient,
  ApiRequest,
  ApiResponse,
  Credentials,
  RequestQuery,
  WatchEvent,
} from '../client/api-client';
import type { EncryptionConfig } from '../etcd/encryption';
import type { EtcdChange, EtcdStore } from '../etcd/etcd-store';
import { EtcdError } from '../etcd/etcd-store';
import type {
  KubeList,
  KubeObject,
  LimitRange,
  ManagedFieldsEntry,
  Namespace,
  Pod,
  Role,
  RoleBinding,
  Status,
} from '../model';
import { isStatus } from '../model';
import type { ResourceInfo } from '../model/resources';
import { etcdKey, groupVersion, resourceForKind, resourceInfo } from '../model/resources';
import type { Rng } from '../runtime/rng';
import { randomSuffix } from '../runtime/rng';
import { parseSelector, matchesRequirements, SelectorParseError } from '../shared/labels';
import type { ParsedSelector } from '../shared/labels';
import { isoAt } from '../shared/time';
import type { TraceInput, TraceSink } from '../trace/trace-event';
import type { AdmissionContext } from './admission';
import { runMutating, runValidating } from './admission';
import type { UserInfo } from './authn';
import { Authenticator } from './authn';
import type { ImpersonationRequest } from './impersonation';
import { impersonate } from './impersonation';
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapNamespaces,
  kubernetesEndpoints,
  kubernetesService,
} from './bootstrap-policy';
import { decodeObject, deepClone, encodeLazily, isPlainData } from './codec';
import { applyDefaults, qosClass } from './defaults';
import type { FieldRequirement } from './field-selectors';
import {
  FieldSelectorError,
  matchesFields,
  parseFieldSelector,
  selectedNamespace,
} from './field-selectors';
import { buildFieldsV1 } from './managed-fields';
import { pruneUnknown, unknownFields } from './field-schema';
import { printTable } from './printers';
import { clone, jsonPatch, mergePatch, PatchError, strategicMergePatch } from './patch';
import type { Decision, RbacSource, RequestAttributes } from './rbac';
import { forbiddenReason, nameCanMatter, nodeAuthorize, rbacAuthorize, rulesFor } from './rbac';
import { allocateClusterIP, allocateNodePorts } from './service-ips';
import type { FieldError } from './status';
import * as S from './status';
import type { CacheEntry, CachedEvent, WatchHistoryState } from './watch-cache';
import { isCorrupt, resourceForKey, WatchCache } from './watch-cache';
import { validateObject, validateUpdate } from './validation';
import { prepareDaemonSet } from './workload-strategy';
import { builtinClusterObjects } from './builtin-objects';
import type { ComponentHealth } from './component-status';
import { COMPONENT_STATUS_WARNING, componentStatuses } from './component-status';
import { statusText } from '../shared/http-status';

export interface ApiServerConfig {
  etcd: EtcdStore;
  trace: TraceSink;
  /** sim ms now */
  now: () => number;
  /** epoch ms that sim time 0 maps to */
  startMs: number;
  rng: Rng;
  encryption?: EncryptionConfig | null;
}

export interface TableContext {
  nowMs: number;
  startMs: number;
}

export interface ApiServerHooks {
  /** `kubectl logs`: the apiserver proxies to the kubelet; null means the container has no logs */
  podLog?(pod: Pod, query: RequestQuery): string | Status;
  /** `kubectl get componentstatuses`: which control-plane processes answer their health checks */
  componentHealth?(): ComponentHealth;
}

export type ChangeListener = (resource: string, ev: CachedEvent) => void;

/** Resources whose metadata.generation tracks spec changes. */
const GENERATION = new Set(['deployments', 'replicasets', 'daemonsets', 'jobs']);
/** Resources with a status subresource: status is ignored on the main resource and vice versa. */
const STATUS_SUB = new Set([
  'pods',
  'daemonsets',
  'deployments',
  'replicasets',
  'jobs',
  'nodes',
  'services',
  'namespaces',
  'persistentvolumes',
  'persistentvolumeclaims',
]);
/** bound on remembered RBAC decisions (names make keys; a long-lived lab must not grow them) */
const RBAC_DECISIONS_MAX = 10_000;
/** An RBAC memo's answer for request attributes whose decision may depend on the object's name */
const NAME_DECIDES = Symbol('name decides');
const REVIEW = new Set(['selfsubjectaccessreviews', 'selfsubjectrulesreviews']);
/** Metadata only the apiserver sets: a create drops what the client sent of it. */
const SERVER_OWNED_METADATA = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'managedFields',
] as const;
const CLIENT_CONNECTION_REFUSED = 'dial tcp 172.18.0.2:6443: connect: connection refused';

interface Ctx {
  /** `Warning:` headers for the response */
  warnings?: string[];
  req: ApiRequest;
  info: ResourceInfo;
  user: UserInfo;
  traced: boolean;
  last?: number;
  object?: { kind: string; namespace?: string; name: string };
}

/**
 * The most changes of one resource a saved lab keeps in its watch history for a component to
 * resume from. Components read the watch a watch latency after each write, and passive informers
 * at their resync, so they are a few changes behind at a save; a component further behind (its
 * process was stopped for long) relists after a restore. A resource nothing changed for a long
 * time costs nothing to keep, whatever its age.
 */
const MAX_RESUME_GAP_EVENTS = 1024;

const HEX_CODES = [...'0123456789abcdef'].map((ch) => ch.charCodeAt(0));
const VARIANT_CODES = [...'89ab'].map((ch) => ch.charCodeAt(0));
/** xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: the dashes and the version digit never change */
const UUID_CODES = [...'00000000-0000-4000-8000-000000000000'].map((ch) => ch.charCodeAt(0));

export class ApiServer {
  running = true;
  readonly authn = new Authenticator();
  hooks: ApiServerHooks = {};
  private cache: WatchCache;
  private readonly etcd: EtcdStore;
  private readonly trace: TraceSink;
  private readonly now: () => number;
  private readonly startMs: number;
  private readonly rng: Rng;
  private encryption: EncryptionConfig | null;
  private listeners: ChangeListener[] = [];
  private pending: PendingWrite | null = null;
  private rbacMemo: {
    roles?: Role[];
    bindings?: RoleBinding[];
    ns: Map<string, { roles: Role[]; bindings: RoleBinding[] }>;
    source?: RbacSource;
    /** RBAC decisions per user and request attributes, until an RBAC object changes */
    decisions: WeakMap<UserInfo, UserAnswers>;
  } = {
    ns: new Map(),
    decisions: new WeakMap(),
  };

  constructor(cfg: ApiServerConfig) {
    this.etcd = cfg.etcd;
    this.trace = cfg.trace;
    this.now = cfg.now;
    this.startMs = cfg.startMs;
    this.rng = cfg.rng;
    this.encryption = cfg.encryption ?? null;
    this.cache = new WatchCache(this.etcd.revision);
    this.reloadFromEtcd();
    this.etcd.onChange((ch) => this.onEtcdChange(ch));
  }

  /** Rebuilds the cache from etcd (startup, restart after a restore). History starts empty. */
  reloadFromEtcd(): void {
    this.cache = new WatchCache(this.etcd.revision);
    this.clearWatchMemo();
    for (const kv of this.etcd.range('/registry/')) {
      const info = resourceForKey(kv.key);
      if (!info) continue;
      this.cache.seed(info.resource, kv.key, this.decodeEntry(kv.key, kv.value, kv.modRevision));
    }
    this.invalidateRbac();
  }

  get revision(): number {
    return this.etcd.revision;
  }

  /**
   * The watch cache's recent history, saved with the lab: components lag the latest write by a
   * watch latency, and a restored lab must answer their resumed watches as the original would.
   */
  historyState(resumePoints: Readonly<Record<string, number>>): WatchHistoryState {
    return this.cache.historyState(resumePoints, MAX_RESUME_GAP_EVENTS);
  }

  /** Puts a saved history back into the freshly loaded cache of a restored lab. */
  loadHistory(state: WatchHistoryState): void {
    this.cache.loadHistory(state);
  }

  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  setEncryption(cfg: EncryptionConfig | null): void {
    this.encryption = cfg;
  }

  /** A client bound to one identity (what each component and kubectl hold). */
  client(credentials: Credentials, identity: string): ApiClient {
    return {
      identity,
      request: (req) => this.handle({ ...req, credentials }),
      watch: (resource, sinceRevision, opts) =>
        this.watch(credentials, resource, sinceRevision, opts),
    };
  }

  /** Creates what kubeadm init leaves behind: namespaces, RBAC, the kubernetes Service. */
  bootstrap(): void {
    const objs: KubeObject[] = [
      ...bootstrapNamespaces(),
      ...bootstrapClusterRoles(),
      ...bootstrapClusterRoleBindings(),
      kubernetesService(),
      kubernetesEndpoints(),
      ...builtinClusterObjects(),
    ];
    for (const obj of objs) {
      const info = resourceInfo(resourceOfKind(obj.kind)) as ResourceInfo;
      const o = deepClone(obj);
      o.metadata.uid = this.uid();
      o.metadata.creationTimestamp = this.nowIso();
      this.put(info, etcdKey(info, o.metadata.namespace, o.metadata.name as string), o, 0);
    }
    for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) {
      const sa: KubeObject = {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: {
          name: 'default',
          namespace: ns,
          uid: this.uid(),
          creationTimestamp: this.nowIso(),
        },
      };
      const info = resourceInfo('serviceaccounts') as ResourceInfo;
      this.put(info, etcdKey(info, ns, 'default'), sa, 0);
    }
  }

  // ---------------------------------------------------------------- request entry point

  handle(req: ApiRequest): ApiResponse {
    if (!this.running && !(req.rebuild === true && req.verb === 'list'))
      return { code: 0, body: CLIENT_CONNECTION_REFUSED };
    const info =
      req.resource === 'bindings' ? resourceInfo('bindings') : resourceInfo(req.resource);
    if (!info) return { code: 404, body: S.notFoundResourceType(req.resource) };
    const authn = this.authn.authenticate(req.credentials);
    const isWrite = req.verb !== 'get' && req.verb !== 'list' && req.verb !== 'watch';
    if (!authn.ok) {
      const ctx: Ctx = {
        req,
        info,
        user: { name: 'system:anonymous', groups: [] },
        traced: true,
        last: req.causedBy,
      };
      this.step(ctx, 'authenticate', `Authentication failed: ${authn.reason}`, {
        result: 'denied',
      });
      return this.respond(ctx, 401, S.unauthorized());
    }
    let user = authn.user;
    if (req.impersonate) {
      const imp = this.impersonation(req, info, user, authn.method);
      if ('code' in imp) return imp;
      user = imp;
    }
    const traced = isWrite || !isComponent(user);
    // every field the request may set is in the literal: one set later is not a second allocation
    const ctx: Ctx = {
      req,
      info,
      user,
      traced,
      last: req.causedBy,
      object: undefined,
      warnings: undefined,
    };
    // frozen: the trace shares one copy of it between the request's steps
    if (req.name)
      ctx.object = Object.freeze({
        kind: info.kind,
        namespace: info.namespaced ? req.namespace : undefined,
        name: req.name,
      });
    if (traced)
      this.step(ctx, 'authenticate', authenticatedMessage(user, authn.method), userData(user));
    if (
      info.namespaced &&
      !req.namespace &&
      req.verb !== 'list' &&
      req.verb !== 'watch' &&
      !REVIEW.has(info.resource)
    ) {
      req = { ...req, namespace: 'default' };
      ctx.req = req;
    }
    const attrs = this.attributes(ctx);
    const decision = this.decide(attrs);
    if (!decision.allowed) {
      this.step(ctx, 'authorize', `RBAC: ${forbiddenReason(attrs, decision.reason)}`, {
        allowed: false,
      });
      return this.respond(
        ctx,
        403,
        S.forbidden(info, req.name, forbiddenReason(attrs, decision.reason)),
      );
    }
    if (traced)
      this.step(
        ctx,
        'authorize',
        allowedMessage(attrs, decision.via ?? 'RBAC'),
        allowedData(decision.via),
      );
    try {
      if (info.resource === 'componentstatuses') return this.componentStatuses(ctx);
      return this.dispatch(ctx);
    } catch (err) {
      if (err instanceof S.StatusError) return this.respond(ctx, err.status.code, err.status);
      if (err instanceof EtcdError) {
        this.emit(
          ctx,
          'etcd',
          undefined,
          'etcd.error',
          `Write failed: ${err.message} (no quorum: ${this.etcd.healthyMembers().length}/${this.etcd.members.length} members healthy)`,
          { healthy: this.etcd.healthyMembers().length, members: this.etcd.members.length },
        );
        return this.respond(ctx, 500, S.rawServerError(err.message));
      }
      throw err;
    }
  }

  private dispatch(ctx: Ctx): ApiResponse {
    const { req, info } = ctx;
    if (REVIEW.has(info.resource)) return this.review(ctx);
    if (info.resource === 'bindings')
      return this.bind(
        ctx,
        req.body as KubeObject,
        (req.body as KubeObject | undefined)?.metadata?.name,
      );
    switch (req.subresource) {
      case undefined:
      case '':
      case 'status':
      case 'finalize':
        break;
      case 'binding':
        return this.bind(ctx, req.body as KubeObject, req.name);
      case 'scale':
        return this.scale(ctx);
      case 'log':
        return this.podLog(ctx);
      case 'eviction': {
        // policy/v1 Eviction: a graceful delete (no PodDisruptionBudgets are simulated)
        const res = this.delete({
          ...ctx,
          req: { ...req, verb: 'delete', subresource: undefined },
        });
        return res.code === 200 ? { ...res, code: 201, body: S.success() } : res;
      }
      default:
        return this.respond(ctx, 404, S.notFoundResourceType(`${req.resource}/${req.subresource}`));
    }
    switch (req.verb) {
      case 'get':
        return this.get(ctx);
      case 'list':
        return this.list(ctx);
      case 'create':
        return this.create(ctx, req.body);
      case 'update':
        return this.update(ctx, req.body);
      case 'patch':
        return this.patch(ctx);
      case 'delete':
        return this.delete(ctx);
      case 'deletecollection':
        return this.deleteCollection(ctx);
      case 'watch':
        return this.respond(ctx, 400, S.badRequest('watch is served by ApiClient.watch'));
    }
  }

  // ---------------------------------------------------------------- reads

  private get(ctx: Ctx): ApiResponse {
    const entry = this.lookup(ctx.info, ctx.req.namespace, ctx.req.name as string);
    if (!entry) return this.respond(ctx, 404, S.notFound(ctx.info, ctx.req.name as string));
    if (isCorrupt(entry)) return this.respond(ctx, 500, S.internalError(entry.error));
    if (ctx.req.query?.asTable) {
      // the printers only read: they take the frozen cached object (no copy); rows share it
      const table = printTable(ctx.info.resource, [entry], {
        startMs: this.startMs,
        nowMs: this.now(),
        resourceVersion: entry.metadata.resourceVersion,
        rowCache: this.cache.printedRows,
      });
      return this.respond(ctx, 200, table, { from: 'watch cache' });
    }
    return this.respond(ctx, 200, deepClone(entry), { from: 'watch cache' });
  }

  private list(ctx: Ctx): ApiResponse {
    const { req, info } = ctx;
    let labelSel: ParsedSelector;
    let fieldSel: FieldRequirement[];
    try {
      labelSel = parseSelector(req.query?.labelSelector ?? '');
      fieldSel = parseFieldSelector(info.resource, req.query?.fieldSelector);
    } catch (err) {
      if (err instanceof SelectorParseError || err instanceof FieldSelectorError)
        return this.respond(ctx, 400, S.badRequest(err.message));
      throw err;
    }
    // matching cached objects, frozen and shared: a Table only reads them (its rows hand the
    // frozen object out, so a client cannot change the cache); a List gets independent copies
    const matched: KubeObject[] = [];
    const ns = info.namespaced ? req.namespace || selectedNamespace(fieldSel) : undefined;
    const everything = labelSel.length === 0 && fieldSel.length === 0;
    // resourceVersionMatch=Exact: the list as it stood then, from the watch cache's history; or a
    // restored component rebuilding its cache while the apiserver is stopped (see rebuildAt)
    const exact =
      req.query?.resourceVersionMatch === 'Exact' && req.query.resourceVersion !== undefined
        ? Number(req.query.resourceVersion)
        : null;
    const at = exact ?? (!this.running && req.rebuildAt !== undefined ? req.rebuildAt : null);
    const past = at === null ? null : this.cache.listAt(info.resource, ns, at);
    if (exact !== null && !past) {
      const oldest = this.cache.expiredBefore(info.resource, exact) ?? this.etcd.revision;
      return this.respond(ctx, 410, S.expired(exact, oldest));
    }
    for (const e of past ?? this.cache.list(info.resource, ns)) {
      if (isCorrupt(e)) return this.respond(ctx, 500, S.internalError(e.error));
      if (
        everything ||
        (matchesRequirements(e.metadata.labels, labelSel) && matchesFields(e, fieldSel))
      )
        matched.push(e);
    }
    const resourceVersion = String(past ? at : this.etcd.revision);
    if (req.query?.asTable) {
      const table = printTable(info.resource, matched, {
        startMs: this.startMs,
        nowMs: this.now(),
        resourceVersion,
        rowCache: this.cache.printedRows,
      });
      return this.respond(ctx, 200, table, { items: matched.length, from: 'watch cache' });
    }
    const list: KubeList = {
      apiVersion: groupVersion(info),
      kind: `${info.kind}List`,
      metadata: { resourceVersion },
      items: req.readOnly ? matched : matched.map((e) => deepClone(e)),
    };
    return this.respond(ctx, 200, list, { items: matched.length, from: 'watch cache' });
  }

  watch(
    credentials: Credentials,
    resource: string,
    sinceRevision: number,
    opts: {
      namespace?: string;
      labelSelector?: string;
      fieldSelector?: string;
      allowWatchBookmarks?: boolean;
      rebuild?: boolean;
    } = {},
  ): WatchEvent[] | Status {
    if (!this.running) {
      if (!opts.rebuild)
        return {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: CLIENT_CONNECTION_REFUSED,
          code: 0,
        };
      // A restored component replaying what its saved self had not read yet: with the apiserver
      // stopped, its saved self reads nothing more until it is back, and neither does it.
      return [];
    }
    const info = resourceInfo(resource);
    if (!info) return S.notFoundResourceType(resource);
    const authn = this.authn.authenticate(credentials);
    if (!authn.ok) return S.unauthorized();
    const namespace = info.namespaced ? opts.namespace : undefined;
    const decision = this.authorizeWatch(authn.user, info, namespace);
    if (!decision.allowed) {
      const attrs = watchAttributes(authn.user, info, namespace);
      return S.forbidden(info, undefined, forbiddenReason(attrs, decision.reason));
    }
    const parsed = this.parsedSelectors(resource, opts.labelSelector, opts.fieldSelector);
    if ('error' in parsed) return S.badRequest(parsed.error);
    const { labelSel, fieldSel } = parsed;
    const expiredAt = this.cache.expiredBefore(resource, sinceRevision);
    if (expiredAt !== null) return S.expired(sinceRevision, expiredAt);
    // Most watch calls (every informer of every component, at each wake-up) find nothing new:
    // no event, so no match to look for and no bookmark to send.
    if (this.cache.quietSince(resource, sinceRevision)) return [];
    const prefixNs = info.namespaced ? opts.namespace : undefined;
    const filtered = !!prefixNs || labelSel.length > 0 || fieldSel.length > 0;
    // A filtered watcher (a kubelet watching its node's pods) keeps asking from the revision of
    // the last event it was given; remember how far that question was already answered so each
    // call only scans the new part of the history. Found by the parsed selectors (one object per
    // resource and selector strings), namespace and revision: no key string to build and hash.
    let memos: Map<number, WatchMemo> | undefined;
    let memo: WatchMemo | undefined;
    if (filtered) {
      if (this.watchMemoSize > 4096) this.clearWatchMemo();
      let byNamespace = this.watchMemo.get(parsed);
      if (!byNamespace) this.watchMemo.set(parsed, (byNamespace = new Map()));
      memos = byNamespace.get(prefixNs ?? '');
      if (!memos) byNamespace.set(prefixNs ?? '', (memos = new Map()));
      memo = memos.get(sinceRevision);
    }
    if (!memo) memo = { upTo: sinceRevision, matches: [] };
    // A watch on one node's pods (every kubelet) reads that node's index, not every pod event.
    const onlyNode =
      !prefixNs && labelSel.length === 0 && fieldSel.length === 1 && fieldSel[0]?.op === '='
        ? fieldSel[0].field === 'spec.nodeName'
          ? fieldSel[0].value
          : undefined
        : undefined;
    const byNode = onlyNode ? this.cache.nodeEventsSince(resource, onlyNode, memo.upTo) : null;
    if (byNode && 'expired' in byNode) return S.expired(sinceRevision, byNode.expired);
    const events = byNode ? byNode.events : this.cache.eventsSince(resource, memo.upTo);
    if (!Array.isArray(events)) return S.expired(sinceRevision, events.expired);
    if (!filtered) {
      // every unfiltered watcher of the resource gets the same frozen event objects (in an array
      // sized once, not grown push by push)
      return events.map(sharedWatchEvent);
    }
    for (const ev of events) {
      memo.upTo = ev.revision;
      const cur = watchMatches(ev.object, prefixNs, labelSel, fieldSel);
      const prev =
        ev.type === 'MODIFIED' ? watchMatches(ev.prev, prefixNs, labelSel, fieldSel) : cur;
      let type: WatchEvent['type'] | null = null;
      if (ev.type === 'ADDED') type = cur ? 'ADDED' : null;
      else if (ev.type === 'DELETED') type = cur ? 'DELETED' : null;
      else if (cur && prev) type = 'MODIFIED';
      else if (cur) type = 'ADDED';
      else if (prev) type = 'DELETED';
      if (type) memo.matches.push({ ev, type });
    }
    if (byNode) memo.upTo = Math.max(memo.upTo, byNode.upTo);
    if (memos && !memos.has(sinceRevision)) {
      memos.set(sinceRevision, memo);
      this.watchMemoSize++;
    }
    const out: WatchEvent[] = [];
    for (const { ev, type } of memo.matches) {
      if (type === ev.type) {
        out.push(sharedWatchEvent(ev));
        continue;
      }
      // cached objects are frozen: every watcher shares them
      const w: WatchEvent = { type, object: ev.object, revision: ev.revision };
      if (ev.traceSeq !== undefined) w.traceSeq = ev.traceSeq;
      out.push(w);
    }
    const last = out.length > 0 ? (out[out.length - 1] as WatchEvent).revision : sinceRevision;
    if (opts.allowWatchBookmarks && memo.upTo > last) out.push(bookmark(info, memo.upTo));
    return out;
  }

  /** filtered watches' answers, by parsed selectors, namespace ('' for none) and revision */
  private watchMemo = new Map<ParsedSelectors, Map<string, Map<number, WatchMemo>>>();
  private watchMemoSize = 0;

  private clearWatchMemo(): void {
    this.watchMemo.clear();
    this.watchMemoSize = 0;
  }

  /** by resource, label selector, field selector (the callers' own strings: no key to build) */
  private selectorMemo = new Map<string, Map<string, Map<string, ParsedSelectors>>>();
  private selectorMemoSize = 0;

  /** Watches repeat the same selectors every loop: parse each distinct one once. */
  private parsedSelectors(
    resource: string,
    label: string | undefined,
    field: string | undefined,
  ): ParsedSelectors {
    let byLabel = this.selectorMemo.get(resource);
    if (!byLabel) this.selectorMemo.set(resource, (byLabel = new Map()));
    let byField = byLabel.get(label ?? '');
    if (!byField) byLabel.set(label ?? '', (byField = new Map()));
    let hit = byField.get(field ?? '');
    if (!hit) {
      try {
        hit = {
          labelSel: parseSelector(label ?? ''),
          fieldSel: parseFieldSelector(resource, field),
        };
      } catch (err) {
        hit = { error: (err as Error).message };
      }
      if (this.selectorMemoSize > 1000) {
        this.selectorMemo.clear();
        this.selectorMemoSize = 0;
        return hit;
      }
      byField.set(field ?? '', hit);
      this.selectorMemoSize++;
    }
    return hit;
  }

  // ---------------------------------------------------------------- writes

  private create(ctx: Ctx, body: unknown): ApiResponse {
    const { info, req } = ctx;
    const obj = this.decodeBody(ctx, body);
    if (info.namespaced) obj.metadata.namespace = req.namespace;
    else delete obj.metadata.namespace;
    if (!obj.metadata.name && obj.metadata.generateName) {
      obj.metadata.name = `${obj.metadata.generateName.slice(0, 58)}${randomSuffix(this.rng)}`;
    }
    ctx.object = Object.freeze({
      kind: info.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name ?? obj.metadata.generateName ?? '',
    });
    const ns = this.requireNamespace(ctx, obj.metadata.name);
    // strip server-owned fields a client may not set (components send none: deleting a missing
    // field is still a runtime call each)
    const meta = obj.metadata;
    for (let i = 0; i < SERVER_OWNED_METADATA.length; i++) {
      const f = SERVER_OWNED_METADATA[i] as (typeof SERVER_OWNED_METADATA)[number];
      if (f in meta) delete meta[f];
    }
    applyDefaults(obj as KubeObject & Record<string, unknown>);
    this.admitAndValidate(ctx, obj, undefined, ns, 'CREATE');
    const key = etcdKey(info, obj.metadata.namespace, obj.metadata.name as string);
    if (this.cache.get(info.resource, key))
      throw new S.StatusError(S.alreadyExists(info, obj.metadata.name as string));
    obj.metadata.uid = this.uid();
    obj.metadata.creationTimestamp = this.nowIso();
    if (GENERATION.has(info.resource)) obj.metadata.generation = 1;
    if (info.resource === 'daemonsets') prepareDaemonSet(obj);
    if (info.resource === 'pods') {
      const pod = obj as Pod;
      pod.status = { phase: 'Pending', qosClass: qosClass(pod.spec) };
    }
    if (info.resource === 'services') {
      allocateClusterIP(
        obj,
        this.cache.list('services').filter((e): e is KubeObject => !isCorrupt(e)),
        this.rng,
      );
      allocateNodePorts(
        obj,
        this.cache.list('services').filter((e): e is KubeObject => !isCorrupt(e)),
        this.rng,
      );
    }
    if (info.resource === 'jobs') this.jobSelector(obj);
    this.recordManager(ctx, obj, body, 'Update');
    return this.commit(ctx, key, obj, 0, 201);
  }

  private update(
    ctx: Ctx,
    body: unknown,
    operation: 'Update' | 'Apply' = 'Update',
    patchBody?: unknown,
  ): ApiResponse {
    const { info, req } = ctx;
    const name = req.name as string;
    const key = etcdKey(info, req.namespace, name);
    const curEntry = this.cache.get(info.resource, key);
    if (!curEntry) throw new S.StatusError(S.notFound(info, name));
    if (isCorrupt(curEntry)) throw new S.StatusError(S.internalError(curEntry.error));
    const cur = curEntry;
    const sub = req.subresource;
    const statusOnly = sub === 'status' && STATUS_SUB.has(info.resource);
    const obj = this.decodeBody(ctx, body, statusOnly);
    if (obj.metadata.name && obj.metadata.name !== name) {
      throw new S.StatusError(
        S.badRequest(
          `the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`,
        ),
      );
    }
    obj.metadata.name = name;
    if (info.namespaced) obj.metadata.namespace = req.namespace;
    const rv = obj.metadata.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== cur.metadata.resourceVersion) {
      throw new S.StatusError(S.conflict(info, name));
    }
    let next: KubeObject;
    if (statusOnly) {
      // status writes change only status: the rest is the stored object's own frozen parts
      // (shared, not copied; the watch cache freezes only what is new), with fresh metadata
      next = {
        ...cur,
        metadata: { ...cur.metadata },
        status: (obj as Record<string, unknown>)['status'],
      };
    } else if (sub === 'finalize' && info.resource === 'namespaces') {
      next = deepClone(cur);
      (next as Namespace).spec = {
        ...(next as Namespace).spec,
        finalizers: ((obj as Namespace).spec?.finalizers ?? []).slice(),
      };
    } else {
      next = obj;
      if (STATUS_SUB.has(info.resource)) {
        const st = (cur as Record<string, unknown>)['status'];
        if (st === undefined) delete (next as Record<string, unknown>)['status'];
        else (next as Record<string, unknown>)['status'] = deepClone(st);
      }
      applyDefaults(next as KubeObject & Record<string, unknown>);
      // their create defaults reset status; an update keeps the stored one
      if (
        info.resource === 'namespaces' ||
        info.resource === 'persistentvolumes' ||
        info.resource === 'persistentvolumeclaims'
      )
        (next as Record<string, unknown>)['status'] = deepClone(
          (cur as Record<string, unknown>)['status'],
        );
      if (info.resource === 'services') {
        const spec = (next as Record<string, Record<string, unknown>>)['spec'];
        const curSpec = (cur as Record<string, Record<string, unknown>>)['spec'];
        if (spec && curSpec && spec['clusterIP'] === undefined) {
          spec['clusterIP'] = curSpec['clusterIP'];
          spec['clusterIPs'] = curSpec['clusterIPs'];
        }
      }
    }
    // server-owned metadata survives any update
    next.metadata.uid = cur.metadata.uid;
    next.metadata.creationTimestamp = cur.metadata.creationTimestamp;
    if (cur.metadata.deletionTimestamp) {
      next.metadata.deletionTimestamp = cur.metadata.deletionTimestamp;
      if (cur.metadata.deletionGracePeriodSeconds !== undefined)
        next.metadata.deletionGracePeriodSeconds = cur.metadata.deletionGracePeriodSeconds;
    } else {
      delete next.metadata.deletionTimestamp;
      delete next.metadata.deletionGracePeriodSeconds;
    }
    // recordManager replaces the list; the frozen entries themselves are never changed
    next.metadata.managedFields = cur.metadata.managedFields;
    if (!next.metadata.managedFields) delete next.metadata.managedFields;
    if (GENERATION.has(info.resource)) {
      const bump = !statusOnly && specChanged(cur, next);
      next.metadata.generation = (cur.metadata.generation ?? 1) + (bump ? 1 : 0);
    } else delete next.metadata.generation;
    if (info.resource === 'daemonsets' && !sub) prepareDaemonSet(next, cur);
    if (info.resource === 'pods' && !sub) {
      // the scheduler binds through pods/binding; clients cannot set nodeName afterwards
      const curNode = (cur as Pod).spec.nodeName;
      if (curNode && !(next as Pod).spec?.nodeName) (next as Pod).spec.nodeName = curNode;
    }
    const ns = info.namespaced ? this.namespaceObj(req.namespace as string) : undefined;
    this.nodeRestriction(ctx, cur, next);
    if (sub !== 'status' && sub !== 'finalize') this.admitAndValidate(ctx, next, cur, ns, 'UPDATE');
    else
      this.step(
        ctx,
        'admission.validating',
        'Validating admission passed (status update)',
        NO_DATA,
      );
    next.metadata.resourceVersion = cur.metadata.resourceVersion;
    this.recordManager(ctx, next, patchBody ?? body, operation);
    if (sameObject(cur, next)) {
      // a no-op update writes nothing and keeps the resourceVersion (no watch event)
      return this.respond(ctx, 200, deepClone(cur), { noop: true });
    }
    delete next.metadata.resourceVersion;
    const modRev = Number(cur.metadata.resourceVersion);
    if (this.finalizeIfDone(ctx, key, next, modRev))
      return this.respond(ctx, 200, deepClone(next), { deleted: true });
    return this.commit(ctx, key, next, modRev, 200);
  }

  private patch(ctx: Ctx): ApiResponse {
    const { info, req } = ctx;
    const name = req.name as string;
    const key = etcdKey(info, req.namespace, name);
    const curEntry = this.cache.get(info.resource, key);
    const type = req.patchType ?? 'strategic';
    if (!curEntry) {
      if (type === 'apply') {
        const body = deepClone(req.body as KubeObject);
        body.metadata = { ...(body.metadata ?? {}), name };
        return this.create(ctx, body);
      }
      throw new S.StatusError(S.notFound(info, name));
    }
    if (isCorrupt(curEntry)) throw new S.StatusError(S.internalError(curEntry.error));
    let patched: unknown;
    try {
      const base = clone(curEntry) as unknown;
      if (type === 'json') patched = jsonPatch(base, req.body);
      else if (type === 'merge') patched = mergePatch(base, req.body);
      else patched = strategicMergePatch(base, req.body);
    } catch (err) {
      if (err instanceof PatchError) {
        this.step(ctx, 'admission.mutating', `Patch failed: ${err.message}`, {});
        return this.respond(
          ctx,
          422,
          S.invalid(info, name, [
            { type: 'FieldValueInvalid', field: 'patch', value: req.body, detail: err.message },
          ]),
        );
      }
      throw err;
    }
    const p = patched as KubeObject;
    // a patch carries a resourceVersion precondition only if it sets one explicitly
    const bodyRv = (req.body as { metadata?: { resourceVersion?: string } } | undefined)?.metadata
      ?.resourceVersion;
    if (p.metadata && bodyRv === undefined)
      p.metadata.resourceVersion = curEntry.metadata.resourceVersion;
    return this.update(ctx, p, type === 'apply' ? 'Apply' : 'Update', req.body);
  }

  private delete(ctx: Ctx): ApiResponse {
    const { info, req } = ctx;
    const name = req.name as string;
    const key = etcdKey(info, req.namespace, name);
    const entry = this.cache.get(info.resource, key);
    if (!entry) throw new S.StatusError(S.notFound(info, name));
    if (isCorrupt(entry)) {
      // a corrupted object can still be removed (the unsafe-delete escape hatch)
      this.stepEtcd(ctx, () => this.etcd.delete(key), key, 'delete');
      return this.respond(
        ctx,
        200,
        S.success({ name, ...(info.group ? { group: info.group } : {}), kind: info.resource }),
      );
    }
    const cur = entry;
    this.nodeRestriction(ctx, cur, undefined);
    const q = req.query ?? {};
    this.step(
      ctx,
      'admission.mutating',
      'Mutating admission: nothing to change on delete',
      NO_DATA,
    );
    this.step(ctx, 'admission.validating', 'Validating admission passed', NO_DATA);
    const next = deepClone(cur);
    const finalizers = (next.metadata.finalizers ?? []).slice();
    if (q.propagationPolicy === 'Foreground' && !finalizers.includes('foregroundDeletion'))
      finalizers.push('foregroundDeletion');
    if (q.propagationPolicy === 'Orphan' && !finalizers.includes('orphan'))
      finalizers.push('orphan');
    let grace = 0;
    if (info.resource === 'pods') {
      const pod = cur as Pod;
      grace = q.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
      // an unscheduled pod, or a pod that already finished, has no kubelet to wait for
      if (!pod.spec.nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed')
        grace = 0;
      if (q.force && q.gracePeriodSeconds === 0) grace = 0;
      if (
        cur.metadata.deletionGracePeriodSeconds !== undefined &&
        grace > cur.metadata.deletionGracePeriodSeconds
      ) {
        grace = cur.metadata.deletionGracePeriodSeconds;
      }
    }
    if (q.dryRun) return this.respond(ctx, 200, next, { dryRun: true });
    if (info.resource === 'namespaces') {
      const ns = next as Namespace;
      if (!ns.metadata.deletionTimestamp) {
        ns.metadata.deletionTimestamp = this.nowIso();
        ns.metadata.deletionGracePeriodSeconds = 0;
      }
      ns.status = { phase: 'Terminating' };
      ns.metadata.finalizers = finalizers.length ? finalizers : undefined;
      if (!ns.metadata.finalizers) delete ns.metadata.finalizers;
      if ((ns.spec?.finalizers ?? []).length === 0 && finalizers.length === 0) {
        this.stepEtcd(ctx, () => this.etcd.delete(key), key, 'delete');
        return this.respond(ctx, 200, next);
      }
      return this.commit(ctx, key, ns, Number(cur.metadata.resourceVersion), 200);
    }
    if (finalizers.length > 0 || grace > 0) {
      if (
        !next.metadata.deletionTimestamp ||
        grace < (cur.metadata.deletionGracePeriodSeconds ?? Infinity)
      ) {
        next.metadata.deletionTimestamp = isoAt(this.startMs, this.now() + grace * 1000);
        next.metadata.deletionGracePeriodSeconds = grace;
      }
      next.metadata.finalizers = finalizers;
      if (finalizers.length === 0) delete next.metadata.finalizers;
      if (sameObject(cur, next)) return this.respond(ctx, 200, deepClone(cur), { noop: true });
      return this.commit(ctx, key, next, Number(cur.metadata.resourceVersion), 200);
    }
    this.stepEtcd(
      ctx,
      () => this.etcd.delete(key, Number(cur.metadata.resourceVersion)),
      key,
      'delete',
    );
    return this.respond(ctx, 200, next);
  }

  private deleteCollection(ctx: Ctx): ApiResponse {
    const { info, req } = ctx;
    const labelSel = parseSelector(req.query?.labelSelector ?? '');
    const names = this.cache
      .list(info.resource, info.namespaced ? req.namespace : undefined)
      .filter(
        (e): e is KubeObject => !isCorrupt(e) && matchesRequirements(e.metadata.labels, labelSel),
      )
      .map((e) => ({ name: e.metadata.name as string, namespace: e.metadata.namespace }));
    for (const n of names) {
      this.delete({
        ...ctx,
        req: { ...req, verb: 'delete', name: n.name, namespace: n.namespace },
      });
    }
    return this.respond(ctx, 200, S.success());
  }

  // ---------------------------------------------------------------- subresources

  private bind(ctx: Ctx, body: KubeObject | undefined, podName: string | undefined): ApiResponse {
    const { req } = ctx;
    const podInfo = resourceInfo('pods') as ResourceInfo;
    const name = podName ?? '';
    const target = (body as { target?: { name?: string; kind?: string } } | undefined)?.target;
    if (!target?.name) {
      throw new S.StatusError(
        S.invalid({ group: '', kind: 'Binding' }, name, [
          { type: 'FieldValueRequired', field: 'target.name' },
        ]),
      );
    }
    const key = etcdKey(podInfo, req.namespace, name);
    const entry = this.cache.get('pods', key);
    if (!entry || isCorrupt(entry)) throw new S.StatusError(S.notFound(podInfo, name));
    // only metadata (resourceVersion), spec.nodeName and status change: the rest stays shared
    // with the frozen cached pod
    const cached = entry as Pod;
    const pod: Pod = { ...cached, metadata: { ...cached.metadata }, spec: { ...cached.spec } };
    ctx.object = Object.freeze({ kind: 'Pod', namespace: req.namespace, name });
    if (pod.metadata.deletionTimestamp) {
      throw new S.StatusError(
        S.conflict(
          podInfo,
          name,
          `pod ${name} is being deleted, cannot be assigned to a host`,
          'pods/binding',
        ),
      );
    }
    if (pod.spec.nodeName) {
      throw new S.StatusError(
        S.conflict(
          podInfo,
          name,
          `pod ${name} is already assigned to node ${JSON.stringify(pod.spec.nodeName)}`,
          'pods/binding',
        ),
      );
    }
    this.step(
      ctx,
      'admission.mutating',
      'Mutating admission: nothing to change on binding',
      NO_DATA,
    );
    this.step(
      ctx,
      'admission.validating',
      `Validating admission passed (bind to ${target.name})`,
      NO_DATA,
    );
    pod.spec.nodeName = target.name;
    const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: this.nowIso(),
    });
    pod.status = { ...(pod.status ?? {}), conditions };
    if (req.query?.dryRun) return this.respond(ctx, 201, S.success());
    this.commit(ctx, key, pod, Number(entry.metadata.resourceVersion), 201, true);
    return this.respond(ctx, 201, S.success(), { node: target.name });
  }

  private scale(ctx: Ctx): ApiResponse {
    const { info, req } = ctx;
    if (info.resource !== 'deployments' && info.resource !== 'replicasets') {
      return this.respond(ctx, 404, S.notFoundResourceType(`${info.resource}/scale`));
    }
    const entry = this.lookup(info, req.namespace, req.name as string);
    if (!entry) throw new S.StatusError(S.notFound(info, req.name as string));
    if (isCorrupt(entry)) throw new S.StatusError(S.internalError(entry.error));
    const toScale = (o: KubeObject): KubeObject => {
      const spec = o['spec'] as {
        replicas?: number;
        selector?: { matchLabels?: Record<string, string> };
      };
      const status = (o['status'] ?? {}) as { replicas?: number };
      const sel = Object.entries(spec.selector?.matchLabels ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: {
          name: o.metadata.name,
          namespace: o.metadata.namespace,
          uid: o.metadata.uid,
          resourceVersion: o.metadata.resourceVersion,
          creationTimestamp: o.metadata.creationTimestamp,
        },
        spec: { replicas: spec.replicas ?? 1 },
        status: { replicas: status.replicas ?? 0, selector: sel },
      };
    };
    if (req.verb === 'get') return this.respond(ctx, 200, toScale(entry));
    let scaleObj: KubeObject = toScale(entry);
    if (req.verb === 'patch') {
      const t = req.patchType ?? 'merge';
      scaleObj = (
        t === 'json' ? jsonPatch(scaleObj, req.body) : mergePatch(scaleObj, req.body)
      ) as KubeObject;
    } else scaleObj = req.body as KubeObject;
    const replicas = (scaleObj['spec'] as { replicas?: number } | undefined)?.replicas;
    if (typeof replicas !== 'number' || replicas < 0) {
      throw new S.StatusError(
        S.invalid({ group: 'autoscaling', kind: 'Scale' }, req.name as string, [
          {
            type: 'FieldValueInvalid',
            field: 'spec.replicas',
            value: replicas,
            detail: 'must be greater than or equal to 0',
          },
        ]),
      );
    }
    const next = deepClone(entry);
    (next['spec'] as { replicas?: number }).replicas = replicas;
    const res = this.update(
      { ...ctx, req: { ...req, verb: 'update', subresource: undefined } },
      next,
    );
    if (res.code !== 200) return res;
    return { ...res, body: toScale(res.body as KubeObject) };
  }

  private podLog(ctx: Ctx): ApiResponse {
    const entry = this.lookup(ctx.info, ctx.req.namespace, ctx.req.name as string);
    if (!entry || isCorrupt(entry))
      throw new S.StatusError(S.notFound(ctx.info, ctx.req.name as string));
    const pod = entry as Pod;
    const q = ctx.req.query ?? {};
    const names = pod.spec.containers.map((c) => c.name);
    if (!q.container && names.length > 1) {
      return this.respond(
        ctx,
        400,
        S.badRequest(
          `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`,
        ),
      );
    }
    const container = q.container ?? names[0];
    if (
      container &&
      !names.includes(container) &&
      !(pod.spec.initContainers ?? []).some((c) => c.name === container)
    ) {
      return this.respond(
        ctx,
        400,
        S.badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`),
      );
    }
    if (!pod.spec.nodeName || !this.hooks.podLog) {
      return this.respond(
        ctx,
        400,
        S.badRequest(
          `container ${JSON.stringify(container)} in pod ${JSON.stringify(pod.metadata.name)} is waiting to start: ContainerCreating`,
        ),
      );
    }
    const out = this.hooks.podLog(pod, { ...q, container });
    if (typeof out !== 'string') return this.respond(ctx, out.code, out);
    return this.respond(ctx, 200, out);
  }

  private review(ctx: Ctx): ApiResponse {
    const { req, info, user } = ctx;
    const body = (req.body ?? {}) as KubeObject & { spec?: Record<string, unknown> };
    if (info.resource === 'selfsubjectaccessreviews') {
      const ra = (body.spec?.['resourceAttributes'] ?? {}) as {
        namespace?: string;
        verb?: string;
        group?: string;
        resource?: string;
        subresource?: string;
        name?: string;
      };
      const attrs: RequestAttributes = {
        user,
        verb: ra.verb ?? '',
        apiGroup: ra.group ?? '',
        resource: ra.resource ?? '',
        subresource: ra.subresource || undefined,
        namespace: ra.namespace || undefined,
        name: ra.name || undefined,
      };
      const d = this.authorize(attrs);
      const status: Record<string, unknown> = { allowed: d.allowed };
      if (d.allowed && d.via)
        status['reason'] =
          d.via.startsWith('ClusterRoleBinding') || d.via.startsWith('RoleBinding')
            ? `RBAC: allowed by ${d.via}`
            : d.via;
      if (!d.allowed && d.reason) status['reason'] = d.reason;
      const out = {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        metadata: { creationTimestamp: null },
        spec: body.spec ?? {},
        status,
      };
      return this.respond(ctx, 201, out as unknown as KubeObject, { allowed: d.allowed });
    }
    const ns = ((body.spec?.['namespace'] as string | undefined) ?? 'default') || 'default';
    const masters = user.groups.includes('system:masters');
    const rules = masters
      ? [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]
      : rulesFor(this.rbacSource(), user, ns);
    const out = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: { creationTimestamp: null },
      spec: body.spec ?? {},
      status: {
        resourceRules: rules
          .filter((r) => !r.nonResourceURLs)
          .map((r) => ({
            verbs: r.verbs,
            apiGroups: r.apiGroups ?? [],
            resources: r.resources ?? [],
            ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
          })),
        nonResourceRules: masters
          ? [{ verbs: ['*'], nonResourceURLs: ['*'] }]
          : rules
              .filter((r) => r.nonResourceURLs)
              .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
        incomplete: false,
      },
    };
    return this.respond(ctx, 201, out as unknown as KubeObject);
  }

  // ---------------------------------------------------------------- pipeline helpers

  /** ComponentStatus get/list: computed on each request from the components' health. */
  private componentStatuses(ctx: Ctx): ApiResponse {
    ctx.warnings = [...(ctx.warnings ?? []), COMPONENT_STATUS_WARNING];
    const health = this.hooks.componentHealth?.() ?? {
      scheduler: true,
      controllerManager: true,
      etcd: [this.etcd.hasQuorum()],
    };
    const all = componentStatuses(health);
    const { req, info } = ctx;
    if (req.verb === 'get') {
      const one = all.find((c) => c.metadata.name === req.name);
      if (!one) return this.respond(ctx, 404, S.notFound(info, req.name as string));
      if (req.query?.asTable)
        return this.respond(
          ctx,
          200,
          printTable(info.resource, [one], { startMs: this.startMs, nowMs: this.now() }),
        );
      return this.respond(ctx, 200, one);
    }
    if (req.verb !== 'list') return this.respond(ctx, 405, S.methodNotSupported(info, req.verb));
    if (req.query?.asTable)
      return this.respond(
        ctx,
        200,
        printTable(info.resource, all, { startMs: this.startMs, nowMs: this.now() }),
      );
    return this.respond(ctx, 200, {
      apiVersion: 'v1',
      kind: 'ComponentStatusList',
      metadata: {},
      items: all,
    } as KubeList);
  }

  /** The impersonation filter: between authentication and authorization, as upstream. */
  private impersonation(
    req: ApiRequest,
    info: ResourceInfo,
    requester: UserInfo,
    method: string,
  ): UserInfo | ApiResponse {
    const ctx: Ctx = { req, info, user: requester, traced: true, last: req.causedBy };
    this.step(
      ctx,
      'authenticate',
      `Authenticated ${requester.name} (${requester.groups.join(', ')}) by ${method}`,
      { user: requester.name, groups: requester.groups },
    );
    const res = impersonate(requester, req.impersonate as ImpersonationRequest, (a) =>
      this.authorize(a),
    );
    if (!res.ok) {
      this.step(ctx, 'impersonate', `Impersonation denied: ${res.why}`, { allowed: false });
      const d = res.denied;
      return this.respond(
        ctx,
        403,
        S.forbidden({ group: d.apiGroup, resource: d.resource }, d.name, res.why),
      );
    }
    this.step(
      ctx,
      'impersonate',
      `${requester.name} impersonates ${res.user.name} (${res.user.groups.join(', ')})`,
      { requester: requester.name, user: res.user.name, groups: res.user.groups },
    );
    return res.user;
  }

  private attributes(ctx: Ctx): RequestAttributes {
    const { req, info, user } = ctx;
    if (info.resource === 'bindings') {
      return { user, verb: 'create', apiGroup: '', resource: 'bindings', namespace: req.namespace };
    }
    const name = req.verb === 'create' && !req.subresource ? undefined : req.name;
    return {
      user,
      verb: req.verb,
      apiGroup: info.group,
      resource: info.resource,
      subresource: req.subresource || undefined,
      namespace: info.namespaced ? req.namespace : undefined,
      name,
    };
  }

  authorize(attrs: RequestAttributes): Decision {
    return { ...this.decide(attrs) };
  }

  /**
   * authorize's answer, shared rather than copied: only read (by the request pipeline, and kept
   * by the watch memo), never handed out.
   */
  private decide(attrs: RequestAttributes): Decision {
    if (attrs.user.groups.includes('system:masters')) return MASTERS;
    const node = nodeAuthorize(attrs);
    if (node) return node;
    // Components ask the same questions on every wake-up (each informer's watch); RBAC answers
    // from the RBAC objects alone, so an answer holds until one of them changes.
    // Authenticated users are the authenticator's own objects: answers hang off each of them
    // (checked against the name and groups they were given for).
    // The object's name is part of the question only where a resourceNames rule could read it
    // (nameCanMatter): a scheduler binding each pod by name otherwise asks one question.
    // Answers are found by the attributes' own strings, one map each, not by a key string built
    // (and hashed) for each of ~35,000 requests.
    const mine = this.answersFor(attrs.user);
    if (mine.size >= RBAC_DECISIONS_MAX) {
      mine.answers = newAnswerNode();
      mine.size = 0;
    }
    let at = answerChild(mine, mine.answers, attrs.verb);
    at = answerChild(mine, at, attrs.apiGroup);
    at = answerChild(mine, at, attrs.resource);
    at = answerChild(mine, at, attrs.subresource ?? '');
    at = answerChild(mine, at, attrs.namespace ?? '');
    let answer = at.answer;
    if (answer === undefined) {
      const source = this.rbacSource();
      answer = at.answer = nameCanMatter(source, attrs)
        ? NAME_DECIDES
        : rbacAuthorize(source, attrs);
    }
    if (answer !== NAME_DECIDES) return answer;
    const named = (at.named ??= new Map());
    let decision = named.get(attrs.name ?? '');
    if (decision === undefined) {
      decision = rbacAuthorize(this.rbacSource(), attrs);
      named.set(attrs.name ?? '', decision);
      mine.size++;
    }
    return decision;
  }

  /** The memo of a user's answers, fresh when the user's name or groups changed. */
  private answersFor(user: UserInfo): UserAnswers {
    const byUser = this.rbacMemo.decisions;
    let mine = byUser.get(user);
    if (mine === undefined || mine.name !== user.name || !sameStrings(mine.groups, user.groups)) {
      mine = {
        name: user.name,
        groups: [...user.groups],
        answers: newAnswerNode(),
        size: 0,
        watches: new Map(),
      };
      byUser.set(user, mine);
    }
    return mine;
  }

  /**
   * authorize for a watch (verb, group and resource fixed by the resource; no name): every
   * informer of every component asks on each wake-up, so the whole answer, node authorizer and
   * system:masters included, is kept per user, resource and namespace until RBAC changes. Only
   * read here, never handed out.
   */
  private authorizeWatch(
    user: UserInfo,
    info: ResourceInfo,
    namespace: string | undefined,
  ): Decision {
    const mine = this.answersFor(user);
    let byNamespace = mine.watches.get(info.resource);
    if (byNamespace === undefined) {
      if (mine.watches.size >= RBAC_DECISIONS_MAX) mine.watches.clear();
      mine.watches.set(info.resource, (byNamespace = new Map()));
    }
    const ns = namespace ?? '';
    let decision = byNamespace.get(ns);
    if (decision === undefined) {
      decision = this.decide(watchAttributes(user, info, namespace));
      if (byNamespace.size >= RBAC_DECISIONS_MAX) byNamespace.clear();
      byNamespace.set(ns, decision);
    }
    return decision;
  }

  /** Authorization check for a user by name/groups (kubectl auth can-i --as, graders). */
  can(user: UserInfo, attrs: Omit<RequestAttributes, 'user'>): Decision {
    return this.authorize({ ...attrs, user });
  }

  private rbacSource(): RbacSource {
    // one source per RBAC memo (replaced when an RBAC object changes), not closures per check
    return (this.rbacMemo.source ??= this.newRbacSource());
  }

  private newRbacSource(): RbacSource {
    const objs = <T>(resource: string, ns?: string): T[] =>
      this.cache.list(resource, ns).filter((e) => !isCorrupt(e)) as unknown as T[];
    const memo = this.rbacMemo;
    return {
      clusterRoles: () => (memo.roles ??= objs<Role>('clusterroles')),
      clusterRoleBindings: () => (memo.bindings ??= objs<RoleBinding>('clusterrolebindings')),
      roles: (ns) => this.nsRbac(ns).roles,
      roleBindings: (ns) => this.nsRbac(ns).bindings,
    };
  }

  private nsRbac(ns: string): { roles: Role[]; bindings: RoleBinding[] } {
    let m = this.rbacMemo.ns.get(ns);
    if (!m) {
      m = {
        roles: this.cache.list('roles', ns).filter((e) => !isCorrupt(e)) as unknown as Role[],
        bindings: this.cache
          .list('rolebindings', ns)
          .filter((e) => !isCorrupt(e)) as unknown as RoleBinding[],
      };
      this.rbacMemo.ns.set(ns, m);
    }
    return m;
  }

  private invalidateRbac(): void {
    this.rbacMemo = { ns: new Map(), decisions: new WeakMap() };
  }

  /** NodeRestriction admission: a kubelet may only change its own Node and pods bound to it. */
  private nodeRestriction(ctx: Ctx, cur: KubeObject, next: KubeObject | undefined): void {
    const { user, info } = ctx;
    if (!user.groups.includes('system:nodes') || !user.name.startsWith('system:node:')) return;
    const node = user.name.slice('system:node:'.length);
    if (info.resource === 'pods') {
      const bound = (cur as Pod).spec?.nodeName;
      if (bound !== node) {
        const why =
          ctx.req.subresource === 'status'
            ? `node ${JSON.stringify(node)} can only update pod status for pods with spec.nodeName set to itself`
            : `node ${JSON.stringify(node)} can only delete pods with spec.nodeName set to itself`;
        throw new S.StatusError(S.forbidden(info, cur.metadata.name, why));
      }
    }
    void next;
  }

  private requireNamespace(ctx: Ctx, name: string | undefined): Namespace | undefined {
    const { info, req } = ctx;
    if (!info.namespaced) return undefined;
    const ns = this.namespaceObj(req.namespace as string);
    if (!ns)
      throw new S.StatusError(
        S.notFound(resourceInfo('namespaces') as ResourceInfo, req.namespace as string),
      );
    if (ns.status?.phase === 'Terminating' || ns.metadata.deletionTimestamp) {
      throw new S.StatusError(
        S.forbidden(
          info,
          name ?? '',
          `unable to create new content in namespace ${req.namespace} because it is being terminated`,
        ),
      );
    }
    return ns;
  }

  private namespaceObj(name: string): Namespace | undefined {
    const e = this.cache.get('namespaces', `/registry/namespaces/${name}`);
    return e && !isCorrupt(e) ? (e as Namespace) : undefined;
  }

  private admitAndValidate(
    ctx: Ctx,
    obj: KubeObject,
    old: KubeObject | undefined,
    ns: Namespace | undefined,
    op: 'CREATE' | 'UPDATE',
  ): void {
    const { info } = ctx;
    const admission = new WriteAdmission(op, ns, obj.metadata.namespace, this.cache, this.rng);
    const mut = runMutating(obj, admission);
    if (mut.error) {
      this.step(ctx, 'admission.mutating', `Mutating admission denied: ${mut.error}`, {
        denied: true,
      });
      throw new S.StatusError(S.forbidden(info, obj.metadata.name, mut.error));
    }
    this.step(
      ctx,
      'admission.mutating',
      mut.records.length
        ? `Mutating admission: ${mut.records.map((r) => `${r.plugin} ${r.change}`).join('; ')}`
        : 'Mutating admission: no changes',
      mut.records.length ? { plugins: mut.records } : NO_PLUGINS,
    );
    const errs: FieldError[] = old ? validateUpdate(obj, old) : validateObject(obj);
    if (errs.length > 0) {
      const status = S.invalid(info, obj.metadata.name ?? '', errs);
      this.step(ctx, 'validate', `Validation failed: ${status.message}`, {
        causes: status.details?.causes,
      });
      throw new S.StatusError(status);
    }
    const val = runValidating(obj, admission);
    if (val.denial) {
      const message = `admission webhook ${JSON.stringify(val.denial.webhook)} denied the request: ${val.denial.message}`;
      this.step(ctx, 'admission.validating', `Validating admission denied: ${message}`, {
        webhook: val.denial.webhook,
        allowed: false,
      });
      throw new S.StatusError(S.forbidden(info, obj.metadata.name, message));
    }
    this.step(
      ctx,
      'admission.validating',
      val.checked.length
        ? `Validating admission passed (${val.checked.join(', ')})`
        : 'Validating admission passed',
      val.checked.length ? { webhooks: val.checked } : NO_WEBHOOKS,
    );
  }

  private commit(
    ctx: Ctx,
    key: string,
    obj: KubeObject,
    expectModRevision: number,
    code: number,
    silentResponse = false,
  ): ApiResponse {
    if (ctx.req.query?.dryRun) {
      const out = deepClone(obj);
      // nothing is stored, so an update's answer keeps the revision it was read at
      if (!out.metadata.resourceVersion && expectModRevision > 0)
        out.metadata.resourceVersion = String(expectModRevision);
      return this.respond(ctx, code, out, { dryRun: true });
    }
    const stored = this.put(ctx.info, key, obj, expectModRevision, ctx);
    if (!stored) throw new S.StatusError(S.conflict(ctx.info, obj.metadata.name as string));
    // a caller that only reads the answer takes the stored (frozen) object itself, uncopied
    if (ctx.req.readOnly)
      return silentResponse ? { code, body: stored } : this.respond(ctx, code, stored);
    if (silentResponse) return copyOnRead({ code, body: stored }, stored);
    return copyOnRead(this.respond(ctx, code, stored), stored);
  }

  /** Writes through etcd; the watch cache is updated by etcd's change stream. */
  private put(
    info: ResourceInfo,
    key: string,
    obj: KubeObject,
    expectModRevision: number,
    ctx?: Ctx,
  ): KubeObject | null {
    void info;
    const revision = this.etcd.revision + 1;
    const value = encodeLazily(key, obj, this.encryption, revision);
    let seq: number | undefined;
    if (ctx?.traced) {
      const members = this.etcd.healthyNames();
      const quorum = Math.floor(this.etcd.members.length / 2) + 1;
      seq = this.emit(
        ctx,
        'etcd',
        this.etcd.leader()?.name,
        'etcd.put',
        `PUT ${key} (revision ${revision}${this.committedBy(members, this.etcd.members.length, quorum)}`,
        {
          key,
          revision,
          quorum,
          members,
          encrypted: typeof value === 'string' && value.startsWith('k8s:enc:'),
        },
      );
    }
    if (!this.etcd.hasQuorum()) {
      throw new EtcdError();
    }
    const pending: PendingWrite = { key, obj, traceSeq: seq, resource: undefined };
    this.pending = pending;
    try {
      const kv = this.etcd.put(key, value, expectModRevision);
      if (!kv) return null;
      // the value may be encoded later only from an object nobody changes any more
      if (typeof value !== 'string' && !Object.isFrozen(obj)) void kv.value;
      const stored =
        pending.resource === undefined ? undefined : this.cache.get(pending.resource, key);
      return stored && !isCorrupt(stored) ? stored : obj;
    } finally {
      this.pending = null;
    }
  }

  /** The last put sentence's tail, the same for every write while etcd's health stays put. */
  private lastCommittedBy: { healthy: readonly string[]; members: number; text: string } | null =
    null;

  /** `, committed by 1/1 members, quorum 1)`: made once per health pattern, not per write. */
  private committedBy(healthy: readonly string[], members: number, quorum: number): string {
    const last = this.lastCommittedBy;
    if (last && last.healthy === healthy && last.members === members) return last.text;
    const text = `, committed by ${healthy.length}/${members} members, quorum ${quorum})`;
    this.lastCommittedBy = { healthy, members, text };
    return text;
  }

  private stepEtcd(ctx: Ctx, op: () => unknown, key: string, verb: 'delete'): void {
    const members = this.etcd.healthyMembers();
    const seq = this.emit(
      ctx,
      'etcd',
      this.etcd.leader()?.name,
      `etcd.${verb}`,
      `DELETE ${key} (revision ${this.etcd.revision + 1}, committed by ${members.length}/${this.etcd.members.length} members)`,
      { key, revision: this.etcd.revision + 1, members: members.map((m) => m.name) },
    );
    if (!this.etcd.hasQuorum()) throw new EtcdError();
    this.pending = {
      key,
      obj: undefined as unknown as KubeObject,
      traceSeq: seq,
      resource: undefined,
    };
    try {
      const res = op();
      if (res === null) throw new S.StatusError(S.conflict(ctx.info, ctx.req.name as string));
    } finally {
      this.pending = null;
    }
  }

  /** An object marked for deletion whose last finalizer is gone (and no grace left) is removed. */
  private finalizeIfDone(ctx: Ctx, key: string, next: KubeObject, modRev: number): boolean {
    if (!next.metadata.deletionTimestamp) return false;
    if ((next.metadata.finalizers ?? []).length > 0) return false;
    if (ctx.info.resource === 'namespaces') {
      if (((next as Namespace).spec?.finalizers ?? []).length > 0) return false;
    } else if ((next.metadata.deletionGracePeriodSeconds ?? 0) > 0) return false;
    this.stepEtcd(ctx, () => this.etcd.delete(key, modRev), key, 'delete');
    return true;
  }

  private onEtcdChange(ch: EtcdChange): void {
    const key = ch.type === 'put' ? ch.kv.key : ch.key;
    const info = resourceForKey(key);
    if (!info) return;
    const pending = this.pending && this.pending.key === key ? this.pending : null;
    if (pending) pending.resource = info.resource;
    let ev: CachedEvent | null;
    if (ch.type === 'put') {
      let entry: CacheEntry;
      if (pending?.obj) {
        // the apiserver built this object itself and hands out only copies of it
        const obj = pending.obj;
        obj.metadata.resourceVersion = String(ch.kv.modRevision);
        entry = obj;
      } else entry = this.decodeEntry(key, ch.kv.value, ch.kv.modRevision);
      ev = this.cache.apply(info.resource, key, entry, ch.kv.modRevision, pending?.traceSeq);
    } else {
      ev = this.cache.apply(info.resource, key, null, ch.revision, pending?.traceSeq);
    }
    if (info.group === 'rbac.authorization.k8s.io') this.invalidateRbac();
    if (ev) for (const l of this.listeners) l(info.resource, ev);
  }

  private decodeEntry(key: string, value: string, modRevision: number): CacheEntry {
    const d = decodeObject(key, value, this.encryption);
    if (!d.ok) return { corrupt: true, key, error: d.error };
    d.obj.metadata.resourceVersion = String(modRevision);
    return d.obj;
  }

  private lookup(
    info: ResourceInfo,
    namespace: string | undefined,
    name: string,
  ): CacheEntry | undefined {
    return this.cache.get(info.resource, etcdKey(info, namespace, name));
  }

  /** statusOnly: a status write keeps only the body's status, so only that part is copied. */
  private decodeBody(ctx: Ctx, body: unknown, statusOnly = false): KubeObject {
    const { info, req } = ctx;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new S.StatusError(
        S.badRequest(
          'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
        ),
      );
    }
    const src = body as KubeObject;
    // A body handed over (ApiRequest.handOver) is kept rather than copied when the copy would be
    // the same data; a status write changes nothing in its status, a create changes the object.
    const handedOver = req.handOver === true;
    let obj: KubeObject;
    if (statusOnly && isComponent(ctx.user)) {
      // update() keeps only the status of a status write, after checking the name, namespace,
      // kind and resourceVersion: the rest of the object a component sends (its whole object,
      // in as many shapes as there are kinds) is not copied
      const meta = src.metadata;
      const status = (src as Record<string, unknown>)['status'];
      obj = {
        apiVersion: src.apiVersion,
        kind: src.kind,
        metadata: meta
          ? { name: meta.name, namespace: meta.namespace, resourceVersion: meta.resourceVersion }
          : {},
        status: handedOver && isPlainData(status, true) ? status : deepClone(status),
      } as KubeObject;
    } else obj = handedOver && isPlainData(src, false) ? src : deepClone(src);
    this.checkFields(ctx, obj);
    obj.metadata = obj.metadata ?? {};
    if (obj.kind !== undefined && obj.kind !== info.kind) {
      throw new S.StatusError(
        S.badRequest(
          `the API version in the data (${obj.apiVersion}) does not match the expected API version (${groupVersion(info)})`,
        ),
      );
    }
    obj.apiVersion = groupVersion(info);
    obj.kind = info.kind;
    if (info.namespaced && obj.metadata.namespace && obj.metadata.namespace !== req.namespace) {
      throw new S.StatusError(
        S.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        ),
      );
    }
    return obj;
  }

  /**
   * Server-side field validation: Strict rejects unknown fields (400), Warn (the default) answers
   * with a warning per field; either way unknown fields are not stored.
   */
  private checkFields(ctx: Ctx, body: unknown): void {
    // The schema covers hand-written objects; components write complete, known shapes.
    if (isComponent(ctx.user)) return;
    const mode = ctx.req.query?.fieldValidation ?? 'Warn';
    if (mode === 'Ignore') {
      pruneUnknown(ctx.info.kind, body);
      return;
    }
    const unknown = unknownFields(ctx.info.kind, body);
    if (unknown.length === 0) return;
    if (mode === 'Strict') {
      const list = unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ');
      throw new S.StatusError(
        S.badRequest(
          `${ctx.info.kind} in version ${JSON.stringify(ctx.info.version)} cannot be handled as a ${ctx.info.kind}: strict decoding error: ${list}`,
        ),
      );
    }
    ctx.warnings = [
      ...(ctx.warnings ?? []),
      ...unknown.map((f) => `unknown field ${JSON.stringify(f)}`),
    ];
    pruneUnknown(ctx.info.kind, body);
  }

  private jobSelector(obj: KubeObject): void {
    const spec = obj['spec'] as {
      selector?: unknown;
      manualSelector?: boolean;
      template?: { metadata?: { labels?: Record<string, string> } };
    };
    if (spec.manualSelector) return;
    const uid = obj.metadata.uid as string;
    const name = obj.metadata.name as string;
    spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    if (spec.template) {
      spec.template.metadata ??= {};
      spec.template.metadata.labels = {
        ...(spec.template.metadata.labels ?? {}),
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': name,
        'controller-uid': uid,
        'job-name': name,
      };
    }
  }

  private recordManager(
    ctx: Ctx,
    obj: KubeObject,
    body: unknown,
    operation: 'Update' | 'Apply',
  ): void {
    const { req, user } = ctx;
    const manager = req.query?.fieldManager ?? managerFor(user, req.userAgent);
    const subresource = req.subresource;
    // this manager's entry for this operation and subresource is replaced, the others kept (a
    // loop, not a filter with a closure per write)
    const entries: ManagedFieldsEntry[] = [];
    const current = obj.metadata.managedFields ?? [];
    for (let i = 0; i < current.length; i++) {
      const e = current[i] as ManagedFieldsEntry;
      if (!(
        e.manager === manager &&
        e.operation === operation &&
        (e.subresource ?? '') === (subresource ?? '')
      ))
        entries.push(e);
    }
    const src = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const fieldsV1 = buildFieldsV1(subresource === 'status' ? { status: src['status'] } : src);
    const apiVersion = groupVersion(ctx.info);
    const time = this.nowIso();
    // the same keys in the same order either way; a subresource's entry names it last
    entries.push(
      subresource
        ? { manager, operation, apiVersion, time, fieldsType: 'FieldsV1', fieldsV1, subresource }
        : { manager, operation, apiVersion, time, fieldsType: 'FieldsV1', fieldsV1 },
    );
    obj.metadata.managedFields = entries;
  }

  // ---------------------------------------------------------------- trace helpers

  /**
   * A trace event about the request's object, caused by the request's previous event. The fields
   * come as arguments: the event is the one literal handed to the trace (~200,000 in a 3,000-pod
   * settle), not a second literal per event to unpack.
   */
  private emit(
    ctx: Ctx,
    component: TraceInput['component'],
    node: string | undefined,
    verb: string,
    message: string,
    data: Record<string, unknown>,
  ): number | undefined {
    if (!ctx.traced) return undefined;
    const trace = this.trace;
    // the fields as arguments where the sink takes them, else one literal of fixed shape (the
    // store drops undefined fields)
    const seq = trace.emitFields
      ? trace.emitFields(component, node, verb, ctx.object, message, ctx.last, data)
      : trace.emit({
          component,
          node,
          verb,
          object: ctx.object,
          message,
          causedBy: ctx.last,
          data,
        });
    ctx.last = seq;
    return seq;
  }

  private step(ctx: Ctx, verb: string, message: string, data: Record<string, unknown>): void {
    this.emit(ctx, 'kube-apiserver', undefined, verb, message, data);
  }

  private respond(
    ctx: Ctx,
    code: number,
    body: ApiResponse['body'],
    data?: Record<string, unknown>,
  ): ApiResponse {
    const { req } = ctx;
    // an untraced request (a component's read) builds no message
    const seq = ctx.traced
      ? this.emit(
          ctx,
          'kube-apiserver',
          undefined,
          'respond',
          `${upperVerb(req.verb)} ${describeRequest(ctx)}${outcomeText(code)}${isStatus(body) && body.message && code >= 400 ? `: ${body.message}` : ''}`,
          data ? { code, user: ctx.user.name, ...data } : responseData(code, ctx.user.name),
        )
      : undefined;
    const res: ApiResponse = { code, body };
    if (ctx.warnings?.length) res.warnings = ctx.warnings;
    if (seq !== undefined) res.traceSeq = seq;
    return res;
  }

  /** A version-4 UUID from the lab's PRNG, in the same draw order as ever (variant, 8, 4, 3, 3, 12). */
  private uid(): string {
    // One string from a reused buffer of char codes: built char by char, every UID (one per
    // object, ~18,000 in a 3,000-pod settle) left ~35 intermediate strings behind.
    const c = UUID_CODES;
    const rng = this.rng;
    c[19] = VARIANT_CODES[rng.int(4)] as number;
    for (let i = 0; i < 8; i++) c[i] = HEX_CODES[rng.int(16)] as number;
    for (let i = 9; i < 13; i++) c[i] = HEX_CODES[rng.int(16)] as number;
    for (let i = 15; i < 18; i++) c[i] = HEX_CODES[rng.int(16)] as number;
    for (let i = 20; i < 23; i++) c[i] = HEX_CODES[rng.int(16)] as number;
    for (let i = 24; i < 36; i++) c[i] = HEX_CODES[rng.int(16)] as number;
    return String.fromCharCode.apply(null, c);
  }

  private nowIso(): string {
    return isoAt(this.startMs, this.now());
  }

  /**
   * The decoded object at a key straight from the cache (lab read-only views, faults). It is the
   * cache's own frozen object, not a copy: a view that polls every pod each frame would
   * otherwise copy the whole cluster each time.
   */
  peek(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const info = resourceInfo(resource);
    if (!info) return undefined;
    const e = this.cache.get(resource, etcdKey(info, namespace, name));
    return e && !isCorrupt(e) ? e : undefined;
  }

  /** All decoded objects of a resource (lab read-only views, graders), frozen as `peek`'s. */
  peekAll(resource: string, namespace?: string): KubeObject[] {
    return this.cache.list(resource, namespace).filter((e): e is KubeObject => !isCorrupt(e));
  }

  /** After an etcd snapshot restore: everything cached is stale history. */
  markCompacted(): void {
    this.cache.markCompacted(this.etcd.revision);
    this.clearWatchMemo();
  }
}

/**
 * The response carries its own copy of the stored (frozen) object, made when the caller first
 * reads the body: most writers (kubelet status, Events, bindings) only look at the code, and the
 * copy was a large share of every write.
 */
/** A BOOKMARK event: the watch has read everything up to `revision` (no object changed). */
function bookmark(info: ResourceInfo, revision: number): WatchEvent {
  return {
    type: 'BOOKMARK',
    object: {
      apiVersion: groupVersion(info),
      kind: info.kind,
      metadata: { resourceVersion: String(revision) },
    },
    revision,
  };
}

/** How far a filtered watch from one revision was answered, and what matched up to there. */
interface WatchMemo {
  upTo: number;
  matches: { ev: CachedEvent; type: WatchEvent['type'] }[];
}

type ParsedSelectors =
  { labelSel: ParsedSelector; fieldSel: FieldRequirement[] } | { error: string };

/**
 * What the admission plugins ask about a write. A class: every create and update makes one, and
 * a literal with a getter and two arrow functions was a runtime call and three closures each.
 */
class WriteAdmission implements AdmissionContext {
  constructor(
    readonly operation: 'CREATE' | 'UPDATE',
    readonly namespace: Namespace | undefined,
    private readonly objectNamespace: string | undefined,
    private readonly cache: WatchCache,
    readonly rng: Rng,
  ) {}

  // read only by the LimitRanger, on pod-bearing creates: not listed for every write
  get limitRanges(): LimitRange[] {
    const ns = this.objectNamespace;
    return ns
      ? (this.cache.list('limitranges', ns).filter((e) => !isCorrupt(e)) as LimitRange[])
      : [];
  }

  serviceAccountExists(sa: string): boolean {
    return !!this.cache.get(
      'serviceaccounts',
      `/registry/serviceaccounts/${this.objectNamespace}/${sa}`,
    );
  }

  priorityClassValue(pc: string): number | undefined {
    const found = this.cache.get('priorityclasses', `/registry/priorityclasses/${pc}`);
    const value = found && !isCorrupt(found) ? (found as { value?: unknown }).value : undefined;
    return typeof value === 'number' ? value : undefined;
  }
}

/** The write being committed, for the watch cache to take as etcd reports it. */
interface PendingWrite {
  key: string;
  obj: KubeObject;
  traceSeq: number | undefined;
  /** the key's resource, once the cache has taken the change (the put then reads it back) */
  resource: string | undefined;
}

/** What one authenticated user was answered, until an RBAC object changes. */
interface UserAnswers {
  name: string;
  groups: string[];
  /**
   * RBAC decisions by request attributes without the name (verb, apiGroup, resource,
   * subresource, namespace: one level each, '' for none), or NAME_DECIDES where a resourceNames
   * rule may read it: those are kept by name below
   */
  answers: AnswerNode;
  /** how many nodes and named decisions `answers` holds */
  size: number;
  /** watch answers, by resource then namespace ('' for none) */
  watches: Map<string, Map<string, Decision>>;
}

interface AnswerNode {
  next: Map<string, AnswerNode>;
  answer: Decision | typeof NAME_DECIDES | undefined;
  named: Map<string, Decision> | undefined;
}

function newAnswerNode(): AnswerNode {
  return { next: new Map(), answer: undefined, named: undefined };
}

function answerChild(mine: UserAnswers, at: AnswerNode, part: string): AnswerNode {
  let next = at.next.get(part);
  if (next === undefined) {
    at.next.set(part, (next = newAnswerNode()));
    mine.size++;
  }
  return next;
}

/** system:masters may do anything (shared: only read, and authorize hands out copies) */
const MASTERS: Decision = Object.freeze({ allowed: true, reason: '', via: 'group system:masters' });

/**
 * The watch event of a cached change, made once and shared (frozen) by every watcher: kept on the
 * cached event itself (a field read per event handed out, not a WeakMap lookup and entry).
 */
function sharedWatchEvent(ev: CachedEvent): WatchEvent {
  let w = ev.shared;
  if (w === undefined) {
    w = { type: ev.type, object: ev.object, revision: ev.revision };
    if (ev.traceSeq !== undefined) w.traceSeq = ev.traceSeq;
    ev.shared = Object.freeze(w);
  }
  return w;
}

function copyOnRead(res: ApiResponse, stored: KubeObject): ApiResponse {
  // accessors of one literal (body keeps its place among the keys), not two closures and a
  // defineProperty per write; a body set by the caller replaces the copy for good
  let body: ApiResponse['body'] | undefined;
  let set = false;
  return {
    ...res,
    get body(): ApiResponse['body'] {
      if (!set) {
        body = deepClone(stored);
        set = true;
      }
      return body as ApiResponse['body'];
    },
    set body(value: ApiResponse['body']) {
      body = value;
      set = true;
    },
  };
}

function isComponent(user: UserInfo): boolean {
  return user.name.startsWith('system:');
}

function managerFor(user: UserInfo, userAgent: string | undefined): string {
  if (userAgent) return userAgent.split('/')[0] as string;
  if (user.name.startsWith('system:node:')) return 'kubelet';
  if (user.name.startsWith('system:')) return user.name.slice('system:'.length);
  return 'kubectl';
}

function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const rest: Record<string, unknown> = { ...o };
    delete rest['metadata'];
    delete rest['status'];
    return JSON.stringify(rest);
  };
  return strip(a) !== strip(b);
}

function sameObject(a: KubeObject, b: KubeObject): boolean {
  // Nearly every write changes something, mostly the status (every status write, ~13,000 in a
  // settle): comparing it first answers most without walking the metadata before it.
  const sa = (a as Record<string, unknown>)['status'];
  const sb = (b as Record<string, unknown>)['status'];
  if (!equalJson(sa, sb)) return false;
  return equalJson(a, b, true);
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A filtered watch's test of one object (a module function: no closure per watch call). */
function watchMatches(
  o: KubeObject | undefined,
  prefixNs: string | undefined,
  labelSel: ParsedSelector,
  fieldSel: FieldRequirement[],
): boolean {
  return (
    !!o &&
    (!prefixNs || o.metadata.namespace === prefixNs) &&
    matchesRequirements(o.metadata.labels, labelSel) &&
    matchesFields(o, fieldSel)
  );
}

const META_SKIP = new Set(['managedFields', 'resourceVersion']);

/**
 * Structural equality of JSON data (undefined = absent); at the top, metadata ignores RV and
 * managedFields. Every update asks (a no-op writes nothing): keys are walked, not listed.
 */
function equalJson(x: unknown, y: unknown, top = false, skip?: Set<string>): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!equalJson(x[i], y[i])) return false;
    return true;
  }
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  let xCount = 0;
  for (const k in xo) {
    if (xo[k] === undefined || skip?.has(k)) continue;
    xCount++;
    if (!equalJson(xo[k], yo[k], false, top && k === 'metadata' ? META_SKIP : undefined))
      return false;
  }
  let yCount = 0;
  for (const k in yo) if (yo[k] !== undefined && !skip?.has(k)) yCount++;
  return xCount === yCount;
}

function resourceOfKind(kind: string): string {
  const map: Record<string, string> = {
    Namespace: 'namespaces',
    ClusterRole: 'clusterroles',
    ClusterRoleBinding: 'clusterrolebindings',
    Service: 'services',
    Endpoints: 'endpoints',
  };
  return map[kind] ?? resourceForKind(kind)?.resource ?? `${kind.toLowerCase()}s`;
}

/**
 * `Allowed <verb> <describeResource> by <via>`: the text before the name and the text after it
 * are made once per request kind and per namespace and via, not pieced together (and kept in the
 * trace as a tree of ~10 joined strings) for each request.
 */
function allowedMessage(a: RequestAttributes, via: string): string {
  const head = allowedHead(a);
  const tail = allowedTail(a.namespace, via);
  return a.name ? `${head} ${JSON.stringify(a.name)}${tail}` : `${head}${tail}`;
}

const ALLOWED_TEXTS_MAX = 1000;
/** `Allowed <verb> <resource>[/<subresource>][.<group>]` by verb, group, resource, subresource */
const allowedHeads = new Map<string, Map<string, Map<string, Map<string, string>>>>();
/** `[ in namespace <namespace>] by <via>` by namespace ('' for none) and via */
const allowedTails = new Map<string, Map<string, string>>();

function allowedHead(a: RequestAttributes): string {
  let byGroup = allowedHeads.get(a.verb);
  if (!byGroup) allowedHeads.set(a.verb, (byGroup = new Map()));
  let byResource = byGroup.get(a.apiGroup);
  if (!byResource) byGroup.set(a.apiGroup, (byResource = new Map()));
  let bySub = byResource.get(a.resource);
  if (!bySub) byResource.set(a.resource, (bySub = new Map()));
  const sub = a.subresource ?? '';
  let head = bySub.get(sub);
  if (head === undefined) {
    const r = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const gr = a.apiGroup ? `${r}.${a.apiGroup}` : r;
    head = `Allowed ${a.verb} ${gr}`;
    // unknown resources and verbs could grow these without bound
    if (bySub.size >= ALLOWED_TEXTS_MAX) bySub.clear();
    bySub.set(sub, head);
  }
  return head;
}

function allowedTail(namespace: string | undefined, via: string): string {
  const ns = namespace ?? '';
  let byVia = allowedTails.get(ns);
  if (!byVia) {
    // namespaces come and go in a long-lived lab
    if (allowedTails.size >= ALLOWED_TEXTS_MAX) allowedTails.clear();
    allowedTails.set(ns, (byVia = new Map()));
  }
  let tail = byVia.get(via);
  if (tail === undefined) {
    tail = `${ns ? ` in namespace ${ns}` : ''} by ${via}`;
    if (byVia.size >= ALLOWED_TEXTS_MAX) byVia.clear();
    byVia.set(via, tail);
  }
  return tail;
}

function describeRequest(ctx: Ctx): string {
  const { req, info } = ctx;
  const path = collectionPath(info, info.namespaced && req.namespace ? req.namespace : '');
  const name = req.name ? `/${req.name}` : '';
  const sub = req.subresource ? `/${req.subresource}` : '';
  return `${path}${name}${sub}`;
}

// The parts of every answer's trace sentence that repeat (a collection's path, the verb, the
// outcome), each made once rather than pieced together again for each of ~35,000 requests.
const COLLECTION_PATHS_MAX = 1000;
const collectionPaths = new Map<ResourceInfo, Map<string, string>>();
const upperVerbs = new Map<string, string>();
const outcomeTexts = new Map<number, string>();

/** `/api/v1/namespaces/<namespace>/<resource>` (namespace '' for none). */
function collectionPath(info: ResourceInfo, namespace: string): string {
  let byNamespace = collectionPaths.get(info);
  if (!byNamespace) collectionPaths.set(info, (byNamespace = new Map()));
  let path = byNamespace.get(namespace);
  if (path === undefined) {
    const base = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
    const ns = namespace ? `/namespaces/${namespace}` : '';
    path = `${base}${ns}/${info.resource}`;
    // namespaces come and go in a long-lived lab
    if (byNamespace.size >= COLLECTION_PATHS_MAX) byNamespace.clear();
    byNamespace.set(namespace, path);
  }
  return path;
}

function upperVerb(verb: string): string {
  let text = upperVerbs.get(verb);
  if (text === undefined) upperVerbs.set(verb, (text = verb.toUpperCase()));
  return text;
}

/** ` -> 201 Created` */
function outcomeText(code: number): string {
  let text = outcomeTexts.get(code);
  if (text === undefined) outcomeTexts.set(code, (text = ` -> ${code} ${statusText(code)}`));
  return text;
}

// Trace data every request repeats, shared frozen between the events that carry it: a settling
// 3,000-pod cluster writes ~35,000 times, and each write's six steps had an object apiece.
const NO_DATA: Record<string, unknown> = Object.freeze({});
const NO_PLUGINS: Record<string, unknown> = Object.freeze({ plugins: Object.freeze([]) });
const NO_WEBHOOKS: Record<string, unknown> = Object.freeze({ webhooks: Object.freeze([]) });
const userDatas = new WeakMap<UserInfo, Record<string, unknown>>();
const allowedDatas = new Map<string | undefined, Record<string, unknown>>();
const responseDatas = new Map<string, Map<number, Record<string, unknown>>>();

function userData(user: UserInfo): Record<string, unknown> {
  let data = userDatas.get(user);
  if (!data) userDatas.set(user, (data = Object.freeze({ user: user.name, groups: user.groups })));
  return data;
}

function allowedData(via: string | undefined): Record<string, unknown> {
  let data = allowedDatas.get(via);
  if (!data) allowedDatas.set(via, (data = Object.freeze({ allowed: true, via })));
  return data;
}

function responseData(code: number, user: string): Record<string, unknown> {
  let byCode = responseDatas.get(user);
  if (!byCode) responseDatas.set(user, (byCode = new Map()));
  let data = byCode.get(code);
  if (!data) byCode.set(code, (data = Object.freeze({ code, user })));
  return data;
}

const authenticatedMessages = new WeakMap<UserInfo, Map<string, string>>();

/** The authenticate step's sentence, made once per user and method (users are long-lived objects). */
function authenticatedMessage(user: UserInfo, method: string): string {
  let byMethod = authenticatedMessages.get(user);
  if (!byMethod) authenticatedMessages.set(user, (byMethod = new Map()));
  let message = byMethod.get(method);
  if (message === undefined) {
    message = `Authenticated ${user.name} (${user.groups.join(', ')}) by ${method}`;
    byMethod.set(method, message);
  }
  return message;
}

/** What a watch asks the authorizer (built only when the answer is not known yet). */
function watchAttributes(
  user: UserInfo,
  info: ResourceInfo,
  namespace: string | undefined,
): RequestAttributes {
  return { user, verb: 'watch', apiGroup: info.group, resource: info.resource, namespace };
}
