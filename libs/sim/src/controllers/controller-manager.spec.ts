import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import type { ConfigMap, KubeObject, Namespace, Pod, ReplicaSet, ServiceAccount } from '../model';
import { gcDecision } from './garbage-collector';
import { createControllerManager } from './index';
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

describe('createControllerManager', () => {
  it('should build one component per controller, all named kube-controller-manager with their own period', () => {
    const comps = createControllerManager();
    expect(comps.length).toBeGreaterThanOrEqual(10);
    for (const c of comps) {
      expect(c.name).toBe('kube-controller-manager');
      expect(c.identity).toBe('system:kube-controller-manager');
      expect(c.periodMs).toBeGreaterThan(0);
      expect(c.watches.length).toBeGreaterThan(0);
    }
  });
});

describe('gcDecision', () => {
  it.each([
    { states: [], want: 'keep' },
    { states: ['present'], want: 'keep' },
    { states: ['absent'], want: 'delete' },
    { states: ['absent', 'present'], want: 'prune' },
    { states: ['absent', 'unknown'], want: 'wait' },
  ] as const)('should $want a dependent whose owners are $states', ({ states, want }) => {
    expect(gcDecision([...states])).toBe(want);
  });
});

function ns(name: string): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

function cm(name: string, namespace: string, owner?: KubeObject): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      ...(owner
        ? {
            ownerReferences: [
              {
                apiVersion: owner.apiVersion,
                kind: owner.kind,
                name: owner.metadata.name as string,
                uid: owner.metadata.uid as string,
              },
            ],
          }
        : {}),
    },
    data: { a: 'b' },
  };
}

function scaleTo(lab: SimLab, name: string, replicas: number): number {
  return lab.request(ADMIN, {
    verb: 'patch',
    resource: 'deployments',
    namespace: 'default',
    name,
    patchType: 'merge',
    body: { spec: { replicas } },
  }).code;
}

