import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../client/api-client';
import type { SimLab } from '../lab/lab';
import { startComponent, stopComponent } from '../faults/faults';
import { createLab } from '../lab/lab';
import type { LabRequest } from '../lab/lab-types';
import type { KubeObject, Pod, Status } from '../model';

const ADMIN = 'kubernetes-admin';

function deployment(name = 'web', replicas = 3, image = 'nginx:1.27'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image }] },
      },
    },
  };
}

function pod(name: string, image = 'nginx:1.27', extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image }], ...extra },
  };
}

function setup(opts: Parameters<typeof createLab>[0] = {}): {
  lab: SimLab;
  admin: (r: LabRequest) => ApiResponse;
} {
  const lab = createLab({ seed: 42, ...opts });
  return { lab, admin: (r) => lab.request(ADMIN, r) };
}

const status = (r: ApiResponse) => r.body as Status;

describe('apiserver errors (FIDELITY §4)', () => {
  it('should answer 404 NotFound with the group-qualified resource when the object is missing', () => {
    const { admin } = setup();
    const r = admin({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' });
    expect(r.code).toBe(404);
    expect(status(r)).toMatchObject({
      reason: 'NotFound',
      message: 'deployments.apps "web" not found',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
    });
    expect(
      status(admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'x' })).message,
    ).toBe('pods "x" not found');
  });

  it('should answer 409 AlreadyExists when the name is taken', () => {
    const { admin } = setup();
    admin({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment() });
    const r = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(),
    });
    expect(r.code).toBe(409);
    expect(status(r)).toMatchObject({
      reason: 'AlreadyExists',
      message: 'deployments.apps "web" already exists',
    });
  });

  it('should answer 409 Conflict with the exact message when the resourceVersion is stale', () => {
    const { admin } = setup();
    const created = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(),
    }).body as KubeObject;
    const stale = JSON.parse(JSON.stringify(created)) as KubeObject;
    (created['spec'] as { replicas: number }).replicas = 5;
    expect(
      admin({
        verb: 'update',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        body: created,
      }).code,
    ).toBe(200);
    (stale['spec'] as { replicas: number }).replicas = 7;
    const r = admin({
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: stale,
    });
    expect(r.code).toBe(409);
    expect(status(r).message).toBe(
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('should answer 401 Unauthorized when the token is unknown', () => {
    const { lab } = setup();
    const r = lab.requestAs(
      { kind: 'token', token: 'nope' },
      { verb: 'list', resource: 'pods', namespace: 'default' },
    );
    expect(r.code).toBe(401);
    expect(status(r)).toMatchObject({ reason: 'Unauthorized', message: 'Unauthorized' });
  });

  it('should answer 403 with the forbiddenMessage format when RBAC has no rule', () => {
    const { lab } = setup({ users: [{ name: 'alice', token: 't-alice', clusterRole: 'view' }] });
    const r = lab.request('alice', {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(),
    });
    expect(r.code).toBe(403);
    expect(status(r).message).toBe(
      'deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"',
    );
    const del = lab.request('alice', { verb: 'delete', resource: 'nodes', name: 'node-1' });
    expect(status(del).message).toBe(
      'nodes "node-1" is forbidden: User "alice" cannot delete resource "nodes" in API group "" at the cluster scope',
    );
    const log = lab.request('alice', {
      verb: 'get',
      resource: 'secrets',
      namespace: 'default',
      name: 's',
    });
    expect(status(log).message).toBe(
      'secrets "s" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "default"',
    );
    expect(
      lab.request('alice', { verb: 'list', resource: 'pods', namespace: 'default' }).code,
    ).toBe(200);
  });

  it('should include the subresource in the Forbidden message when one is requested', () => {
    const { lab, admin } = setup({ users: [{ name: 'bob', token: 't-bob', clusterRole: 'view' }] });
    admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const r = lab.request('bob', {
      verb: 'update',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'status',
      body: {},
    });
    expect(status(r).message).toBe(
      'pods "p" is forbidden: User "bob" cannot update resource "pods/status" in API group "" in the namespace "default"',
    );
  });

  it.each([
    [
      'negative replicas',
      deployment('web', -1),
      [
        {
          field: 'spec.replicas',
          message: 'Invalid value: -1: must be greater than or equal to 0',
          reason: 'FieldValueInvalid',
        },
      ],
    ],
    [
      'bad name',
      deployment('My_App'),
      [
        {
          field: 'metadata.name',
          reason: 'FieldValueInvalid',
          message:
            "Invalid value: \"My_App\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        },
      ],
    ],
    [
      'missing image',
      deployment('web', 1, ''),
      [
        {
          field: 'spec.template.spec.containers[0].image',
          message: 'Required value',
          reason: 'FieldValueRequired',
        },
      ],
    ],
  ])(
    'should answer 422 Invalid with upstream causes when the Deployment has %s',
    (_label, body, causes) => {
      const { admin } = setup();
      const r = admin({ verb: 'create', resource: 'deployments', namespace: 'default', body });
      expect(r.code).toBe(422);
      expect(status(r).reason).toBe('Invalid');
      expect(status(r).details?.causes).toEqual(causes);
      expect(status(r).message).toMatch(/^Deployment\.apps ".*" is invalid: /);
    },
  );

  it('should report the selector/template mismatch exactly like upstream', () => {
    const { admin } = setup();
    const body = deployment('web');
    (
      body['spec'] as { template: { metadata: { labels: Record<string, string> } } }
    ).template.metadata.labels = { app: 'other', tier: 'fe' };
    const r = admin({ verb: 'create', resource: 'deployments', namespace: 'default', body });
    expect(status(r).message).toBe(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other", "tier":"fe"}: `selector` does not match template `labels`',
    );
  });

  it('should answer 404 for the namespace when creating into a namespace that does not exist', () => {
    const { admin } = setup();
    const r = admin({ verb: 'create', resource: 'pods', namespace: 'ghost', body: pod('p') });
    expect(r.code).toBe(404);
    expect(status(r).message).toBe('namespaces "ghost" not found');
  });
});

