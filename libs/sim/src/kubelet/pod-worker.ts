// One pod's life on the node, as the kubelet's pod worker drives it: sandbox (CNI IP) -> volumes
// -> init containers one at a time (kuberuntime_manager.go computeInitContainerActions) -> per
// container: image -> create -> start -> probes, with crash and pull back-offs, and graceful
// termination. Each step is a timer (ctx.wakeAt), so sim time passes as on a real node.

import { isoAtRemembered } from '../shared/time';
import type { ConfigMap, Container, ContainerState, Pod, Probe, Secret } from '../model';
import type { ComponentContext } from '../runtime/component';
import type { ContainerRecord } from '../node/containerd';
import {
  invalidImageReason,
  lookupImage,
  normalizeImage,
  pullDurationMs,
} from '../node/image-registry';
import type { NodeHost } from '../node/node-host';
import { klogLine } from '../node/systemd';
import type { EventRecorder } from '../shared/event-recorder';
import type { BackoffTable } from './backoff';
import { backoffNext, formatGoDuration, isInBackOffSince, isInBackOffSinceUpdate } from './backoff';
import type { ContainerView } from './pod-status';
import { isRestartableInit } from './pod-status';
import type { ProbeKind, ProbeState } from './probes';
import { newProbeState, observeProbe, probeFailedMessage, probeSettings } from './probes';

export type ContainerStage =
  'image' | 'pulling' | 'create' | 'starting' | 'running' | 'killing' | 'exited' | 'done';

export interface ContainerRuntime {
  name: string;
  stage: ContainerStage;
  /** sim ms of the next thing to do for this container */
  nextAt: number;
  pullStartedAt?: number;
  pullDoneAt?: number;
  pullError?: string;
  pullSize?: number;
  containerId?: string;
  restartCount: number;
  waiting?: { reason: string; message?: string };
  lastTermination?: {
    exitCode: number;
    reason: string;
    startedAt: number;
    finishedAt: number;
    containerID: string;
  };
  probes: Partial<Record<ProbeKind, ProbeState>>;
  /** reason text of a pending kill (liveness/startup failure) */
  killReason?: string;
  /** a back-off window already announced by events (so repeats are not re-sent every sync) */
  announcedBackoffAt?: number;
  /** the startup probe has succeeded for the current container */
  startupSucceeded?: boolean;
  /** set for spec.initContainers (only, so app containers' saved state is unchanged) */
  init?: true;
  /** an init container has done its part: a regular one completed, a sidecar started once */
  initDone?: true;
  /** the termination before lastTermination (an init container's lastState once it completed) */
  priorTermination?: ContainerRuntime['lastTermination'];
}

export interface PodRuntime {
  uid: string;
  namespace: string;
  name: string;
  seenAt: number;
  startTime: string;
  sandboxAt: number;
  sandboxId?: string;
  podIP?: string;
  volumesReady: boolean;
  volumeRetryAt?: number;
  volumeFailures: number;
  containers: Record<string, ContainerRuntime>;
  transitions: Record<string, string>;
  terminatingSince?: number;
  killDeadline?: number;
  terminal?: 'Succeeded' | 'Failed';
  deleted?: boolean;
  /** the last status written to the API, to write only changes */
  postedStatus?: string;
  lastPhaseSummary?: string;
  /** trace seq the next action of this pod is caused by */
  cause?: number;
  /** set for static pods: the manifest they come from */
  staticFile?: string;
  /** every init container has done its part; only sidecars are looked after from now on */
  initialized?: true;
  /** the app containers of a finished pod are done: its sidecars are being stopped for good */
  stoppingSidecars?: true;
}

export interface WorkerEnv {
  ctx: ComponentContext;
  host: NodeHost;
  backoffs: BackoffTable;
  /** the kubelet's event correlator */
  events: EventRecorder;
  /** `periodic`: a probe tick of a healthy container (see ComponentContext.wakeAt) */
  wake(at: number, periodic?: boolean): void;
}

/** The probes, in the order the prober runs them at one instant. */
const PROBE_KINDS: readonly ProbeKind[] = ['startup', 'liveness', 'readiness'];

/** How long a terminated container shows as such before the next pod sync restarts or backs off. */
const EXIT_NOTICE_MS = 1_000;
/** CRI CreateContainer + StartContainer take a few hundred ms on a real node. */
const START_DELAY_MS = 300;

export function newPodRuntime(pod: Pod, now: number, nowIso: string, jitterMs: number): PodRuntime {
  return {
    uid: pod.metadata.uid as string,
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name as string,
    seenAt: now,
    startTime: nowIso,
    sandboxAt: now + jitterMs,
    volumesReady: false,
    volumeFailures: 0,
    containers: {},
    transitions: {},
  };
}

/**
 * A restarted kubelet knows nothing in memory; like the real one it rebuilds each pod's picture
 * from the container runtime (sandbox, IP, containers and restart counts) instead of starting over.
 */
export function adoptFromRuntime(host: NodeHost, pod: Pod, rt: PodRuntime, now: number): boolean {
  const sb = host.containerd.sandboxFor(rt.uid);
  if (!sb) return false;
  rt.sandboxId = sb.id;
  rt.podIP = pod.spec.hostNetwork ? host.internalIP : sb.ip;
  rt.sandboxAt = now;
  rt.volumesReady = true;
  if (pod.status?.startTime) rt.startTime = pod.status.startTime;
  const inits = pod.spec.initContainers ?? [];
  const specs = inits.length ? [...inits, ...pod.spec.containers] : pod.spec.containers;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as Container;
    const mine = host.containerd
      .listContainers({ podUid: rt.uid, all: true })
      .filter((c) => c.name === spec.name)
      .sort((a, b) => b.attempt - a.attempt);
    const cur = mine[0];
    if (!cur) continue;
    const prev = mine[1];
    const c: ContainerRuntime = {
      name: spec.name,
      stage: cur.state === 'exited' ? 'exited' : cur.state === 'running' ? 'running' : 'starting',
      nextAt: now,
      containerId: cur.id,
      restartCount: cur.attempt,
      probes: {},
      startupSucceeded: !spec.startupProbe,
      ...(i < inits.length ? { init: true as const } : {}),
    };
    if (prev && prev.state === 'exited') {
      c.lastTermination = {
        exitCode: prev.exitCode ?? 0,
        reason: prev.reason ?? 'Error',
        startedAt: prev.startedAt ?? now,
        finishedAt: prev.finishedAt ?? now,
        containerID: `containerd://${prev.id}`,
      };
    }
    if (cur.state === 'running' && (i >= inits.length || isRestartableInit(spec))) {
      // Probe workers start over: readiness is unknown (not ready) until the first probe passes.
      if (spec.startupProbe) {
        c.startupSucceeded = false;
        c.probes.startup = newProbeState('startup', probeSettings(spec.startupProbe), now);
      } else {
        if (spec.livenessProbe)
          c.probes.liveness = newProbeState('liveness', probeSettings(spec.livenessProbe), now);
        if (spec.readinessProbe)
          c.probes.readiness = newProbeState('readiness', probeSettings(spec.readinessProbe), now);
      }
    }
    rt.containers[spec.name] = c;
  }
  // Like computeInitContainerActions: an app container in the runtime means initialization
  // happened before, even when completed init containers have been removed since.
  if (inits.length && pod.spec.containers.some((s) => rt.containers[s.name])) {
    rt.initialized = true;
    for (const spec of inits) {
      const c = (rt.containers[spec.name] ??= newContainerRuntime(spec.name, now, true));
      c.initDone = true;
      if (!isRestartableInit(spec) && c.stage !== 'exited') c.stage = 'done';
    }
  }
  return true;
}