describe('kube-controller-manager in a lab', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should create the default ServiceAccount in every namespace', () => {
    const lab = newLab();
    createObj(lab, 'namespaces', ns('team-a'), undefined);
    lab.advance(500);
    expect(get<ServiceAccount>(lab, 'serviceaccounts', 'default', 'team-a')).toBeDefined();
    expect(get<ServiceAccount>(lab, 'serviceaccounts', 'default', 'default')).toBeDefined();
  });

  it('should delete everything in a deleted namespace, then the namespace itself', () => {
    const lab = newLab();
    createObj(lab, 'namespaces', ns('shop'), undefined);
    lab.advance(300);
    createObj(lab, 'configmaps', cm('settings', 'shop'), 'shop');
    createObj(
      lab,
      'deployments',
      { ...deployment('cart', 2), metadata: { name: 'cart', namespace: 'shop' } },
      'shop',
    );
    lab.advance(500);
    runPods(lab, { namespace: 'shop' });
    lab.advance(300);
    lab.request(ADMIN, 'delete', 'namespaces', { name: 'shop' });
    lab.advance(1000);
    const terminating = get<Namespace>(lab, 'namespaces', 'shop', undefined);
    expect(terminating?.status?.phase).toBe('Terminating');
    expect(list<ConfigMap>(lab, 'configmaps', 'shop')).toEqual([]);
    expect(list(lab, 'deployments', 'shop')).toEqual([]);
    const remaining = (
      terminating?.status as { conditions?: { type: string; status: string; message?: string }[] }
    ).conditions?.find((c) => c.type === 'NamespaceContentRemaining');
    expect(remaining?.status).toBe('True');
    expect(remaining?.message).toMatch(
      /^Some resources are remaining: pods has \d resource instances/,
    );
    // the kubelets finish the pods' graceful termination
    finishTerminating(lab, 'shop');
    lab.advance(3000);
    expect(get<Namespace>(lab, 'namespaces', 'shop', undefined)).toBeUndefined();
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should garbage-collect dependents of a deleted owner, and orphan them when asked', () => {
    const lab = newLab();
    const owner = createObj<ConfigMap>(lab, 'configmaps', cm('owner', 'default'));
    createObj(lab, 'configmaps', cm('child', 'default', owner));
    const owner2 = createObj<ConfigMap>(lab, 'configmaps', cm('owner2', 'default'));
    createObj(lab, 'configmaps', cm('kept', 'default', owner2));
    lab.advance(300);
    lab.request(ADMIN, 'delete', 'configmaps', { namespace: 'default', name: 'owner' });
    lab.request(ADMIN, 'delete', 'configmaps', {
      namespace: 'default',
      name: 'owner2',
      query: { propagationPolicy: 'Orphan' },
    });
    lab.advance(1000);
    expect(get(lab, 'configmaps', 'child')).toBeUndefined();
    const kept = get<ConfigMap>(lab, 'configmaps', 'kept');
    expect(kept).toBeDefined();
    expect(kept?.metadata.ownerReferences).toBeUndefined();
    expect(get(lab, 'configmaps', 'owner2')).toBeUndefined();
  });

  it('should cascade a Deployment deletion to its ReplicaSets and pods', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 2));
    lab.advance(500);
    lab.request(ADMIN, 'delete', 'deployments', { namespace: 'default', name: 'web' });
    lab.advance(1000);
    expect(list<ReplicaSet>(lab, 'replicasets')).toEqual([]);
    expect(list<Pod>(lab, 'pods').filter((p) => !p.metadata.deletionTimestamp)).toEqual([]);
  });

  it('should stop repairing anything when the controller-manager is stopped, and catch up when started', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 2));
    lab.advance(500);
    expect(lab.stopProcess({ component: 'kube-controller-manager' })).toBe(true);
    const seq = lab.trace().length;
    expect(scaleTo(lab, 'web', 4)).toBe(200);
    lab.request(ADMIN, 'delete', 'pods', {
      namespace: 'default',
      name: list<Pod>(lab, 'pods')[0]?.metadata.name,
    });
    lab.advance(60_000);
    expect(list<Pod>(lab, 'pods')).toHaveLength(1);
    expect(
      lab
        .trace()
        .slice(seq)
        .filter((e) => e.component === 'kube-controller-manager'),
    ).toEqual([]);
    lab.startProcess({ component: 'kube-controller-manager' });
    lab.advance(1000);
    expect(list<Pod>(lab, 'pods')).toHaveLength(4);
    expect(rsOf(lab, 'web')[0]?.spec.replicas).toBe(4);
  });

  it('should fail writes without throwing while etcd has no quorum, and repair once it is back', () => {
    const lab = newLab({ etcdMembers: 3 });
    createObj(lab, 'deployments', deployment('web', 2));
    lab.advance(500);
    const victim = list<Pod>(lab, 'pods')[0] as Pod;
    lab.request(ADMIN, 'delete', 'pods', { namespace: 'default', name: victim.metadata.name });
    lab.stopProcess({ component: 'etcd', node: lab.etcd.members[1]?.name });
    lab.stopProcess({ component: 'etcd', node: lab.etcd.members[2]?.name });
    lab.advance(30_000);
    expect(list<Pod>(lab, 'pods')).toHaveLength(1);
    expect(
      lab
        .trace()
        .some((e) => e.component === 'kube-controller-manager' && e.verb === 'write-failed'),
    ).toBe(true);
    lab.startProcess({ component: 'etcd', node: lab.etcd.members[1]?.name });
    lab.advance(6_000);
    expect(list<Pod>(lab, 'pods')).toHaveLength(2);
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should keep working across serialize and restore exactly as the original lab does', async () => {
    const { restoreLab } = await import('../lab/lab');
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 3));
    lab.advance(200);
    const copy = restoreLab(lab.serialize());
    for (const l of [lab, copy]) {
      runPods(l);
      l.advance(2000);
    }
    const strip = (l: SimLab) =>
      list<Pod>(l, 'pods').map((p) => [p.metadata.name, p.spec.nodeName, p.status?.phase]);
    expect(strip(copy)).toEqual(strip(lab));
    // Same objects in etcd and the same actions; only the causes of actions taken right after the
    // restore may be missing, because the restored apiserver has no watch history to replay.
    const a = JSON.parse(lab.serialize()) as Record<string, unknown>;
    const b = JSON.parse(copy.serialize()) as Record<string, unknown>;
    expect(b['etcd']).toEqual(a['etcd']);
    const actions = (l: SimLab) =>
      l.trace().map((e) => [e.seq, e.t, e.component, e.verb, e.object?.name, e.message]);
    expect(actions(copy)).toEqual(actions(lab));
  });
});
