// containerd on one node: the image store, pod sandboxes (with their CNI IP) and containers with
// their own life. A container runs its app model on its own; the kubelet only asks containerd to
// create, start and stop things and reads back their state. So when the kubelet (or the whole
// control plane) stops, containers keep running, keep logging and may still exit on their own.

import type { AppModel, AppInput } from './app-model';
import { modelApp } from './app-model';
import type { ImageInfo } from './image-registry';
import { imageInfoFor, lookupImage, normalizeImage } from './image-registry';
import { sha256Hex } from './sha256';
import { deepFreeze } from '../shared/deep-freeze';
import { frozenJsonCopy, jsonCopy } from '../shared/json-copy';
import { MONTH_ABBR, WEEKDAY_ABBR } from '../shared/time';

export type ContainerStateName = 'created' | 'running' | 'exited';

export interface LogLine {
  /** sim ms */
  t: number;
  stream: 'stdout' | 'stderr';
  line: string;
}

export interface StoredImage extends ImageInfo {
  /** names it answers to, e.g. `docker.io/library/nginx:1.27` */
  names: string[];
  pulledAt: number;
}

export interface SandboxRecord {
  id: string;
  podUid: string;
  podName: string;
  namespace: string;
  ip: string;
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  createdAt: number;
  attempt: number;
  labels: Record<string, string>;
}

export interface ContainerRecord {
  id: string;
  sandboxId: string;
  podUid: string;
  podName: string;
  namespace: string;
  name: string;
  /** as written in the pod spec */
  image: string;
  imageRef: string;
  imageId: string;
  imageDigest: string;
  attempt: number;
  state: ContainerStateName;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  app: AppModel;
  pc: number;
  nextAt: number;
  /** a pending stop: when the process will be gone and with what status */
  stopAt?: number;
  stopCode?: number;
  files: string[];
  logs: LogLine[];
}

export interface ContainerdJson {
  images: StoredImage[];
  sandboxes: SandboxRecord[];
  containers: ContainerRecord[];
  lastIp: number;
}

export interface ProbeOutcome {
  ok: boolean;
  /** the kubelet's text after `<Kind> probe failed: ` */
  output: string;
}

export interface HttpResult {
  ok: boolean;
  status?: number;
  body?: string;
  /** `connect: connection refused` etc. when no response */
  error?: string;
}

export interface ContainerdEnv {
  node: string;
  podCIDR: string;
  /** wall-clock ms of sim time 0, for log timestamps written inside apps */
  epochMs: number;
  /**
   * When the host process a container image runs (kube-proxy) has been stopped, since when;
   * undefined while it runs. Such a container dies then, and each restart dies at once.
   */
  processStoppedSince?: (process: 'kube-proxy') => number | undefined;
}

/** Exit code of a process killed by SIGTERM (128 + 15). */
const SIGTERM_EXIT = 143;

const MAX_LOG_LINES = 1000;

export class Containerd {
  private images: StoredImage[];
  private sandboxes: SandboxRecord[];
  private containers: ContainerRecord[];
  private lastIp: number;
  /**
   * Pods with a container that exited since the kubelet last relisted (its PLEG). In memory only:
   * a kubelet that starts (or is restored) syncs every pod anyway.
   */
  private exitedPods = new Set<string>();
  /**
   * The containers whose program may still do something (null: work it out again). A server
   * that reached its serve loop does nothing until it is stopped, so the many long-running
   * containers of a busy node cost nothing when time moves on. Anything that starts, stops,
   * creates or removes a container forgets the list.
   */
  private live: ContainerRecord[] | null = null;
  /**
   * What toJSON last returned, frozen, until something changes (every change goes through the
   * methods below and calls `changed()`). A lab is saved after every write; most writes leave a
   * node's containers alone, and the store then reuses the section's text by identity.
   */
  private json: ContainerdJson | null = null;
  /** The pod range's first three octets and a dot (every sandbox's IP starts so). */
  private readonly ipPrefix: string;
  /**
   * findImage's answers by the ref asked for (null: not stored), until the store changes: every
   * container creation asks twice (the kubelet's image check, then CreateContainer).
   */
  private imageByRef = new Map<string, StoredImage | null>();
  /**
   * The containers by id (the first of any with the same id, as the list holds them), the
   * longest id among them and whether no two share one, or null: work them out again. The
   * kubelet asks for containers by full id at every sync of every pod; a full-length id cannot
   * be a prefix of another, so the index answers those. Anything that replaces the list forgets it.
   */
  private byId: ContainerIndex | null = null;
  /**
   * The sandboxes by pod uid (in the list's order) and by id (the first with it), and the IPs of
   * the ready ones, or null: work them out again. Every new pod asks for its pod's sandboxes two
   * or three times (adoption, attempt number, CreateContainer) and for a free IP. Stopping or
   * removing a sandbox forgets it.
   */
  private sandboxIndex: SandboxIndex | null = null;

