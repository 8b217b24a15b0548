// Pure rules of the job controller (k/k pkg/controller/job): how many pods should run, when a Job
// has failed (backoffLimit, activeDeadlineSeconds) or succeeded, and the back-off between
// replacements of failed pods (10 s doubling, capped at 10 min).

import type { Condition, Job, Pod } from '../model';

export const DEFAULT_BACKOFF_LIMIT = 6;
export const POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 600_000;

export const JOB_MESSAGES = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
  CompletionsReached: 'Reached expected number of succeeded pods',
} as const;

export interface ResolvedJob {
  parallelism: number;
  /** undefined: a work queue, done when any pod succeeded and none is active */
  completions?: number;
  backoffLimit: number;
  activeDeadlineSeconds?: number;
  restartPolicy: 'OnFailure' | 'Never' | 'Always';
  suspend: boolean;
}

export function resolveJob(job: Job): ResolvedJob {
  const s = job.spec;
  const bothUnset = s.completions === undefined && s.parallelism === undefined;
  return {
    parallelism: s.parallelism ?? 1,
    completions: s.completions ?? (bothUnset ? 1 : undefined),
    backoffLimit: s.backoffLimit ?? DEFAULT_BACKOFF_LIMIT,
    activeDeadlineSeconds: s.activeDeadlineSeconds,
    restartPolicy: s.template.spec.restartPolicy ?? 'Never',
    suspend: s.suspend === true,
  };
}

/** How many pods should be active now. */
export function wantActive(j: ResolvedJob, succeeded: number): number {
  if (j.suspend) return 0;
  if (j.completions === undefined) return succeeded > 0 ? 0 : j.parallelism;
  return Math.max(0, Math.min(j.parallelism, j.completions - succeeded));
}

export function isSucceeded(j: ResolvedJob, succeeded: number, active: number): boolean {
  if (j.completions === undefined) return succeeded > 0 && active === 0;
  return succeeded >= j.completions;
}

/** pastBackoffLimitOnFailure: container restarts of running pods count as failures. */
export function restartsOfActivePods(pods: Pod[]): number {
  let n = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const c of p.status?.containerStatuses ?? []) n += c.restartCount;
    for (const c of p.status?.initContainerStatuses ?? []) n += c.restartCount;
  }
  return n;
}

export function exceedsBackoffLimit(j: ResolvedJob, failed: number, activePods: Pod[]): boolean {
  if (failed > j.backoffLimit) return true;
  if (j.restartPolicy !== 'OnFailure') return false;
  const restarts = restartsOfActivePods(activePods);
  return j.backoffLimit === 0 ? restarts > 0 : restarts + failed > j.backoffLimit;
}

/** Delay before the next pod after `failures` consecutive failures. */
export function podFailureBackoffMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(MAX_POD_FAILURE_BACKOFF_MS, POD_FAILURE_BACKOFF_MS * 2 ** (failures - 1));
}

export function jobCondition(job: Job, type: string): Condition | undefined {
  return job.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

export function isJobFinished(job: Job): boolean {
  return Boolean(jobCondition(job, 'Complete') ?? jobCondition(job, 'Failed'));
}

export function newJobCondition(
  type: string,
  reason: string,
  message: string,
  nowIso: string,
): Condition {
  return {
    type,
    status: 'True',
    lastProbeTime: nowIso,
    lastTransitionTime: nowIso,
    reason,
    message,
  };
}