describe('apiserver writes', () => {
  it('should assign uid, resourceVersion, creationTimestamp and generation 1 when creating', () => {
    const { admin } = setup();
    const d = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(),
    }).body as KubeObject;
    expect(d.metadata.uid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(Number(d.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(d.metadata.creationTimestamp).toBe('2026-01-05T09:00:00Z');
    expect(d.metadata.generation).toBe(1);
    expect(d.metadata.managedFields?.[0]).toMatchObject({
      manager: 'kubectl',
      operation: 'Update',
    });
    expect((d['spec'] as Record<string, unknown>)['strategy']).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
  });

  it('should bump generation on spec changes only', () => {
    const { admin } = setup();
    admin({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment() });
    const a = admin({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      patchType: 'merge',
      body: { metadata: { labels: { x: 'y' } } },
    }).body as KubeObject;
    expect(a.metadata.generation).toBe(1);
    const b = admin({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      patchType: 'merge',
      body: { spec: { replicas: 5 } },
    }).body as KubeObject;
    expect(b.metadata.generation).toBe(2);
    const c = admin({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      subresource: 'status',
      patchType: 'merge',
      body: { status: { replicas: 5 } },
    }).body as KubeObject;
    expect(c.metadata.generation).toBe(2);
    expect((c['status'] as { replicas: number }).replicas).toBe(5);
  });

  it('should not write anything when an update changes nothing', () => {
    const { admin } = setup();
    const d = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(),
    }).body as KubeObject;
    const again = admin({
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: d,
    }).body as KubeObject;
    expect(again.metadata.resourceVersion).toBe(d.metadata.resourceVersion);
  });

  it('should generate a 5-character safe suffix when generateName is used', () => {
    const { admin } = setup();
    const p = admin({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: { ...pod(''), metadata: { generateName: 'web-7d9f5c8b4-' } },
    }).body as KubeObject;
    expect(p.metadata.name).toMatch(/^web-7d9f5c8b4-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('should merge containers by name when a strategic merge patch is applied', () => {
    const { admin } = setup();
    const body = pod('p');
    (body['spec'] as { containers: unknown[] }).containers.push({
      name: 'side',
      image: 'busybox:1.36',
      env: [{ name: 'A', value: '1' }],
    });
    admin({ verb: 'create', resource: 'pods', namespace: 'default', body });
    const r = admin({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      patchType: 'strategic',
      body: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } },
    });
    expect(r.code).toBe(200);
    const spec = (r.body as Pod).spec;
    expect(spec.containers.map((c) => `${c.name}=${c.image}`)).toEqual([
      'app=nginx:1.28',
      'side=busybox:1.36',
    ]);
  });

  it('should replace lists when a JSON merge patch is applied and apply RFC 6902 ops for a JSON patch', () => {
    const { admin } = setup();
    admin({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment() });
    const j = admin({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      patchType: 'json',
      body: [
        { op: 'replace', path: '/spec/replicas', value: 1 },
        { op: 'add', path: '/metadata/labels', value: { a: 'b' } },
      ],
    }).body as KubeObject;
    expect((j['spec'] as { replicas: number }).replicas).toBe(1);
    expect(j.metadata.labels).toEqual({ a: 'b' });
    const bad = admin({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      patchType: 'json',
      body: [{ op: 'remove', path: '/spec/nope' }],
    });
    expect(bad.code).toBe(422);
  });

  it('should not write when dryRun is set', () => {
    const { lab, admin } = setup();
    const r = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(),
      query: { dryRun: true },
    });
    expect(r.code).toBe(201);
    expect(lab.peek('deployments', 'default', 'web')).toBeUndefined();
  });

  it('should record the fieldManager in managedFields', () => {
    const { admin } = setup();
    const d = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(),
      query: { fieldManager: 'kubectl-client-side-apply' },
    }).body as KubeObject;
    expect(d.metadata.managedFields?.map((m) => m.manager)).toEqual(['kubectl-client-side-apply']);
    expect(d.metadata.managedFields?.[0]?.fieldsV1).toHaveProperty('f:spec');
  });

  it('should allocate a ClusterIP from 10.96.0.0/12 and default the ports when a Service is created', () => {
    const { admin } = setup();
    const s = admin({
      verb: 'create',
      resource: 'services',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
      },
    }).body as KubeObject;
    const spec = s['spec'] as {
      clusterIP: string;
      ports: { protocol: string; targetPort: number }[];
      type: string;
    };
    expect(spec.clusterIP).toMatch(/^10\.96\.\d+\.\d+$/);
    expect(spec.clusterIP).not.toBe('10.96.0.1');
    expect(spec.type).toBe('ClusterIP');
    expect(spec.ports[0]).toMatchObject({ protocol: 'TCP', targetPort: 80 });
  });

  it('should have the system namespaces and the kubernetes Service at creation', () => {
    const { lab } = setup();
    expect(lab.peekAll('namespaces').map((n) => n.metadata.name)).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
    expect(
      (lab.peek('services', 'default', 'kubernetes')?.['spec'] as { clusterIP: string }).clusterIP,
    ).toBe('10.96.0.1');
  });
});