  constructor(
    private readonly env: ContainerdEnv,
    json?: ContainerdJson,
  ) {
    const [base] = env.podCIDR.split('/');
    const octets = (base as string).split('.').map(Number);
    this.ipPrefix = `${octets[0]}.${octets[1]}.${octets[2]}.`;
    const clone = json ? jsonCopy(json) : undefined;
    this.images = clone?.images ?? [];
    this.sandboxes = clone?.sandboxes ?? [];
    this.containers = clone?.containers ?? [];
    this.lastIp = clone?.lastIp ?? 1;
  }

  toJSON(): ContainerdJson {
    this.json ??= frozenJsonCopy({
      images: this.images,
      sandboxes: this.sandboxes,
      containers: this.containers,
      lastIp: this.lastIp,
    });
    return this.json;
  }

  private changed(): void {
    this.json = null;
  }

  // ---------- images ----------

  listImages(): StoredImage[] {
    return [...this.images];
  }

  findImage(ref: string): StoredImage | undefined {
    let found = this.imageByRef.get(ref);
    if (found === undefined) {
      const n = normalizeImage(ref).normalized;
      found =
        this.images.find((i) => i.names.includes(n) || i.names.includes(ref) || i.id === ref) ??
        null;
      this.imageByRef.set(ref, found);
    }
    return found ?? undefined;
  }

  /** Puts an image in the store (a finished pull, or a pre-loaded image at boot). */
  storeImage(ref: string, now: number): StoredImage {
    const existing = this.findImage(ref);
    if (existing) return existing;
    const r = normalizeImage(ref);
    const found = lookupImage(ref);
    const info = found.ok ? found.image : imageInfoFor(r.repository, r.tag || 'latest', 10_000_000);
    const names = [`${r.repository}:${info.tag}`, `${r.repository}@${info.digest}`];
    const img: StoredImage = { ...info, names, pulledAt: now };
    this.images.push(img);
    this.imageByRef.clear();
    this.changed();
    return img;
  }

  removeImage(ref: string): boolean {
    const img = this.findImage(ref);
    if (!img) return false;
    this.images = this.images.filter((i) => i !== img);
    this.imageByRef.clear();
    this.changed();
    return true;
  }

  // ---------- sandboxes ----------

  /** RunPodSandbox: creates the pause container's sandbox and asks the CNI (host-local IPAM) for an IP. */
  runPodSandbox(
    pod: { uid: string; name: string; namespace: string; labels?: Record<string, string> },
    now: number,
    opts: { hostNetworkIp?: string } = {},
  ): SandboxRecord {
    const attempt = this.sandboxesIndexed().byPod.get(pod.uid)?.length ?? 0;
    const sb: SandboxRecord = {
      id: sha256Hex(`sandbox:${this.env.node}:${pod.uid}:${attempt}`),
      podUid: pod.uid,
      podName: pod.name,
      namespace: pod.namespace,
      // hostNetwork pods share the node's address and take nothing from the pod range
      ip: opts.hostNetworkIp ?? this.allocateIp(),
      state: 'SANDBOX_READY',
      createdAt: now,
      attempt,
      labels: { ...(pod.labels ?? {}) },
    };
    this.sandboxes.push(sb);
    if (this.sandboxIndex !== null) indexSandbox(this.sandboxIndex, sb);
    this.changed();
    return sb;
  }

  private sandboxesIndexed(): SandboxIndex {
    if (this.sandboxIndex === null) {
      const index: SandboxIndex = { byPod: new Map(), byId: new Map(), readyIps: new Set() };
      for (const s of this.sandboxes) indexSandbox(index, s);
      this.sandboxIndex = index;
    }
    return this.sandboxIndex;
  }

