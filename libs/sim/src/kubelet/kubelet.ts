// The kubelet of one node: registers its Node, renews its Lease, reports node status, and runs a
// pod worker for every pod bound to it (fieldSelector spec.nodeName). It talks to the cluster only
// through its ApiClient (identity system:node:<name>) and to the machine only through NodeHost.
// Containers live in the host's containerd, so they keep running when this process stops.

import type { Condition, ContainerStatus, KubeObject, Lease, Node, Pod, PodStatus } from '../model';
import { isStatus } from '../model';
import type { Component, ComponentContext } from '../runtime/component';
import type { NodeHost } from '../node/node-host';
import { fileChangeCount } from '../node/node-host';
import { klogLine } from '../node/systemd';
import { EventRecorder } from '../shared/event-recorder';
import { frozenJsonCopy, jsonCopy } from '../shared/json-copy';
import { sameJson } from '../shared/same-json';
import { Informer } from '../shared/informer';
import type { StaticPodCache } from './static-pods';
import { isMirrorPod, MIRROR_ANNOTATION, mirrorPodFor, readStaticPods } from './static-pods';
import { microIsoAt } from '../shared/time';
import type { BackoffTable } from './backoff';
import { buildPodStatus } from './pod-status';
import type { PodRuntime, WorkerEnv } from './pod-worker';
import {
  adoptFromRuntime,
  containerViews,
  initContainerViews,
  newPodRuntime,
  syncPod,
} from './pod-worker';
import {
  buildLease,
  buildNode,
  LEASE_RENEW_MS,
  NODE_STATUS_REPORT_MS,
  NODE_STATUS_UPDATE_MS,
  nodeCapacity,
  nodeConditions,
  nodeImages,
} from './node-status';

/** RunPodSandbox + CNI ADD: a few hundred ms on a real node. */
const SANDBOX_BASE_MS = 900;
const SANDBOX_JITTER_MS = 300;
/** The generic PLEG's relist period (pkg/kubelet/kubelet.go genericPlegRelistPeriod). */
const PLEG_RELIST_MS = 1_000;

export interface KubeletState {
  registered: boolean;
  nodeUid?: string;
  nextLeaseAt: number;
  nextStatusAt: number;
  lastStatusReportAt: number;
  lastNodeFingerprint?: string;
  pods: Record<string, PodRuntime>;
  backoffs: BackoffTable;
  /** manifest files that failed to parse, with the error already logged */
  staticErrors: Record<string, string>;
  /** the Lease as last written (renewals update it without a GET) */
  lastLease?: Lease;
  /** the event correlator's counts, written at save time */
  events?: [string, number][];
  /** where the pod workers stood, written at save time (see KubeletSyncState) */
  sync?: KubeletSyncState;
}

/**
 * The pod workers' bookkeeping, saved so that a restored lab's kubelet carries on exactly as the
 * saved one would have (a restarted kubelet starts without it and syncs every pod).
 */
interface KubeletSyncState {
  /** each pod's next timer: uid, sim ms, periodic */
  next: [string, number, boolean][];
  /** pods whose last status write failed */
  retry: string[];
  lastFull: number;
  fullPending: boolean;
  /** how far the pod watch was read */
  seen: number;
  /** the static pods' timers and retries, by manifest hash */
  staticNext?: [string, number, boolean][];
  staticRetry?: string[];
}

export interface Kubelet extends Component {
  /** the kubelet's private view of its pods (for the UI and tests) */
  podRuntime(uid: string): PodRuntime | undefined;
}

function initialState(): KubeletState {
  return {
    registered: false,
    nextLeaseAt: 0,
    nextStatusAt: 0,
    lastStatusReportAt: -Infinity,
    pods: {},
    backoffs: {},
    staticErrors: {},
  };
}

/**
 * The state as the kubelet keeps it in memory: as saved, but with the pod runtimes in a Map by
 * uid. A record keyed by uids gave every kubelet's object its own chain of hidden classes (one
 * per pod added) and made each lookup megamorphic: a third of a reconcile's own time. The saved
 * record is built from the Map in its insertion order, which is the order the record had.
 */
type KubeletMemory = Omit<KubeletState, 'pods'> & { pods: Map<string, PodRuntime> };

/** The state in memory for a saved state (the same keys in the same places). */
function toMemory(saved: KubeletState): KubeletMemory {
  return { ...saved, pods: new Map(Object.entries(saved.pods ?? {})) };
}