describe('apiserver pods: binding and deletion', () => {
  it('should set nodeName and PodScheduled when pods/binding is created, and refuse a second binding', () => {
    const { lab, admin } = setup();
    admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const client = lab.apiserver.client(
      { kind: 'cert', certId: 'system:kube-scheduler' },
      'system:kube-scheduler',
    );
    const body = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'p' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'node-2' },
    };
    const r = client.request({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'binding',
      body,
    });
    expect(r.code).toBe(201);
    const p = lab.peek('pods', 'default', 'p') as Pod;
    expect(p.spec.nodeName).toBe('node-2');
    expect(p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    const again = client.request({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'binding',
      body,
    });
    expect(again.code).toBe(409);
    expect(status(again).message).toBe(
      'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-2"',
    );
  });

  it('should delete an unscheduled pod at once and mark a scheduled pod for graceful deletion', () => {
    const { lab, admin } = setup();
    admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('pending') });
    admin({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'pending' });
    expect(lab.peek('pods', 'default', 'pending')).toBeUndefined();

    admin({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: pod('running', 'nginx:1.27', { nodeName: 'node-1' }),
    });
    const r = admin({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'running' });
    expect(r.code).toBe(200);
    const p = lab.peek('pods', 'default', 'running')!;
    expect(p.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(p.metadata.deletionTimestamp).toBe('2026-01-05T09:00:30Z');
    // the kubelet confirms with grace 0 once the containers are gone
    const kubelet = lab.apiserver.client(
      { kind: 'cert', certId: 'system:node:node-1' },
      'system:node:node-1',
    );
    expect(
      kubelet.request({
        verb: 'delete',
        resource: 'pods',
        namespace: 'default',
        name: 'running',
        query: { gracePeriodSeconds: 0 },
      }).code,
    ).toBe(200);
    expect(lab.peek('pods', 'default', 'running')).toBeUndefined();
  });

  it('should delete at once when --grace-period=0 --force is given', () => {
    const { lab, admin } = setup();
    admin({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: pod('p', 'nginx:1.27', { nodeName: 'node-1' }),
    });
    admin({
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      query: { gracePeriodSeconds: 0, force: true },
    });
    expect(lab.peek('pods', 'default', 'p')).toBeUndefined();
  });

  it('should keep an object with finalizers until the last finalizer is removed', () => {
    const { lab, admin } = setup();
    admin({
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', finalizers: ['example.com/keep'] },
      },
    });
    admin({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'c' });
    expect(lab.peek('configmaps', 'default', 'c')?.metadata.deletionTimestamp).toBeDefined();
    admin({
      verb: 'patch',
      resource: 'configmaps',
      namespace: 'default',
      name: 'c',
      patchType: 'merge',
      body: { metadata: { finalizers: null } },
    });
    expect(lab.peek('configmaps', 'default', 'c')).toBeUndefined();
  });

  it.each([
    ['Foreground', 'foregroundDeletion'],
    ['Orphan', 'orphan'],
  ] as const)(
    'should add the %s finalizer for the garbage collector when propagationPolicy is set',
    (policy, finalizer) => {
      const { lab, admin } = setup();
      admin({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment() });
      admin({
        verb: 'delete',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        query: { propagationPolicy: policy },
      });
      expect(lab.peek('deployments', 'default', 'web')?.metadata.finalizers).toEqual([finalizer]);
    },
  );

  it('should forbid a kubelet from updating the status of a pod bound to another node', () => {
    const { lab, admin } = setup();
    admin({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: pod('p', 'nginx:1.27', { nodeName: 'node-2' }),
    });
    const kubelet = lab.apiserver.client(
      { kind: 'cert', certId: 'system:node:node-1' },
      'system:node:node-1',
    );
    const r = kubelet.request({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'status',
      patchType: 'merge',
      body: { status: { phase: 'Running' } },
    });
    expect(r.code).toBe(403);
    expect(status(r).message).toBe(
      'pods "p" is forbidden: node "node-1" can only update pod status for pods with spec.nodeName set to itself',
    );
  });

  it('should confine a kubelet to its own Lease', () => {
    const { lab } = setup();
    const kubelet = lab.apiserver.client(
      { kind: 'cert', certId: 'system:node:node-1' },
      'system:node:node-1',
    );
    const r = kubelet.request({
      verb: 'get',
      resource: 'leases',
      namespace: 'kube-node-lease',
      name: 'node-2',
    });
    expect(r.code).toBe(403);
    expect(status(r).message).toBe(
      'leases.coordination.k8s.io "node-2" is forbidden: User "system:node:node-1" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node',
    );
  });
});

