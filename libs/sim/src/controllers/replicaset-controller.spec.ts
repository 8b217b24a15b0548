import { describe, expect, it } from 'vitest';
import type { Deployment, KubeEvent, Pod, ReplicaSet } from '../model';
import { computeScaleAction, slowStartBatches } from './replicaset-controller';
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

function pod(
  name: string,
  o: { node?: string; phase?: 'Pending' | 'Running'; ready?: boolean; created?: string } = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, creationTimestamp: o.created ?? '2026-01-05T09:00:00Z' },
    spec: { containers: [], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? 'Pending',
      conditions: [
        {
          type: 'Ready',
          status: o.ready ? 'True' : 'False',
          lastTransitionTime: '2026-01-05T09:00:00Z',
        },
      ],
    },
  };
}

describe('computeScaleAction', () => {
  const cases: { name: string; desired: number; pods: Pod[]; create: number; deleted: string[] }[] =
    [
      {
        name: 'creates the missing pods when there are too few',
        desired: 3,
        pods: [pod('a')],
        create: 2,
        deleted: [],
      },
      {
        name: 'does nothing when the count matches',
        desired: 1,
        pods: [pod('a')],
        create: 0,
        deleted: [],
      },
      {
        name: 'deletes unscheduled pods before scheduled ones',
        desired: 1,
        pods: [pod('a', { node: 'n1', phase: 'Running', ready: true }), pod('b')],
        create: 0,
        deleted: ['b'],
      },
      {
        name: 'deletes not-ready pods before ready ones',
        desired: 1,
        pods: [
          pod('a', { node: 'n1', phase: 'Running', ready: false }),
          pod('b', { node: 'n1', phase: 'Running', ready: true }),
        ],
        create: 0,
        deleted: ['a'],
      },
      {
        name: 'deletes the newest of otherwise equal pods',
        desired: 1,
        pods: [
          pod('old', { node: 'n1', phase: 'Running', created: '2026-01-05T09:00:00Z' }),
          pod('new', { node: 'n1', phase: 'Running', created: '2026-01-05T09:05:00Z' }),
        ],
        create: 0,
        deleted: ['new'],
      },
    ];
  it.each(cases)('should $name', ({ desired, pods, create, deleted }) => {
    const action = computeScaleAction(desired, pods);
    expect(action.create).toBe(create);
    expect(action.delete.map((p) => p.metadata.name)).toEqual(deleted);
  });

  it('should create in slow-start batches of 1, 2, 4 when many pods are missing', () => {
    expect(slowStartBatches(10)).toEqual([1, 2, 4, 3]);
    expect(slowStartBatches(0)).toEqual([]);
  });
});

describe('replicaset controller in a lab', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should create a ReplicaSet <deploy>-<hash> and 3 Pending pods <rs>-<5 chars> with no nodeName when a Deployment is created', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('my-app', 3));
    lab.advance(500);
    const [rs] = rsOf(lab, 'my-app');
    expect(rs?.metadata.name).toMatch(/^my-app-[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    const hash = rs?.metadata.labels?.['pod-template-hash'];
    expect(rs?.metadata.name).toBe(`my-app-${hash}`);
    expect(rs?.spec.selector.matchLabels).toEqual({ app: 'my-app', 'pod-template-hash': hash });
    expect(rs?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      name: 'my-app',
      controller: true,
    });
    const pods = list<Pod>(lab, 'pods');
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(
        new RegExp(`^${rs?.metadata.name}-[bcdfghjklmnpqrstvwxz2456789]{5}$`),
      );
      expect(p.spec.nodeName).toBeUndefined();
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'ReplicaSet',
        name: rs?.metadata.name,
        controller: true,
      });
    }
    const events = list<KubeEvent>(lab, 'events').filter(
      (e) => e.source.component === 'replicaset-controller',
    );
    expect(events.map((e) => e.reason)).toEqual([
      'SuccessfulCreate',
      'SuccessfulCreate',
      'SuccessfulCreate',
    ]);
    expect(events.map((e) => e.message).sort()).toEqual(
      pods.map((p) => `Created pod: ${p.metadata.name}`).sort(),
    );
    const creates = lab.trace().filter(
      (e) =>
        e.component === 'kube-controller-manager' &&
        e.verb === 'create' &&
        e.object?.kind === 'Pod' &&
        // kube-system's CoreDNS pods come from kubeadm's coredns Deployment
        e.object.namespace === 'default',
    );
    expect(creates).toHaveLength(3);
    for (const c of creates) expect(c.causedBy).toBeGreaterThan(0);
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should bring a hand-deleted pod back when the desired state did not change', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 3));
    lab.advance(500);
    const before = runPods(lab);
    lab.advance(500);
    const victim = before[0] as Pod;
    lab.request(ADMIN, 'delete', 'pods', { namespace: 'default', name: victim.metadata.name });
    finishTerminating(lab);
    lab.advance(500);
    const after = list<Pod>(lab, 'pods');
    expect(after).toHaveLength(3);
    expect(after.map((p) => p.metadata.name)).not.toContain(victim.metadata.name);
    const rs = rsOf(lab, 'web')[0] as ReplicaSet;
    const events = list<KubeEvent>(lab, 'events').filter(
      (e) => e.involvedObject.name === rs.metadata.name,
    );
    expect(events.filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(4);
  });

  it('should scale up and down when spec.replicas changes, deleting the pods that are not ready first', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 2));
    lab.advance(500);
    runPods(lab);
    lab.advance(500);
    lab.request(ADMIN, {
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      patchType: 'merge',
      body: { spec: { replicas: 5 } },
    });
    lab.advance(500);
    expect(list<Pod>(lab, 'pods')).toHaveLength(5);
    const pending = list<Pod>(lab, 'pods')
      .filter((p) => !p.spec.nodeName)
      .map((p) => p.metadata.name);
    expect(pending).toHaveLength(3);
    lab.request(ADMIN, {
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      patchType: 'merge',
      body: { spec: { replicas: 2 } },
    });
    lab.advance(500);
    finishTerminating(lab);
    const left = list<Pod>(lab, 'pods');
    expect(left).toHaveLength(2);
    for (const p of left) expect(p.spec.nodeName).toBeDefined();
    const d = get<Deployment>(lab, 'deployments', 'web') as Deployment;
    const scaling = list<KubeEvent>(lab, 'events')
      .filter((e) => e.reason === 'ScalingReplicaSet')
      .map((e) => e.message);
    const rsName = rsOf(lab, 'web')[0]?.metadata.name;
    expect(scaling).toEqual(
      expect.arrayContaining([
        `Scaled up replica set ${rsName} from 0 to 2`,
        `Scaled up replica set ${rsName} from 2 to 5`,
        `Scaled down replica set ${rsName} from 5 to 2`,
      ]),
    );
    expect(d.status?.replicas).toBe(2);
  });

  it('should report readyReplicas and availableReplicas only after minReadySeconds', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 2, 'nginx:1.27', { minReadySeconds: 10 }));
    lab.advance(500);
    runPods(lab);
    lab.advance(1000);
    let rs = rsOf(lab, 'web')[0] as ReplicaSet;
    expect(rs.status?.readyReplicas).toBe(2);
    expect(rs.status?.availableReplicas ?? 0).toBe(0);
    lab.advance(11_000);
    rs = rsOf(lab, 'web')[0] as ReplicaSet;
    expect(rs.status?.availableReplicas).toBe(2);
  });
});