  private allocateIp(): string {
    const prefix = this.ipPrefix;
    // host-local hands out the next free address after the last one it gave (.1 is the gateway);
    // that one is nearly always free, so each candidate is checked against the sandboxes directly
    for (let k = 1; k <= 253; k++) {
      const n = ((this.lastIp - 2 + k + 253) % 253) + 2;
      const ip = prefix + n;
      if (!this.isIpInUse(ip)) {
        this.lastIp = n;
        return ip;
      }
    }
    throw new Error(`no IP addresses available in range set: ${this.env.podCIDR}`);
  }

  private isIpInUse(ip: string): boolean {
    return this.sandboxesIndexed().readyIps.has(ip);
  }

  sandboxFor(podUid: string): SandboxRecord | undefined {
    // the newest ready one (every new pod on the node asks: no reversed copy of the list)
    const mine = this.sandboxesIndexed().byPod.get(podUid);
    if (mine === undefined) return undefined;
    for (let i = mine.length - 1; i >= 0; i--) {
      const s = mine[i] as SandboxRecord;
      if (s.state === 'SANDBOX_READY') return s;
    }
    return undefined;
  }

  listSandboxes(): SandboxRecord[] {
    return [...this.sandboxes];
  }

  stopPodSandbox(id: string): void {
    const sb = this.sandboxes.find((s) => s.id === id);
    if (sb) sb.state = 'SANDBOX_NOTREADY';
    this.sandboxIndex = null;
    this.changed();
  }

  removePodSandbox(id: string): void {
    this.sandboxes = this.sandboxes.filter((s) => s.id !== id);
    this.sandboxIndex = null;
    this.containers = this.containers.filter((c) => c.sandboxId !== id);
    this.byId = null;
    this.live = null;
    this.changed();
  }

  // ---------- containers ----------

  createContainer(
    sandboxId: string,
    spec: AppInput & { name: string },
    attempt: number,
    now: number,
  ): ContainerRecord {
    const sb = this.sandboxesIndexed().byId.get(sandboxId);
    if (!sb) throw new Error(`sandbox ${sandboxId} not found`);
    const img = this.findImage(spec.image) ?? this.storeImage(spec.image, now);
    const ref = normalizeImage(spec.image);
    const c: ContainerRecord = {
      id: sha256Hex(`container:${this.env.node}:${sb.podUid}:${spec.name}:${attempt}`),
      sandboxId,
      podUid: sb.podUid,
      podName: sb.podName,
      namespace: sb.namespace,
      name: spec.name,
      image: spec.image,
      imageRef: `${ref.repository}:${img.tag}`,
      imageId: img.id,
      imageDigest: `${ref.repository}@${img.digest}`,
      attempt,
      state: 'created',
      createdAt: now,
      app: appFor(spec),
      pc: 0,
      nextAt: now,
      files: [],
      logs: [],
    };
    // (the live list stands: it holds running containers only, and gc drops exited ones)
    this.containers.push(c);
    if (this.byId !== null) indexContainer(this.byId, c);
    this.changed();
    this.gc(sb.podUid, spec.name);
    return c;
  }

  /** The kubelet keeps one dead container per container name (MaxPerPodContainer=1). */
  private gc(podUid: string, name: string): void {
    // every container creation asks; there is rarely more than the one dead container to keep
    let deadCount = 0;
    for (const c of this.containers)
      if (c.podUid === podUid && c.name === name && c.state === 'exited') deadCount++;
    if (deadCount <= 1) return;
    const mine = this.containers.filter((c) => c.podUid === podUid && c.name === name);
    const dead = mine.filter((c) => c.state === 'exited').sort((a, b) => b.attempt - a.attempt);
    const drop = new Set(dead.slice(1).map((c) => c.id));
    if (drop.size) {
      this.containers = this.containers.filter((c) => !drop.has(c.id));
      this.byId = null;
      this.changed();
    }
  }

  startContainer(id: string, now: number): ContainerRecord {
    const c = this.get(id);
    if (!c) throw new Error(`container ${id} not found`);
    c.state = 'running';
    c.startedAt = now;
    c.nextAt = now;
    this.live = null;
    this.changed();
    this.run(c, now);
    return c;
  }

