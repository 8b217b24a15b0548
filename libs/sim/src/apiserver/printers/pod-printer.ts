// printPod (k/k pkg/printers/internalversion/printers.go): READY, STATUS (FIDELITY.md §6),
// RESTARTS with "(5m3s ago)", and the wide IP / NODE / NOMINATED NODE / READINESS GATES cells.

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, field, nameCol, num, rec, str } from './printer-types';

type Rec = Record<string, unknown>;

function isRestartable(c: Rec | undefined): boolean {
  return str(c?.restartPolicy) === 'Always';
}

function terminatedAt(cs: Rec): number {
  const fin = str(field(cs, 'lastState', 'terminated', 'finishedAt'));
  const t = fin ? Date.parse(fin) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

function hasCondition(status: Rec, type: string): boolean {
  return arr<Rec>(status.conditions).some((c) => c?.type === type && c?.status === 'True');
}

/** The STATUS, READY and RESTARTS cells of one pod. */
export function podStatusCells(pod: KubeObject, now: number): [string, string, string] {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const containers = arr<Rec>(spec.containers);
  const initSpecs = arr<Rec>(spec.initContainers);
  let restarts = 0;
  let restartableInitRestarts = 0;
  let totalContainers = containers.length;
  let readyContainers = 0;
  let lastRestart = 0;
  let lastRestartableInitRestart = 0;
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const c of arr<Rec>(status.conditions)) {
    if (c?.type === 'PodScheduled' && c?.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initByName = new Map<string, Rec>();
  for (const c of initSpecs) {
    initByName.set(str(c?.name), c);
    if (isRestartable(c)) totalContainers++;
  }
  let initializing = false;
  const initStatuses = arr<Rec>(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = rec(initStatuses[i]);
    restarts += num(cs.restartCount);
    lastRestart = Math.max(lastRestart, terminatedAt(cs));
    const restartable = isRestartable(initByName.get(str(cs.name)));
    if (restartable) {
      restartableInitRestarts += num(cs.restartCount);
      lastRestartableInitRestart = Math.max(lastRestartableInitRestart, terminatedAt(cs));
    }
    const term = field(cs, 'state', 'terminated') as Rec | undefined;
    const waiting = field(cs, 'state', 'waiting') as Rec | undefined;
    if (term && num(term.exitCode) === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready === true) readyContainers++;
      continue;
    }
    if (term) {
      if (!str(term.reason)) {
        reason = num(term.signal)
          ? `Init:Signal:${num(term.signal)}`
          : `Init:ExitCode:${num(term.exitCode)}`;
      } else reason = `Init:${str(term.reason)}`;
    } else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }
  if (!initializing || hasCondition(status, 'Initialized')) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = arr<Rec>(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = rec(statuses[i]);
      restarts += num(cs.restartCount);
      lastRestart = Math.max(lastRestart, terminatedAt(cs));
      const waiting = field(cs, 'state', 'waiting') as Rec | undefined;
      const term = field(cs, 'state', 'terminated') as Rec | undefined;
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (term && str(term.reason)) reason = str(term.reason);
      else if (term) {
        reason = num(term.signal) ? `Signal:${num(term.signal)}` : `ExitCode:${num(term.exitCode)}`;
      } else if (cs.ready === true && field(cs, 'state', 'running')) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = hasCondition(status, 'Ready') ? 'Running' : 'NotReady';
    }
  }
  const deleting = !!field(pod, 'metadata', 'deletionTimestamp');
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestart !== 0) {
    restartsStr = `${restarts} (${timestampSince(new Date(lastRestart).toISOString(), now)} ago)`;
  }
  return [`${readyContainers}/${totalContainers}`, reason, restartsStr];
}

function readinessGates(pod: KubeObject): string {
  const gates = arr<Rec>(field(pod, 'spec', 'readinessGates'));
  if (gates.length === 0) return '<none>';
  const conds = arr<Rec>(field(pod, 'status', 'conditions'));
  const ok = gates.filter((g) =>
    conds.some((c) => c?.type === g?.conditionType && c?.status === 'True'),
  ).length;
  return `${ok}/${gates.length}`;
}

export const podPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'The aggregate status of the containers in this pod.'),
    col(
      'Restarts',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    ageCol(),
    col('IP', 'podIP is the IP address allocated to the pod.', 1),
    col('Node', 'NodeName indicates in which node this pod is scheduled.', 1),
    col('Nominated Node', 'nominatedNodeName is set only when this pod preempts other pods.', 1),
    col(
      'Readiness Gates',
      'If specified, all readiness gates will be evaluated for pod readiness.',
      1,
    ),
  ],
  row(pod: KubeObject, ctx: PrintContext) {
    const [ready, status, restarts] = podStatusCells(pod, ctx.now);
    const ips = arr<Rec>(field(pod, 'status', 'podIPs'));
    const ip = str(ips[0]?.ip) || str(field(pod, 'status', 'podIP')) || '<none>';
    return [
      str(pod.metadata?.name),
      ready,
      status,
      restarts,
      timestampSince(pod.metadata?.creationTimestamp, ctx.now),
      ip,
      str(field(pod, 'spec', 'nodeName')) || '<none>',
      str(field(pod, 'status', 'nominatedNodeName')) || '<none>',
      readinessGates(pod),
    ];
  },
};
