import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import type { Job, KubeEvent, Pod } from '../model';
import { exceedsBackoffLimit, podFailureBackoffMs, resolveJob, wantActive } from './job-util';
import {
  bind,
  createObj,
  get,
  kcmErrors,
  list,
  newLab,
  setPodStatus,
  useControllerOnlyLab,
} from './lab-harness.test';

function job(name: string, spec: Partial<Job['spec']> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'app', image: 'busybox:1.36', command: ['true'] }],
        },
      },
      ...spec,
    },
  };
}

describe('job rules', () => {
  it.each([
    { spec: {}, succeeded: 0, want: 1 },
    { spec: { completions: 5, parallelism: 2 }, succeeded: 0, want: 2 },
    { spec: { completions: 5, parallelism: 2 }, succeeded: 4, want: 1 },
    { spec: { parallelism: 3 }, succeeded: 0, want: 3 },
    { spec: { parallelism: 3 }, succeeded: 1, want: 0 },
  ])(
    'should want $want active pods for $spec with $succeeded succeeded',
    ({ spec, succeeded, want }) => {
      expect(wantActive(resolveJob(job('j', spec)), succeeded)).toBe(want);
    },
  );

  it('should fail after more than backoffLimit failures, counting restarts with OnFailure', () => {
    const j = resolveJob(job('j', { backoffLimit: 2 }));
    expect(exceedsBackoffLimit(j, 2, [])).toBe(false);
    expect(exceedsBackoffLimit(j, 3, [])).toBe(true);
    const onFailure = resolveJob({
      ...job('j', { backoffLimit: 2 }),
      spec: { backoffLimit: 2, template: { spec: { restartPolicy: 'OnFailure', containers: [] } } },
    });
    const restarting = {
      status: { phase: 'Running', containerStatuses: [{ restartCount: 3 }] },
    } as unknown as Pod;
    expect(exceedsBackoffLimit(onFailure, 0, [restarting])).toBe(true);
  });

  it('should back off 10 s, doubling, capped at 10 min', () => {
    expect([1, 2, 3, 10].map(podFailureBackoffMs)).toEqual([10_000, 20_000, 40_000, 600_000]);
  });
});

function jobPods(lab: SimLab, name: string): Pod[] {
  return list<Pod>(lab, 'pods').filter(
    (p) =>
      p.metadata.labels?.['batch.kubernetes.io/job-name'] === name && !p.metadata.deletionTimestamp,
  );
}

function finish(lab: SimLab, pod: Pod, phase: 'Succeeded' | 'Failed'): void {
  if (!pod.spec.nodeName) bind(lab, pod, 'node-1');
  setPodStatus(lab, pod, { ready: false, phase, ip: '10.244.1.50' });
}

describe('job controller in a lab', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should run completions with parallelism and complete with SuccessCriteriaMet then Complete', () => {
    const lab = newLab();
    createObj(lab, 'jobs', job('pi', { completions: 3, parallelism: 2 }));
    lab.advance(500);
    let pods = jobPods(lab, 'pi').filter((p) => p.status?.phase !== 'Succeeded');
    expect(pods).toHaveLength(2);
    expect(pods[0]?.metadata.labels).toMatchObject({
      'job-name': 'pi',
      'batch.kubernetes.io/job-name': 'pi',
    });
    expect(pods[0]?.metadata.labels?.['controller-uid']).toBe(
      get<Job>(lab, 'jobs', 'pi')?.metadata.uid,
    );
    for (const p of pods) finish(lab, p, 'Succeeded');
    lab.advance(500);
    pods = jobPods(lab, 'pi').filter((p) => p.status?.phase !== 'Succeeded');
    expect(pods).toHaveLength(1);
    finish(lab, pods[0] as Pod, 'Succeeded');
    lab.advance(500);
    const j = get<Job>(lab, 'jobs', 'pi') as Job;
    expect(j.status?.succeeded).toBe(3);
    expect(j.status?.active).toBeUndefined();
    expect(j.status?.completionTime).toBeDefined();
    expect(j.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached'],
      ['Complete', 'True', 'CompletionsReached'],
    ]);
    const reasons = list<KubeEvent>(lab, 'events')
      .filter((e) => e.source.component === 'job-controller')
      .map((e) => e.reason);
    expect(reasons.filter((r) => r === 'SuccessfulCreate')).toHaveLength(3);
    expect(reasons).toContain('Completed');
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should replace failed pods with back-off and fail with BackoffLimitExceeded', () => {
    const lab = newLab();
    createObj(lab, 'jobs', job('flaky', { backoffLimit: 1 }));
    lab.advance(500);
    finish(lab, jobPods(lab, 'flaky')[0] as Pod, 'Failed');
    lab.advance(5_000);
    // still backing off (10 s after the first failure)
    expect(jobPods(lab, 'flaky').filter((p) => p.status?.phase !== 'Failed')).toHaveLength(0);
    lab.advance(6_000);
    const second = jobPods(lab, 'flaky').filter((p) => p.status?.phase !== 'Failed');
    expect(second).toHaveLength(1);
    finish(lab, second[0] as Pod, 'Failed');
    lab.advance(1000);
    const j = get<Job>(lab, 'jobs', 'flaky') as Job;
    expect(j.status?.failed).toBe(2);
    const failed = j.status?.conditions?.find((c) => c.type === 'Failed');
    expect(failed).toMatchObject({
      status: 'True',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
    expect(j.status?.conditions?.[0]?.type).toBe('FailureTarget');
    const warning = list<KubeEvent>(lab, 'events').find((e) => e.reason === 'BackoffLimitExceeded');
    expect(warning).toMatchObject({
      type: 'Warning',
      message: 'Job has reached the specified backoff limit',
    });
  });

  it('should delete a finished Job and its pods after ttlSecondsAfterFinished', () => {
    const lab = newLab();
    createObj(lab, 'jobs', job('once', { ttlSecondsAfterFinished: 30 }));
    lab.advance(500);
    finish(lab, jobPods(lab, 'once')[0] as Pod, 'Succeeded');
    lab.advance(1000);
    expect(
      get<Job>(lab, 'jobs', 'once')?.status?.conditions?.some((c) => c.type === 'Complete'),
    ).toBe(true);
    lab.advance(25_000);
    expect(get<Job>(lab, 'jobs', 'once')).toBeDefined();
    lab.advance(10_000);
    expect(get<Job>(lab, 'jobs', 'once')).toBeUndefined();
    expect(jobPods(lab, 'once')).toEqual([]);
  });
});