  /**
   * StopContainer: the stop signal goes to PID 1. Servers exit promptly (0); a shell as PID 1
   * ignores SIGTERM and is SIGKILLed when the grace period ends (137), as on a real node.
   */
  stopContainer(id: string, now: number, graceMs: number): number {
    const c = this.get(id);
    if (!c || c.state !== 'running') return now;
    if (c.stopAt !== undefined) return c.stopAt;
    const code = c.app.stopExitCode;
    c.stopAt = code === 0 ? now + 100 : now + graceMs;
    c.stopCode = code;
    this.live = null;
    this.changed();
    if (c.app.http?.server === 'nginx') {
      this.log(
        c,
        now,
        `%NGINX_TIME% [notice] 1#1: signal 3 (SIGQUIT) received, shutting down`,
        'stderr',
      );
      this.log(c, now, `%NGINX_TIME% [notice] 29#29: gracefully shutting down`, 'stderr');
      this.log(c, now, `%NGINX_TIME% [notice] 29#29: exiting`, 'stderr');
      this.log(c, now, `%NGINX_TIME% [notice] 1#1: exit`, 'stderr');
    }
    return c.stopAt;
  }

  removeContainer(id: string): void {
    this.containers = this.containers.filter((c) => c.id !== id);
    this.byId = null;
    this.live = null;
    this.changed();
  }

  get(id: string): ContainerRecord | undefined {
    const index = this.idIndex();
    // no longer id to start with this one: only equality can answer, and the first equal is indexed
    if (id.length >= index.longest) return index.ids.get(id);
    // the prefix test only where an id is longer than the one asked for (equal lengths: equality)
    const prefix = id.length >= 4;
    for (const c of this.containers) {
      if (c.id === id) return c;
      if (prefix && c.id.length > id.length && c.id.startsWith(id)) return c;
    }
    return undefined;
  }

  private idIndex(): ContainerIndex {
    if (this.byId === null) {
      const index: ContainerIndex = { ids: new Map(), longest: 0, unique: true };
      for (const c of this.containers) indexContainer(index, c);
      this.byId = index;
    }
    return this.byId;
  }

  listContainers(filter?: { podUid?: string; all?: boolean }): ContainerRecord[] {
    return this.containers.filter(
      (c) =>
        (filter?.podUid === undefined || c.podUid === filter.podUid) &&
        (filter?.all || c.state === 'running'),
    );
  }

  /**
   * What the kubelet's PLEG relist learns: the pods (uids) whose containers exited since the
   * last call, in the order they exited. Drains the set.
   */
  takeExitedPods(): readonly string[] {
    if (this.exitedPods.size === 0) return NO_PODS;
    const out = [...this.exitedPods];
    this.exitedPods.clear();
    return out;
  }

  /** Runs every container's program up to `now`: log lines appear, files change, processes exit. */
  advanceTo(now: number): void {
    for (const c of this.liveContainers()) this.run(c, now);
  }

  private liveContainers(): ContainerRecord[] {
    this.live ??= this.containers.filter(
      (c) =>
        c.state === 'running' &&
        (c.stopAt !== undefined ||
          c.app.program.steps[c.pc]?.op !== 'serve' ||
          isHostProcessImage(c.image)),
    );
    return this.live;
  }

  /** The next instant something happens inside a container (an exit, a log line), or null. */
  nextEventAt(containerId?: string): number | null {
    // One container (each sync of a running one asks) is looked up by its id, without
    // rebuilding the live list: a running container left out of that list is a server in its
    // serve loop with no stop pending, which has no next event either.
    if (containerId !== undefined) {
      const index = this.idIndex();
      if (index.unique) {
        const c = index.ids.get(containerId);
        return c === undefined ? null : this.eventAt(c, null);
      }
    }
    // (all of them, or every container with an id another has too)
    const candidates = containerId === undefined ? this.liveContainers() : this.containers;
    let best: number | null = null;
    for (const c of candidates)
      if (containerId === undefined || c.id === containerId) best = this.eventAt(c, best);
    return best;
  }

  /** The earlier of `best` and the container's next event, if it runs. */
  private eventAt(c: ContainerRecord, best: number | null): number | null {
    if (c.state !== 'running') return best;
    const killedAt = this.stoppedAt(c);
    if (killedAt !== undefined) return best === null || killedAt < best ? killedAt : best;
    const step = c.app.program.steps[c.pc];
    const t = c.stopAt ?? (step?.op === 'serve' ? undefined : c.nextAt);
    return t !== undefined && (best === null || t < best) ? t : best;
  }

  /** The host process this container is, when the node models that process (kube-proxy). */
  private stoppedAt(c: ContainerRecord): number | undefined {
    if (!this.env.processStoppedSince || !isHostProcessImage(c.image)) return undefined;
    const since = this.env.processStoppedSince('kube-proxy');
    return since === undefined ? undefined : Math.max(since, c.startedAt ?? since);
  }

