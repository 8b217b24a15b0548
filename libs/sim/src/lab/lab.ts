// createLab / restoreLab: wires etcd, the apiserver, the control-plane components and one
// NodeHost (+ kubelet, kube-proxy) per node, and runs them as a deterministic discrete-event
// simulation. Every component is a reconcile loop: it runs every periodMs, shortly after a change
// to a resource it watches, and at the timers it asks for. Nothing runs between wake-ups.

import type { ApiClient, ApiResponse, Credentials, Verb } from '../client/api-client';
import { ApiServer } from '../apiserver/api-server';
import type { EtcdSnapshot } from '../etcd/etcd-store';
import { defaultMembers, EtcdStore } from '../etcd/etcd-store';
import type { EtcdState } from '../etcd/etcd-store';
import type { AuthnState } from '../apiserver/authn';
import type { WatchHistoryState } from '../apiserver/watch-cache';
import type { KubeObject, Pod, Status } from '../model';
import { isStatus } from '../model';
import { createNodeHost, restoreNodeHost } from '../node';
import type { NodeHost, NodeHostJson, UnitName } from '../node';
import type {
  Component,
  ComponentContext,
  CurrentObjects,
  ObservedChange,
} from '../runtime/component';
import type { Rng } from '../runtime/rng';
import { createRng } from '../runtime/rng';
import { fnv32a } from '../shared/hash';
import { DEFAULT_START_TIME, isoAt } from '../shared/time';
import type { ComponentName, TraceEvent } from '../trace/trace-event';
import type { TraceStoreState } from '../trace/trace-store';
import { TraceStore } from '../trace/trace-store';
import type { SchedulerView } from './components';
import { componentFactories } from './components';
import { installKubeadmAddons } from './kubeadm-addons';
import { base64, pem } from '../node/node-files';
import type {
  AdvanceResult,
  Lab,
  LabOptions,
  LabRequest,
  NodeSpec,
  ProcessRef,
  SerializeOptions,
} from './lab-types';
import type { Wake, WakeKind } from './wake-queue';
import { WakeQueue } from './wake-queue';

export const ADMIN_USER = 'kubernetes-admin';
const SERIAL_VERSION = 1;

export interface ProcessStatus {
  ref: ProcessRef;
  running: boolean;
  /** what `crictl ps` / `systemctl` would call it */
  unit: string;
}

/** The lab with everything the CLI, UI, faults and graders need on top of the stable `Lab`. */
export interface SimLab extends Lab {
  readonly options: Readonly<ResolvedOptions>;
  readonly etcd: EtcdStore;
  readonly apiserver: ApiServer;
  /** the scheduler's decision records (null when the scheduler is not built in) */
  readonly scheduler: SchedulerView | null;
  node(name: string): NodeHost | undefined;
  nodes(): NodeHost[];
  processes(): ProcessStatus[];
  stopProcess(ref: ProcessRef): boolean;
  startProcess(ref: ProcessRef): boolean;
  isRunning(ref: ProcessRef): boolean;
  /** kubeconfig users (name -> credentials the CLI sends) */
  credentials(user: string): Credentials | undefined;
  setCredentials(user: string, credentials: Credentials): void;
  users(): string[];
  /** an object straight from the apiserver's cache, without auth (graders, UI); frozen, not a copy */
  peek(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  peekAll(resource: string, namespace?: string): KubeObject[];
  /** `etcdctl snapshot save`: fails (throws EtcdError) without quorum */
  snapshotSave(): EtcdSnapshot;
  /** `etcdutl snapshot restore` + restart: the cluster state goes back to the snapshot */
  snapshotRestore(snapshot: EtcdSnapshot): void;
  /** records a trace event from outside the components (faults, CLI) */
  emit(event: Omit<TraceEvent, 'seq' | 't'>): number;
  /**
   * Drops all but the newest `keep` trace events from memory, for a holder that stores them
   * elsewhere (the lab store: every event has its row). Seqs go on from where they were, and
   * nothing the cluster does reads past events, so the lab behaves and serializes as before,
   * minus those events.
   */
  forgetTrace(keep: number): void;
  /**
   * The value `serialize` stringifies (`JSON.stringify` of it is `serialize`'s text), for a
   * caller that splits it into pieces and would otherwise parse the text back. It shares
   * objects with the live lab: read or stringify it before the lab runs again, never change it.
   */
  serializeState(options?: SerializeOptions): SerializedLab;
}

export interface ResolvedOptions {
  seed: number;
  etcdMembers: number;
  nodes: NodeSpec[];
  startTime: string;
  encryptionAtRest: LabOptions['encryptionAtRest'];
  users: NonNullable<LabOptions['users']>;
}

const NO_WATCHERS: readonly { rc: RuntimeComponent; at: number }[] = [];

interface RuntimeComponent {
  key: string;
  /** the process it belongs to */
  process: string;
  component: Component;
  client: ApiClient;
  gen: number;
  latency: number;
  /** earliest pending watch wake (dedupe), or -1 */
  watchAt: number;
  timers: Set<number>;
  /** pending periodic timers (dedupe only; not saved: a duplicate wake is harmless) */
  resyncs?: Set<number>;
  /** a node daemon's systemd unit and node, from `process` (`kubelet/node-1`) */
  unitOnNode?: [UnitName, string];
}

const manifestPaths = new Map<string, string>();

/** Where kubeadm puts a control-plane component's static pod manifest (asked on every wake-up). */
function staticPodManifest(component: string): string {
  let path = manifestPaths.get(component);
  if (path === undefined) {
    path = `/etc/kubernetes/manifests/${component}.yaml`;
    manifestPaths.set(component, path);
  }
  return path;
}

/** What `serialize` writes, as a value (`SimLab.serializeState`). */
export interface SerializedLab {
  version: number;
  options: ResolvedOptions;
  now: number;
  rng: number;
  etcd: EtcdState;
  authn: AuthnState;
  apiserverRunning: boolean;
  stopped: string[];
  kubeconfig: Record<string, Credentials>;
  hosts: NodeHostJson[];
  components: { key: string; gen: number; watchAt: number; timers: number[]; state: unknown }[];
  queue: { nextSeq: number; wakes: Wake[] };
  hostWakes: Record<string, number>;
  /** the apiserver's recent watch history (older saves have none: their watchers relist) */
  watchHistory?: WatchHistoryState;
  trace: TraceStoreState;
}

export function defaultNodes(): NodeSpec[] {
  return [
    { name: 'control-plane', controlPlane: true },
    { name: 'node-1' },
    { name: 'node-2' },
    { name: 'node-3' },
  ];
}

function resolveNode(spec: NodeSpec): NodeSpec {
  const cp = !!spec.controlPlane;
  const labels = { ...(spec.labels ?? {}) };
  if (cp) {
    labels['node-role.kubernetes.io/control-plane'] ??= '';
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] ??= '';
  }
  const out: NodeSpec = {
    name: spec.name,
    capacity: { cpu: '2', memory: '4Gi', pods: '110', ...(spec.capacity ?? {}) },
    labels,
    taints:
      spec.taints ??
      (cp ? [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] : []),
  };
  if (spec.cachedImages) out.cachedImages = [...spec.cachedImages];
  if (cp) out.controlPlane = true;
  return out;
}

