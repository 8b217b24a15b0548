import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import type { Deployment, KubeEvent, Pod, ReplicaSet } from '../model';
import {
  ADMIN,
  createObj,
  deployment,
  finishTerminating,
  get,
  kcmErrors,
  list,
  newLab,
  rsOf,
  runPods,
  useControllerOnlyLab,
} from './lab-harness.test';

function patchDeploy(lab: SimLab, name: string, body: unknown): void {
  const res = lab.request(ADMIN, {
    verb: 'patch',
    resource: 'deployments',
    namespace: 'default',
    name,
    patchType: 'strategic',
    body,
  });
  if (res.code >= 300) throw new Error(JSON.stringify(res.body));
}

function setImage(lab: SimLab, name: string, image: string): void {
  patchDeploy(lab, name, {
    spec: { template: { spec: { containers: [{ name: 'app', image }] } } },
  });
}

function activePods(lab: SimLab): Pod[] {
  return list<Pod>(lab, 'pods').filter((p) => !p.metadata.deletionTimestamp);
}

function readyPods(lab: SimLab): Pod[] {
  return activePods(lab).filter((p) =>
    p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
}

/** Drives a rollout to the end, checking the fenceposts after every controller step. */
function rollOut(
  lab: SimLab,
  name: string,
  replicas: number,
  surge: number,
  unavailable: number,
  image: string,
): number {
  let steps = 0;
  for (; steps < 50; steps++) {
    lab.advance(300);
    const pods = activePods(lab);
    expect(pods.length).toBeLessThanOrEqual(replicas + surge);
    const rsTotal = rsOf(lab, name).reduce((n, r) => n + (r.spec.replicas ?? 0), 0);
    expect(rsTotal).toBeLessThanOrEqual(replicas + surge);
    expect(readyPods(lab).length).toBeGreaterThanOrEqual(replicas - unavailable);
    if (
      pods.length === replicas &&
      pods.every((p) => p.spec.containers[0]?.image === image) &&
      readyPods(lab).length === replicas
    )
      break;
    // the kubelet's part: new pods start and become ready, deleted ones finish terminating
    runPods(lab);
    finishTerminating(lab);
  }
  return steps;
}

describe('deployment controller: rolling update', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should respect maxSurge and maxUnavailable at every step and end with revision 2', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 4));
    lab.advance(300);
    runPods(lab);
    lab.advance(300);
    setImage(lab, 'web', 'nginx:1.28');
    const steps = rollOut(lab, 'web', 4, 1, 1, 'nginx:1.28');
    expect(steps).toBeGreaterThan(1);
    expect(steps).toBeLessThan(50);
    lab.advance(500);
    const rss = rsOf(lab, 'web');
    expect(rss).toHaveLength(2);
    const newRS = rss.find(
      (r) => r.spec.template.spec.containers[0]?.image === 'nginx:1.28',
    ) as ReplicaSet;
    const oldRS = rss.find((r) => r !== newRS) as ReplicaSet;
    expect(newRS.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '2',
      'deployment.kubernetes.io/desired-replicas': '4',
      'deployment.kubernetes.io/max-replicas': '5',
    });
    expect(oldRS.spec.replicas).toBe(0);
    const d = get<Deployment>(lab, 'deployments', 'web') as Deployment;
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(d.status).toMatchObject({
      replicas: 4,
      updatedReplicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
    });
    expect(d.status?.observedGeneration).toBe(d.metadata.generation);
    const byType = Object.fromEntries((d.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(byType['Available']).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    expect(byType['Progressing']).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${newRS.metadata.name}" has successfully progressed.`,
    });
    const scaling = list<KubeEvent>(lab, 'events').filter(
      (e) => e.reason === 'ScalingReplicaSet' && e.source.component === 'deployment-controller',
    );
    expect(scaling.map((e) => e.message)).toContain(
      `Scaled up replica set ${newRS.metadata.name} from 0 to 1`,
    );
    expect(scaling.map((e) => e.message)).toContain(
      `Scaled down replica set ${oldRS.metadata.name} from 1 to 0`,
    );
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should roll back by reusing the old ReplicaSet, giving it the next revision', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 2));
    lab.advance(300);
    runPods(lab);
    setImage(lab, 'web', 'nginx:1.28');
    rollOut(lab, 'web', 2, 1, 0, 'nginx:1.28');
    const first = rsOf(lab, 'web').find(
      (r) => r.metadata.annotations?.['deployment.kubernetes.io/revision'] === '1',
    ) as ReplicaSet;
    // kubectl rollout undo: the old template (without pod-template-hash) goes back into the Deployment
    const template = JSON.parse(
      JSON.stringify(first.spec.template),
    ) as ReplicaSet['spec']['template'];
    delete template.metadata?.labels?.['pod-template-hash'];
    const d = get<Deployment>(lab, 'deployments', 'web') as Deployment;
    const res = lab.request(ADMIN, {
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { ...d, spec: { ...d.spec, template } },
    });
    expect(res.code).toBe(200);
    rollOut(lab, 'web', 2, 1, 0, 'nginx:1.27');
    lab.advance(500);
    const rss = rsOf(lab, 'web');
    expect(rss).toHaveLength(2);
    const reused = rss.find((r) => r.metadata.name === first.metadata.name) as ReplicaSet;
    expect(reused.spec.replicas).toBe(2);
    expect(reused.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(reused.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(
      get<Deployment>(lab, 'deployments', 'web')?.metadata.annotations?.[
        'deployment.kubernetes.io/revision'
      ],
    ).toBe('3');
  });

  it('should keep at most revisionHistoryLimit old ReplicaSets', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 1, 'nginx:1.0', { revisionHistoryLimit: 3 }));
    lab.advance(300);
    runPods(lab);
    for (let v = 1; v <= 6; v++) {
      setImage(lab, 'web', `nginx:1.${v}`);
      rollOut(lab, 'web', 1, 1, 0, `nginx:1.${v}`);
    }
    lab.advance(6000);
    const rss = rsOf(lab, 'web');
    expect(rss).toHaveLength(4);
    const revisions = rss
      .map((r) => Number(r.metadata.annotations?.['deployment.kubernetes.io/revision']))
      .sort((a, b) => a - b);
    expect(revisions).toEqual([4, 5, 6, 7]);
  });

  it('should default revisionHistoryLimit to 10', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 1, 'nginx:0'));
    lab.advance(300);
    runPods(lab);
    for (let v = 1; v <= 12; v++) {
      setImage(lab, 'web', `nginx:${v}`);
      rollOut(lab, 'web', 1, 1, 0, `nginx:${v}`);
    }
    lab.advance(6000);
    expect(rsOf(lab, 'web')).toHaveLength(11);
  });

  it('should mark the rollout ProgressDeadlineExceeded when new pods never become available', () => {
    const lab = newLab();
    createObj(
      lab,
      'deployments',
      deployment('web', 2, 'nginx:1.27', { progressDeadlineSeconds: 30 }),
    );
    lab.advance(300);
    runPods(lab);
    lab.advance(300);
    setImage(lab, 'web', 'nginx:does-not-exist');
    lab.advance(1000);
    runPods(lab, { ready: false });
    lab.advance(20_000);
    let cond = get<Deployment>(lab, 'deployments', 'web')?.status?.conditions?.find(
      (c) => c.type === 'Progressing',
    );
    expect(cond?.reason).toBe('ReplicaSetUpdated');
    lab.advance(15_000);
    const newRS = rsOf(lab, 'web').find(
      (r) => r.spec.template.spec.containers[0]?.image === 'nginx:does-not-exist',
    ) as ReplicaSet;
    cond = get<Deployment>(lab, 'deployments', 'web')?.status?.conditions?.find(
      (c) => c.type === 'Progressing',
    );
    expect(cond).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${newRS.metadata.name}" has timed out progressing.`,
    });
  });

  it('should create a new ReplicaSet when kubectl rollout restart sets restartedAt', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 1));
    lab.advance(300);
    runPods(lab);
    patchDeploy(lab, 'web', {
      spec: {
        template: {
          metadata: {
            annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-05T09:10:00Z' },
          },
        },
      },
    });
    lab.advance(300);
    expect(rsOf(lab, 'web')).toHaveLength(2);
  });

  it('should not roll out template changes while paused, and resume afterwards', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 2));
    lab.advance(300);
    runPods(lab);
    patchDeploy(lab, 'web', { spec: { paused: true } });
    lab.advance(300);
    setImage(lab, 'web', 'nginx:1.28');
    lab.advance(1000);
    expect(rsOf(lab, 'web')).toHaveLength(1);
    const cond = get<Deployment>(lab, 'deployments', 'web')?.status?.conditions?.find(
      (c) => c.type === 'Progressing',
    );
    expect(cond).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
    patchDeploy(lab, 'web', { spec: { paused: false } });
    lab.advance(300);
    expect(rsOf(lab, 'web')).toHaveLength(2);
  });
});

describe('deployment controller: Recreate', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should remove every old pod before creating the new ReplicaSet', () => {
    const lab = newLab();
    createObj(
      lab,
      'deployments',
      deployment('db', 2, 'postgres:16', { strategy: { type: 'Recreate' } }),
    );
    lab.advance(300);
    runPods(lab);
    setImage(lab, 'db', 'postgres:17');
    lab.advance(500);
    // old pods are terminating, the new ReplicaSet does not exist yet
    expect(rsOf(lab, 'db')).toHaveLength(1);
    expect(rsOf(lab, 'db')[0]?.spec.replicas).toBe(0);
    finishTerminating(lab);
    lab.advance(500);
    const rss = rsOf(lab, 'db');
    expect(rss).toHaveLength(2);
    expect(activePods(lab).map((p) => p.spec.containers[0]?.image)).toEqual([
      'postgres:17',
      'postgres:17',
    ]);
  });
});
