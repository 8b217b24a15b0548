import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../model';
import { startComponent, stopComponent } from '../faults/faults';
import { createLab, restoreLab } from './lab';

const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db' },
  data: { password: 'czNjcjN0' }, // "s3cr3t"
};

describe('secrets in etcd', () => {
  it('should store secret bytes readable in etcd when encryption at rest is off', () => {
    const lab = createLab();
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'secrets',
      namespace: 'default',
      body: secret,
    });
    const raw = lab.etcd.get('/registry/secrets/default/db')!.value;
    expect(raw).toContain('s3cr3t');
    const back = lab.request('kubernetes-admin', 'get', 'secrets', {
      namespace: 'default',
      name: 'db',
    }) as KubeObject;
    expect(back['data']).toEqual({ password: 'czNjcjN0' });
  });

  it('should store an aescbc envelope when encryption at rest is configured', () => {
    const lab = createLab({ encryptionAtRest: { provider: 'aescbc', keyName: 'key1' } });
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'secrets',
      namespace: 'default',
      body: secret,
    });
    const raw = lab.etcd.get('/registry/secrets/default/db')!.value;
    expect(raw.startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    expect(raw).not.toContain('s3cr3t');
    const back = lab.request('kubernetes-admin', 'get', 'secrets', {
      namespace: 'default',
      name: 'db',
    }) as KubeObject;
    expect(back['data']).toEqual({ password: 'czNjcjN0' });
  });
});

describe('process control', () => {
  it('should refuse every client call with code 0 when the apiserver is stopped, and serve again when started', () => {
    const lab = createLab();
    expect(lab.stopProcess({ component: 'kube-apiserver' })).toBe(true);
    const r = lab.request('kubernetes-admin', {
      verb: 'list',
      resource: 'pods',
      namespace: 'default',
    });
    expect(r.code).toBe(0);
    expect(
      lab.apiserver.client({ kind: 'cert', certId: 'system:kube-scheduler' }, 'x').watch('pods', 0),
    ).toMatchObject({ code: 0 });
    lab.advance(1000);
    lab.startProcess({ component: 'kube-apiserver' });
    expect(
      lab.request('kubernetes-admin', { verb: 'list', resource: 'pods', namespace: 'default' })
        .code,
    ).toBe(200);
    expect(
      lab
        .trace()
        .filter((e) => e.verb.startsWith('process.'))
        .map((e) => e.verb),
    ).toEqual(['process.stop', 'process.start']);
  });

  it('should fail writes with a 500 etcdserver error but keep serving reads when etcd loses quorum', () => {
    const lab = createLab({ etcdMembers: 3 });
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } },
    });
    lab.stopProcess({ component: 'etcd', node: 'etcd-2' });
    // one of three down: quorum holds
    expect(
      lab.request('kubernetes-admin', {
        verb: 'create',
        resource: 'configmaps',
        namespace: 'default',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } },
      }).code,
    ).toBe(201);
    lab.stopProcess({ component: 'etcd', node: 'etcd-3' });
    const w = lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    });
    expect(w.code).toBe(500);
    expect(w.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'etcdserver: request timed out',
      code: 500,
    });
    expect((w.body as Status).reason).toBeUndefined();
    const r = lab.request('kubernetes-admin', {
      verb: 'list',
      resource: 'configmaps',
      namespace: 'default',
    });
    expect(r.code).toBe(200);
    expect((r.body as { items: KubeObject[] }).items.map((c) => c.metadata.name)).toEqual([
      'a',
      'b',
    ]);
    lab.startProcess({ component: 'etcd', node: 'etcd-3' });
    expect(
      lab.request('kubernetes-admin', {
        verb: 'create',
        resource: 'configmaps',
        namespace: 'default',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      }).code,
    ).toBe(201);
  });

  it('should list every process with its state', () => {
    const lab = createLab({ etcdMembers: 3 });
    lab.stopProcess({ component: 'kubelet', node: 'node-2' });
    const ps = lab.processes();
    expect(ps.filter((p) => p.ref.component === 'etcd')).toHaveLength(3);
    expect(ps.find((p) => p.ref.component === 'kubelet' && p.ref.node === 'node-2')?.running).toBe(
      false,
    );
    expect(lab.node('node-2')?.systemd.isActive('kubelet')).toBe(false);
    expect(lab.node('node-1')?.systemd.isActive('kubelet')).toBe(true);
  });
});