export function createKubelet(host: NodeHost): Kubelet {
  const name = host.name;
  let pods = new Informer<Pod>('pods', { fieldSelector: `spec.nodeName=${name}` });
  let state = toMemory(initialState());
  let recorder = new EventRecorder();
  // Which pods a reconcile must sync (in memory only: a restarted kubelet syncs everything).
  // A pod is synced when it changed in the API, when a timer it asked for is due, when its last
  // status write failed, and at a full sync every NODE_STATUS_UPDATE_MS (or after a ConfigMap or
  // Secret change); otherwise a pod's sync would be a no-op, and at hundreds of pods per node
  // syncing all of them on every wake-up dominated the simulation.
  let podNextAt = new Map<string, PodTimer>();
  let podRetry = new Set<string>();
  // What the pass over podNextAt would find when no timer is due and no pod changed: the
  // earliest finite timer, whether it is periodic only, and the earliest non-periodic one. Set by
  // a pass (or a full sync) and kept up as timers are set; null when a timer changed otherwise.
  let timerSummary: TimerSummary | null = null;
  // The same for static pods, by manifest hash (a mirror pod to post again counts as a retry).
  let staticNextAt = new Map<string, PodTimer>();
  let staticRetry = new Set<string>();
  let lastFullSync = -Infinity;
  // the node's pods sorted by namespace+name, with each one's place in that order (rebuilt only
  // when the informer reports a change: most wake-ups are one pod's timer on an unchanged set)
  let sortedPods: SortedPods | null = null;
  let fullSyncPending = true;
  // The state as saveState last handed it out, frozen: only a reconcile or a load changes the
  // state, and a lab is saved after every write, mostly with this node's kubelet idle.
  let saved: unknown = null;
  // how far the pod watch was read; after a restore, where to resume it from
  let watchSeen = -1;
  let resumeFrom: number | undefined;
  // what the last reconcile saw, to skip the orphan scan when nothing could have left one
  let staticsSeen = 0;
  let syncedSeen = false;
  // pods with a container that exited (PLEG) since their last sync
  const exitedUnsynced = new Set<string>();
  const staticCache: StaticPodCache = new Map();
  // the static pods as last read, and the host's file change count then (every reconcile reads
  // the manifest directory; its files almost never change)
  let staticRead: { changes: number; read: ReturnType<typeof readStaticPods> } | null = null;

  const log = (ctx: ComponentContext, sev: 'I' | 'W' | 'E', file: string, msg: string): void => {
    host.systemd.log(
      'kubelet',
      ctx.now,
      klogLine(sev, ctx.now, host.epochMs, host.systemd.get('kubelet').mainPid, file, msg),
    );
  };

  const emit = (
    ctx: ComponentContext,
    verb: string,
    message: string,
    extra: {
      object?: { kind: string; name: string; namespace?: string };
      causedBy?: number;
      data?: Record<string, unknown>;
    } = {},
  ): number => ctx.trace.emit({ component: 'kubelet', node: name, verb, message, ...extra });

  // ------------------------------------------------------------ node registration and heartbeats

  const register = (ctx: ComponentContext): void => {
    const node = buildNode(host, ctx.nowIso);
    const res = ctx.client.request({ verb: 'create', resource: 'nodes', body: node });
    const existed = res.code === 409;
    if (res.code === 201 || res.code === 200) {
      state.nodeUid = (res.body as Node).metadata.uid;
    } else if (res.code === 409) {
      const got = ctx.client.request({ verb: 'get', resource: 'nodes', name });
      if (got.code !== 200) return;
      state.nodeUid = (got.body as Node).metadata.uid;
    } else {
      log(
        ctx,
        'E',
        'kubelet_node_status.go:95',
        `"Unable to register node with API server" err="${typeof res.body === 'string' ? res.body : isStatus(res.body) ? res.body.message : res.code}" node="${name}"`,
      );
      return;
    }
    state.registered = true;
    log(
      ctx,
      'I',
      'kubelet_node_status.go:78',
      existed
        ? `"Node was previously registered" node="${name}"`
        : `"Successfully registered node" node="${name}"`,
    );
    emit(
      ctx,
      'register-node',
      existed
        ? `Node ${name} was already registered; the restarted kubelet resumes its heartbeats`
        : `Registered Node ${name} (${host.internalIP}, pod CIDR ${host.podCIDR}) with the apiserver`,
      {
        object: { kind: 'Node', name },
        data: { capacity: node.status?.capacity, allocatable: node.status?.allocatable },
      },
    );
    const involved: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: name } };
    const src = { component: 'kubelet', host: name };
    recorder.record(ctx.client, ctx.nowIso, src, {
      involved,
      type: 'Normal',
      reason: 'Starting',
      message: 'Starting kubelet.',
    });
    recorder.record(ctx.client, ctx.nowIso, src, {
      involved,
      type: 'Normal',
      reason: 'NodeAllocatableEnforced',
      message: 'Updated Node Allocatable limit across pods',
    });
    for (const r of [
      'NodeHasSufficientMemory',
      'NodeHasNoDiskPressure',
      'NodeHasSufficientPID',
      'NodeReady',
    ]) {
      recorder.record(ctx.client, ctx.nowIso, src, {
        involved,
        type: 'Normal',
        reason: r,
        message: `Node ${name} status is now: ${r}`,
      });
    }
    // A fresh Node already carries fresh conditions; a returning kubelet reports at once.
    state.nextStatusAt = existed ? ctx.now : ctx.now + NODE_STATUS_UPDATE_MS;
    state.lastStatusReportAt = ctx.now;
  };

  // Like the real lease controller: update the lease it wrote last time (one request per renewal);
  // only a conflict or a missing lease costs a GET or a CREATE.
  const renewLease = (ctx: ComponentContext): void => {
    const renew = microIsoAt(host.epochMs, ctx.now);
    const withRenew = (lease: Lease): Lease => ({
      ...lease,
      spec: { ...lease.spec, holderIdentity: name, leaseDurationSeconds: 40, renewTime: renew },
    });
    const update = (lease: Lease) =>
      ctx.client.request({
        verb: 'update',
        resource: 'leases',
        namespace: 'kube-node-lease',
        name,
        body: withRenew(lease),
      });
    let res = state.lastLease ? update(state.lastLease) : undefined;
    if (!res || res.code === 409 || res.code === 404) {
      const got = ctx.client.request({
        verb: 'get',
        resource: 'leases',
        namespace: 'kube-node-lease',
        name,
      });
      if (got.code === 404) {
        res = ctx.client.request({
          verb: 'create',
          resource: 'leases',
          namespace: 'kube-node-lease',
          body: buildLease(host, renew, state.nodeUid),
        });
      } else if (got.code === 200) {
        res = update(got.body as Lease);
      } else res = got;
    }
    state.lastLease = res.code === 200 || res.code === 201 ? (res.body as Lease) : undefined;
    if (res.code === 200 || res.code === 201) {
      emit(ctx, 'renew-lease', `Renewed Lease kube-node-lease/${name} (renewTime ${renew})`, {
        object: { kind: 'Lease', namespace: 'kube-node-lease', name },
      });
      state.nextLeaseAt = ctx.now + LEASE_RENEW_MS;
    } else {
      log(
        ctx,
        'E',
        'controller.go:145',
        `"Failed to ensure lease exists, will retry" err="Get \\"https://${host.controlPlaneIP}:6443/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}?timeout=10s\\": dial tcp ${host.controlPlaneIP}:6443: connect: connection refused" interval="7s"`,
      );
      // client-go's lease controller retries with a short back-off (200 ms doubling to 7 s); keep it simple.
      state.nextLeaseAt = ctx.now + 7_000;
    }
  };

  const updateNodeStatus = (ctx: ComponentContext): void => {
    const got = ctx.client.request({ verb: 'get', resource: 'nodes', name });
    if (got.code !== 200) {
      if (got.code === 404) state.registered = false;
      else
        log(
          ctx,
          'E',
          'kubelet_node_status.go:549',
          `"Error updating node status, will retry" err="error getting node \\"${name}\\": Get \\"https://${host.controlPlaneIP}:6443/api/v1/nodes/${name}?timeout=10s\\": dial tcp ${host.controlPlaneIP}:6443: connect: connection refused"`,
        );
      state.nextStatusAt = ctx.now + NODE_STATUS_UPDATE_MS;
      return;
    }
    const node = got.body as Node;
    const prevConds = node.status?.conditions as Condition[] | undefined;
    const conditions = nodeConditions(ctx.nowIso, prevConds);
    const images = nodeImages(host);
    const fingerprint = JSON.stringify({
      c: conditions.map((c) => [c.type, c.status, c.reason]),
      images,
      a: nodeCapacity(host).allocatable,
    });
    const ctrlOverride = (prevConds ?? []).some((c) => c.type === 'Ready' && c.status !== 'True');
    const due = ctx.now - state.lastStatusReportAt >= NODE_STATUS_REPORT_MS;
    state.nextStatusAt = ctx.now + NODE_STATUS_UPDATE_MS;
    if (fingerprint === state.lastNodeFingerprint && !due && !ctrlOverride) return;
    // (the whole fresh Node only when it is posted: most checks find nothing to report)
    const fresh = buildNode(host, ctx.nowIso);
    const body: Node = { ...node, status: { ...fresh.status, conditions, images } };
    const res = ctx.client.request({
      verb: 'update',
      resource: 'nodes',
      name,
      subresource: 'status',
      body,
    });
    if (res.code === 200) {
      state.lastNodeFingerprint = fingerprint;
      state.lastStatusReportAt = ctx.now;
      emit(
        ctx,
        'update-node-status',
        `Posted NodeStatus for ${name}: Ready=True (${NODE_CONDITIONS_SUMMARY})`,
        { object: { kind: 'Node', name } },
      );
    }
  };

  // ------------------------------------------------------------ pods

  // The status each runtime posted last (while its postedStatus is that status's text), whether
  // JSON prints it plainly enough for sameJson to be exact about it, and the pod object the write
  // stored (the apiserver's frozen object, which its watch hands back as the write's MODIFIED
  // event: that echo is told from other changes by identity).
  const lastPosted = new WeakMap<
    PodRuntime,
    { status: PodStatus; plain: boolean; stored: unknown }
  >();
  // Runtimes whose postedStatus text is still to be written: the text is only read by a save (or
  // by the comparison after a restore), so the JSON of every status posted is not made at once.
  const unwrittenTexts = new Map<PodRuntime, PodStatus>();
  const writePostedTexts = (): void => {
    for (const [rt, status] of unwrittenTexts) rt.postedStatus = JSON.stringify(status);
    unwrittenTexts.clear();
  };
  const forgetPosted = (rt: PodRuntime): void => {
    lastPosted.delete(rt);
    unwrittenTexts.delete(rt);
  };

  /** Returns false when the status could not be written (retried on the next reconcile). */
  const postPodStatus = (
    ctx: ComponentContext,
    env: WorkerEnv,
    pod: Pod,
    rt: PodRuntime,
  ): boolean => {
    if (rt.deleted) return true;
    const inits = pod.spec.initContainers;
    const status = buildPodStatus(pod, {
      hostIP: host.internalIP,
      podIP: rt.podIP,
      startTime: rt.startTime,
      sandboxReady: !!rt.sandboxId && !rt.terminal,
      containers: containerViews(env, pod, rt),
      initContainers:
        inits !== undefined && inits.length > 0 ? initContainerViews(env, pod, rt) : undefined,
      transitions: rt.transitions,
      nowIso: ctx.nowIso,
      terminal: rt.terminal,
    });
    // Most syncs rebuild the status that was posted last: compared with the object posted (when
    // this kubelet posted it), then by JSON text only where sameJson could miss equal texts.
    const posted = lastPosted.get(rt);
    if (posted && sameJson(posted.status, status)) return true;
    const plain = isPlainJson(status);
    let fp: string | undefined;
    // (a first status has no text to compare with: its own is written later, like the others')
    if (posted ? !posted.plain || !plain : rt.postedStatus !== undefined || !plain) {
      fp = JSON.stringify(status);
      if (unwrittenTexts.has(rt)) writePostedTexts();
      if (fp === rt.postedStatus) return true;
    }
    const res = ctx.client.request({
      verb: 'update',
      resource: 'pods',
      namespace: rt.namespace,
      name: rt.name,
      subresource: 'status',
      body: { ...pod, metadata: { ...pod.metadata, resourceVersion: undefined }, status },
      causedBy: rt.cause,
      // only the code is read; the status is kept (frozen), not copied, and only read from here on
      readOnly: true,
      handOver: true,
    });
    if (res.code !== 200) return false; // retried on the next sync
    if (fp !== undefined) {
      rt.postedStatus = fp;
      unwrittenTexts.delete(rt);
    } else {
      // the field is set now (its place among the runtime's keys is part of the saved state)
      rt.postedStatus = TEXT_UNWRITTEN;
      unwrittenTexts.set(rt, status);
    }
    lastPosted.set(rt, { status, plain, stored: res.body });
    const statuses = status.containerStatuses ?? [];
    let ready = 0;
    let waitingReason: string | undefined;
    for (const c of statuses) {
      if (c.ready) ready++;
      // the first container waiting for a reason (an empty one does not count)
      if (!waitingReason) {
        const reason = c.state.waiting?.reason;
        if (reason) waitingReason = reason;
      }
    }
    const total = statuses.length;
    const waiting =
      (status.initContainerStatuses ? initializingReason(pod, status.initContainerStatuses) : '') ||
      waitingReason;
    const summary = `${status.phase}${waiting ? `/${waiting}` : ''} ${ready}/${total}`;
    if (summary !== rt.lastPhaseSummary) {
      rt.lastPhaseSummary = summary;
      rt.cause = ctx.trace.emit({
        component: 'kubelet',
        node: name,
        verb: 'update-pod-status',
        object: { kind: 'Pod', namespace: rt.namespace, name: rt.name },
        message: `Reported pod ${rt.namespace}/${rt.name}: phase ${status.phase}${waiting ? ` (${waiting})` : ''}, ${ready}/${total} containers ready${status.podIP ? `, IP ${status.podIP}` : ''}`,
        causedBy: rt.cause,
        data: { phase: status.phase, ready, total, waiting, podIP: status.podIP },
      });
    }
    return true;
  };

  // The wake-ups one reconcile asks for: the earliest, whether only periodic wakes are at that
  // instant, and the earliest real work (asked for separately so periodic wakes never hide it).
  // Made once and reset by each reconcile (reconciles do not nest), like the envs below.
  const wakes = { now: 0, earliest: Infinity, earliestPeriodic: true, earliestWork: Infinity };
  const wake = (at: number, periodic = false): void => {
    const t = at <= wakes.now ? wakes.now + 1 : at;
    if (!periodic && t < wakes.earliestWork) wakes.earliestWork = t;
    if (t < wakes.earliest) {
      wakes.earliest = t;
      wakes.earliestPeriodic = periodic;
    } else if (t === wakes.earliest && !periodic) wakes.earliestPeriodic = false;
  };
  // the pod workers' env of the reconcile running (what it has of the context is set by it)
  const env: WorkerEnv = {
    ctx: undefined as unknown as ComponentContext,
    host,
    backoffs: {},
    events: recorder,
    wake,
  };
  /**
   * The pods' wake-up collector: a pod's sync asks through `podEnv`, which passes every request
   * on to the reconcile's and keeps the earliest in the timer beginPod returned for that pod
   * (pods are synced one after the other).
   */
  let podNext: PodTimer = { at: Infinity, periodic: true, work: Infinity };
  const podEnv: WorkerEnv = {
    ctx: undefined as unknown as ComponentContext,
    host,
    backoffs: {},
    events: recorder,
    wake: (at: number, periodic = false): void => {
      wake(at, periodic);
      const t = at <= wakes.now ? wakes.now + 1 : at;
      if (t < podNext.at) {
        podNext.at = t;
        podNext.periodic = periodic;
      } else if (t === podNext.at && !periodic) podNext.periodic = false;
      if (!periodic && t < (podNext.work as number)) podNext.work = t;
    },
  };
  const beginPod = (): PodTimer => (podNext = { at: Infinity, periodic: true, work: Infinity });

  const syncStaticPods = (
    ctx: ComponentContext,
    env: WorkerEnv,
    full: boolean,
  ): ReadonlySet<string> => {
    const changes = fileChangeCount(host.files);
    let read = changes !== undefined && staticRead?.changes === changes ? staticRead.read : null;
    if (read === null) {
      read = readStaticPods(host, staticCache);
      staticRead = changes === undefined ? null : { changes, read };
    }
    const { pods: statics, errors } = read;
    for (const e of errors) {
      if (state.staticErrors[e.file] === e.error) continue;
      state.staticErrors[e.file] = e.error;
      log(
        ctx,
        'E',
        'file.go:187',
        `"Could not process manifest file" err="${e.error.replace(/"/g, '\\"')}" path="${e.file}"`,
      );
    }
    // most nodes have no static pods: nothing to sync, no timers to drop
    if (statics.length === 0 && staticNextAt.size === 0) return NO_STATIC_PODS;
    const uids = new Set<string>();
    for (const sp of statics) {
      uids.add(sp.hash);
      let rt = state.pods.get(sp.hash);
      // Like the pods from the API, a static pod is synced when its timer is due, at a full sync,
      // to retry, or when its mirror pod must be posted; otherwise it only asks for its timer.
      const next = staticNextAt.get(sp.hash);
      if (rt && next && next.at > ctx.now && !full && !staticRetry.has(sp.hash)) {
        const mirror = state.registered ? pods.get(rt.namespace, rt.name) : undefined;
        if (!state.registered || (mirror && isCurrentMirror(mirror, sp.hash))) {
          if (Number.isFinite(next.at)) env.wake(next.at, next.periodic);
          continue;
        }
      }
      const podNext = beginPod();
      staticRetry.delete(sp.hash);
      if (!rt) {
        rt = newPodRuntime(
          sp.pod,
          ctx.now,
          ctx.nowIso,
          SANDBOX_BASE_MS + ctx.rng.int(SANDBOX_JITTER_MS),
        );
        rt.staticFile = sp.file;
        state.pods.set(sp.hash, rt);
        adoptFromRuntime(host, sp.pod, rt, ctx.now);
        delete state.staticErrors[sp.file];
        rt.cause = ctx.trace.emit({
          component: 'kubelet',
          node: name,
          verb: 'sync-pod',
          object: { kind: 'Pod', namespace: rt.namespace, name: rt.name },
          message: `Read static pod manifest ${sp.file}; running ${rt.namespace}/${rt.name} without the apiserver`,
          data: { static: true, hash: sp.hash },
        });
        log(
          ctx,
          'I',
          'kubelet.go:2468',
          `"SyncLoop ADD" source="file" pods=["${rt.namespace}/${rt.name}"]`,
        );
      }
      syncPod(podEnv, sp.pod, rt);
      staticNextAt.set(sp.hash, podNext);
      // The mirror pod: post it (again) when missing, stale or being deleted.
      if (!state.registered) continue;
      const mirror = pods.get(rt.namespace, rt.name);
      const stale = mirror && !isCurrentMirror(mirror, sp.hash);
      if (stale) {
        ctx.client.request({
          verb: 'delete',
          resource: 'pods',
          namespace: rt.namespace,
          name: rt.name,
          query: { gracePeriodSeconds: 0 },
        });
      }
      if (!mirror || stale) {
        const res = ctx.client.request({
          verb: 'create',
          resource: 'pods',
          namespace: rt.namespace,
          body: mirrorPodFor(sp, state.nodeUid, microIsoAt(host.epochMs, ctx.now)),
        });
        // its status goes out on the next sync
        staticRetry.add(sp.hash);
        if (res.code === 201) {
          forgetPosted(rt);
          rt.postedStatus = undefined;
          rt.cause = emit(
            ctx,
            'create-mirror-pod',
            `Posted mirror pod ${rt.namespace}/${rt.name} for static pod ${sp.file}`,
            {
              object: { kind: 'Pod', namespace: rt.namespace, name: rt.name },
              causedBy: rt.cause,
            },
          );
        }
        continue;
      }
      if (!postPodStatus(ctx, podEnv, sp.pod, rt)) staticRetry.add(sp.hash);
    }
    for (const hash of staticNextAt.keys()) if (!uids.has(hash)) staticNextAt.delete(hash);
    return uids;
  };

  const cleanupOrphan = (ctx: ComponentContext, rt: PodRuntime): void => {
    if (rt.staticFile !== undefined && state.registered) {
      // Ask the apiserver, not the cache: a new mirror for an edited manifest may already be there.
      const got = ctx.client.request({
        verb: 'get',
        resource: 'pods',
        namespace: rt.namespace,
        name: rt.name,
      });
      const mirror = got.code === 200 ? (got.body as Pod) : undefined;
      if (mirror && mirror.metadata.annotations?.[MIRROR_ANNOTATION] === rt.uid) {
        ctx.client.request({
          verb: 'delete',
          resource: 'pods',
          namespace: rt.namespace,
          name: rt.name,
          query: { gracePeriodSeconds: 0 },
        });
      }
    }
    // The pod object is gone (force delete or our own final delete): make sure nothing is left.
    for (const c of host.containerd.listContainers({ podUid: rt.uid }))
      host.containerd.stopContainer(c.id, ctx.now, 0);
    host.advanceTo(ctx.now + 1);
    for (const sb of host.containerd.listSandboxes().filter((s) => s.podUid === rt.uid))
      host.containerd.removePodSandbox(sb.id);
    if (!rt.deleted) {
      ctx.trace.emit({
        component: 'kubelet',
        node: name,
        verb: 'remove-pod',
        object: { kind: 'Pod', namespace: rt.namespace, name: rt.name },
        message:
          rt.staticFile !== undefined
            ? `Static pod manifest ${rt.staticFile} was removed or changed; stopped ${rt.namespace}/${rt.name} and removed its sandbox`
            : `Pod ${rt.namespace}/${rt.name} no longer exists in the API; removed its containers and sandbox`,
        causedBy: rt.cause,
      });
    }
    forgetPosted(rt);
    state.pods.delete(rt.uid);
  };

  const reconcile = (ctx: ComponentContext): void => {
    saved = null;
    // A stopped unit does nothing, whoever calls it; containerd keeps the containers running.
    if (!host.systemd.isActive('kubelet')) return;
    host.advanceTo(ctx.now);
    wakes.now = ctx.now;
    wakes.earliest = Infinity;
    wakes.earliestPeriodic = true;
    wakes.earliestWork = Infinity;
    env.ctx = podEnv.ctx = ctx;
    env.backoffs = podEnv.backoffs = state.backoffs;
    env.events = podEnv.events = recorder;

    if (!state.registered) register(ctx);
    if (state.registered) {
      if (ctx.now >= state.nextLeaseAt) renewLease(ctx);
      if (ctx.now >= state.nextStatusAt) updateNodeStatus(ctx);
      wake(state.nextLeaseAt, true);
      wake(state.nextStatusAt, true);
    } else {
      wake(ctx.now + 1_000);
    }

    const wasSynced = pods.synced;
    const events = pods.sync(ctx.client);
    // A restored kubelet relists (its cache must be whole), but what changed is what the saved
    // kubelet's watch would have said since the save: resume it from there.
    let changes = events;
    if (pods.synced) watchSeen = pods.lastRevision;
    if (pods.synced && !wasSynced && resumeFrom !== undefined) {
      const since = ctx.client.watch('pods', resumeFrom, {
        fieldSelector: `spec.nodeName=${name}`,
        allowWatchBookmarks: true,
        rebuild: true,
      });
      if (!isStatus(since)) {
        watchSeen = resumeFrom;
        for (const ev of since) if (ev.revision > watchSeen) watchSeen = ev.revision;
        changes = since.filter((ev) => ev.type !== 'BOOKMARK') as typeof events;
        pods.resumeAt(watchSeen);
      }
      resumeFrom = undefined;
    }
    // The pods the watch reported, each once: a handful per wake-up, so arrays rather than sets.
    const changed: string[] = [];
    // pods whose only news is their own status write coming back (see below)
    let echoed: string[] | undefined;
    for (const ev of changes) {
      const uid = ev.object.metadata.uid;
      if (!uid) continue;
      const rt = ev.type === 'MODIFIED' ? state.pods.get(uid) : undefined;
      if (rt !== undefined && lastPosted.get(rt)?.stored === ev.object) {
        if (echoed === undefined) echoed = [uid];
        else if (!echoed.includes(uid)) echoed.push(uid);
      } else if (!changed.includes(uid)) changed.push(uid);
    }
    const full = fullSyncPending || ctx.now - lastFullSync >= NODE_STATUS_UPDATE_MS;
    if (full) {
      fullSyncPending = false;
      lastFullSync = ctx.now;
    }
    // A change to a pod already on the list only replaces it in place, and a new pod is put in
    // its place; the list is rebuilt (and sorted) when pods go, or for a new informer or list.
    const update =
      sortedPods?.from !== pods || sortedPods.relists !== pods.relists
        ? 'rebuild'
        : updateInPlace(sortedPods, events, name);
    if (update === 'rebuild') {
      const sorted = pods
        .list((p) => isOwnPod(p, name))
        .map((p) => ({ p, k: sortKey(p) }))
        .sort((a, b) => (a.k < b.k ? -1 : 1));
      const list = sorted.map((e) => e.p);
      const keys = sorted.map((e) => e.k);
      const index = new Map<string, number>();
      list.forEach((p, i) => index.set(p.metadata.uid as string, i));
      sortedPods = { from: pods, relists: pods.relists, list, keys, index };
      // pods gone from the node need no timer any more
      for (const uid of podNextAt.keys()) if (!index.has(uid)) podNextAt.delete(uid);
      timerSummary = null;
      for (const uid of exitedUnsynced) if (!index.has(uid)) exitedUnsynced.delete(uid);
    }
    const { list: current, index: currentIndex } = sortedPods as NonNullable<typeof sortedPods>;
    // PLEG: the generic relist (every PLEG_RELIST_MS) finds containers that exited without the
    // kubelet asking (a crash, a stopped kube-proxy) and sends their pods a sync at that relist.
    // containerd and the kubelet share the node, so this costs no apiserver request.
    const relistAt = Math.ceil(ctx.now / PLEG_RELIST_MS) * PLEG_RELIST_MS;
    // (an index loop: the usual answer is a frozen empty list, and for-of over a frozen array
    // takes V8's generic iterator, an allocation at every wake-up)
    const exited = host.containerd.takeExitedPods();
    for (let i = 0; i < exited.length; i++) {
      const uid = exited[i] as string;
      const timers = podNextAt.has(uid) ? podNextAt : staticNextAt;
      const next = timers.get(uid);
      if (next && next.at > relistAt) {
        timers.set(uid, { at: relistAt, periodic: false, work: undefined });
        if (timers === podNextAt) timerSummary = null;
      }
      exitedUnsynced.add(uid);
    }
    // A pod whose only news is its own status write is synced only when due, as if unchanged:
    // the write changed neither its spec nor its metadata, and between its last sync and now
    // nothing was due for it and no container of it exited, so a sync would find everything as
    // that sync left it, post nothing, and ask for the same wake-ups, which its timer replays.
    if (echoed)
      for (const uid of echoed) {
        if (changed.includes(uid)) continue;
        const next = podNextAt.get(uid);
        if (next?.work === undefined || exitedUnsynced.has(uid)) changed.push(uid);
      }
    // The pods to sync now, in name order: the ones that changed, whose status write failed,
    // whose timer is due or that have none yet; at a full sync also those whose container exited
    // and those whose timer is not known to hold all they asked for (after a restore). The others
    // only ask to be woken at their timers (one pass over the timers, not over the pods). At a
    // full sync too: a pod synced with nothing due and nothing changed since its last sync would
    // find everything as that sync left it, post nothing and ask for the same wake-ups again.
    let due: number[];
    const now = ctx.now;
    if (
      !full &&
      timerSummary !== null &&
      timerSummary.minAt > now &&
      podRetry.size === 0 &&
      changed.every((uid) => !podNextAt.has(uid))
    ) {
      // No timer due and no timed pod changed (most often the echo of a status write, or a new
      // pod): the timers are as the summary says, so the pass below would only find what it
      // holds; the new pods are synced.
      due = [];
      if (timerSummary.minAt !== Infinity) wake(timerSummary.minAt, timerSummary.minPeriodic);
      let minWork = timerSummary.minWork;
      if (echoed)
        for (const uid of echoed) {
          const work = podNextAt.get(uid)?.work;
          if (work !== undefined && work < minWork) minWork = work;
        }
      if (minWork !== Infinity) wake(minWork);
    } else {
      const timed: number[] = [];
      // The timers not due are only woken at: wake() keeps the earliest, whether only periodic
      // wakes are at that instant, and the earliest non-periodic one, so this pass keeps the
      // same three (in locals, not a call per timer) and hands them to it once at the end.
      let minAt = Infinity;
      let minPeriodic = true;
      let minWork = Infinity;
      let echoWork = Infinity;
      let summarized = true;
      const anyChanged = changed.length > 0;
      const anyRetry = podRetry.size > 0;
      // forEach, not for-of: no [uid, timer] pair per pod on every wake-up
      podNextAt.forEach((next, uid) => {
        const at = next.at;
        // (a timer exists only beside the pod's runtime: both go when the pod leaves the node)
        if (
          at <= now ||
          (anyChanged && changed.includes(uid)) ||
          (anyRetry && podRetry.has(uid)) ||
          (full && (next.work === undefined || exitedUnsynced.has(uid)))
        ) {
          const i = currentIndex.get(uid);
          if (i !== undefined) timed.push(i);
          else summarized = false; // (never: a timer's pod is on the list)
          return;
        }
        if (at === Infinity) return; // (never NaN or -Infinity: at > now)
        if (at < minAt) {
          minAt = at;
          minPeriodic = next.periodic;
        } else if (at === minAt && !next.periodic) minPeriodic = false;
        if (!next.periodic && at < minWork) minWork = at;
        // a skipped sync (an echo's, a full sync's) would also have asked for its earliest work
        if (
          (full || (echoed !== undefined && echoed.includes(uid))) &&
          (next.work as number) < echoWork
        )
          echoWork = next.work as number;
      });
      if (minAt !== Infinity) wake(minAt, minPeriodic);
      if (Math.min(minWork, echoWork) !== Infinity) wake(Math.min(minWork, echoWork));
      // the timers left alone; those of the pods synced below are added as they are set
      timerSummary = summarized ? { minAt, minPeriodic, minWork } : null;
      due = timed;
    }
    // Every listed pod has a timer but those not synced yet (timers are only kept for listed
    // pods): when the changed and retried pods account for all of those, no need to look.
    let untimed = current.length - podNextAt.size;
    for (const uid of changed)
      if (!podNextAt.has(uid) && pushIndex(due, currentIndex, uid)) untimed--;
    // (a Set's iterator is an allocation: most wake-ups have nothing to retry)
    if (podRetry.size > 0)
      for (const uid of podRetry)
        if (!podNextAt.has(uid) && pushIndex(due, currentIndex, uid) && !changed.includes(uid))
          untimed--;
    if (untimed > 0) {
      for (let i = 0; i < current.length; i++)
        if (!podNextAt.has((current[i] as Pod).metadata.uid as string)) due.push(i);
    }
    if (due.length > 1) due = [...new Set(due)].sort((a, b) => a - b);
    for (const i of due) {
      const pod = current[i] as Pod;
      const uid = pod.metadata.uid as string;
      let rt = state.pods.get(uid);
      const podNext = beginPod();
      if (!rt) {
        rt = newPodRuntime(
          pod,
          ctx.now,
          ctx.nowIso,
          SANDBOX_BASE_MS + ctx.rng.int(SANDBOX_JITTER_MS),
        );
        rt.cause = watchCause(changes, uid);
        state.pods.set(uid, rt);
        const adopted = adoptFromRuntime(host, pod, rt, ctx.now);
        rt.cause = ctx.trace.emit({
          component: 'kubelet',
          node: name,
          verb: 'sync-pod',
          object: { kind: 'Pod', namespace: rt.namespace, name: rt.name },
          message: adopted
            ? `Found pod ${rt.namespace}/${rt.name} already running in containerd (sandbox ${rt.sandboxId?.slice(0, 13)}); resuming its pod worker`
            : `Saw pod ${rt.namespace}/${rt.name} bound to ${name} (watch on spec.nodeName); starting its pod worker`,
          causedBy: rt.cause,
        });
        log(
          ctx,
          'I',
          'kubelet.go:2468',
          `"SyncLoop ADD" source="api" pods=["${rt.namespace}/${rt.name}"]`,
        );
      } else if (pod.metadata.deletionTimestamp && rt.terminatingSince === undefined) {
        const cause = watchCause(changes, uid);
        if (cause !== undefined) rt.cause = cause;
      }
      syncPod(podEnv, pod, rt);
      exitedUnsynced.delete(uid);
      podRetry.delete(uid);
      if (state.pods.has(uid) && !postPodStatus(ctx, podEnv, pod, rt)) podRetry.add(uid);
      podNextAt.set(uid, podNext);
      if (timerSummary !== null) addToSummary(timerSummary, podNext);
    }
    // Static pods from the manifest directory run whether or not the apiserver answers.
    const statics = syncStaticPods(ctx, env, full);
    // Pods that vanished from the API while the apiserver answered (or whose manifest is gone):
    // clean up, in uid order (sorted only when there is something to clean). Only a rebuilt list
    // (a pod gone, re-homed or relisted), a change of its static pods or of the informer's sync
    // can leave one behind: a list that only grew (a new pod, a third of all wake-ups) keeps
    // every pod the last pass left, and that pass left no orphan.
    const mayHaveOrphans =
      update === 'rebuild' || statics.size > 0 || staticsSeen > 0 || pods.synced !== syncedSeen;
    staticsSeen = statics.size;
    syncedSeen = pods.synced;
    let orphans: PodRuntime[] | undefined;
    // (forEach, not for-of: no iterator result per pod at every new pod)
    if (mayHaveOrphans)
      state.pods.forEach((rt) => {
        const orphan =
          rt.staticFile !== undefined
            ? !statics.has(rt.uid)
            : pods.synced && !currentIndex.has(rt.uid);
        if (orphan) (orphans ??= []).push(rt);
      });
    if (orphans)
      for (const rt of orphans.sort((a, b) => (a.uid < b.uid ? -1 : 1))) cleanupOrphan(ctx, rt);
    const { earliest, earliestPeriodic, earliestWork } = wakes;
    if (Number.isFinite(earliest)) ctx.wakeAt(earliest, { periodic: earliestPeriodic });
    if (Number.isFinite(earliestWork) && earliestWork !== earliest) ctx.wakeAt(earliestWork);
  };

  const syncState = (): KubeletSyncState | undefined => {
    // a kubelet that never listed its pods has nothing to resume
    if (watchSeen < 0 && resumeFrom === undefined) return undefined;
    return {
      next: timerList(podNextAt),
      retry: [...podRetry].sort(),
      lastFull: lastFullSync,
      fullPending: fullSyncPending,
      seen: resumeFrom ?? watchSeen,
      ...(staticNextAt.size > 0 ? { staticNext: timerList(staticNextAt) } : {}),
      ...(staticRetry.size > 0 ? { staticRetry: [...staticRetry].sort() } : {}),
    };
  };

  return {
    name: 'kubelet',
    node: name,
    identity: `system:node:${name}`,
    periodMs: NODE_STATUS_UPDATE_MS,
    watches: ['pods', 'configmaps', 'secrets'],
    watchesOwnNodePods: true,
    // its pod watch is filtered by spec.nodeName: other nodes' pods never wake it
    wakeOn: ({ resource, type, object, prev, own }) => {
      // a ConfigMap or Secret may unblock any pod (env, volumes): sync them all
      if (resource !== 'pods') {
        saved = null;
        return (fullSyncPending = true);
      }
      // Its own status write coming back: upstream's pod config calls a status-only change a
      // RECONCILE, not a reason to sync the pod. The next pass reads it with everything else.
      if (own && type === 'MODIFIED') return false;
      return (
        (object as Pod).spec?.nodeName === name ||
        (prev as Pod | undefined)?.spec?.nodeName === name
      );
    },
    reconcile,
    podRuntime: (uid) => {
      writePostedTexts();
      return state.pods.get(uid);
    },
    resumePoints: (): Record<string, number> => {
      const at = resumeFrom ?? watchSeen;
      return at >= 0 ? { pods: at } : {};
    },
    saveState: () => {
      writePostedTexts();
      return (saved ??= frozenJsonCopy(
        {
          ...state,
          // (in the place the spread gave it)
          pods: Object.fromEntries(state.pods),
          events: recorder.toJSON(),
          sync: syncState(),
        } as unknown,
        { nonFinite: 'string' },
      ));
    },
    loadState: (s: unknown) => {
      saved = null;
      unwrittenTexts.clear();
      const revive = jsonCopy((s ?? initialState()) as KubeletState, { reviveInfinity: true });
      const { events: counts, sync, ...rest } = revive;
      state = toMemory({ ...initialState(), ...rest });
      recorder = EventRecorder.fromJSON(counts);
      // (every timer has the same three keys: the kubelet reads thousands of them per second)
      timerSummary = null;
      podNextAt = new Map(
        sync?.next.map(([uid, at, periodic]) => [uid, { at, periodic, work: undefined }]),
      );
      podRetry = new Set(sync?.retry);
      staticNextAt = new Map(
        sync?.staticNext?.map(([hash, at, periodic]) => [hash, { at, periodic, work: undefined }]),
      );
      staticRetry = new Set(sync?.staticRetry);
      lastFullSync = sync?.lastFull ?? -Infinity;
      fullSyncPending = sync?.fullPending ?? true;
      resumeFrom = sync?.seen;
      watchSeen = -1;
      pods = new Informer<Pod>('pods', { fieldSelector: `spec.nodeName=${name}` });
      if (s) pods.markRestored(resumeFrom);
    },
  };
}