describe('apiserver watch', () => {
  it('should deliver events in revision order with field selector transitions', () => {
    const { lab, admin } = setup();
    const rev = lab.apiserver.revision;
    admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('a') });
    admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('b') });
    const sched = lab.apiserver.client(
      { kind: 'cert', certId: 'system:kube-scheduler' },
      'system:kube-scheduler',
    );
    sched.request({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: 'b',
      subresource: 'binding',
      body: { target: { kind: 'Node', name: 'node-1' } },
    });
    const all = sched.watch('pods', rev);
    expect(Array.isArray(all)).toBe(true);
    const evs = all as { type: string; revision: number; object: KubeObject }[];
    expect(evs.map((e) => `${e.type}:${e.object.metadata.name}`)).toEqual([
      'ADDED:a',
      'ADDED:b',
      'MODIFIED:b',
    ]);
    expect([...evs.map((e) => e.revision)].sort((x, y) => x - y)).toEqual(
      evs.map((e) => e.revision),
    );
    const kubeletView = sched.watch('pods', rev, { fieldSelector: 'spec.nodeName=node-1' }) as {
      type: string;
    }[];
    expect(kubeletView.map((e) => e.type)).toEqual(['ADDED']);
    const unscheduled = sched.watch('pods', rev, { fieldSelector: 'spec.nodeName=' }) as {
      type: string;
      object: KubeObject;
    }[];
    expect(unscheduled.map((e) => `${e.type}:${e.object.metadata.name}`)).toEqual([
      'ADDED:a',
      'ADDED:b',
      'DELETED:b',
    ]);
  });

  it('should filter lists by label and field selectors', () => {
    const { admin } = setup();
    admin({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: { ...pod('a'), metadata: { name: 'a', labels: { app: 'x' } } },
    });
    admin({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: { ...pod('b'), metadata: { name: 'b', labels: { app: 'y' } } },
    });
    const names = (q: Record<string, string>) =>
      (
        admin({ verb: 'list', resource: 'pods', namespace: 'default', query: q }).body as {
          items: KubeObject[];
        }
      ).items.map((p) => p.metadata.name);
    expect(names({ labelSelector: 'app=x' })).toEqual(['a']);
    expect(names({ labelSelector: 'app in (x,y)' })).toEqual(['a', 'b']);
    expect(names({ fieldSelector: 'metadata.name=b' })).toEqual(['b']);
    expect(names({ fieldSelector: 'status.phase=Pending' })).toEqual(['a', 'b']);
    const bad = admin({
      verb: 'list',
      resource: 'pods',
      namespace: 'default',
      query: { fieldSelector: 'spec.foo=1' },
    });
    expect(bad.code).toBe(400);
    expect(status(bad).message).toBe('field label not supported: spec.foo');
  });

  it('should answer 410 Expired when the watch starts before a snapshot restore', () => {
    const { lab, admin } = setup();
    const rev = lab.apiserver.revision;
    const snap = lab.snapshotSave();
    admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('a') });
    lab.snapshotRestore(snap);
    const r = lab.apiserver
      .client({ kind: 'cert', certId: 'kubernetes-admin' }, ADMIN)
      .watch('pods', rev);
    expect(r).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect((r as Status).message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
    expect(lab.peek('pods', 'default', 'a')).toBeUndefined();
  });
});