function newContainerRuntime(name: string, now: number, init: boolean): ContainerRuntime {
  return {
    name,
    stage: 'image',
    nextAt: now,
    restartCount: 0,
    probes: {},
    ...(init ? { init: true as const } : {}),
  };
}

function podRef(pod: Pod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace ?? 'default'}(${pod.metadata.uid})`;
}

function emit(
  env: WorkerEnv,
  rt: PodRuntime,
  verb: string,
  message: string,
  data?: Record<string, unknown>,
): void {
  rt.cause = env.ctx.trace.emit({
    component: 'kubelet',
    node: env.host.name,
    verb,
    object: { kind: 'Pod', namespace: rt.namespace, name: rt.name },
    message,
    causedBy: rt.cause,
    // (the trace store copies the fields it knows, leaving out undefined ones: no spread needed)
    data,
  });
}

function event(
  env: WorkerEnv,
  pod: Pod,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  container?: string,
): void {
  env.events.record(
    env.ctx.client,
    env.ctx.nowIso,
    { component: 'kubelet', host: env.host.name },
    {
      involved: pod,
      type,
      reason,
      message,
      // (the recorder treats a fieldPath left undefined as none: no spread needed)
      fieldPath: container ? fieldPathOf(pod, container) : undefined,
    },
  );
}

function isInitContainerName(pod: Pod, name: string): boolean {
  const inits = pod.spec.initContainers;
  if (inits === undefined) return false;
  for (const c of inits) if (c.name === name) return true;
  return false;
}

function fieldPathOf(pod: Pod, container: string): string {
  return isInitContainerName(pod, container)
    ? `spec.initContainers{${container}}`
    : `spec.containers{${container}}`;
}

/** How the kubelet words a container in its trace: init containers say so. */
function containerNoun(c: ContainerRuntime): string {
  return c.init ? 'init container' : 'container';
}

/**
 * The restart policy that applies to one container: a sidecar always restarts; a regular init
 * container never reruns after it succeeded, so the pod's Always acts as OnFailure for it.
 */
function containerRestartPolicy(pod: Pod, spec: Container, c: ContainerRuntime): string {
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (!c.init) return policy;
  if (isRestartableInit(spec)) return 'Always';
  return policy === 'Never' ? 'Never' : 'OnFailure';
}

/** Before a container exists the kubelet reports it waiting with this reason (convertToAPIContainerStatuses). */
function defaultWaitingReason(pod: Pod): string {
  const inits = pod.spec.initContainers;
  return inits !== undefined && inits.length > 0 ? 'PodInitializing' : 'ContainerCreating';
}

function journal(env: WorkerEnv, sev: 'I' | 'W' | 'E', file: string, msg: string): void {
  const pid = env.host.systemd.get('kubelet').mainPid;
  env.host.systemd.log(
    'kubelet',
    env.ctx.now,
    klogLine(sev, env.ctx.now, env.host.epochMs, pid, file, msg),
  );
}

function envOf(c: Container): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of c.env ?? []) if (e.value !== undefined) out[e.name] = e.value;
  return out;
}

function pullPolicy(c: Container): 'Always' | 'IfNotPresent' | 'Never' {
  if (c.imagePullPolicy) return c.imagePullPolicy;
  const r = normalizeImage(c.image);
  return !r.digest && r.tag === 'latest' ? 'Always' : 'IfNotPresent';
}

// ---------------------------------------------------------------- volumes and config

type Lookup = { ok: true } | { ok: false; message: string };

function getObject<T>(
  env: WorkerEnv,
  resource: string,
  namespace: string,
  name: string,
): T | null | 'unavailable' {
  const res = env.ctx.client.request({ verb: 'get', resource, namespace, name });
  if (res.code === 200) return res.body as T;
  if (res.code === 404) return null;
  return 'unavailable';
}

function checkVolumes(env: WorkerEnv, pod: Pod): Lookup {
  const ns = pod.metadata.namespace ?? 'default';
  for (const v of pod.spec.volumes ?? []) {
    if (v.configMap) {
      const cm = getObject<ConfigMap>(env, 'configmaps', ns, v.configMap.name);
      if (cm === null)
        return {
          ok: false,
          message: `MountVolume.SetUp failed for volume "${v.name}" : configmap "${v.configMap.name}" not found`,
        };
      if (cm === 'unavailable')
        return {
          ok: false,
          message: `MountVolume.SetUp failed for volume "${v.name}" : failed to sync configmap cache: timed out waiting for the condition`,
        };
    }
    if (v.secret) {
      const s = getObject<Secret>(env, 'secrets', ns, v.secret.secretName);
      if (s === null)
        return {
          ok: false,
          message: `MountVolume.SetUp failed for volume "${v.name}" : secret "${v.secret.secretName}" not found`,
        };
      if (s === 'unavailable')
        return {
          ok: false,
          message: `MountVolume.SetUp failed for volume "${v.name}" : failed to sync secret cache: timed out waiting for the condition`,
        };
    }
  }
  return { ok: true };
}

function checkEnv(env: WorkerEnv, pod: Pod, c: Container): Lookup {
  const ns = pod.metadata.namespace ?? 'default';
  for (const e of c.env ?? []) {
    const cmRef = e.valueFrom?.configMapKeyRef;
    if (cmRef) {
      const cm = getObject<ConfigMap>(env, 'configmaps', ns, cmRef.name);
      if (cm === null || cm === 'unavailable')
        return { ok: false, message: `configmap "${cmRef.name}" not found` };
      if (!(cmRef.key in (cm.data ?? {})))
        return {
          ok: false,
          message: `couldn't find key ${cmRef.key} in ConfigMap ${ns}/${cmRef.name}`,
        };
    }
    const sRef = e.valueFrom?.secretKeyRef;
    if (sRef) {
      const s = getObject<Secret>(env, 'secrets', ns, sRef.name);
      if (s === null || s === 'unavailable')
        return { ok: false, message: `secret "${sRef.name}" not found` };
      if (!(sRef.key in (s.data ?? {})))
        return { ok: false, message: `couldn't find key ${sRef.key} in Secret ${ns}/${sRef.name}` };
    }
  }
  const envFrom =
    (
      c as Container & {
        envFrom?: {
          configMapRef?: { name: string; optional?: boolean };
          secretRef?: { name: string; optional?: boolean };
        }[];
      }
    ).envFrom ?? [];
  for (const f of envFrom) {
    if (
      f.configMapRef &&
      !f.configMapRef.optional &&
      getObject(env, 'configmaps', ns, f.configMapRef.name) === null
    ) {
      return { ok: false, message: `configmap "${f.configMapRef.name}" not found` };
    }
    if (
      f.secretRef &&
      !f.secretRef.optional &&
      getObject(env, 'secrets', ns, f.secretRef.name) === null
    ) {
      return { ok: false, message: `secret "${f.secretRef.name}" not found` };
    }
  }
  return { ok: true };
}

