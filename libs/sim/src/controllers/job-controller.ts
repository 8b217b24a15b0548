// The job controller (k/k pkg/controller/job): runs pods to completion. It keeps up to
// `parallelism` pods active until `completions` of them succeeded, replaces failed pods with a
// growing back-off, and gives up after backoffLimit failures. As in v1.31+, it first adds
// SuccessCriteriaMet / FailureTarget and the terminal Complete / Failed once no pod runs.

import type { WatchEvent } from '../client/api-client';
import type { Condition, Job, OwnerReference, Pod } from '../model';
import { stableStringify } from '../shared/hash';
import { parseIso } from '../shared/time';
import type { ObservedChange } from '../runtime/component';
import type { Pass } from './base-controller';
import {
  BaseController,
  controllerRef,
  deepClone,
  errorText,
  isOk,
  keyOf,
  lookup,
  refOf,
  splitKey,
  type SyncResult,
} from './base-controller';
import { byControllerUid, LazyIndex } from './indexer';
import {
  exceedsBackoffLimit,
  isJobFinished,
  isSucceeded,
  JOB_MESSAGES,
  newJobCondition,
  podFailureBackoffMs,
  resolveJob,
  wantActive,
} from './job-util';
import { isPodReady } from './pod-util';

interface Tracking {
  succeeded: string[];
  failed: string[];
  consecutiveFailures: number;
  lastFailureAt: number;
}

type JobStatus = NonNullable<Job['status']> & {
  terminating?: number;
  uncountedTerminatedPods?: Record<string, string[]>;
};

export class JobController extends BaseController {
  readonly controllerName = 'job';
  readonly eventSource = 'job-controller';
  readonly periodMs = 10_000;
  private readonly podsByOwner = new LazyIndex(byControllerUid, () => this.informer('pods'));
  private tracking = new Map<string, Tracking>();

  constructor() {
    super(['jobs', 'pods']);
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (resource === 'pods') this.podsByOwner.apply(events);
  }

  /** Only a Job's own pods (before or after the change) concern it. */
  override wakeOn({ resource, object, prev }: ObservedChange): boolean {
    if (resource !== 'pods') return true;
    return (
      controllerRef(object)?.kind === 'Job' ||
      (prev !== undefined && controllerRef(prev)?.kind === 'Job')
    );
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    if (resource === 'jobs') return [keyOf(ev.object)];
    const ref = controllerRef(ev.object);
    return ref?.kind === 'Job' ? [`${ev.object.metadata.namespace}/${ref.name}`] : [];
  }

