// printPod (k/k pkg/printers/internalversion/printers.go): READY, STATUS (FIDELITY.md §6),
// RESTARTS with "(5m3s ago)", and the wide IP / NODE / NOMINATED NODE / READINESS GATES cells.

import type { KubeObject } from '../../model';
import { humanDuration } from './human-duration';
import { renderRow } from './render-row';
import type { PreparedRow, PrintContext, ResourcePrinter, TimedCell } from './printer-types';
import { ageCol, col, field, instant, nameCol, num, rec, str } from './printer-types';

type Rec = Record<string, unknown>;

function isRestartable(c: Rec | undefined): boolean {
  return str(c?.restartPolicy) === 'Always';
}

const NO_RECS: Rec[] = [];

/** Fast typed access: this printer runs once per pod of every `kubectl get pods` (3,000+ rows). */
function recs(v: unknown): Rec[] {
  return Array.isArray(v) ? (v as Rec[]) : NO_RECS;
}

function terminatedAt(cs: Rec): number {
  const fin = str(((cs.lastState as Rec | undefined)?.terminated as Rec | undefined)?.finishedAt);
  if (!fin) return 0;
  const t = Date.parse(fin);
  return Number.isNaN(t) ? 0 : t;
}

function hasCondition(status: Rec, type: string): boolean {
  for (const c of recs(status.conditions))
    if (c?.type === type && c?.status === 'True') return true;
  return false;
}

interface PodStatusParts {
  ready: string;
  reason: string;
  restarts: number;
  /** when the last restarted container last terminated (epoch ms), 0 when unknown */
  lastRestart: number;
}

/** The STATUS, READY and RESTARTS cells of one pod. */
export function podStatusCells(pod: KubeObject, now: number): [string, string, string] {
  const p = podStatusParts(pod);
  const restarts =
    p.restarts !== 0 && p.lastRestart !== 0
      ? `${p.restarts} (${humanDuration(now - p.lastRestart)} ago)`
      : String(p.restarts);
  return [p.ready, p.reason, restarts];
}

/** printPod's READY, STATUS and restart count, everything of it that does not move with time. */
function podStatusParts(pod: KubeObject): PodStatusParts {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const containers = recs(spec.containers);
  const initSpecs = recs(spec.initContainers);
  let restarts = 0;
  let restartableInitRestarts = 0;
  let totalContainers = containers.length;
  let readyContainers = 0;
  let lastRestart = 0;
  let lastRestartableInitRestart = 0;
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const c of recs(status.conditions)) {
    if (c?.type === 'PodScheduled' && c?.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initByName = new Map<string, Rec>();
  for (const c of initSpecs) {
    initByName.set(str(c?.name), c);
    if (isRestartable(c)) totalContainers++;
  }
  let initializing = false;
  const initStatuses = recs(status.initContainerStatuses);
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
    const statuses = recs(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = rec(statuses[i]);
      restarts += num(cs.restartCount);
      lastRestart = Math.max(lastRestart, terminatedAt(cs));
      const state = cs.state as Rec | undefined;
      const waiting = state?.waiting as Rec | undefined;
      const term = state?.terminated as Rec | undefined;
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (term && str(term.reason)) reason = str(term.reason);
      else if (term) {
        reason = num(term.signal) ? `Signal:${num(term.signal)}` : `ExitCode:${num(term.exitCode)}`;
      } else if (cs.ready === true && state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = hasCondition(status, 'Ready') ? 'Running' : 'NotReady';
    }
  }
  const deleting = !!pod.metadata?.deletionTimestamp;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  return { ready: `${readyContainers}/${totalContainers}`, reason, restarts, lastRestart };
}

function readinessGates(pod: KubeObject): string {
  const gates = recs((pod.spec as Rec | undefined)?.readinessGates);
  if (gates.length === 0) return '<none>';
  const conds = recs((pod.status as Rec | undefined)?.conditions);
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
  row: (pod: KubeObject, ctx: PrintContext) => renderRow(preparePod(pod), ctx.now),
  prepare: preparePod,
};

const RESTARTS = 3;
const AGE = 4;

function preparePod(pod: KubeObject): PreparedRow {
  const p = podStatusParts(pod);
  const st = pod.status as Rec | undefined;
  const ips = recs(st?.podIPs);
  const ip = str(ips[0]?.ip) || str(st?.podIP) || '<none>';
  const cells = [
    str(pod.metadata?.name),
    p.ready,
    p.reason,
    String(p.restarts),
    '',
    ip,
    str((pod.spec as Rec | undefined)?.nodeName) || '<none>',
    str(st?.nominatedNodeName) || '<none>',
    readinessGates(pod),
  ];
  const age: TimedCell = {
    index: AGE,
    at: instant(pod.metadata?.creationTimestamp),
    before: '',
    after: '',
  };
  // "5 (3m2s ago)": the age of the last restart moves with the clock too
  if (p.restarts !== 0 && p.lastRestart !== 0) {
    const restarted: TimedCell = {
      index: RESTARTS,
      at: p.lastRestart,
      before: `${p.restarts} (`,
      after: ' ago)',
    };
    return { cells, timed: [restarted, age] };
  }
  return { cells, timed: [age] };
}