// ---------------------------------------------------------------- the pod sync

/** One pass over a pod. Returns nothing; schedules its own next wake-up through env.wake. */
export function syncPod(env: WorkerEnv, pod: Pod, rt: PodRuntime): void {
  const { ctx, host } = env;
  const now = ctx.now;
  if (pod.metadata.deletionTimestamp) {
    terminatePod(env, pod, rt);
    return;
  }
  if (rt.terminal) return;

  // 1. sandbox + CNI
  if (!rt.sandboxId) {
    if (now < rt.sandboxAt) {
      env.wake(rt.sandboxAt);
      return;
    }
    const sb = host.containerd.runPodSandbox(
      { uid: rt.uid, name: rt.name, namespace: rt.namespace, labels: pod.metadata.labels },
      now,
      pod.spec.hostNetwork ? { hostNetworkIp: host.internalIP } : {},
    );
    rt.sandboxId = sb.id;
    rt.podIP = sb.ip;
    emit(
      env,
      rt,
      'create-sandbox',
      pod.spec.hostNetwork
        ? `Created pod sandbox for ${rt.namespace}/${rt.name} through CRI in the host network namespace (IP ${rt.podIP}, no CNI)`
        : `Created pod sandbox for ${rt.namespace}/${rt.name} through CRI; CNI assigned IP ${rt.podIP} from ${host.podCIDR}`,
      { sandboxId: rt.sandboxId, podIP: rt.podIP },
    );
    journal(
      env,
      'I',
      'kuberuntime_manager.go:1015',
      `"Created PodSandbox for pod" podSandboxID="${rt.sandboxId.slice(0, 13)}" pod="${rt.namespace}/${rt.name}"`,
    );
  }

  // 2. volumes (emptyDir/projected always work; configMap/secret must exist)
  if (!rt.volumesReady) {
    if (rt.volumeRetryAt !== undefined && now < rt.volumeRetryAt) {
      env.wake(rt.volumeRetryAt);
      return;
    }
    const v = checkVolumes(env, pod);
    if (!v.ok) {
      rt.volumeFailures++;
      event(env, pod, 'Warning', 'FailedMount', v.message);
      if (rt.volumeFailures === 1)
        emit(env, rt, 'mount-volumes', `Volume setup failed: ${v.message}`, { ok: false });
      // operationexecutor back-off: 500 ms doubling to 2m2s
      rt.volumeRetryAt = now + Math.min(500 * 2 ** rt.volumeFailures, 122_000);
      env.wake(rt.volumeRetryAt);
      return;
    }
    rt.volumesReady = true;
    const names = (pod.spec.volumes ?? []).map((x) => x.name);
    emit(
      env,
      rt,
      'mount-volumes',
      names.length ? `Mounted volumes ${names.join(', ')}` : 'No volumes to mount',
      { volumes: names },
    );
  }

  // 3. init containers, one at a time; app containers only once they all have done their part
  const inits = pod.spec.initContainers;
  if (inits !== undefined && inits.length > 0 && !syncInitContainers(env, pod, rt, inits)) return;

  // 4. containers, in order (an index loop: for-of over the frozen spec's list would take V8's
  // generic iterator, with an object per step)
  const specs = pod.spec.containers;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as Container;
    const c = (rt.containers[spec.name] ??= newContainerRuntime(spec.name, now, false));
    syncContainer(env, pod, rt, spec, c);
  }

  // 5. a pod whose containers are all done for good is terminal; its sandbox goes away
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Always') return;
  const all = pod.spec.containers.map((s) => rt.containers[s.name] as ContainerRuntime);
  if (all.every((c) => c.stage === 'done')) {
    // Sidecars outlive the app containers only until those are done; then they are stopped.
    if (inits !== undefined && inits.length > 0 && stopSidecars(env, pod, rt, inits)) return;
    const failed = all.some((c) => (c.lastTermination?.exitCode ?? 0) !== 0);
    rt.terminal = failed ? 'Failed' : 'Succeeded';
    if (rt.sandboxId) host.containerd.stopPodSandbox(rt.sandboxId);
    emit(
      env,
      rt,
      'pod-finished',
      `All containers of ${rt.namespace}/${rt.name} exited; pod ${rt.terminal}`,
      { phase: rt.terminal },
    );
  }
}

/**
 * computeInitContainerActions, forward: each init container starts once the one before it has
 * done its part (a regular one exited 0, a sidecar is started). Returns whether the pod is
 * initialized, i.e. its app containers may run.
 */