  protected allKeys(): string[] {
    return this.informer<Job>('jobs').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const { namespace, name } = splitKey(key);
    const cached = this.informer<Job>('jobs').get(namespace, name);
    if (!cached) return 'done';
    const uid = cached.metadata.uid ?? '';
    if (isJobFinished(cached) || cached.metadata.deletionTimestamp) {
      this.tracking.delete(uid);
      return 'done';
    }
    const job = deepClone(cached);
    const j = resolveJob(job);
    const pods = lookup(this.informer<Pod>('pods'), this.podsByOwner.sortedKeys(uid));
    const terminal = pods.filter(
      (p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed',
    );
    // Count each finished pod once, even if it is deleted later.
    let t = this.tracking.get(uid);
    if (!t) {
      t = { succeeded: [], failed: [], consecutiveFailures: 0, lastFailureAt: 0 };
      if (job.status?.startTime) {
        // A restarted controller: what is already finished is already in the status.
        t.succeeded = terminal
          .filter((p) => p.status?.phase === 'Succeeded')
          .map((p) => p.metadata.uid as string);
        t.failed = terminal
          .filter((p) => p.status?.phase === 'Failed')
          .map((p) => p.metadata.uid as string);
      }
      this.tracking.set(uid, t);
    }
    const addedS: string[] = [];
    const addedF: string[] = [];
    for (const p of terminal.sort((a, b) =>
      (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
    )) {
      const puid = p.metadata.uid as string;
      if (p.status?.phase === 'Succeeded' && !t.succeeded.includes(puid)) addedS.push(puid);
      else if (p.status?.phase === 'Failed' && !t.failed.includes(puid)) addedF.push(puid);
    }
    const newSucceeded = addedS.length;
    const newFailed = addedF.length;
    const tracked = t;
    // Counted pods are remembered only once the status carrying them was written.
    const commit = (): void => {
      tracked.succeeded.push(...addedS);
      tracked.failed.push(...addedF);
      if (newFailed > 0) {
        tracked.consecutiveFailures += newFailed;
        tracked.lastFailureAt = pass.now;
      }
      if (newSucceeded > 0) tracked.consecutiveFailures = 0;
    };
    const consecutive = newSucceeded > 0 ? 0 : t.consecutiveFailures + newFailed;
    const lastFailureAt = newFailed > 0 ? pass.now : t.lastFailureAt;
    const succeeded = (job.status?.succeeded ?? 0) + newSucceeded;
    const failed = (job.status?.failed ?? 0) + newFailed;
    const active = pods.filter(
      (p) =>
        !p.metadata.deletionTimestamp &&
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed',
    );
    const terminating = pods.filter(
      (p) =>
        p.metadata.deletionTimestamp &&
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed',
    );

    const status: JobStatus = deepClone(job.status ?? {}) as JobStatus;
    const conditions: Condition[] = status.conditions ?? [];
    const nowIso = pass.ctx.nowIso;
    if (!status.startTime && !j.suspend) status.startTime = nowIso;

    // Decide whether the Job met its success or failure criteria.
    let target = conditions.find(
      (c) => (c.type === 'FailureTarget' || c.type === 'SuccessCriteriaMet') && c.status === 'True',
    );
    if (!target) {
      if (exceedsBackoffLimit(j, failed, active)) {
        target = newJobCondition(
          'FailureTarget',
          'BackoffLimitExceeded',
          JOB_MESSAGES.BackoffLimitExceeded,
          nowIso,
        );
      } else if (
        j.activeDeadlineSeconds !== undefined &&
        status.startTime &&
        parseIso(nowIso) - parseIso(status.startTime) >= j.activeDeadlineSeconds * 1000
      ) {
        target = newJobCondition(
          'FailureTarget',
          'DeadlineExceeded',
          JOB_MESSAGES.DeadlineExceeded,
          nowIso,
        );
      } else if (isSucceeded(j, succeeded, active.length)) {
        target = newJobCondition(
          'SuccessCriteriaMet',
          'CompletionsReached',
          JOB_MESSAGES.CompletionsReached,
          nowIso,
        );
      }
      if (target) conditions.push(target);
    }
    let ok = true;
    let activeCount = active.length;
    if (target) {
      // Remaining pods are stopped; the terminal condition waits until none runs.
      for (const p of active)
        ok = this.deletePod(job, p, pass, cause, 'the Job reached its end') && ok;
      if (ok) activeCount = 0;
      if (ok && terminating.length === 0 && active.length === 0) {
        const failedJob = target.type === 'FailureTarget';
        conditions.push(
          newJobCondition(
            failedJob ? 'Failed' : 'Complete',
            target.reason as string,
            target.message as string,
            nowIso,
          ),
        );
        if (!failedJob) status.completionTime = nowIso;
        if (failedJob)
          pass.event(job, 'Warning', target.reason as string, target.message as string);
        else pass.event(job, 'Normal', 'Completed', 'Job completed');
      }
    } else {
      const want = wantActive(j, succeeded);
      if (active.length < want) {
        const readyAt = lastFailureAt + podFailureBackoffMs(consecutive);
        if (consecutive > 0 && pass.now < readyAt) pass.requeueAt(keyOf(job), readyAt);
        else {
          for (let i = active.length; i < want; i++) {
            if (!this.createPod(job, pass, cause)) {
              ok = false;
              break;
            }
            activeCount++;
          }
        }
      } else if (active.length > want) {
        const extra = [...active]
          .sort((a, b) =>
            (a.metadata.creationTimestamp ?? '') < (b.metadata.creationTimestamp ?? '') ? 1 : -1,
          )
          .slice(0, active.length - want);
        for (const p of extra) {
          if (this.deletePod(job, p, pass, cause, 'parallelism was lowered')) activeCount--;
          else ok = false;
        }
      }
      if (j.activeDeadlineSeconds !== undefined && status.startTime) {
        pass.requeueAt(
          keyOf(job),
          pass.now +
            Math.max(
              0,
              parseIso(status.startTime) + j.activeDeadlineSeconds * 1000 - parseIso(nowIso),
            ) +
            1000,
        );
      }
    }
    if (conditions.length) status.conditions = conditions;
    if (activeCount > 0) status.active = activeCount;
    else delete status.active;
    if (succeeded > 0) status.succeeded = succeeded;
    if (failed > 0) status.failed = failed;
    status.ready = active.filter(isPodReady).length;
    status.terminating = terminating.length;
    status.uncountedTerminatedPods = {};
    if (stableStringify(status) === stableStringify(job.status ?? {})) {
      commit();
      return ok ? 'done' : 'retry';
    }
    const res = pass.write(
      {
        verb: 'update',
        resource: 'jobs',
        subresource: 'status',
        namespace: job.metadata.namespace,
        name: job.metadata.name,
        body: { ...job, status },
      },
      refOf(job),
      `Updating status of Job ${job.metadata.name}: ${status.active ?? 0} active, ${succeeded} succeeded, ${failed} failed${target ? ` (${target.reason})` : ''}`,
      cause,
    );
    if (!isOk(res)) return 'retry';
    commit();
    return ok ? 'done' : 'retry';
  }

  private createPod(job: Job, pass: Pass, cause?: number): boolean {
    const t = job.spec.template;
    const uid = job.metadata.uid as string;
    const name = job.metadata.name as string;
    const labels = {
      ...(t.metadata?.labels ?? {}),
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': name,
      'controller-uid': uid,
      'job-name': name,
    };
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${name}-`,
        namespace: job.metadata.namespace,
        labels,
        ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
        ownerReferences: [ownerRefTo(job)],
      },
      spec: deepClone(t.spec),
    };
    const res = pass.write(
      // only the generated name is read back
      {
        verb: 'create',
        resource: 'pods',
        namespace: job.metadata.namespace,
        body: pod,
        readOnly: true,
      },
      { kind: 'Pod', namespace: job.metadata.namespace, name: `${name}-` },
      `Creating Pod ${name}-<random> for Job ${name}`,
      cause,
    );
    if (isOk(res)) {
      pass.event(
        job,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${(res.body as Pod).metadata.name}`,
      );
      return true;
    }
    if (res.code !== 0)
      pass.event(job, 'Warning', 'FailedCreate', `Error creating: ${errorText(res)}`);
    return false;
  }

  private deletePod(
    job: Job,
    pod: Pod,
    pass: Pass,
    cause: number | undefined,
    why: string,
  ): boolean {
    const res = pass.write(
      {
        verb: 'delete',
        resource: 'pods',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
      },
      refOf(pod),
      `Deleting Pod ${pod.metadata.name} of Job ${job.metadata.name}: ${why}`,
      cause,
    );
    if (isOk(res))
      pass.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    return isOk(res) || res.code === 404;
  }

  protected override saveExtra(): unknown {
    return [...this.tracking].sort(([a], [b]) => (a < b ? -1 : 1));
  }

  protected override loadExtra(extra: unknown): void {
    this.tracking = new Map((extra as [string, Tracking][] | undefined) ?? []);
  }
}

function ownerRefTo(job: Job): OwnerReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata.name as string,
    uid: job.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
}