describe('self reviews', () => {
  it('should answer SelfSubjectAccessReview with allowed per RBAC', () => {
    const lab = createLab({ users: [{ name: 'dev', token: 't-dev', clusterRole: 'view' }] });
    const ask = (verb: string, resource: string, group = '', namespace = 'default') =>
      (
        lab.request('dev', {
          verb: 'create',
          resource: 'selfsubjectaccessreviews',
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: { resourceAttributes: { verb, resource, group, namespace } },
          },
        }).body as { status: { allowed: boolean } }
      ).status.allowed;
    expect(ask('list', 'pods')).toBe(true);
    expect(ask('create', 'deployments', 'apps')).toBe(false);
    expect(ask('delete', 'nodes', '', '')).toBe(false);
    const admin = lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'selfsubjectaccessreviews',
      body: { spec: { resourceAttributes: { verb: 'delete', resource: 'nodes' } } },
    });
    expect(admin.code).toBe(201);
    expect((admin.body as { status: { allowed: boolean } }).status.allowed).toBe(true);
  });

  it('should honour resourceNames and RoleBindings in a namespace', () => {
    const lab = createLab({
      users: [{ name: 'ops', token: 't-ops', clusterRole: 'system:basic-user' }],
    });
    const admin = (r: Parameters<typeof lab.requestAs>[1]) => lab.request('kubernetes-admin', r);
    admin({
      verb: 'create',
      resource: 'roles',
      namespace: 'default',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'cm-one' },
        rules: [
          {
            apiGroups: [''],
            resources: ['configmaps'],
            verbs: ['get', 'update'],
            resourceNames: ['app-config'],
          },
        ],
      },
    });
    admin({
      verb: 'create',
      resource: 'rolebindings',
      namespace: 'default',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'ops-cm' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-one' },
        subjects: [{ kind: 'User', name: 'ops', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    });
    admin({
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config' } },
    });
    admin({
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } },
    });
    expect(
      lab.request('ops', {
        verb: 'get',
        resource: 'configmaps',
        namespace: 'default',
        name: 'app-config',
      }).code,
    ).toBe(200);
    expect(
      lab.request('ops', {
        verb: 'get',
        resource: 'configmaps',
        namespace: 'default',
        name: 'other',
      }).code,
    ).toBe(403);
    expect(
      lab.request('ops', { verb: 'list', resource: 'configmaps', namespace: 'default' }).code,
    ).toBe(403);
    const rules = lab.request('ops', {
      verb: 'create',
      resource: 'selfsubjectrulesreviews',
      body: { spec: { namespace: 'default' } },
    }).body as { status: { resourceRules: { resourceNames?: string[] }[] } };
    expect(rules.status.resourceRules.some((r) => r.resourceNames?.includes('app-config'))).toBe(
      true,
    );
  });
});