/** A mirror pod of the static pod's manifest as it is now, and not being deleted. */
function isCurrentMirror(mirror: Pod, hash: string): boolean {
  return (
    mirror.metadata.annotations?.[MIRROR_ANNOTATION] === hash && !mirror.metadata.deletionTimestamp
  );
}

/** The kubelet's own pods: bound to it, and not a mirror of one of its static pods. */
function isOwnPod(p: Pod, node: string): boolean {
  return p.spec.nodeName === node && !isMirrorPod(p);
}

/** The kubelet's pods sorted by namespace+name, with each one's place, and what they came from. */
interface SortedPods {
  from: Informer<Pod>;
  /** the informer's relist count then (a relist replaces its cache without events for the gone) */
  relists: number;
  list: Pod[];
  /** each listed pod's sortKey (a new pod's place is searched among them, without concatenating) */
  keys: string[];
  index: Map<string, number>;
}

/** What the kubelet's pods are sorted by. */
function sortKey(p: Pod): string {
  return (p.metadata.namespace ?? '') + p.metadata.name;
}

/**
 * Applies watch events to the sorted list where that gives the list a rebuild would: a listed
 * pod modified (still the kubelet's own) is replaced, a new pod of its own is put in its place
 * ('grown'), events about other pods (mirror pods) are skipped; 'rebuild' when one is removed,
 * re-homed or listed again, or its key is another's (a rebuild's sort decides between those).
 */
