// Builds the PodStatus the kubelet reports (pkg/kubelet/kubelet_pods.go generateAPIPodStatus):
// phase from container states (getPhase), the five conditions (pkg/kubelet/status/generate.go),
// containerStatuses and initContainerStatuses, IPs and QoS.

import type {
  Condition,
  Container,
  ContainerState,
  ContainerStatus,
  Pod,
  PodPhase,
  PodStatus,
} from '../model';
import { parseQuantity } from '../shared/quantity';

/** What the kubelet knows about one container, independent of the API shapes. */
export interface ContainerView {
  name: string;
  image: string;
  imageRef?: string;
  imageID?: string;
  containerID?: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  started: boolean;
  restartCount: number;
}

export interface PodView {
  hostIP: string;
  podIP?: string;
  startTime?: string;
  sandboxReady: boolean;
  containers: ContainerView[];
  /** in spec.initContainers order; only for pods that have init containers */
  initContainers?: ContainerView[];
  /** when each condition last changed, kept by the kubelet between syncs */
  transitions: Record<string, string>;
  nowIso: string;
  /** the pod has finished for good (terminal phase reached before) */
  terminal?: PodPhase;
}

/** getPhase (kubelet_pods.go) for pods without init containers. */
export function podPhase(restartPolicy: string, containers: ContainerView[]): PodPhase {
  let waiting = 0;
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of containers) {
    if (c.state.running) running++;
    else if (c.state.terminated) {
      stopped++;
      if (c.state.terminated.exitCode === 0) succeeded++;
    } else if (c.state.waiting) {
      if (c.lastState.terminated) stopped++;
      else waiting++;
    } else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** A sidecar: an init container with restartPolicy Always (kubetypes.IsRestartableInitContainer). */
export function isRestartableInit(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

/**
 * getPhase (kubelet_pods.go, v1.32) for pods with init containers. Regular init containers that
 * have not completed keep the pod Pending; a failed one fails the pod only under
 * restartPolicy Never. Sidecars count as running containers but never as stopped ones.
 */
export function podPhaseWithInit(
  pod: Pod,
  initViews: ContainerView[],
  appViews: ContainerView[],
): PodPhase {
  const restartPolicy = pod.spec.restartPolicy ?? 'Always';
  const initSpecs = pod.spec.initContainers ?? [];
  let pendingInitialization = 0;
  let failedInitialization = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  initSpecs.forEach((spec, i) => {
    const cs = initViews[i];
    if (!cs) return;
    if (isRestartableInit(spec)) {
      if (cs.state.running) {
        if (!cs.started) pendingInitialization++;
        running++;
      } else if (!cs.state.terminated && !cs.lastState.terminated) {
        pendingInitialization++;
        waiting++;
      }
      return;
    }
    if (cs.state.running) pendingInitialization++;
    else if (cs.state.terminated) {
      if (cs.state.terminated.exitCode !== 0) failedInitialization++;
    } else if (cs.lastState.terminated) {
      if (cs.lastState.terminated.exitCode !== 0) failedInitialization++;
    } else pendingInitialization++;
  });
  let anyRegularStarted = false;
  for (const cs of appViews) {
    if (cs.state.running) {
      running++;
      anyRegularStarted = true;
    } else if (cs.state.terminated) {
      stopped++;
      anyRegularStarted = true;
      if (cs.state.terminated.exitCode === 0) succeeded++;
    } else if (cs.lastState.terminated) stopped++;
    else waiting++;
  }
  if (failedInitialization > 0 && restartPolicy === 'Never') return 'Failed';
  // A pod whose app containers have run stays out of Pending while a sidecar restarts.
  if ((pendingInitialization > 0 && !anyRegularStarted) || waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** GeneratePodInitializedCondition: regular init containers must have completed, sidecars started. */
function initializedCondition(
  pod: Pod,
  view: PodView,
  phase: PodPhase,
): { ok: boolean; reason?: string; message?: string } {
  const initSpecs = pod.spec.initContainers ?? [];
  const initViews = view.initContainers ?? [];
  if (initSpecs.length === 0) return { ok: true };
  const incomplete: string[] = [];
  initSpecs.forEach((spec, i) => {
    const cs = initViews[i];
    const done = isRestartableInit(spec) ? cs?.started === true : cs?.ready === true;
    if (!done) incomplete.push(spec.name);
  });
  if (phase === 'Succeeded') return { ok: true, reason: 'PodCompleted' };
  // Once an app container has run, a restarting sidecar does not un-initialize the pod.
  if (view.containers.some((c) => c.state.running || c.state.terminated)) return { ok: true };
  if (incomplete.length === 0) return { ok: true };
  return {
    ok: false,
    reason: 'ContainersNotInitialized',
    message: `containers with incomplete status: [${incomplete.join(' ')}]`,
  };
}

type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/**
 * Each status sync of each pod asks; a frozen spec (the informer's, a static pod's) cannot change,
 * so its answer is kept beside it.
 */
const frozenSpecQos = new WeakMap<Pod['spec'], QosClass>();

export function qosClass(pod: Pod): QosClass {
  const spec = pod.spec;
  if (!Object.isFrozen(spec) || !Object.isFrozen(spec.containers)) return computeQosClass(spec);
  let qos = frozenSpecQos.get(spec);
  if (qos === undefined) {
    qos = computeQosClass(spec);
    frozenSpecQos.set(spec, qos);
  }
  return qos;
}

function computeQosClass(spec: Pod['spec']): QosClass {
  const cs = [...(spec.initContainers ?? []), ...spec.containers];
  let any = false;
  let guaranteed = true;
  for (const c of cs) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || q === undefined || parseQuantity(l) !== parseQuantity(q))
        guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function cond(
  type: string,
  ok: boolean,
  view: PodView,
  reason?: string,
  message?: string,
): Condition {
  const status = ok ? 'True' : 'False';
  const keys = transitionKeys(type);
  const key = ok ? keys.ifTrue : keys.ifFalse;
  view.transitions[key] ??= view.nowIso;
  // A flip resets the other side's memory, so the next flip gets a fresh transition time. (The
  // times are strings: a missing one needs no delete, which would slow the object down.)
  const other = ok ? keys.ifFalse : keys.ifTrue;
  if (view.transitions[other] !== undefined) delete view.transitions[other];
  // five of these per status sync of every pod: no spreads
  const condition: Condition = {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: view.transitions[key],
  };
  if (reason) condition.reason = reason;
  if (message) condition.message = message;
  return condition;
}

/** `<type>=True` and `<type>=False`, the keys of a condition's transition times, made once. */
const conditionKeys = new Map<string, { ifTrue: string; ifFalse: string }>();

function transitionKeys(type: string): { ifTrue: string; ifFalse: string } {
  let keys = conditionKeys.get(type);
  if (keys === undefined) {
    keys = { ifTrue: `${type}=True`, ifFalse: `${type}=False` };
    conditionKeys.set(type, keys);
  }
  return keys;
}

function toContainerStatus(c: ContainerView): ContainerStatus {
  // (two literals rather than a spread: the key order is the text's, and this runs per sync)
  return c.containerID
    ? {
        name: c.name,
        state: c.state,
        lastState: c.lastState,
        ready: c.ready,
        restartCount: c.restartCount,
        image: c.imageRef ?? c.image,
        imageID: c.imageID ?? '',
        containerID: c.containerID,
        started: c.started,
      }
    : {
        name: c.name,
        state: c.state,
        lastState: c.lastState,
        ready: c.ready,
        restartCount: c.restartCount,
        image: c.imageRef ?? c.image,
        imageID: c.imageID ?? '',
        started: c.started,
      };
}

function scheduledCondition(pod: Pod): Condition | undefined {
  const conditions = pod.status?.conditions;
  if (conditions === undefined) return undefined;
  // (an index loop: for-of over the frozen list would take V8's generic iterator, an object a step)
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i] as Condition;
    if (c.type === 'PodScheduled') return c;
  }
  return undefined;
}

export function buildPodStatus(pod: Pod, view: PodView): PodStatus {
  const initViews = view.initContainers;
  const phase =
    view.terminal ??
    (initViews
      ? podPhaseWithInit(pod, initViews, view.containers)
      : podPhase(pod.spec.restartPolicy ?? 'Always', view.containers));
  const notReady: string[] = [];
  // Sidecars come first in the unready list (GenerateContainersReadyCondition).
  if (initViews)
    (pod.spec.initContainers ?? []).forEach((spec, i) => {
      if (isRestartableInit(spec) && !initViews[i]?.ready) notReady.push(spec.name);
    });
  for (const c of view.containers) if (!c.ready) notReady.push(c.name);
  const done = phase === 'Succeeded' || phase === 'Failed';
  const readyReason = done ? 'PodCompleted' : notReady.length ? 'ContainersNotReady' : undefined;
  const readyMessage =
    !done && notReady.length
      ? `containers with unready status: [${notReady.join(' ')}]`
      : undefined;
  const scheduled = scheduledCondition(pod);
  const initialized = initViews ? initializedCondition(pod, view, phase) : { ok: true };
  const conditions: Condition[] = [
    cond('PodReadyToStartContainers', view.sandboxReady, view),
    cond('Initialized', initialized.ok, view, initialized.reason, initialized.message),
    cond('Ready', !done && notReady.length === 0, view, readyReason, readyMessage),
    cond('ContainersReady', !done && notReady.length === 0, view, readyReason, readyMessage),
    // A static pod never passes the scheduler: the kubelet remembers when it first saw it, so a
    // converged mirror pod does not rewrite its status (and etcd) on every sync.
    scheduled ?? cond('PodScheduled', true, view),
  ];
  // built key by key in the text's order (no spreads: this runs for every sync of every pod)
  const status: PodStatus = {
    phase,
    conditions,
    hostIP: view.hostIP,
    hostIPs: [{ ip: view.hostIP }],
  };
  if (view.podIP) {
    status.podIP = view.podIP;
    status.podIPs = [{ ip: view.podIP }];
  }
  if (view.startTime) status.startTime = view.startTime;
  if (initViews) status.initContainerStatuses = initViews.map(toContainerStatus);
  status.containerStatuses = view.containers.map(toContainerStatus);
  status.qosClass = qosClass(pod);
  return status;
}
