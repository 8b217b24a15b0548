import { describe, expect, it } from 'vitest';
import { createTerminal } from '../cli/terminal';
import { createLab } from '../lab/lab';
import type { KubeObject, Pod, Status } from '../model';

const ADMIN = 'kubernetes-admin';

describe('resources with storage and no controller of their own', () => {
  it('should keep a claim Pending when no StorageClass or binder exists', () => {
    const lab = createLab({ seed: 2 });
    const res = lab.request(ADMIN, {
      verb: 'create',
      resource: 'persistentvolumeclaims',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        status: { phase: 'Bound' },
      },
    });
    expect(res.code).toBe(201);
    lab.advance(10_000);
    const pvc = lab.peek('persistentvolumeclaims', 'default', 'data') as KubeObject & {
      status?: { phase?: string };
    };
    expect(pvc.status?.phase).toBe('Pending');
    const out = createTerminal(lab).exec('kubectl get pvc');
    expect(out.stdout).toBe(
      'NAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        'data   Pending                                                     <unset>                 10s\n',
    );
    expect(createTerminal(lab).exec('kubectl get sc').stderr).toBe('No resources found\n');
  });

  it('should list the two system PriorityClasses and give pods their value when a pod names one', () => {
    const lab = createLab({ seed: 2 });
    lab.advance(3_000);
    const out = createTerminal(lab).exec('kubectl get pc');
    expect(out.stdout).toBe(
      'NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\n' +
        'system-cluster-critical   2000000000   false            3s    PreemptLowerPriority\n' +
        'system-node-critical      2000001000   false            3s    PreemptLowerPriority\n',
    );
    const proxy = (lab.peekAll('pods', 'kube-system') as Pod[]).find((p) =>
      p.metadata.name?.startsWith('kube-proxy-'),
    );
    expect(proxy?.spec.priority).toBe(2000001000);
    const bad = lab.request(ADMIN, {
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { priorityClassName: 'nope', containers: [{ name: 'a', image: 'nginx:1.27' }] },
      },
    });
    expect(bad.code).toBe(403);
    expect((bad.body as Status).message).toBe(
      'pods "p" is forbidden: no PriorityClass with name nope was found',
    );
  });

  it('should report a stopped scheduler as Unhealthy with the deprecation warning when componentstatuses are listed', () => {
    const lab = createLab({ seed: 2 });
    lab.stopProcess({ component: 'kube-scheduler' });
    const out = createTerminal(lab).exec('kubectl get cs');
    expect(out.stdout).toBe(
      'NAME                 STATUS      MESSAGE   ERROR\n' +
        'scheduler            Unhealthy             Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused\n' +
        'controller-manager   Healthy     ok        \n' +
        'etcd-0               Healthy     ok        \n',
    );
    expect(out.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    const one = lab.request(ADMIN, { verb: 'get', resource: 'componentstatuses', name: 'etcd-0' });
    expect(one.code).toBe(200);
    const del = lab.request(ADMIN, {
      verb: 'delete',
      resource: 'componentstatuses',
      name: 'etcd-0',
    });
    expect(del.code).toBe(405);
  });

  it('should print api-resources sorted by group then name when listing discovery', () => {
    const out = createTerminal(createLab({ seed: 2 })).exec('kubectl api-resources -o name');
    const names = out.stdout.trim().split('\n');
    const group = (n: string) => n.split('.').slice(1).join('.');
    const sorted = [...names].sort((a, b) =>
      group(a) !== group(b) ? (group(a) < group(b) ? -1 : 1) : a < b ? -1 : 1,
    );
    expect(names).toEqual(sorted);
    expect(names.slice(0, 3)).toEqual(['bindings', 'componentstatuses', 'configmaps']);
    expect(names).toContain('apiservices.apiregistration.k8s.io');
  });
});