function updateInPlace(
  sorted: SortedPods,
  events: readonly { type: string; object: KubeObject }[],
  node: string,
): 'kept' | 'grown' | 'rebuild' {
  let grown = false;
  for (const ev of events) {
    const pod = ev.object as Pod;
    const at = sorted.index.get(pod.metadata.uid as string);
    const own = ev.type !== 'DELETED' && isOwnPod(pod, node);
    if (at === undefined && !own) continue; // not on the list before or after (a mirror pod)
    if (at !== undefined && own && ev.type === 'MODIFIED') {
      sorted.list[at] = pod; // (its key stands: a uid's namespace and name never change)
      continue;
    }
    if (at !== undefined || !own || !insertSorted(sorted, pod)) return 'rebuild';
    grown = true;
  }
  return grown ? 'grown' : 'kept';
}

/** Puts a new pod in its place on the sorted list; false when its key is already there. */
function insertSorted(sorted: SortedPods, pod: Pod): boolean {
  const { list, keys, index } = sorted;
  const key = sortKey(pod);
  // the first place whose key is greater
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) <= key) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && keys[lo - 1] === key) return false;
  list.splice(lo, 0, pod);
  keys.splice(lo, 0, key);
  for (let i = lo; i < list.length; i++) index.set((list[i] as Pod).metadata.uid as string, i);
  return true;
}