function syncInitContainers(env: WorkerEnv, pod: Pod, rt: PodRuntime, inits: Container[]): boolean {
  const now = env.ctx.now;
  if (rt.initialized) {
    if (rt.stoppingSidecars) return true;
    for (const spec of inits) {
      if (!isRestartableInit(spec)) continue;
      syncContainer(
        env,
        pod,
        rt,
        spec,
        (rt.containers[spec.name] ??= newContainerRuntime(spec.name, now, true)),
      );
    }
    return true;
  }
  for (let i = 0; i < inits.length; i++) {
    const spec = inits[i] as Container;
    const c = (rt.containers[spec.name] ??= newContainerRuntime(spec.name, now, true));
    syncContainer(env, pod, rt, spec, c);
    if (isRestartableInit(spec)) {
      if (!c.initDone && c.stage === 'running' && (!spec.startupProbe || c.startupSucceeded)) {
        c.initDone = true;
        emit(
          env,
          rt,
          'sidecar-started',
          `Sidecar ${spec.name} is started; the next container may start`,
          {
            container: spec.name,
            init: true,
            index: i,
          },
        );
      }
      if (!c.initDone) return false;
      continue;
    }
    if (c.stage !== 'done') return false;
    if ((c.lastTermination?.exitCode ?? 0) !== 0) {
      failInitialization(env, pod, rt, inits, spec);
      return false;
    }
  }
  rt.initialized = true;
  emit(
    env,
    rt,
    'pod-initialized',
    `All ${inits.length} init container${inits.length === 1 ? '' : 's'} of ${rt.namespace}/${rt.name} done; starting its app containers`,
    { initContainers: inits.length },
  );
  return true;
}