describe('replicaset controller: ownership', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should adopt an orphan pod whose labels match and create only the missing ones', () => {
    const lab = newLab();
    createObj(lab, 'pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stray', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    });
    createObj(lab, 'replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      },
    });
    lab.advance(500);
    const pods = list<Pod>(lab, 'pods');
    expect(pods).toHaveLength(2);
    const stray = pods.find((p) => p.metadata.name === 'stray') as Pod;
    expect(stray.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'ReplicaSet',
      name: 'web',
      controller: true,
    });
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should release a pod whose labels no longer match, and replace it', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 2));
    lab.advance(500);
    const victim = list<Pod>(lab, 'pods')[0] as Pod;
    const res = lab.request(ADMIN, {
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: victim.metadata.name,
      patchType: 'merge',
      body: { metadata: { labels: { app: 'debug' } } },
    });
    expect(res.code).toBe(200);
    lab.advance(500);
    const released = get<Pod>(lab, 'pods', victim.metadata.name as string) as Pod;
    expect(released.metadata.ownerReferences ?? []).toEqual([]);
    expect(list<Pod>(lab, 'pods').filter((p) => p.metadata.labels?.['app'] === 'web')).toHaveLength(
      2,
    );
  });
});

describe('replicaset controller: creation failures', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should report FailedCreate and a ReplicaFailure condition up to the Deployment when pods are refused', () => {
    const lab = newLab();
    const d = deployment('web', 2);
    d.spec.template.spec.serviceAccountName = 'missing';
    createObj(lab, 'deployments', d);
    lab.advance(1000);
    expect(list<Pod>(lab, 'pods')).toEqual([]);
    const rs = rsOf(lab, 'web')[0] as ReplicaSet;
    const failed = list<KubeEvent>(lab, 'events').find((e) => e.reason === 'FailedCreate');
    expect(failed?.type).toBe('Warning');
    expect(failed?.message).toMatch(
      /^Error creating: pods "web-[a-z0-9]+-[a-z0-9]*" is forbidden: error looking up service account default\/missing/,
    );
    expect(rs.status?.conditions?.[0]).toMatchObject({
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
    });
    const dep = get<Deployment>(lab, 'deployments', 'web') as Deployment;
    expect(dep.status?.conditions?.find((c) => c.type === 'ReplicaFailure')).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
    });
    // once the ServiceAccount exists, the next retry succeeds and the condition goes away
    createObj(lab, 'serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'missing', namespace: 'default' },
    });
    lab.advance(6000);
    expect(list<Pod>(lab, 'pods')).toHaveLength(2);
    expect(rsOf(lab, 'web')[0]?.status?.conditions).toBeUndefined();
  });
});