  private run(c: ContainerRecord, now: number): void {
    if (c.state !== 'running') return;
    const killedAt = this.stoppedAt(c);
    if (killedAt !== undefined && killedAt <= now) {
      this.exit(c, killedAt, SIGTERM_EXIT);
      return;
    }
    const prog = c.app.program;
    let guard = 0;
    while (c.state === 'running' && guard++ < 100_000) {
      if (c.stopAt !== undefined && c.stopAt <= Math.min(now, c.nextAt)) {
        this.exit(c, c.stopAt, c.stopCode ?? 137);
        return;
      }
      if (c.nextAt > now) break;
      const step = prog.steps[c.pc];
      // a server in its serve loop changes nothing; every other step moves the program on
      if (step?.op !== 'serve') this.changed();
      if (!step) {
        if (prog.loopFrom !== undefined && prog.loopFrom < prog.steps.length) {
          c.pc = prog.loopFrom;
          continue;
        }
        this.exit(c, c.nextAt, prog.lastStatus);
        return;
      }
      switch (step.op) {
        case 'log':
          this.log(c, c.nextAt, step.line, step.stream ?? 'stdout');
          c.pc++;
          break;
        case 'touch':
          if (!c.files.includes(step.path)) c.files.push(step.path);
          c.pc++;
          break;
        case 'rm':
          c.files = c.files.filter((f) => f !== step.path);
          c.pc++;
          break;
        case 'sleep':
          c.nextAt += step.ms;
          c.pc++;
          break;
        case 'exit':
          this.exit(c, c.nextAt, step.code);
          return;
        case 'serve':
          if (c.stopAt !== undefined && c.stopAt <= now) {
            this.exit(c, c.stopAt, c.stopCode ?? 0);
          }
          return;
      }
    }
  }

  private exit(c: ContainerRecord, at: number, code: number): void {
    this.live = null;
    this.changed();
    c.state = 'exited';
    c.finishedAt = at;
    c.exitCode = code;
    c.reason = code === 0 ? 'Completed' : 'Error';
    c.stopAt = undefined;
    this.exitedPods.add(c.podUid);
  }

  private log(c: ContainerRecord, t: number, line: string, stream: 'stdout' | 'stderr'): void {
    this.changed();
    c.logs.push({ t, stream, line: this.render(line, t, c) });
    if (c.logs.length > MAX_LOG_LINES) c.logs.splice(0, c.logs.length - MAX_LOG_LINES);
  }