/** restartPolicy Never and an init container failed: the kubelet kills the pod (KillPod), which fails. */
function failInitialization(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  inits: Container[],
  failed: Container,
): void {
  const { host, ctx } = env;
  const grace = (pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
  for (const spec of [...inits].reverse()) {
    const rec = runningRecord(env, rt, spec.name);
    if (!rec) continue;
    event(env, pod, 'Normal', 'Killing', `Stopping container ${spec.name}`, spec.name);
    host.containerd.stopContainer(rec.id, ctx.now, grace);
  }
  rt.terminal = 'Failed';
  if (rt.sandboxId) host.containerd.stopPodSandbox(rt.sandboxId);
  emit(
    env,
    rt,
    'pod-finished',
    `Init container ${failed.name} of ${rt.namespace}/${rt.name} failed and restartPolicy is Never; pod Failed`,
    { phase: 'Failed', container: failed.name, init: true },
  );
}

function runningRecord(env: WorkerEnv, rt: PodRuntime, name: string): ContainerRecord | undefined {
  const id = rt.containers[name]?.containerId;
  const rec = id ? env.host.containerd.get(id) : undefined;
  return rec && rec.state === 'running' ? rec : undefined;
}

/**
 * The app containers of a finished pod are done: stop its sidecars, last to first. Returns true
 * while one still runs (the pod is not terminal until they are gone).
 */
function stopSidecars(env: WorkerEnv, pod: Pod, rt: PodRuntime, inits: Container[]): boolean {
  const now = env.ctx.now;
  if (!rt.stoppingSidecars) {
    rt.stoppingSidecars = true;
    // one grace period for all of them, as for a pod being deleted
    rt.killDeadline = now + (pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
    for (const spec of [...inits].reverse()) {
      if (!isRestartableInit(spec) || !runningRecord(env, rt, spec.name)) continue;
      event(env, pod, 'Normal', 'Killing', `Stopping container ${spec.name}`, spec.name);
      emit(
        env,
        rt,
        'kill-container',
        `Stopping sidecar ${spec.name}: the app containers are done`,
        {
          container: spec.name,
          init: true,
        },
      );
    }
  }
  return stopNextSidecar(env, rt, inits, Math.max(0, (rt.killDeadline ?? now) - now));
}

/**
 * terminationOrdering.waitForTurn: a sidecar gets its stop signal once every sidecar after it
 * has exited. Returns true while a sidecar still runs.
 */
function stopNextSidecar(
  env: WorkerEnv,
  rt: PodRuntime,
  inits: Container[],
  graceMs: number,
): boolean {
  for (let i = inits.length - 1; i >= 0; i--) {
    const spec = inits[i] as Container;
    if (!isRestartableInit(spec)) continue;
    const rec = runningRecord(env, rt, spec.name);
    if (!rec) continue;
    env.wake(env.host.containerd.stopContainer(rec.id, env.ctx.now, graceMs));
    return true;
  }
  return false;
}

function syncContainer(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  spec: Container,
  c: ContainerRuntime,
): void {
  const { ctx } = env;
  const now = ctx.now;
  // Several steps can happen at the same instant (e.g. image present -> create).
  for (let guard = 0; guard < 8; guard++) {
    if (c.nextAt > now && c.stage !== 'running' && c.stage !== 'killing') {
      env.wake(c.nextAt);
      return;
    }
    const before = c.stage;
    switch (c.stage) {
      case 'image':
        stepImage(env, pod, rt, spec, c);
        break;
      case 'pulling':
        stepPulled(env, pod, rt, spec, c);
        break;
      case 'create':
        stepCreate(env, pod, rt, spec, c);
        break;
      case 'starting':
        stepStart(env, pod, rt, spec, c);
        break;
      case 'running':
      case 'killing':
        stepRunning(env, pod, rt, spec, c);
        break;
      case 'exited':
        stepExited(env, pod, rt, spec, c);
        break;
      case 'done':
        return;
    }
    // No transition: the step has scheduled its own wake-up.
    if (c.stage === before) return;
  }
}

function stepImage(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  spec: Container,
  c: ContainerRuntime,
): void {
  const { ctx, host } = env;
  const now = ctx.now;
  const invalid = invalidImageReason(spec.image);
  if (invalid) {
    if (c.waiting?.reason !== 'InvalidImageName') {
      event(env, pod, 'Warning', 'InspectFailed', invalid, spec.name);
      event(env, pod, 'Warning', 'Failed', 'Error: InvalidImageName', spec.name);
      emit(env, rt, 'pull-image', `Image name "${spec.image}" is invalid`, {
        container: spec.name,
        ok: false,
      });
    }
    c.waiting = { reason: 'InvalidImageName', message: invalid };
    c.nextAt = now + 10_000;
    env.wake(c.nextAt);
    return;
  }
  const policy = pullPolicy(spec);
  const present = host.containerd.findImage(spec.image);
  if (present && policy !== 'Always') {
    event(
      env,
      pod,
      'Normal',
      'Pulled',
      `Container image "${spec.image}" already present on machine`,
      spec.name,
    );
    emit(env, rt, 'pull-image', `Container image "${spec.image}" already present on machine`, {
      container: spec.name,
      cached: true,
    });
    c.stage = 'create';
    c.nextAt = now;
    return;
  }
  if (!present && policy === 'Never') {
    const msg = `Container image "${spec.image}" is not present with pull policy of Never`;
    if (c.waiting?.reason !== 'ErrImageNeverPull') {
      event(env, pod, 'Warning', 'ErrImageNeverPull', msg, spec.name);
      event(env, pod, 'Warning', 'Failed', 'Error: ErrImageNeverPull', spec.name);
    }
    c.waiting = { reason: 'ErrImageNeverPull', message: msg };
    c.nextAt = now + 10_000;
    env.wake(c.nextAt);
    return;
  }
  const key = `${rt.uid}_${spec.image}`;
  if (isInBackOffSinceUpdate(env.backoffs, key, now)) {
    const entry = env.backoffs[key]!;
    const showBackoffAt = entry.lastUpdate + 1_000;
    if (now < showBackoffAt) {
      // The status still says ErrImagePull until the next pod sync notices the back-off.
      c.nextAt = showBackoffAt;
      env.wake(c.nextAt);
      return;
    }
    if (c.announcedBackoffAt !== entry.lastUpdate) {
      c.announcedBackoffAt = entry.lastUpdate;
      const msg = `Back-off pulling image "${spec.image}"`;
      event(env, pod, 'Normal', 'BackOff', msg, spec.name);
      event(env, pod, 'Warning', 'Failed', 'Error: ImagePullBackOff', spec.name);
      c.waiting = { reason: 'ImagePullBackOff', message: msg };
      emit(
        env,
        rt,
        'pull-backoff',
        `${msg}; next attempt in ${formatGoDuration(entry.lastUpdate + entry.backoffMs - now)}`,
        {
          container: spec.name,
          backoffMs: entry.backoffMs,
        },
      );
    }
    c.nextAt = entry.lastUpdate + entry.backoffMs;
    env.wake(c.nextAt);
    return;
  }
  // Pull: Pulling now, the result after the registry has answered (and the layers came down).
  const found = lookupImage(spec.image);
  const duration = found.ok
    ? pullDurationMs(found.image.sizeBytes, ctx.rng.next())
    : 300 + Math.round(ctx.rng.next() * 600);
  event(env, pod, 'Normal', 'Pulling', `Pulling image "${spec.image}"`, spec.name);
  emit(env, rt, 'pull-image', `Pulling image "${spec.image}"`, {
    container: spec.name,
    cached: false,
  });
  journal(env, 'I', 'image_manager.go:176', `"Pulling image" image="${spec.image}"`);
  if (!c.waiting) c.waiting = { reason: defaultWaitingReason(pod) };
  c.stage = 'pulling';
  c.pullStartedAt = now;
  c.pullDoneAt = now + duration;
  c.pullError = found.ok ? undefined : found.error;
  c.pullSize = found.ok ? found.image.sizeBytes : undefined;
  c.nextAt = c.pullDoneAt;
  env.wake(c.nextAt);
}

function stepPulled(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  spec: Container,
  c: ContainerRuntime,
): void {
  const { ctx, host } = env;
  const now = ctx.now;
  const took = formatGoDuration(now - (c.pullStartedAt ?? now));
  if (c.pullError) {
    const key = `${rt.uid}_${spec.image}`;
    const entry = backoffNext(env.backoffs, key, now, now);
    event(
      env,
      pod,
      'Warning',
      'Failed',
      `Failed to pull image "${spec.image}": ${c.pullError}`,
      spec.name,
    );
    event(env, pod, 'Warning', 'Failed', 'Error: ErrImagePull', spec.name);
    emit(env, rt, 'pull-failed', `Failed to pull image "${spec.image}": ${c.pullError}`, {
      container: spec.name,
      backoffMs: entry.backoffMs,
    });
    journal(
      env,
      'E',
      'pod_workers.go:1301',
      `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"${spec.name}\\" with ErrImagePull" pod="${rt.namespace}/${rt.name}"`,
    );
    c.waiting = { reason: 'ErrImagePull', message: c.pullError };
    c.stage = 'image';
    c.nextAt = now + 1_000;
    env.wake(c.nextAt);
    return;
  }
  host.containerd.storeImage(spec.image, now);
  const msg = `Successfully pulled image "${spec.image}" in ${took} (${took} including waiting). Image size: ${c.pullSize} bytes.`;
  event(env, pod, 'Normal', 'Pulled', msg, spec.name);
  emit(env, rt, 'pulled-image', msg, {
    container: spec.name,
    sizeBytes: c.pullSize,
    durationMs: now - (c.pullStartedAt ?? now),
  });
  c.stage = 'create';
  c.nextAt = now;
}

function stepCreate(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  spec: Container,
  c: ContainerRuntime,
): void {
  const { ctx, host } = env;
  const now = ctx.now;
  const cfg = checkEnv(env, pod, spec);
  if (!cfg.ok) {
    if (c.waiting?.reason !== 'CreateContainerConfigError' || c.waiting.message !== cfg.message) {
      emit(env, rt, 'create-container', `Cannot create container ${spec.name}: ${cfg.message}`, {
        container: spec.name,
        ok: false,
      });
    }
    event(env, pod, 'Warning', 'Failed', `Error: ${cfg.message}`, spec.name);
    c.waiting = { reason: 'CreateContainerConfigError', message: cfg.message };
    c.nextAt = now + 10_000;
    env.wake(c.nextAt);
    return;
  }
  const rec = host.containerd.createContainer(
    rt.sandboxId as string,
    {
      name: spec.name,
      image: spec.image,
      command: spec.command,
      args: spec.args,
      env: envOf(spec),
      ports: (spec.ports ?? []).map((p) => p.containerPort),
    },
    c.restartCount,
    now,
  );
  c.containerId = rec.id;
  event(env, pod, 'Normal', 'Created', `Created container ${spec.name}`, spec.name);
  emit(
    env,
    rt,
    'create-container',
    `Created ${containerNoun(c)} ${spec.name} (${rec.id.slice(0, 13)}) through CRI`,
    {
      container: spec.name,
      containerID: rec.id,
      ...(c.init ? { init: true } : {}),
    },
  );
  c.stage = 'starting';
  c.nextAt = now + START_DELAY_MS;
  env.wake(c.nextAt);
}

function stepStart(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  spec: Container,
  c: ContainerRuntime,
): void {
  const { ctx, host } = env;
  const now = ctx.now;
  const rec = host.containerd.startContainer(c.containerId as string, now);
  event(env, pod, 'Normal', 'Started', `Started container ${spec.name}`, spec.name);
  emit(env, rt, 'start-container', `Started ${containerNoun(c)} ${spec.name}`, {
    container: spec.name,
    containerID: rec.id,
    restartCount: c.restartCount,
    ...(c.init ? { init: true } : {}),
  });
  c.waiting = undefined;
  c.stage = 'running';
  c.probes = {};
  c.startupSucceeded = false;
  const started = rec.startedAt ?? now;
  // The prober manager has no workers for init containers that run to completion.
  const probed = !c.init || isRestartableInit(spec);
  if (probed && spec.startupProbe)
    c.probes.startup = newProbeState('startup', probeSettings(spec.startupProbe), started);
  else if (probed) {
    if (spec.livenessProbe)
      c.probes.liveness = newProbeState('liveness', probeSettings(spec.livenessProbe), started);
    if (spec.readinessProbe)
      c.probes.readiness = newProbeState('readiness', probeSettings(spec.readinessProbe), started);
  }
  c.nextAt = now;
}

function stepRunning(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  spec: Container,
  c: ContainerRuntime,
): void {
  const { ctx, host } = env;
  const now = ctx.now;
  const rec = host.containerd.get(c.containerId as string);
  if (!rec || rec.state === 'exited') {
    c.stage = 'exited';
    c.nextAt = now;
    return;
  }
  if (c.stage === 'killing') {
    const at = host.containerd.nextEventAt(rec.id);
    if (at !== null) env.wake(at);
    return;
  }
  // probes due now
  for (const kind of PROBE_KINDS) {
    const st = c.probes[kind];
    const probe = probeOf(spec, kind);
    if (!st || !probe) continue;
    if (st.nextAt > now) continue;
    const settings = probeSettings(probe);
    const outcome = runProbe(env, rt, rec, probe, kind, spec);
    const { state, changed } = observeProbe(st, settings, outcome.ok, now);
    c.probes[kind] = state;
    if (!outcome.ok) {
      event(env, pod, 'Warning', 'Unhealthy', probeFailedMessage(kind, outcome.output), spec.name);
      journal(
        env,
        'I',
        'prober.go:107',
        `"Probe failed" probeType="${kind[0]!.toUpperCase()}${kind.slice(1)}" pod="${rt.namespace}/${rt.name}" containerName="${spec.name}" probeResult="failure" output="${outcome.output.replace(/"/g, '\\"')}"`,
      );
    }
    if (changed || !outcome.ok) {
      emit(
        env,
        rt,
        'probe',
        `${kind} probe of ${spec.name}: ${outcome.ok ? 'success' : `failure (${outcome.output})`} -> ${state.result}`,
        {
          container: spec.name,
          probe: kind,
          ok: outcome.ok,
          result: state.result,
          consecutiveFailures: state.consecutiveFailures,
        },
      );
    }
    if (kind === 'startup' && changed && state.result === 'success') {
      const started = now;
      if (spec.livenessProbe)
        c.probes.liveness = newProbeState('liveness', probeSettings(spec.livenessProbe), started);
      if (spec.readinessProbe)
        c.probes.readiness = newProbeState(
          'readiness',
          probeSettings(spec.readinessProbe),
          started,
        );
      delete c.probes.startup;
      c.startupSucceeded = true;
    }
    if ((kind === 'liveness' || kind === 'startup') && state.result === 'failure') {
      const why = kind === 'liveness' ? 'liveness' : 'startup';
      // computeInitContainerActions words a sidecar's kill without the ", will be restarted".
      const msg = c.init
        ? `Init container ${spec.name} failed ${why} probe`
        : `Container ${spec.name} failed ${why} probe, will be restarted`;
      event(env, pod, 'Normal', 'Killing', msg, spec.name);
      emit(env, rt, 'kill-container', msg, { container: spec.name, reason: why });
      const grace =
        ((probe as Probe & { terminationGracePeriodSeconds?: number })
          .terminationGracePeriodSeconds ??
          pod.spec.terminationGracePeriodSeconds ??
          30) * 1000;
      const doneAt = host.containerd.stopContainer(rec.id, now, grace);
      c.stage = 'killing';
      c.killReason = why;
      env.wake(doneAt);
      return;
    }
  }
  // (for-in, not Object.values: no array per running container on every sync)
  for (const kind in c.probes) {
    const st = c.probes[kind as ProbeKind];
    if (st && Number.isFinite(st.nextAt))
      env.wake(st.nextAt, st.result === 'success' && st.consecutiveFailures === 0);
  }
  const exitAt = host.containerd.nextEventAt(rec.id);
  if (exitAt !== null) env.wake(exitAt);
}

function probeOf(spec: Container, kind: ProbeKind): Probe | undefined {
  return kind === 'startup'
    ? spec.startupProbe
    : kind === 'liveness'
      ? spec.livenessProbe
      : spec.readinessProbe;
}

function resolvePort(spec: Container, port: number | string): number {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return spec.ports?.find((p) => p.name === port)?.containerPort ?? NaN;
}

function runProbe(
  env: WorkerEnv,
  rt: PodRuntime,
  rec: ContainerRecord,
  probe: Probe,
  kind: ProbeKind,
  spec: Container,
): { ok: boolean; output: string } {
  const { host, ctx } = env;
  const podIp = rt.podIP as string;
  const ip = podIp;
  const gateway = `${host.podCIDR.split('.').slice(0, 3).join('.')}.1`;
  if (probe.httpGet) {
    const port = resolvePort(spec, probe.httpGet.port);
    // httpGet.host (static pods probe their node IP or 127.0.0.1): loopback is the pod itself.
    const asked = (probe.httpGet as { host?: string }).host;
    const ip = asked && asked !== '127.0.0.1' && asked !== 'localhost' ? asked : podIp;
    const path = probe.httpGet.path ?? '/';
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    const res = host.containerd.http(ip, port, path, ctx.now, {
      clientIp: gateway,
      userAgent: 'kube-probe/1.32',
      probe: kind,
    });
    if (!res.ok)
      return { ok: false, output: `Get "${scheme}://${ip}:${port}${path}": ${res.error}` };
    const status = res.status ?? 0;
    if (status >= 200 && status < 400) return { ok: true, output: '' };
    return { ok: false, output: `HTTP probe failed with statuscode: ${status}` };
  }
  if (probe.tcpSocket) {
    const port = resolvePort(spec, probe.tcpSocket.port);
    return host.containerd.tcp(ip, port, ctx.now);
  }
  if (probe.exec) {
    const r = host.containerd.exec(rec.id, probe.exec.command, ctx.now);
    return {
      ok: r.ok,
      output: r.output || `command ${JSON.stringify(probe.exec.command.join(' '))} exited with 1`,
    };
  }
  return { ok: true, output: '' };
}

function stepExited(
  env: WorkerEnv,
  pod: Pod,
  rt: PodRuntime,
  spec: Container,
  c: ContainerRuntime,
): void {
  const { ctx, host } = env;
  const now = ctx.now;
  const rec = host.containerd.get(c.containerId as string);
  if (
    rec &&
    rec.state === 'exited' &&
    (!c.lastTermination || c.lastTermination.containerID !== `containerd://${rec.id}`)
  ) {
    if (c.init) c.priorTermination = c.lastTermination;
    c.lastTermination = {
      exitCode: rec.exitCode ?? 0,
      reason: rec.reason ?? 'Error',
      startedAt: rec.startedAt ?? now,
      finishedAt: rec.finishedAt ?? now,
      containerID: `containerd://${rec.id}`,
    };
    emit(
      env,
      rt,
      'container-exited',
      `${c.init ? 'Init container' : 'Container'} ${spec.name} exited with code ${c.lastTermination.exitCode} (${c.lastTermination.reason})`,
      {
        container: spec.name,
        exitCode: c.lastTermination.exitCode,
        ...(c.init ? { init: true } : {}),
      },
    );
    c.probes = {};
    c.killReason = undefined;
    c.waiting = undefined;
    if (c.init && !isRestartableInit(spec)) {
      // The sync that sees a regular init container completed starts the next one at once;
      // one that failed under restartPolicy Never kills the pod in that same sync.
      if (c.lastTermination.exitCode === 0) {
        c.stage = 'done';
        c.initDone = true;
        return;
      }
      if (containerRestartPolicy(pod, spec, c) === 'Never') {
        c.stage = 'done';
        return;
      }
    }
    // The next pod sync (about a second later) decides on restart or back-off; until then the
    // status shows the container terminated (kubectl: Error / Completed).
    c.nextAt = now + EXIT_NOTICE_MS;
    env.wake(c.nextAt);
    return;
  }
  if (now < c.nextAt) {
    env.wake(c.nextAt);
    return;
  }
  const term = c.lastTermination;
  if (!term) {
    c.stage = 'image';
    c.nextAt = now;
    return;
  }
  const policy = containerRestartPolicy(pod, spec, c);
  const restart = policy === 'Always' || (policy === 'OnFailure' && term.exitCode !== 0);
  if (!restart) {
    c.stage = 'done';
    return;
  }
  const key = `${pod.metadata.name}_${rt.namespace}_${rt.uid}_${spec.name}`;
  if (isInBackOffSince(env.backoffs, key, term.finishedAt, now)) {
    const entry = env.backoffs[key]!;
    const msg = `back-off ${formatGoDuration(entry.backoffMs)} restarting failed container=${spec.name} pod=${podRef(pod)}`;
    if (c.announcedBackoffAt !== term.finishedAt) {
      c.announcedBackoffAt = term.finishedAt;
      event(
        env,
        pod,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${spec.name} in pod ${podRef(pod)}`,
        spec.name,
      );
      emit(env, rt, 'crash-backoff', msg, { container: spec.name, backoffMs: entry.backoffMs });
      journal(
        env,
        'E',
        'pod_workers.go:1301',
        `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"${spec.name}\\" with CrashLoopBackOff: \\"${msg}\\"" pod="${rt.namespace}/${rt.name}"`,
      );
    }
    c.waiting = { reason: 'CrashLoopBackOff', message: msg };
    c.nextAt = term.finishedAt + entry.backoffMs;
    env.wake(c.nextAt);
    return;
  }
  backoffNext(env.backoffs, key, term.finishedAt, now);
  c.restartCount += 1;
  c.stage = 'image';
  c.nextAt = now;
}

// ---------------------------------------------------------------- termination

function terminatePod(env: WorkerEnv, pod: Pod, rt: PodRuntime): void {
  const { ctx, host } = env;
  const now = ctx.now;
  if (rt.terminatingSince === undefined) {
    rt.terminatingSince = now;
    const grace =
      (pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30) *
      1000;
    rt.killDeadline = now + grace;
    emit(
      env,
      rt,
      'kill-pod',
      `Pod ${rt.namespace}/${rt.name} is being deleted: stopping its containers (grace period ${grace / 1000}s)`,
      { graceMs: grace },
    );
    // Every container hears of it at once; sidecars (last to first) are stopped only after the
    // app containers are gone (terminationOrdering), see stopNextSidecar below.
    const inits = pod.spec.initContainers;
    const order =
      inits !== undefined && inits.length > 0
        ? [...pod.spec.containers, ...[...inits].reverse()]
        : pod.spec.containers;
    for (const spec of order) {
      const c = rt.containers[spec.name];
      const rec = c?.containerId ? host.containerd.get(c.containerId) : undefined;
      if (rec && rec.state === 'running') {
        event(env, pod, 'Normal', 'Killing', `Stopping container ${spec.name}`, spec.name);
        if (!isRestartableInit(spec)) host.containerd.stopContainer(rec.id, now, grace);
      }
      if (c && c.stage !== 'done') c.stage = 'killing';
    }
  }
  const inits = pod.spec.initContainers;
  if (inits !== undefined && inits.length > 0 && now < (rt.killDeadline ?? now)) {
    const appsRunning = pod.spec.containers.some((s) => runningRecord(env, rt, s.name));
    if (!appsRunning) stopNextSidecar(env, rt, inits, (rt.killDeadline as number) - now);
  }
  const running = host.containerd.listContainers({ podUid: rt.uid });
  if (running.length > 0 && now < (rt.killDeadline ?? now)) {
    const ats = running.map((c) => host.containerd.nextEventAt(c.id) ?? Infinity);
    env.wake(Math.min(...ats, rt.killDeadline!));
    return;
  }
  if (rt.deleted) return;
  for (const c of running) host.containerd.stopContainer(c.id, now, 0);
  host.advanceTo(now + 1);
  for (const sb of host.containerd.listSandboxes().filter((s) => s.podUid === rt.uid)) {
    host.containerd.stopPodSandbox(sb.id);
    host.containerd.removePodSandbox(sb.id);
  }
  const res = ctx.client.request({
    verb: 'delete',
    resource: 'pods',
    namespace: rt.namespace,
    name: rt.name,
    query: { gracePeriodSeconds: 0 },
    causedBy: rt.cause,
  });
  if (res.code === 200 || res.code === 202 || res.code === 404) {
    rt.deleted = true;
    emit(
      env,
      rt,
      'delete-pod',
      `Containers of ${rt.namespace}/${rt.name} stopped; deleted the pod object (grace period 0)`,
      {},
    );
  } else {
    env.wake(now + 1_000);
  }
}

// ---------------------------------------------------------------- status view

export function containerViews(env: WorkerEnv, pod: Pod, rt: PodRuntime): ContainerView[] {
  const iso = (ms: number): string => isoAtRemembered(env.host.epochMs, ms);
  const waitingReason = defaultWaitingReason(pod);
  // (a loop, not map: map over the frozen spec's list takes V8's slow path, at every status sync)
  const specs = pod.spec.containers;
  const views: ContainerView[] = [];
  for (let i = 0; i < specs.length; i++)
    views.push(containerView(env, rt, specs[i] as Container, iso, waitingReason, false));
  return views;
}

/** The initContainerStatuses view, in spec order (only for pods that have init containers). */
export function initContainerViews(env: WorkerEnv, pod: Pod, rt: PodRuntime): ContainerView[] {
  const iso = (ms: number): string => isoAtRemembered(env.host.epochMs, ms);
  return (pod.spec.initContainers ?? []).map((spec) =>
    containerView(env, rt, spec, iso, 'PodInitializing', !isRestartableInit(spec)),
  );
}

/**
 * One container's status. `runsToCompletion` (a regular init container) follows the prober
 * manager's rule for those: ready once it exited 0, started only while it runs, never probed.
 */
function containerView(
  env: WorkerEnv,
  rt: PodRuntime,
  spec: Container,
  iso: (ms: number) => string,
  waitingReason: string,
  runsToCompletion: boolean,
): ContainerView {
  // Views are built for every status sync of every pod and only read field by field (into
  // toContainerStatus), so they are plain literals without spreads; the state objects, which go
  // into the status as they are, keep their key order.
  const { host, ctx } = env;
  const c = rt.containers[spec.name];
  const rec = c?.containerId ? host.containerd.get(c.containerId) : undefined;
  const restartCount = c?.restartCount ?? 0;
  const inBackoff = c?.stage === 'exited' && c.waiting !== undefined;
  if (
    !c ||
    inBackoff ||
    (c.stage !== 'running' &&
      c.stage !== 'killing' &&
      c.stage !== 'done' &&
      c.stage !== 'exited') ||
    !rec
  ) {
    const waiting = c?.waiting ?? { reason: waitingReason };
    const last = c?.lastTermination;
    const view: ContainerView = {
      name: spec.name,
      image: spec.image,
      restartCount,
      state: {
        waiting: waiting.message
          ? { reason: waiting.reason, message: waiting.message }
          : { reason: waiting.reason },
      },
      lastState: c?.lastTermination ? lastStateOfPrevious(c, iso) : {},
      ready: false,
      started: false,
    };
    if (last && rec) {
      view.imageRef = rec.imageRef;
      view.imageID = rec.imageDigest;
    }
    if (last) view.containerID = last.containerID;
    return view;
  }
  const containerID = `containerd://${rec.id}`;
  if (rec.state === 'running') {
    const startupOk = runsToCompletion || !spec.startupProbe || !!c.startupSucceeded;
    const ready =
      !runsToCompletion &&
      startupOk &&
      c.stage === 'running' &&
      (!spec.readinessProbe || c.probes.readiness?.result === 'success');
    return {
      name: spec.name,
      image: spec.image,
      restartCount,
      imageRef: rec.imageRef,
      imageID: rec.imageDigest,
      containerID,
      state: { running: { startedAt: iso(rec.startedAt ?? ctx.now) } },
      lastState:
        c.lastTermination && c.lastTermination.containerID !== containerID
          ? lastStateOfPrevious(c, iso)
          : {},
      ready,
      started: startupOk,
    };
  }
  // exited and not (yet) restarted: report it terminated
  const completed = runsToCompletion && (rec.exitCode ?? 0) === 0;
  const prior = c.priorTermination;
  return {
    name: spec.name,
    image: spec.image,
    restartCount,
    imageRef: rec.imageRef,
    imageID: rec.imageDigest,
    containerID,
    state: {
      terminated: {
        exitCode: rec.exitCode ?? 0,
        reason: rec.reason ?? 'Error',
        startedAt: iso(rec.startedAt ?? ctx.now),
        finishedAt: iso(rec.finishedAt ?? ctx.now),
        containerID: `containerd://${rec.id}`,
      },
    },
    lastState:
      prior && completed
        ? {
            terminated: {
              exitCode: prior.exitCode,
              reason: prior.reason,
              startedAt: iso(prior.startedAt),
              finishedAt: iso(prior.finishedAt),
              containerID: prior.containerID,
            },
          }
        : {},
    ready: completed,
    started: false,
  };
}

function lastStateOfPrevious(c: ContainerRuntime, iso: (ms: number) => string): ContainerState {
  const t = c.lastTermination!;
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      startedAt: iso(t.startedAt),
      finishedAt: iso(t.finishedAt),
      containerID: t.containerID,
    },
  };
}