describe('determinism and serialization', () => {
  function workload(seed: number) {
    const lab = createLab({ seed });
    for (let i = 0; i < 3; i++) {
      lab.request('kubernetes-admin', {
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { generateName: 'p-' },
          spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] },
        },
      });
    }
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'services',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { ports: [{ port: 80 }] },
      },
    });
    lab.advance(2500);
    return lab;
  }

  it('should produce byte-identical state and trace when the seed and inputs are the same', () => {
    expect(workload(11).serialize()).toBe(workload(11).serialize());
    expect(workload(11).serialize()).not.toBe(workload(12).serialize());
  }, 60_000);

  it('should give the same state when a restored lab advances as the original does', () => {
    const a = workload(5);
    const b = restoreLab(a.serialize());
    // components rebuild their caches after a restore; everything else is identical at once
    const strip = (json: string) => ({ ...JSON.parse(json), components: undefined });
    expect(strip(b.serialize())).toEqual(strip(a.serialize()));
    a.advance(15_000);
    b.advance(15_000);
    expect(b.etcd.toJSON()).toEqual(a.etcd.toJSON());
    expect(b.trace()).toEqual(a.trace());
  }, 60_000);

  it.each([
    [
      'a Deployment and its Service are created',
      (lab: ReturnType<typeof createLab>) => {
        createWebAndService(lab, 3);
      },
    ],
    [
      'a CoreDNS pod is deleted',
      (lab: ReturnType<typeof createLab>) => {
        const pod = lab
          .peekAll('pods', 'kube-system')
          .find((p) => p.metadata.name?.startsWith('coredns'));
        lab.request('kubernetes-admin', {
          verb: 'delete',
          resource: 'pods',
          namespace: 'kube-system',
          name: pod?.metadata.name,
        });
      },
    ],
    [
      'a kubelet stopped long enough for its node to go NotReady is started again',
      (lab: ReturnType<typeof createLab>) => {
        lab.request('kubernetes-admin', {
          verb: 'create',
          resource: 'services',
          namespace: 'kube-system',
          body: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'proxied' },
            spec: { selector: { 'k8s-app': 'kube-proxy' }, ports: [{ port: 10256 }] },
          },
        });
        lab.advance(5_000);
        stopComponent(lab, { component: 'kubelet', node: 'node-2' });
        lab.advance(70_000);
        startComponent(lab, { component: 'kubelet', node: 'node-2' });
      },
    ],
  ])(
    'should act exactly as the original when restored at any moment after %s, components lagging included',
    (_what, act) => {
      const boot = () => {
        const lab = createLab({ seed: 11 });
        for (let t = 0; t < 20_000; t += 500) lab.advance(500);
        act(lab);
        return lab;
      };
      const original = boot();
      let restored = boot();
      // saved right after the request (no component has seen it yet), then mid-flight
      for (const step of [0, 10, 37, 120, 333, 1_000, 4_000, 12_000]) {
        original.advance(step);
        const seq = original.trace().at(-1)?.seq ?? 0;
        restored = restoreLab(restored.serialize({ traceEvents: false }));
        restored.advance(step);
        expect(restored.serialize({ traceEvents: false })).toBe(
          original.serialize({ traceEvents: false }),
        );
        expect(restored.trace(seq)).toEqual(original.trace(seq));
      }
    },
    60_000,
  );

  it('should act exactly as the original when a kubelet stopped before the save is started after the restore', () => {
    const lab = createLab({ seed: 11 });
    lab.advance(10_000);
    createWebAndService(lab, 4);
    lab.advance(8_000);
    stopComponent(lab, { component: 'kubelet', node: 'node-2' });
    // long enough for the node to go NotReady and its pods' endpoints to turn not ready
    lab.advance(90_000);
    const copy = restoreLab(lab.serialize());
    const seq = lab.trace().at(-1)?.seq ?? 0;
    startComponent(lab, { component: 'kubelet', node: 'node-2' });
    startComponent(copy, { component: 'kubelet', node: 'node-2' });
    for (let t = 0; t < 20_000; t += 500) {
      lab.advance(500);
      copy.advance(500);
    }
    expect(copy.trace(seq)).toEqual(lab.trace(seq));
    expect(copy.serialize()).toBe(lab.serialize());
  }, 60_000);

  it('should store the same lab whether restored and ticked in steps or advanced at once from creation', () => {
    // what a worker (restores, ticks 250 ms at a time) and the API (its cached instance catches
    // up in one advance) each hold: the API's replay is checked against the worker's rows
    const api = createLab({ seed: 11 });
    api.advance(0);
    const worker = restoreLab(api.serialize({ traceEvents: false }));
    for (let i = 0; i < 3; i++) worker.advance(250);
    api.advance(750);
    expect(worker.serialize({ traceEvents: false })).toBe(api.serialize({ traceEvents: false }));
  }, 60_000);

  it('should write the full text with an empty keyspace and no trace events when asked for the core only', () => {
    const lab = workload(7);
    const full = lab.serialize();
    expect(lab.serialize({ keyspace: true, traceEvents: true })).toBe(full);
    const parsed = JSON.parse(full) as {
      etcd: { kvs: unknown[] };
      trace: { nextSeq: number; events: unknown[] };
    };
    expect(parsed.etcd.kvs.length).toBeGreaterThan(50);
    expect(parsed.trace.events.length).toBeGreaterThan(10);
    // same text, key for key, with the two lists emptied in place
    const emptied = JSON.stringify({
      ...parsed,
      etcd: { ...parsed.etcd, kvs: [] },
      trace: { ...parsed.trace, events: [] },
    });
    expect(lab.serialize({ keyspace: false, traceEvents: false })).toBe(emptied);
    expect(JSON.parse(lab.serialize({ keyspace: false })).trace).toEqual(parsed.trace);
    expect(JSON.stringify(lab.serializeState())).toBe(full);
    expect(JSON.stringify(lab.serializeState({ keyspace: false, traceEvents: false }))).toBe(
      emptied,
    );
    expect(JSON.parse(lab.serialize({ traceEvents: false })).etcd).toEqual(parsed.etcd);
  }, 60_000);

  it('should restore the same lab from the core plus the keyspace and trace as from the full text', () => {
    const lab = workload(9);
    const full = lab.serialize();
    const { etcd, trace } = JSON.parse(full) as {
      etcd: { kvs: { key: string }[] };
      trace: { events: unknown[] };
    };
    const core = JSON.parse(lab.serialize({ keyspace: false, traceEvents: false })) as {
      etcd: object;
      trace: object;
    };
    // the keys come back in an order other than etcd's, as rows from a database would
    const kvs = [...etcd.kvs].reverse().sort((a, b) => (a.key < b.key ? -1 : 1));
    const merged = JSON.stringify({
      ...core,
      etcd: { ...core.etcd, kvs },
      trace: { ...core.trace, events: trace.events },
    });
    const fromParts = restoreLab(merged);
    const fromFull = restoreLab(full);
    expect(fromParts.serialize()).toBe(fromFull.serialize());
    fromParts.advance(12_000);
    fromFull.advance(12_000);
    expect(fromParts.serialize()).toBe(fromFull.serialize());
    expect(fromParts.trace()).toEqual(fromFull.trace());
  }, 60_000);

  it('should number new events after the old ones when restored from a core without trace events', () => {
    const lab = workload(3);
    const lastSeq = lab.trace().at(-1)?.seq ?? 0;
    const restored = restoreLab(lab.serialize({ traceEvents: false }));
    expect(restored.trace()).toEqual([]);
    restored.request('kubernetes-admin', {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } },
    });
    restored.advance(1000);
    const seqs = restored.trace().map((e) => e.seq);
    expect(seqs.length).toBeGreaterThan(0);
    expect(seqs[0]).toBe(lastSeq + 1);
  }, 60_000);

  it('should behave and serialize as before when it forgets old trace events', () => {
    const a = workload(3);
    const b = workload(3);
    const lastSeq = b.trace().at(-1)?.seq ?? 0;
    b.forgetTrace(10);
    expect(b.trace().map((e) => e.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => lastSeq - 9 + i),
    );
    for (const lab of [a, b]) {
      lab.request('kubernetes-admin', {
        verb: 'create',
        resource: 'configmaps',
        namespace: 'default',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } },
      });
      lab.advance(5_000);
    }
    const core = { traceEvents: false } as const;
    expect(b.serialize(core)).toBe(a.serialize(core));
    expect(b.trace(lastSeq)).toEqual(a.trace(lastSeq));
  }, 60_000);

  it('should report changed and deleted etcd keys of each advance', () => {
    const lab = createLab();
    lab.advance(10);
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
    });
    const r1 = lab.advance(10);
    expect(r1.changedKeys).toContain('/registry/configmaps/default/x');
    lab.request('kubernetes-admin', {
      verb: 'delete',
      resource: 'configmaps',
      namespace: 'default',
      name: 'x',
    });
    const r2 = lab.advance(10);
    expect(r2.deletedKeys).toEqual(['/registry/configmaps/default/x']);
    expect(r2.changedKeys).not.toContain('/registry/configmaps/default/x');
  });
});

