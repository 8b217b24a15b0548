// Builds the PodStatus the kubelet reports (pkg/kubelet/kubelet_pods.go generateAPIPodStatus):
// phase from container states (getPhase), the five conditions, containerStatuses, IPs and QoS.

import type {
  Condition,
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

export function qosClass(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const cs = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
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
  const key = `${type}=${status}`;
  view.transitions[key] ??= view.nowIso;
  // A flip resets the other side's memory, so the next flip gets a fresh transition time.
  delete view.transitions[`${type}=${ok ? 'False' : 'True'}`];
  return {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: view.transitions[key],
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

export function buildPodStatus(pod: Pod, view: PodView): PodStatus {
  const phase = view.terminal ?? podPhase(pod.spec.restartPolicy ?? 'Always', view.containers);
  const notReady = view.containers.filter((c) => !c.ready).map((c) => c.name);
  const done = phase === 'Succeeded' || phase === 'Failed';
  const readyReason = done ? 'PodCompleted' : notReady.length ? 'ContainersNotReady' : undefined;
  const readyMessage =
    !done && notReady.length
      ? `containers with unready status: [${notReady.join(' ')}]`
      : undefined;
  const scheduled = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
  const conditions: Condition[] = [
    cond('PodReadyToStartContainers', view.sandboxReady, view),
    cond('Initialized', true, view),
    cond('Ready', !done && notReady.length === 0, view, readyReason, readyMessage),
    cond('ContainersReady', !done && notReady.length === 0, view, readyReason, readyMessage),
    // A static pod never passes the scheduler: the kubelet remembers when it first saw it, so a
    // converged mirror pod does not rewrite its status (and etcd) on every sync.
    scheduled ?? cond('PodScheduled', true, view),
  ];
  const containerStatuses: ContainerStatus[] = view.containers.map((c) => ({
    name: c.name,
    state: c.state,
    lastState: c.lastState,
    ready: c.ready,
    restartCount: c.restartCount,
    image: c.imageRef ?? c.image,
    imageID: c.imageID ?? '',
    ...(c.containerID ? { containerID: c.containerID } : {}),
    started: c.started,
  }));
  const status: PodStatus = {
    phase,
    conditions,
    hostIP: view.hostIP,
    hostIPs: [{ ip: view.hostIP }],
    ...(view.podIP ? { podIP: view.podIP, podIPs: [{ ip: view.podIP }] } : {}),
    ...(view.startTime ? { startTime: view.startTime } : {}),
    containerStatuses,
    qosClass: qosClass(pod),
  };
  return status;
}