/**
 * A pod's next wake-up: the earliest it asked for, and whether that is only a periodic probe tick.
 * `work`, the earliest non-periodic one, is known for timers set by a sync of this process.
 */
interface PodTimer {
  at: number;
  periodic: boolean;
  work?: number;
}

interface TimerSummary {
  minAt: number;
  minPeriodic: boolean;
  minWork: number;
}

/** Adds a timer to a summary, as the pass over the timers would count it. */
function addToSummary(summary: TimerSummary, timer: PodTimer): void {
  const at = timer.at;
  if (!(at < Infinity)) return; // (the pass skips timers at Infinity; NaN changes nothing)
  if (at < summary.minAt) {
    summary.minAt = at;
    summary.minPeriodic = timer.periodic;
  } else if (at === summary.minAt && !timer.periodic) summary.minPeriodic = false;
  if (!timer.periodic && at < summary.minWork) summary.minWork = at;
}

/** Timers as saved: by key, each `[key, at, periodic]`. */
function timerList(timers: Map<string, PodTimer>): [string, number, boolean][] {
  return [...timers]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, n]): [string, number, boolean] => [key, n.at, n.periodic]);
}

/** The trace seq of the last watch event about the pod that carries one (what caused it). */
function watchCause(
  events: readonly { object: KubeObject; traceSeq?: number }[],
  uid: string,
): number | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i] as { object: KubeObject; traceSeq?: number };
    if (ev.traceSeq !== undefined && ev.object.metadata.uid === uid) return ev.traceSeq;
  }
  return undefined;
}