  private render(line: string, t: number, c: ContainerRecord): string {
    if (!line.includes('%')) return line;
    // every nginx start logs eight lines with its time: formatted once per second of wall clock
    if (line.startsWith('%NGINX_TIME%') && line.indexOf('%', 12) < 0)
      return this.nginxTime(t) + line.slice(12);
    const d = new Date(this.env.epochMs + t);
    const p = (n: number, w = 2): string => String(n).padStart(w, '0');
    const hms = `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
    // only the placeholders a line has are formatted
    let out = line;
    if (out.includes('%NGINX_TIME%')) out = out.replace(/%NGINX_TIME%/g, this.nginxTime(t));
    if (out.includes('%HTTPD_TIME%'))
      out = out.replace(
        /%HTTPD_TIME%/g,
        `${WEEKDAY_ABBR[d.getUTCDay()]} ${MONTH_ABBR[d.getUTCMonth()]} ${p(d.getUTCDate())} ${hms}.${p(d.getUTCMilliseconds(), 3)}${p(0, 3)} ${d.getUTCFullYear()}`,
      );
    if (out.includes('%DATE%'))
      out = out.replace(
        /%DATE%/g,
        `${WEEKDAY_ABBR[d.getUTCDay()]} ${MONTH_ABBR[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${hms} UTC ${d.getUTCFullYear()}`,
      );
    if (out.includes('%POD_IP%'))
      out = out.replace(/%POD_IP%/g, this.sandboxes.find((s) => s.id === c.sandboxId)?.ip ?? '');
    return out;
  }

  /** The last second nginxTime formatted, and its text. */
  private nginxSecond = NaN;
  private nginxSecondText = '';

  /** nginx's log time, `2025/01/15 10:00:07`, of sim ms `t`. */
  private nginxTime(t: number): string {
    const second = Math.floor((this.env.epochMs + t) / 1000);
    if (second !== this.nginxSecond) {
      const d = new Date(second * 1000);
      const p = (n: number): string => String(n).padStart(2, '0');
      this.nginxSecondText = `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
      this.nginxSecond = second;
    }
    return this.nginxSecondText;
  }

  // ---------- talking to apps ----------

  /** An HTTP request that reached `ip:port` (a probe from the kubelet, or curl through a Service). */
  http(
    ip: string,
    port: number,
    path: string,
    now: number,
    from: { clientIp: string; userAgent: string; probe?: 'readiness' | 'liveness' | 'startup' },
  ): HttpResult {
    this.advanceTo(now);
    const c = this.listening(ip, port);
    const h = c?.app.http;
    if (!c || !h || now < (c.startedAt ?? 0) + h.listenAfterMs) {
      return { ok: false, error: `dial tcp ${ip}:${port}: connect: connection refused` };
    }
    let status = h.paths.includes(path.split('?')[0] as string) ? 200 : 404;
    if (from.probe === 'readiness' && h.failReadiness) status = 503;
    if (
      from.probe === 'liveness' &&
      h.failLivenessAfterMs !== undefined &&
      now - (c.startedAt ?? 0) >= h.failLivenessAfterMs
    ) {
      status = 500;
    }
    const body = status === 200 ? h.body : status === 404 ? notFoundBody(h.server) : `${status}\n`;
    this.accessLog(c, now, from, path, status, body.length);
    return { ok: true, status, body };
  }

  private accessLog(
    c: ContainerRecord,
    now: number,
    from: { clientIp: string; userAgent: string },
    path: string,
    status: number,
    size: number,
  ): void {
    const d = new Date(this.env.epochMs + now);
    const p = (n: number): string => String(n).padStart(2, '0');
    const stamp = `${p(d.getUTCDate())}/${MONTH_ABBR[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
    const server = c.app.http?.server;
    if (server === 'nginx') {
      this.log(
        c,
        now,
        `${from.clientIp} - - [${stamp}] "GET ${path} HTTP/1.1" ${status} ${size} "-" "${from.userAgent}" "-"`,
        'stdout',
      );
    } else if (server === 'httpd') {
      this.log(
        c,
        now,
        `${from.clientIp} - - [${stamp}] "GET ${path} HTTP/1.1" ${status} ${size}`,
        'stdout',
      );
    }
  }

  /** The running container that owns ip:port (hostNetwork sandboxes share the node IP). */
  private listening(ip: string, port: number): ContainerRecord | undefined {
    const ids = new Set(
      this.sandboxes.filter((s) => s.ip === ip && s.state === 'SANDBOX_READY').map((s) => s.id),
    );
    return this.containers.find(
      (x) => ids.has(x.sandboxId) && x.state === 'running' && x.app.http?.ports.includes(port),
    );
  }

  /** A TCP connect to ip:port. */
  tcp(ip: string, port: number, now: number): ProbeOutcome {
    this.advanceTo(now);
    const c = this.listening(ip, port);
    if (!c || now < (c.startedAt ?? 0) + (c.app.http?.listenAfterMs ?? 0)) {
      return { ok: false, output: `dial tcp ${ip}:${port}: connect: connection refused` };
    }
    return { ok: true, output: '' };
  }

  /** `exec` inside a running container (exec probes): understands cat/test/ls/true/false/exit/sh -c. */
  exec(id: string, argv: string[], now: number): ProbeOutcome {
    this.advanceTo(now);
    const c = this.get(id);
    if (!c || c.state !== 'running') return { ok: false, output: 'container not running' };
    return execIn(c, argv);
  }

  // ---------- logs ----------

  /** The log of the current (or previous) instance of a pod's container. */
  podContainerLogs(
    namespace: string,
    podName: string,
    container: string,
    previous = false,
  ): { ok: true; lines: LogLine[]; id: string } | { ok: false; message: string } {
    const all = this.containers
      .filter((c) => c.namespace === namespace && c.podName === podName && c.name === container)
      .sort((a, b) => b.attempt - a.attempt);
    const pick = previous ? all[1] : all[0];
    if (!pick) {
      return {
        ok: false,
        message: previous
          ? `previous terminated container "${container}" in pod "${podName}" not found`
          : `container "${container}" in pod "${podName}" is waiting to start: ContainerCreating`,
      };
    }
    return { ok: true, lines: [...pick.logs], id: pick.id };
  }
}

const NO_PODS: readonly string[] = Object.freeze([]);

/**
 * A container's app model. One without command, args or env (thousands of replicas of the same
 * image) is the same for every container of its image and ports, and containers only read it:
 * made once, and frozen so that nothing can change it for all of them.
 */
function appFor(spec: AppInput): AppModel {
  if (spec.command !== undefined || spec.args !== undefined) return modelApp(spec);
  if (spec.env !== undefined) for (const _ in spec.env) return modelApp(spec);
  // (the ports, digits and commas, end at the first space: no two inputs share a key)
  const key = `${spec.ports?.join(',') ?? ''} ${spec.image}`;
  let app = plainApps.get(key);
  if (app === undefined) {
    app = deepFreeze(modelApp(spec));
    if (plainApps.size >= PLAIN_APPS_MAX) plainApps.clear();
    plainApps.set(key, app);
  }
  return app;
}

const plainApps = new Map<string, AppModel>();
const PLAIN_APPS_MAX = 256;

interface ContainerIndex {
  ids: Map<string, ContainerRecord>;
  longest: number;
  unique: boolean;
}

function indexContainer(index: ContainerIndex, c: ContainerRecord): void {
  if (index.ids.has(c.id)) index.unique = false;
  else index.ids.set(c.id, c);
  if (c.id.length > index.longest) index.longest = c.id.length;
}

interface SandboxIndex {
  byPod: Map<string, SandboxRecord[]>;
  byId: Map<string, SandboxRecord>;
  /** (a sandbox is ready from its creation until stopped: a stop rebuilds the index) */
  readyIps: Set<string>;
}

function indexSandbox(index: SandboxIndex, s: SandboxRecord): void {
  const mine = index.byPod.get(s.podUid);
  if (mine === undefined) index.byPod.set(s.podUid, [s]);
  else mine.push(s);
  if (!index.byId.has(s.id)) index.byId.set(s.id, s);
  if (s.state === 'SANDBOX_READY') index.readyIps.add(s.ip);
}

/** An image whose process the node models as a host process (its stop kills the container). */
function isHostProcessImage(image: string): boolean {
  let is = hostProcessImages.get(image);
  if (is === undefined) {
    is = /(^|\/)kube-proxy[:@]/.test(image);
    if (hostProcessImages.size >= HOST_PROCESS_IMAGES_MAX) hostProcessImages.clear();
    hostProcessImages.set(image, is);
  }
  return is;
}

/** isHostProcessImage's answers by image: every rebuild of a node's live list asks for each server. */
const hostProcessImages = new Map<string, boolean>();
const HOST_PROCESS_IMAGES_MAX = 256;

function notFoundBody(server: string): string {
  if (server === 'nginx') {
    return '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.27.3</center>\r\n</body>\r\n</html>\r\n';
  }
  return '404 page not found\n';
}

function execIn(c: ContainerRecord, argv: string[]): ProbeOutcome {
  const [cmd, ...args] = argv;
  if (!cmd) return { ok: false, output: 'no command' };
  if (/(^|\/)(ba)?sh$/.test(cmd) && args[0] === '-c') {
    const parts = (args.slice(1).join(' ') ?? '').split(/\s*(?:;|&&)\s*/).filter(Boolean);
    for (const p of parts) {
      const r = execIn(c, p.split(/\s+/));
      if (!r.ok) return r;
    }
    return { ok: true, output: '' };
  }
  const has = (p: string): boolean => c.files.includes(p);
  switch (cmd) {
    case 'cat':
      for (const p of args)
        if (!has(p))
          return { ok: false, output: `cat: can't open '${p}': No such file or directory` };
      return { ok: true, output: '' };
    case 'ls':
      for (const p of args.filter((a) => !a.startsWith('-'))) {
        if (!has(p)) return { ok: false, output: `ls: ${p}: No such file or directory` };
      }
      return { ok: true, output: '' };
    case 'test':
    case '[': {
      const p = args.find((a) => a.startsWith('/'));
      return p && !has(p) ? { ok: false, output: '' } : { ok: true, output: '' };
    }
    case 'false':
      return { ok: false, output: '' };
    case 'exit':
      return Number(args[0] ?? 0) === 0 ? { ok: true, output: '' } : { ok: false, output: '' };
    default:
      return { ok: true, output: '' };
  }
}