function resolveOptions(o: LabOptions): ResolvedOptions {
  const nodes = (o.nodes ?? defaultNodes()).map(resolveNode);
  const names = new Set<string>();
  for (const n of nodes) {
    if (names.has(n.name)) throw new Error(`duplicate node name ${n.name}`);
    names.add(n.name);
  }
  return {
    seed: o.seed ?? 1,
    etcdMembers: o.etcdMembers ?? 1,
    nodes,
    startTime: o.startTime ?? DEFAULT_START_TIME,
    encryptionAtRest: o.encryptionAtRest ?? null,
    users: o.users ?? [],
  };
}

const CONTROL_PLANE = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

class LabImpl implements SimLab {
  nowMs = 0;
  readonly options: ResolvedOptions;
  readonly etcd: EtcdStore;
  readonly apiserver: ApiServer;
  readonly traceStore: TraceStore;
  private readonly startMs: number;
  private rng: Rng;
  private hosts = new Map<string, NodeHost>();
  private comps = new Map<string, RuntimeComponent>();
  private queue = new WakeQueue();
  private hostWakes = new Map<string, number>();
  private kubeconfig = new Map<string, Credentials>();
  /** stopped control-plane processes (kube-controller-manager, kube-scheduler) */
  private stopped = new Set<string>();
  private schedulerRef: SchedulerView | null = null;
  /** systemd state seen at the last check, to notice restarts done on the node */
  private unitSeen = new Map<string, boolean>();
  private inAdvance = false;

  constructor(options: ResolvedOptions, etcd: EtcdStore, rngState: number) {
    this.options = options;
    this.startMs = Date.parse(options.startTime);
    this.rng = createRng(rngState);
    this.etcd = etcd;
    this.traceStore = new TraceStore(() => this.nowMs);
    this.apiserver = new ApiServer({
      etcd,
      trace: this.traceStore,
      now: () => this.nowMs,
      startMs: this.startMs,
      rng: {
        next: () => this.rng.next(),
        int: (n) => this.rng.int(n),
        state: () => this.rng.state(),
      },
      encryption: options.encryptionAtRest
        ? { provider: 'aescbc', keyName: options.encryptionAtRest.keyName }
        : null,
    });
    this.apiserver.onChange((resource, ev) =>
      this.onResourceChange({
        resource,
        type: ev.type,
        object: ev.object,
        prev: ev.prev,
        own: false,
      }),
    );
    this.apiserver.hooks.podLog = (pod, q) => this.podLog(pod, q);
    this.apiserver.hooks.componentHealth = () => ({
      scheduler: this.isRunning({ component: 'kube-scheduler' }),
      controllerManager: this.isRunning({ component: 'kube-controller-manager' }),
      etcd: [this.etcd.hasQuorum()],
    });
  }

  get now(): number {
    return this.nowMs;
  }

  get scheduler(): SchedulerView | null {
    return this.schedulerRef;
  }

  // ------------------------------------------------------------------ wiring