describe('apiserver trace', () => {
  it('should trace authenticate -> authorize -> mutating -> validating -> etcd.put -> respond with chained causes', () => {
    const { lab, admin } = setup();
    const before = lab.trace().length ? lab.trace()[lab.trace().length - 1]!.seq : 0;
    admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment('my-app'),
    });
    const evs = lab.trace(before);
    expect(evs.map((e) => e.verb)).toEqual([
      'authenticate',
      'authorize',
      'admission.mutating',
      'admission.validating',
      'etcd.put',
      'respond',
    ]);
    for (let i = 1; i < evs.length; i++) expect(evs[i]!.causedBy).toBe(evs[i - 1]!.seq);
    expect(evs[4]).toMatchObject({
      component: 'etcd',
      data: { key: '/registry/deployments/default/my-app', quorum: 1 },
    });
    expect(evs[5]!.data).toMatchObject({ code: 201 });
  });
});

describe('apiserver field validation', () => {
  const typo = () => {
    const d = deployment('web');
    (d['spec'] as Record<string, unknown>)['replica'] = 3;
    (
      (d['spec'] as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec
        .containers[0] as Record<string, unknown>
    )['imagee'] = 'x';
    return d;
  };

  it('should reject unknown fields with a strict decoding error when fieldValidation is Strict', () => {
    const { admin } = setup();
    const r = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: typo(),
      query: { fieldValidation: 'Strict' },
    });
    expect(r.code).toBe(400);
    expect(status(r)).toMatchObject({
      reason: 'BadRequest',
      message:
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagee", unknown field "spec.replica"',
    });
  });

  it('should warn about and drop unknown fields when fieldValidation is Warn', () => {
    const { admin } = setup();
    const r = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: typo(),
    });
    expect(r.code).toBe(201);
    // in document order, as the decoder meets them
    expect(r.warnings).toEqual([
      'unknown field "spec.template.spec.containers[0].imagee"',
      'unknown field "spec.replica"',
    ]);
    expect((r.body as KubeObject)['spec']).not.toHaveProperty('replica');
  });
});

describe('list at an exact resourceVersion', () => {
  it('should list ConfigMaps as they stood at a past revision, and answer 410 Expired when it is too old', () => {
    const lab = createLab({ seed: 5 });
    const cm = (data: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'default' },
      data: { mode: data },
    });
    const created = lab.request(ADMIN, {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: cm('a'),
    }).body as KubeObject;
    const rv = created.metadata.resourceVersion as string;
    lab.request(ADMIN, {
      verb: 'update',
      resource: 'configmaps',
      namespace: 'default',
      name: 'settings',
      body: { ...cm('b'), metadata: { ...cm('b').metadata, resourceVersion: rv } },
    });
    const listAt = (resourceVersion: string) =>
      lab.request(ADMIN, {
        verb: 'list',
        resource: 'configmaps',
        namespace: 'default',
        query: { resourceVersion, resourceVersionMatch: 'Exact' },
      });
    const then = listAt(rv);
    expect(then.code).toBe(200);
    const list = then.body as { metadata: { resourceVersion: string }; items: KubeObject[] };
    expect(list.metadata.resourceVersion).toBe(rv);
    const settings = list.items.find((i) => i.metadata.name === 'settings') as KubeObject & {
      data: Record<string, string>;
    };
    expect(settings.data['mode']).toBe('a');
    // a restarted apiserver's watch cache starts its history anew: that revision is gone
    stopComponent(lab, { component: 'kube-apiserver' });
    startComponent(lab, { component: 'kube-apiserver' });
    const tooOld = listAt(rv);
    expect(tooOld.code).toBe(410);
    expect((tooOld.body as Status).reason).toBe('Expired');
    expect((tooOld.body as Status).message).toMatch(
      new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`),
    );
  });
});