describe('static pods on the control plane', () => {
  it('should stop scheduling when the kube-scheduler manifest leaves /etc/kubernetes/manifests and resume when it returns', () => {
    const lab = createLab();
    lab.advance(3_000);
    const cp = lab.node('control-plane')!;
    const path = '/etc/kubernetes/manifests/kube-scheduler.yaml';
    const manifest = cp.files.get(path)!;
    cp.files.delete(path);
    cp.files.set('/tmp/kube-scheduler.yaml', manifest);
    lab.advance(10);
    expect(lab.isRunning({ component: 'kube-scheduler' })).toBe(false);
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] } },
    });
    lab.advance(5_000);
    expect(
      (lab.peek('pods', 'default', 'p') as { spec: { nodeName?: string } }).spec.nodeName,
    ).toBeUndefined();
    cp.files.set(path, manifest);
    lab.advance(2_000);
    expect(lab.isRunning({ component: 'kube-scheduler' })).toBe(true);
    expect(
      (lab.peek('pods', 'default', 'p') as { spec: { nodeName?: string } }).spec.nodeName,
    ).toMatch(/^node-\d$/);
    expect(
      lab
        .trace()
        .filter((e) => e.data?.['reason'] === 'static-pod-manifest')
        .map((e) => e.verb),
    ).toEqual(['process.stop', 'process.start']);
  }, 30_000);

  it('should refuse connections when the kube-apiserver manifest is removed', () => {
    const lab = createLab();
    const cp = lab.node('control-plane')!;
    cp.files.delete('/etc/kubernetes/manifests/kube-apiserver.yaml');
    expect(
      lab.request('kubernetes-admin', { verb: 'list', resource: 'pods', namespace: 'default' })
        .code,
    ).toBe(0);
  });
});

/** A Deployment `web` of nginx pods and a Service `web` in front of them. */
function createWebAndService(lab: ReturnType<typeof createLab>, replicas: number): void {
  lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'deployments',
    namespace: 'default',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
        },
      },
    },
  });
  lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'services',
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
    },
  });
}