  setupIdentities(): void {
    const a = this.apiserver.authn;
    a.addCert('kubernetes-admin', { name: ADMIN_USER, groups: ['system:masters'] });
    a.addCert('system:kube-controller-manager', {
      name: 'system:kube-controller-manager',
      groups: [],
    });
    a.addCert('system:kube-scheduler', { name: 'system:kube-scheduler', groups: [] });
    a.addCert('system:kube-proxy', { name: 'system:kube-proxy', groups: [] });
    for (const n of this.options.nodes)
      a.addCert(`system:node:${n.name}`, {
        name: `system:node:${n.name}`,
        groups: ['system:nodes'],
      });
    this.kubeconfig.set(ADMIN_USER, { kind: 'cert', certId: 'kubernetes-admin' });
    for (const u of this.options.users) {
      a.addToken(u.token, { name: u.name, groups: [] });
      this.kubeconfig.set(u.name, { kind: 'token', token: u.token });
    }
  }

  bootstrapUsers(): void {
    for (const u of this.options.users) {
      const role = u.clusterRole ?? 'cluster-admin';
      this.request(ADMIN_USER, {
        verb: 'create',
        resource: 'clusterrolebindings',
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: `kubejourney:${u.name}` },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: u.name }],
        },
      });
    }
  }

  createHosts(): void {
    this.sortedHostsCache = null;
    this.options.nodes.forEach((spec, i) => {
      const index = spec.controlPlane ? 0 : this.indexFor(spec, i);
      this.hosts.set(
        spec.name,
        createNodeHost(spec, {
          index,
          startTime: this.options.startTime,
          internalIP: `172.18.0.${2 + index}`,
          podCIDRHint: `10.244.${index}.0/24`,
        }),
      );
    });
  }

  private indexFor(spec: NodeSpec, position: number): number {
    const cpBefore = this.options.nodes.slice(0, position).some((n) => n.controlPlane);
    return cpBefore ? position : position + 1;
  }

  restoreHosts(hosts: NodeHostJson[]): void {
    this.sortedHostsCache = null;
    for (const h of hosts) this.hosts.set(h.spec.name, restoreNodeHost(h));
  }

  /** Builds every component (fresh); `states` restores their saved state. */
  buildComponents(): void {
    this.buildControllerManager();
    this.buildScheduler();
    for (const host of this.sortedHosts()) {
      this.buildKubelet(host);
      this.buildKubeProxy(host);
      this.unitSeen.set(`kubelet/${host.name}`, host.systemd.isActive('kubelet'));
      this.unitSeen.set(`kube-proxy/${host.name}`, host.systemd.isActive('kube-proxy'));
    }
  }

  private buildControllerManager(): void {
    for (const key of [...this.comps.keys()])
      if (this.comps.get(key)?.process === 'kube-controller-manager') this.comps.delete(key);
    this.watchIndex = null;
    const list = componentFactories.createControllerManager();
    list.forEach((c, i) =>
      this.register(`kube-controller-manager/${i}`, 'kube-controller-manager', c),
    );
  }

  private buildScheduler(): void {
    this.comps.delete('kube-scheduler');
    this.watchIndex = null;
    const s = componentFactories.createScheduler();
    this.schedulerRef = s;
    if (s) this.register('kube-scheduler', 'kube-scheduler', s);
  }

  private buildKubelet(host: NodeHost): void {
    const k = componentFactories.createKubelet(host);
    if (k) this.register(`kubelet/${host.name}`, `kubelet/${host.name}`, k);
  }

  private buildKubeProxy(host: NodeHost): void {
    const k = componentFactories.createKubeProxy(host);
    if (k) this.register(`kube-proxy/${host.name}`, `kube-proxy/${host.name}`, k);
  }

  private register(key: string, process: string, component: Component): void {
    const prev = this.comps.get(key);
    const certId = component.identity;
    const rc: RuntimeComponent = {
      key,
      process,
      component,
      client: this.apiserver.client({ kind: 'cert', certId }, component.identity),
      gen: (prev?.gen ?? 0) + 1,
      latency: 5 + (fnv32a(key) % 16),
      watchAt: -1,
      timers: new Set(),
    };
    this.comps.set(key, rc);
    this.watchIndex = null;
  }

  /** Schedules the first run of every component (lab creation / process start). */
  private startComponent(rc: RuntimeComponent): void {
    this.push(rc, this.nowMs + rc.latency, 'start');
  }

  scheduleAll(): void {
    for (const rc of this.comps.values()) this.startComponent(rc);
    this.scheduleHosts();
  }

  private push(rc: RuntimeComponent, t: number, kind: WakeKind): void {
    this.queue.push(t, rc.key, kind, rc.gen);
  }

  /** The hosts in node order, kept: hosts are only ever set at creation and restore. */
  private sortedHostsCache: NodeHost[] | null = null;

  private sortedHosts(): readonly NodeHost[] {
    this.sortedHostsCache ??= [...this.hosts.values()].sort((a, b) => a.index - b.index);
    return this.sortedHostsCache;
  }

  // ------------------------------------------------------------------ process state

  private unitOf(ref: ProcessRef): UnitName | null {
    if (ref.component === 'kubelet') return 'kubelet';
    if (ref.component === 'kube-proxy') return 'kube-proxy';
    if ((ref.component as string) === 'containerd') return 'containerd';
    return null;
  }

  isRunning(ref: ProcessRef): boolean {
    const unit = this.unitOf(ref);
    if (unit) {
      const host = ref.node ? this.hosts.get(ref.node) : undefined;
      if (!host) return false;
      if (!host.systemd.isActive(unit)) return false;
      // kubelet and kube-proxy talk to containerd but keep running without it
      return true;
    }
    if (ref.component === 'etcd') {
      const m = ref.node ? this.etcd.member(ref.node) : this.etcd.members[0];
      return !!m?.healthy;
    }
    if (ref.component === 'kube-apiserver') return this.apiserver.running;
    return this.controlPlaneUp(ref.component);
  }

  /** A control-plane process runs unless stopped, and only while its static pod manifest exists. */
  private controlPlaneUp(component: string): boolean {
    if (this.stopped.has(component)) return false;
    const cp = this.sortedHosts().find((h) => h.controlPlane);
    return !cp || cp.files.has(staticPodManifest(component));
  }

  /** Last seen state of each control-plane process, to notice manifests moved in and out. */
  private staticSeen = new Map<string, boolean>();

  initStaticPods(): void {
    for (const c of CONTROL_PLANE) {
      this.staticSeen.set(
        c,
        c === 'kube-apiserver' ? this.apiserver.running : this.controlPlaneUp(c),
      );
    }
  }

  /**
   * The kubelet on the control plane runs these processes as static pods: a manifest moved out
   * of /etc/kubernetes/manifests stops it, moved back starts a fresh one.
   */
  private syncStaticPods(silent = false): void {
    for (const c of CONTROL_PLANE) {
      const up = this.controlPlaneUp(c);
      if (this.staticSeen.get(c) === up) continue;
      this.staticSeen.set(c, up);
      if (c === 'kube-apiserver') {
        this.apiserver.running = up;
        if (up) {
          // a restarted apiserver rebuilds its watch cache from etcd; watchers relist
          this.apiserver.reloadFromEtcd();
          for (const rc of this.comps.values()) this.push(rc, this.nowMs + rc.latency, 'watch');
        }
      } else if (up) {
        if (c === 'kube-scheduler') this.buildScheduler();
        else this.buildControllerManager();
        for (const rc of this.comps.values()) if (rc.process === c) this.startComponent(rc);
      }
      if (!silent) {
        this.traceStore.emit({
          component: c,
          node: this.sortedHosts().find((h) => h.controlPlane)?.name,
          verb: up ? 'process.start' : 'process.stop',
          message: `${up ? 'Started' : 'Stopped'} ${c}: static pod manifest /etc/kubernetes/manifests/${c}.yaml ${up ? 'present' : 'removed'}`,
          data: { process: c, running: up, reason: 'static-pod-manifest' },
        });
      }
    }
  }

  processes(): ProcessStatus[] {
    const out: ProcessStatus[] = [];
    for (const c of CONTROL_PLANE)
      out.push({ ref: { component: c }, running: this.isRunning({ component: c }), unit: c });
    for (const m of this.etcd.members)
      out.push({ ref: { component: 'etcd', node: m.name }, running: m.healthy, unit: 'etcd' });
    for (const h of this.sortedHosts()) {
      for (const unit of ['containerd', 'kubelet', 'kube-proxy'] as const) {
        const ref: ProcessRef = { component: unit, node: h.name };
        out.push({ ref, running: h.systemd.isActive(unit), unit });
      }
    }
    return out;
  }

  stopProcess(ref: ProcessRef): boolean {
    return this.setProcess(ref, false);
  }

  startProcess(ref: ProcessRef): boolean {
    return this.setProcess(ref, true);
  }

  private setProcess(ref: ProcessRef, run: boolean): boolean {
    if (this.isRunning(ref) === run) return false;
    const unit = this.unitOf(ref);
    const verb = run ? 'process.start' : 'process.stop';
    const label = ref.node ? `${ref.component} on ${ref.node}` : ref.component;
    if (unit) {
      const host = ref.node ? this.hosts.get(ref.node) : undefined;
      if (!host) return false;
      if (run) host.systemd.start(unit, this.nowMs);
      else host.systemd.stop(unit, this.nowMs);
      this.syncUnits();
    } else if (ref.component === 'etcd') {
      const name = ref.node ?? this.etcd.members[0]?.name;
      if (!name || !this.etcd.setMemberHealthy(name, run)) return false;
    } else if ((CONTROL_PLANE as readonly string[]).includes(ref.component)) {
      if (run) this.stopped.delete(ref.component);
      else this.stopped.add(ref.component);
      this.syncStaticPods(true);
    } else return false;
    const component: ComponentName = ref.component === 'containerd' ? 'kubelet' : ref.component;
    this.traceStore.emit({
      component,
      ...(ref.node ? { node: ref.node } : {}),
      verb,
      message: `${run ? 'Started' : 'Stopped'} ${label}`,
      data: { process: ref.component, node: ref.node, running: run },
    });
    return true;
  }

  /** Notices units stopped/started on a node (systemctl from the CLI): a started unit is a fresh process. */
  private syncUnits(): void {
    for (const host of this.sortedHosts()) {
      for (const unit of ['kubelet', 'kube-proxy'] as const) {
        const key = `${unit}/${host.name}`;
        const active = host.systemd.isActive(unit);
        const seen = this.unitSeen.get(key);
        if (seen === active) continue;
        this.unitSeen.set(key, active);
        if (active) {
          if (unit === 'kubelet') this.buildKubelet(host);
          else this.buildKubeProxy(host);
          const rc = this.comps.get(key);
          if (rc) this.startComponent(rc);
        }
      }
    }
  }

  private running(rc: RuntimeComponent): boolean {
    if (rc.process === 'kube-controller-manager' || rc.process === 'kube-scheduler')
      return this.controlPlaneUp(rc.process);
    // asked on every wake-up: the unit and node are split out of the process name once
    rc.unitOnNode ??= rc.process.split('/') as [UnitName, string];
    const [unit, node] = rc.unitOnNode;
    return this.hosts.get(node)?.systemd.isActive(unit) ?? false;
  }

  // ------------------------------------------------------------------ event loop

  /** Components by watched resource, in registration order (rebuilt when components change). */
  private watchIndex: Map<string, RuntimeComponent[]> | null = null;

  private watchersOf(resource: string): RuntimeComponent[] {
    if (!this.watchIndex) {
      this.watchIndex = new Map();
      for (const rc of this.comps.values()) {
        for (const r of new Set(rc.component.watches)) {
          const list = this.watchIndex.get(r) ?? [];
          list.push(rc);
          this.watchIndex.set(r, list);
        }
      }
    }
    return this.watchIndex.get(resource) ?? [];
  }

  /**
   * The pod watchers split in two, for one watch index: components that watch every pod, and
   * those that only watch their node's pods, by node; each with its registration place.
   */
  private podWatchers: {
    from: Map<string, RuntimeComponent[]>;
    allAt: { rc: RuntimeComponent; at: number }[];
    byNode: Map<string, { rc: RuntimeComponent; at: number }[]>;
  } | null = null;

  /**
   * Wakes whoever may care about a change of `resource`, in registration order (the order of
   * their wakes). A pod change concerns the components that watch every pod and the kubelets of
   * its old and new node: the three lists are merged by registration place as they are walked,
   * since a settling cluster changes pods ~15,000 times and a merged copy per change added up.
   */
  /** The component whose reconcile is running, if any: the writer of every change meanwhile. */
  private passRunning: RuntimeComponent | null = null;

  /** What a component's event handler may read of the cluster (see `Component.wakeOn`). */
  private readonly current: CurrentObjects = {
    get: (resource, namespace, name) => this.apiserver.peek(resource, namespace, name),
    list: (resource, namespace) => this.apiserver.peekAll(resource, namespace),
  };

  private onResourceChange(change: ObservedChange): void {
    const { resource, object, prev } = change;
    const watchers = this.watchersOf(resource);
    if (resource !== 'pods' || !this.watchIndex) {
      for (const rc of watchers) this.wakeOnChange(rc, change);
      return;
    }
    if (this.podWatchers?.from !== this.watchIndex) {
      const allAt: { rc: RuntimeComponent; at: number }[] = [];
      const byNode = new Map<string, { rc: RuntimeComponent; at: number }[]>();
      watchers.forEach((rc, at) => {
        const node = rc.component.watchesOwnNodePods ? rc.component.node : undefined;
        if (node === undefined) allAt.push({ rc, at });
        else byNode.set(node, [...(byNode.get(node) ?? []), { rc, at }]);
      });
      this.podWatchers = { from: this.watchIndex, allAt, byNode };
    }
    const { allAt, byNode } = this.podWatchers;
    const node = (object as Pod).spec?.nodeName;
    const prevNode = (prev as Pod | undefined)?.spec?.nodeName;
    const mine = (node !== undefined && byNode.get(node)) || NO_WATCHERS;
    const before =
      (prevNode !== undefined && prevNode !== node && byNode.get(prevNode)) || NO_WATCHERS;
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < allAt.length || j < mine.length || k < before.length) {
      const a = allAt[i]?.at ?? Infinity;
      const b = mine[j]?.at ?? Infinity;
      const c = before[k]?.at ?? Infinity;
      let next: RuntimeComponent;
      if (a < b && a < c) next = (allAt[i++] as { rc: RuntimeComponent }).rc;
      else if (b < c) next = (mine[j++] as { rc: RuntimeComponent }).rc;
      else next = (before[k++] as { rc: RuntimeComponent }).rc;
      this.wakeOnChange(next, change);
    }
  }

  private wakeOnChange(rc: RuntimeComponent, change: ObservedChange): void {
    if (rc.component.wakeOn) {
      const asSeen = rc === this.passRunning ? { ...change, own: true } : change;
      if (!rc.component.wakeOn(asSeen, this.current)) return;
    }
    const at = this.nowMs + rc.latency;
    if (rc.watchAt >= this.nowMs && rc.watchAt <= at) return;
    rc.watchAt = at;
    this.push(rc, at, 'watch');
  }

  /** Queues each host's next machine event (container exits, probes due): all, or `only` one. */
  private scheduleHosts(only?: string): void {
    if (only === undefined) {
      for (const host of this.sortedHosts()) this.scheduleHost(host);
      return;
    }
    // after every wake-up of a node's daemons: no list made for the one host
    const host = this.hosts.get(only);
    if (host) this.scheduleHost(host);
  }

  private scheduleHost(host: NodeHost): void {
    const next = host.nextEventAt();
    if (next === null) return;
    const t = Math.max(next, this.nowMs);
    if (this.hostWakes.get(host.name) === t) return;
    this.hostWakes.set(host.name, t);
    this.queue.push(t, host.name, 'host', 0);
  }

  advance(ms: number): AdvanceResult {
    if (!(ms >= 0)) throw new RangeError(`advance(ms) needs ms >= 0, got ${ms}`);
    const firstSeq = this.traceStore.lastSeq;
    const target = this.nowMs + Math.floor(ms);
    this.inAdvance = true;
    try {
      this.syncUnits();
      this.syncStaticPods();
      this.scheduleHosts();
      for (;;) {
        const top = this.queue.peek();
        if (!top || top.t > target) break;
        this.queue.pop();
        if (top.t > this.nowMs) this.nowMs = top.t;
        this.runWake(top);
      }
      this.nowMs = target;
      for (const host of this.sortedHosts()) host.advanceTo(target);
    } finally {
      this.inAdvance = false;
    }
    const changes = this.etcd.drainChanges();
    return {
      now: this.nowMs,
      changedKeys: changes.changed,
      deletedKeys: changes.deleted,
      events: this.traceStore.since(firstSeq),
      quiescent: this.quiescent(),
    };
  }

  private runWake(w: Wake): void {
    if (w.kind === 'host') {
      const host = this.hosts.get(w.target);
      if (!host || this.hostWakes.get(w.target) !== w.t) return;
      this.hostWakes.delete(w.target);
      host.advanceTo(w.t);
      const kubelet = this.comps.get(`kubelet/${w.target}`);
      if (kubelet) this.push(kubelet, w.t, 'timer');
      this.scheduleHosts(w.target);
      return;
    }
    const rc = this.comps.get(w.target);
    if (!rc || rc.gen !== w.gen) return;
    if (w.kind === 'watch' && rc.watchAt === w.t) rc.watchAt = -1;
    if (w.kind === 'timer') rc.timers.delete(w.t);
    if (w.kind === 'resync') rc.resyncs?.delete(w.t);
    if (w.kind === 'period' || w.kind === 'start')
      this.push(rc, w.t + Math.max(1, rc.component.periodMs), 'period');
    if (!this.running(rc)) return;
    // one reconcile per component per instant is enough: it sees the whole state
    if ((rc as RuntimeComponent & { lastRun?: number }).lastRun === w.t && w.kind !== 'start')
      return;
    (rc as RuntimeComponent & { lastRun?: number }).lastRun = w.t;
    if (rc.component.node) this.hosts.get(rc.component.node)?.advanceTo(w.t);
    const ctx: ComponentContext = {
      now: this.nowMs,
      nowIso: isoAt(this.startMs, this.nowMs),
      client: rc.client,
      rng: this.rng,
      trace: this.traceStore,
      wakeAt: (at: number, opts?: { periodic?: boolean }) => {
        const t = Math.max(Math.floor(at), this.nowMs + 1);
        if (rc.timers.has(t)) return;
        if (opts?.periodic) {
          rc.resyncs ??= new Set();
          if (rc.resyncs.has(t)) return;
          rc.resyncs.add(t);
          this.push(rc, t, 'resync');
          return;
        }
        rc.timers.add(t);
        this.push(rc, t, 'timer');
      },
    };
    // the changes this pass writes are its own (see ObservedChange.own)
    this.passRunning = rc;
    try {
      rc.component.reconcile(ctx);
    } finally {
      this.passRunning = null;
    }
    // only a node's own daemons act on its machine
    if (rc.component.node) this.scheduleHosts(rc.component.node);
  }

  private quiescent(): boolean {
    for (const w of this.queue.unordered()) {
      if (w.kind === 'period' || w.kind === 'resync') continue;
      if (w.kind === 'host') return false;
      const rc = this.comps.get(w.target);
      if (w.kind === 'timer' && rc?.component.timerStale?.(w.t)) continue;
      if (rc && rc.gen === w.gen && this.running(rc)) return false;
    }
    return true;
  }

  nextWakeAt(): number | null {
    const top = this.queue.peek();
    const hostNext = this.sortedHosts()
      .map((h) => h.nextEventAt())
      .filter((x): x is number => x !== null);
    const all = [...(top ? [top.t] : []), ...hostNext];
    return all.length ? Math.min(...all) : null;
  }

  // ------------------------------------------------------------------ requests

  request(
    user: string,
    reqOrVerb: LabRequest | Verb,
    resource?: string,
    opts?: Omit<LabRequest, 'verb' | 'resource'>,
  ): never {
    const creds = this.kubeconfig.get(user) ?? {
      kind: 'token' as const,
      token: `unknown-user:${user}`,
    };
    if (typeof reqOrVerb === 'string') {
      const res = this.requestAs(creds, {
        ...(opts ?? {}),
        verb: reqOrVerb,
        resource: resource as string,
      });
      return res.body as never;
    }
    return this.requestAs(creds, reqOrVerb) as never;
  }

  requestAs(credentials: Credentials, req: LabRequest): ApiResponse {
    this.syncStaticPods();
    const res = this.apiserver.handle({
      ...req,
      credentials,
      userAgent: req.query?.fieldManager ? undefined : 'kubectl/v1.32.5',
    });
    return res;
  }

  credentials(user: string): Credentials | undefined {
    return this.kubeconfig.get(user);
  }

  setCredentials(user: string, credentials: Credentials): void {
    this.kubeconfig.set(user, credentials);
  }

  users(): string[] {
    return [...this.kubeconfig.keys()].sort();
  }

  peek(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.apiserver.peek(resource, namespace, name);
  }

  peekAll(resource: string, namespace?: string): KubeObject[] {
    return this.apiserver.peekAll(resource, namespace);
  }

  node(name: string): NodeHost | undefined {
    return this.hosts.get(name);
  }

  nodes(): NodeHost[] {
    return [...this.sortedHosts()];
  }

  trace(sinceSeq?: number): TraceEvent[] {
    return this.traceStore.since(sinceSeq ?? 0);
  }

  emit(event: Omit<TraceEvent, 'seq' | 't'>): number {
    return this.traceStore.emit(event);
  }

  forgetTrace(keep: number): void {
    this.traceStore.forget(keep);
  }

  snapshotSave(): EtcdSnapshot {
    const snap = this.etcd.snapshot();
    this.traceStore.emit({
      component: 'etcd',
      node: this.etcd.leader()?.name,
      verb: 'etcd.snapshot.save',
      message: `Snapshot saved at revision ${snap.revision} (${snap.totalKeys} keys, hash ${snap.hash})`,
      data: {
        revision: snap.revision,
        hash: snap.hash,
        totalKeys: snap.totalKeys,
        totalSize: snap.totalSize,
      },
    });
    return snap;
  }

  snapshotRestore(snapshot: EtcdSnapshot): void {
    this.etcd.restore(snapshot);
    this.apiserver.reloadFromEtcd();
    this.apiserver.markCompacted();
    for (const rc of this.comps.values()) this.push(rc, this.nowMs + rc.latency, 'watch');
    this.traceStore.emit({
      component: 'etcd',
      verb: 'etcd.snapshot.restore',
      message: `Restored snapshot of revision ${snapshot.revision} (${snapshot.totalKeys} keys); cluster revision is now ${this.etcd.revision}`,
      data: { revision: snapshot.revision, hash: snapshot.hash, newRevision: this.etcd.revision },
    });
  }

  private podLog(
    pod: Pod,
    q: { container?: string; previous?: boolean; tailLines?: number },
  ): string | Status {
    const host = pod.spec.nodeName ? this.hosts.get(pod.spec.nodeName) : undefined;
    const fail = (message: string, code = 400): Status => ({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'BadRequest',
      code,
    });
    if (!host) return fail(`pod ${pod.metadata.name} is not scheduled`);
    if (!host.systemd.isActive('kubelet')) {
      return {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Get "https://${host.internalIP}:10250/containerLogs/${pod.metadata.namespace}/${pod.metadata.name}/${q.container}": dial tcp ${host.internalIP}:10250: connect: connection refused`,
        code: 500,
      };
    }
    host.advanceTo(this.nowMs);
    const res = host.containerd.podContainerLogs(
      pod.metadata.namespace ?? 'default',
      pod.metadata.name ?? '',
      q.container ?? '',
      !!q.previous,
    );
    if (!res.ok)
      return fail(
        q.previous ? res.message : (waitingToStart(pod, q.container ?? '') ?? res.message),
      );
    let lines = res.lines.map((l) => l.line);
    if (q.tailLines !== undefined && q.tailLines >= 0)
      lines = lines.slice(Math.max(0, lines.length - q.tailLines));
    return lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('');
  }

  // ------------------------------------------------------------------ serialize

  serialize(options: SerializeOptions = {}): string {
    return JSON.stringify(this.serializeState(options));
  }

  serializeState(options: SerializeOptions = {}): SerializedLab {
    const { keyspace = true, traceEvents = true } = options;
    return {
      version: SERIAL_VERSION,
      options: this.options,
      now: this.nowMs,
      rng: this.rng.state(),
      etcd: keyspace ? this.etcd.toJSON() : this.etcdHeader(),
      authn: this.apiserver.authn.toJSON(),
      apiserverRunning: this.apiserver.running,
      stopped: [...this.stopped].sort(),
      kubeconfig: Object.fromEntries(
        [...this.kubeconfig.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
      hosts: this.sortedHosts().map((h) => h.toJSON()),
      components: [...this.comps.values()].map((rc) => ({
        key: rc.key,
        gen: rc.gen,
        watchAt: rc.watchAt,
        timers: [...rc.timers].sort((a, b) => a - b),
        state: rc.component.saveState(),
      })),
      queue: this.queue.toJSON(),
      hostWakes: Object.fromEntries(
        [...this.hostWakes.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
      watchHistory: this.apiserver.historyState(this.resumePoints()),
      // nextSeq is kept without the events, so a restore numbers new events after the old ones
      trace: traceEvents
        ? this.traceStore.toJSON()
        : { nextSeq: this.traceStore.lastSeq + 1, events: [] },
    };
  }

  /**
   * etcd's state without its keyspace, fields in `EtcdStore.toJSON()`'s order so the text is the
   * full serialization with `"kvs":[]` (a store splicing the keys back in relies on that).
   */
  /** Per resource, the oldest revision a component's watch resumes from after a restore. */
  private resumePoints(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const rc of this.comps.values()) {
      for (const [resource, at] of Object.entries(rc.component.resumePoints?.() ?? {})) {
        const cur = out[resource];
        if (cur === undefined || at < cur) out[resource] = at;
      }
    }
    return out;
  }

  private etcdHeader(): EtcdState {
    return {
      revision: this.etcd.revision,
      compactRevision: this.etcd.compactRevision,
      members: this.etcd.members.map((m) => ({ ...m })),
      kvs: [],
      raftTerm: this.etcd.term,
      raftIndex: this.etcd.index,
    };
  }

  loadRuntime(state: SerializedLab): void {
    this.nowMs = state.now;
    this.apiserver.authn.load(state.authn);
    this.apiserver.running = state.apiserverRunning;
    this.stopped = new Set(state.stopped);
    this.kubeconfig = new Map(Object.entries(state.kubeconfig));
    this.traceStore.load(state.trace);
    this.buildComponents();
    // in the saved order: a restarted controller-manager or scheduler was registered again after
    // the others, and that order is the order their wake-ups are queued in
    const built = this.comps;
    this.comps = new Map();
    for (const saved of state.components) {
      const rc = built.get(saved.key);
      if (rc) this.comps.set(saved.key, rc);
    }
    for (const [key, rc] of built) if (!this.comps.has(key)) this.comps.set(key, rc);
    this.watchIndex = null;
    for (const saved of state.components) {
      const rc = this.comps.get(saved.key);
      if (!rc) continue;
      rc.gen = saved.gen;
      rc.watchAt = saved.watchAt;
      rc.timers = new Set(saved.timers);
      rc.component.loadState(saved.state);
    }
    this.queue.load(state.queue);
    // the periodic wakes already queued: a component asking for one again is not queued twice
    // (the original lab remembered them; a second entry would shift every later wake's seq)
    for (const w of state.queue.wakes) {
      if (w.kind !== 'resync') continue;
      const rc = this.comps.get(w.target);
      if (rc && rc.gen === w.gen) (rc.resyncs ??= new Set()).add(w.t);
    }
    this.hostWakes = new Map(Object.entries(state.hostWakes));
  }
}

export function createLab(options: LabOptions = {}): SimLab {
  const resolved = resolveOptions(options);
  const etcd = new EtcdStore(
    defaultMembers(
      resolved.etcdMembers,
      resolved.nodes.find((n) => n.controlPlane)?.name ?? 'control-plane',
    ),
  );
  const lab = new LabImpl(resolved, etcd, resolved.seed);
  lab.setupIdentities();
  lab.apiserver.bootstrap();
  lab.bootstrapUsers();
  // kubeadm's addon phase talks to the apiserver as kubernetes-admin (admin.conf)
  installKubeadmAddons(
    (req) =>
      lab.apiserver.handle({
        ...req,
        credentials: { kind: 'cert', certId: 'kubernetes-admin' },
        userAgent: 'kubeadm/v1.32.5 (linux/amd64) kubernetes/9894294',
      }),
    {
      server: 'https://172.18.0.2:6443',
      controlPlaneEndpoint: '172.18.0.2:6443',
      podSubnet: '10.244.0.0/16',
      caData: base64(new TextEncoder().encode(pem('CERTIFICATE', 'crt:ca', 780))),
    },
  );
  lab.createHosts();
  lab.buildComponents();
  lab.initStaticPods();
  lab.scheduleAll();
  lab.traceStore.emit({
    component: 'kube-apiserver',
    verb: 'lab.created',
    message: `Cluster created: ${resolved.nodes.length} nodes, ${resolved.etcdMembers} etcd member(s), Kubernetes v1.32.5`,
    data: {
      nodes: resolved.nodes.map((n) => n.name),
      etcdMembers: resolved.etcdMembers,
      seed: resolved.seed,
    },
  });
  etcd.drainChanges();
  return lab;
}

/**
 * A lab from `serialize()`'s text, or from the value that text parses to (a fresh value the lab
 * then owns: it may keep parts of it).
 */
export function restoreLab(json: string | SerializedLab): SimLab {
  const state = typeof json === 'string' ? (JSON.parse(json) as SerializedLab) : json;
  if (state.version !== SERIAL_VERSION)
    throw new Error(`unsupported lab serialization version ${state.version}`);
  const etcd = EtcdStore.fromJSON(state.etcd);
  const lab = new LabImpl(state.options, etcd, state.rng);
  if (state.watchHistory) lab.apiserver.loadHistory(state.watchHistory);
  lab.restoreHosts(state.hosts);
  lab.loadRuntime(state);
  lab.initStaticPods();
  return lab;
}

/** True when the response body is a failure Status (helper for tests and graders). */
export function isFailure(body: unknown): body is Status {
  return isStatus(body) && body.status === 'Failure';
}

/**
 * validateContainerLogStatus (pkg/kubelet/kubelet_pods.go): a container with no instance yet is
 * reported with the waiting reason the kubelet gave it, e.g. PodInitializing behind init containers.
 */
function waitingToStart(pod: Pod, container: string): string | undefined {
  const statuses = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ];
  const reason = statuses.find((c) => c.name === container)?.state?.waiting?.reason;
  if (!reason) return undefined;
  const prefix = `container "${container}" in pod "${pod.metadata.name ?? ''}" is waiting to start`;
  if (reason === 'ErrImagePull') return `${prefix}: image can't be pulled`;
  if (reason === 'ImagePullBackOff') return `${prefix}: trying and failing to pull image`;
  return `${prefix}: ${reason}`;
}