/** Pushes the pod's place on the list, if it is on it (and says whether it was). */
function pushIndex(into: number[], index: Map<string, number>, uid: string): boolean {
  const i = index.get(uid);
  if (i === undefined) return false;
  into.push(i);
  return true;
}

/** While init containers run, what the pod waits for: `Init:1/2`, `Init:CrashLoopBackOff`, ... */
function initializingReason(pod: Pod, statuses: ContainerStatus[]): string {
  const specs = pod.spec.initContainers ?? [];
  for (let i = 0; i < statuses.length; i++) {
    const cs = statuses[i] as ContainerStatus;
    if (cs.state.terminated?.exitCode === 0) continue;
    if (specs[i]?.restartPolicy === 'Always' && cs.started) continue;
    const reason = cs.state.terminated?.reason ?? cs.state.waiting?.reason;
    return reason && reason !== 'PodInitializing'
      ? `Init:${reason}`
      : `Init:${i}/${statuses.length}`;
  }
  return '';
}

/** The hashes of no static pods (never changed). */
const NO_STATIC_PODS: ReadonlySet<string> = new Set();

/** A posted status's text not written yet (never read: every reader writes the texts first). */
const TEXT_UNWRITTEN = '';

/**
 * True when JSON prints the value exactly as sameJson compares it: no numbers JSON prints as null
 * (NaN, Infinity) and no toJSON methods. sameJson answers false only for different texts then.
 */
function isPlainJson(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'bigint') return false; // JSON.stringify throws on it
  if (v === null || typeof v !== 'object') return true;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) {
    for (const x of v) if (!isPlainJson(x)) return false;
    return true;
  }
  for (const k in v) if (!isPlainJson((v as Record<string, unknown>)[k])) return false;
  return true;
}

const NODE_CONDITIONS_SUMMARY = 'MemoryPressure=False, DiskPressure=False, PIDPressure=False';
