// One test per claim of the source article's apiserver, etcd and "whole journey" sections
// (see article-claims.md for the table). Each runs a real lab: no component is faked.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { breakUserCredentials, etcdMemberDown, etcdMemberUp } from '../src/faults/faults';
import { createLab } from '../src/lab/lab';
import type { SimLab } from '../src/lab/lab';
import type { KubeObject, Node, Pod, Status } from '../src/model';
import { ADMIN, advanceUntil, deployment, isReadyRunning, pods, service } from './journey-helpers';

function runningApp(replicas = 3, opts: Parameters<typeof createLab>[0] = {}): SimLab {
  const lab = createLab({ seed: 21, ...opts });
  lab.advance(3_000);
  lab.request(ADMIN, {
    verb: 'create',
    resource: 'services',
    namespace: 'default',
    body: service('web', 'web'),
  });
  lab.request(ADMIN, {
    verb: 'create',
    resource: 'deployments',
    namespace: 'default',
    body: deployment('web', replicas),
  });
  expect(
    advanceUntil(lab, () => pods(lab).filter(isReadyRunning).length === replicas, 15_000),
  ).not.toBeNull();
  lab.advance(2_000);
  return lab;
}

const code = (lab: SimLab, user: string, req: Parameters<SimLab['requestAs']>[1]) =>
  lab.request(user, req).code;

describe('第二站 kube-apiserver', () => {
  it('claim A1: should reject an unknown identity with 401 at authentication, before authorization', () => {
    const lab = createLab();
    breakUserCredentials(lab, ADMIN);
    const before = lab.trace().at(-1)!.seq;
    const r = lab.request(ADMIN, {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment('web', 1),
    });
    expect(r.code).toBe(401);
    expect(lab.trace(before).map((e) => e.verb)).toEqual(['authenticate', 'respond']);
  });

  it('claim A2: should reject an authenticated user without RBAC permission with 403 at authorization', () => {
    const lab = createLab({ users: [{ name: 'intern', token: 't-intern', clusterRole: 'view' }] });
    const before = lab.trace().at(-1)!.seq;
    const r = lab.request('intern', {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment('web', 1),
    });
    expect(r.code).toBe(403);
    expect(lab.trace(before).map((e) => e.verb)).toEqual(['authenticate', 'authorize', 'respond']);
  });

  it('claim A3: should let a user ask the cluster whether they may do something (kubectl auth can-i)', () => {
    const lab = createLab({ users: [{ name: 'intern', token: 't-intern', clusterRole: 'view' }] });
    const can = (verb: string, resource: string, group = '') =>
      (
        lab.request('intern', {
          verb: 'create',
          resource: 'selfsubjectaccessreviews',
          body: { spec: { resourceAttributes: { verb, resource, group, namespace: 'default' } } },
        }).body as { status: { allowed: boolean } }
      ).status.allowed;
    expect(can('list', 'deployments', 'apps')).toBe(true);
    expect(can('create', 'deployments', 'apps')).toBe(false);
    expect(can('delete', 'nodes')).toBe(false);
  });

  it('claim A4: should let admission rewrite content (sidecar injection, default limits) even when identity and permission are fine', () => {
    const lab = createLab();
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'namespaces',
      body: {
        metadata: { name: 'mesh', labels: { 'kubejourney.dev/sidecar-injection': 'enabled' } },
      },
    });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'limitranges',
      namespace: 'mesh',
      body: {
        metadata: { name: 'l' },
        spec: { limits: [{ type: 'Container', default: { cpu: '200m', memory: '128Mi' } }] },
      },
    });
    const p = lab.request(ADMIN, {
      verb: 'create',
      resource: 'pods',
      namespace: 'mesh',
      body: {
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    }).body as Pod;
    expect(p.spec.containers.map((c) => c.name)).toEqual(['app', 'istio-proxy']);
    expect(p.spec.containers[0]!.resources?.limits).toEqual({ cpu: '200m', memory: '128Mi' });
  });

  it('claim A5: should let admission reject content by policy (no :latest) even for cluster-admin', () => {
    const lab = createLab();
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'namespaces',
      body: { metadata: { name: 'prod', labels: { 'kubejourney.dev/policy': 'no-latest' } } },
    });
    const r = lab.request(ADMIN, {
      verb: 'create',
      resource: 'deployments',
      namespace: 'prod',
      body: deployment('web', 1, 'nginx:latest'),
    });
    expect(r.code).toBe(403);
    expect((r.body as Status).message).toContain(
      'admission webhook "no-latest.kubejourney.dev" denied the request',
    );
  });

  it('claim A6: should run mutating admission before validating admission, so a mutation cannot bypass validation', () => {
    const lab = createLab();
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'namespaces',
      body: {
        metadata: {
          name: 'both',
          labels: {
            'kubejourney.dev/sidecar-injection': 'enabled',
            'kubejourney.dev/policy': 'no-latest',
          },
        },
      },
    });
    const before = lab.trace().at(-1)!.seq;
    expect(
      code(lab, ADMIN, {
        verb: 'create',
        resource: 'pods',
        namespace: 'both',
        body: {
          metadata: { name: 'p' },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      }),
    ).toBe(201);
    const verbs = lab.trace(before).map((e) => e.verb);
    expect(verbs.indexOf('admission.mutating')).toBeLessThan(verbs.indexOf('admission.validating'));
    // the validating policy saw the injected sidecar (pinned, so allowed)
    expect(lab.trace(before).find((e) => e.verb === 'admission.validating')?.data).toMatchObject({
      webhooks: ['no-latest.kubejourney.dev'],
    });
  });

  it('claim A7: should have only the apiserver touch etcd: components import neither etcd nor the apiserver', () => {
    const root = join(__dirname, '..', 'src');
    for (const dir of ['controllers', 'scheduler', 'kubelet', 'kube-proxy']) {
      const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter(
        (f) => f.endsWith('.ts'),
      );
      for (const f of files) {
        const text = readFileSync(join(root, dir, f), 'utf8');
        expect(text, `${dir}/${f}`).not.toMatch(/from '(\.\.\/)+(etcd|apiserver)(\/|')/);
      }
    }
  });

  it('claim A8: should make kubectl fail when the apiserver is down while containers keep running and kube-proxy rules stay', () => {
    const lab = runningApp();
    const rulesBefore = lab.nodes().map((h) => h.iptables.save({ table: 'nat' }));
    const runningBefore = lab.nodes().map((h) => h.containerd.listContainers().length);
    lab.stopProcess({ component: 'kube-apiserver' });
    expect(lab.request(ADMIN, { verb: 'get', resource: 'pods', namespace: 'default' }).code).toBe(
      0,
    );
    lab.advance(120_000);
    expect(lab.nodes().map((h) => h.containerd.listContainers().length)).toEqual(runningBefore);
    expect(lab.nodes().map((h) => h.iptables.save({ table: 'nat' }))).toEqual(rulesBefore);
    // no self-repair while it is down: a scale request never even reaches the cluster
    expect(
      lab.request(ADMIN, {
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        patchType: 'merge',
        body: { spec: { replicas: 5 } },
      }).code,
    ).toBe(0);
    lab.startProcess({ component: 'kube-apiserver' });
    expect(lab.request(ADMIN, { verb: 'list', resource: 'pods', namespace: 'default' }).code).toBe(
      200,
    );
  }, 60_000);
});

describe('第三站 etcd', () => {
  it('claim E1: should store objects under /registry/<resource>/<namespace>/<name>', () => {
    const lab = runningApp(1);
    const keys = lab.etcd.range('/registry/').map((kv) => kv.key);
    expect(keys).toContain('/registry/deployments/default/web');
    expect(keys).toContain('/registry/services/specs/default/web');
    expect(keys).toContain('/registry/minions/node-1');
    expect(keys.some((k) => /^\/registry\/pods\/default\/web-[a-z0-9]+-[a-z0-9]{5}$/.test(k))).toBe(
      true,
    );
  }, 60_000);

  it('claim E2: should make a Deployment exist as soon as it is recorded in etcd, before any container runs', () => {
    const lab = createLab();
    lab.advance(3_000);
    const r = lab.request(ADMIN, {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment('web', 3),
    });
    expect(r.code).toBe(201);
    expect(lab.etcd.get('/registry/deployments/default/web')).toBeDefined();
    expect(pods(lab)).toHaveLength(0);
    expect(
      lab
        .nodes()
        .flatMap((h) => h.containerd.listContainers())
        .filter((c) => c.podName.startsWith('web-')),
    ).toHaveLength(0);
  });

  it('claim E3: should keep writing with one of three members down and become read-only with two down', () => {
    const lab = runningApp(2, { etcdMembers: 3 });
    etcdMemberDown(lab, 'etcd-3');
    expect(
      code(lab, ADMIN, {
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        patchType: 'merge',
        body: { spec: { replicas: 3 } },
      }),
    ).toBe(200);
    etcdMemberDown(lab, 'etcd-2');
    expect(
      code(lab, ADMIN, { verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }),
    ).toBe(200);
    expect(code(lab, ADMIN, { verb: 'list', resource: 'pods', namespace: 'default' })).toBe(200);
    const scale = lab.request(ADMIN, {
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      patchType: 'merge',
      body: { spec: { replicas: 1 } },
    });
    expect(scale).toMatchObject({ code: 500, body: { message: 'etcdserver: request timed out' } });
    const podName = pods(lab)[0]!.metadata.name!;
    expect(
      code(lab, ADMIN, { verb: 'delete', resource: 'pods', namespace: 'default', name: podName }),
    ).toBe(500);
    etcdMemberUp(lab, 'etcd-2');
    expect(
      code(lab, ADMIN, { verb: 'delete', resource: 'pods', namespace: 'default', name: podName }),
    ).toBe(200);
  }, 60_000);

  it('claim E4: should lose self-repair without quorum: a dead node is not marked NotReady until quorum returns', () => {
    const lab = runningApp(1, { etcdMembers: 3 });
    etcdMemberDown(lab, 'etcd-2');
    etcdMemberDown(lab, 'etcd-3');
    lab.stopProcess({ component: 'kubelet', node: 'node-1' });
    lab.advance(70_000);
    const ready = () =>
      (lab.peek('nodes', undefined, 'node-1') as Node).status?.conditions?.find(
        (c) => c.type === 'Ready',
      )?.status;
    expect(ready()).toBe('True');
    expect(lab.trace().some((e) => e.verb === 'etcd.error')).toBe(true);
    etcdMemberUp(lab, 'etcd-2');
    lab.advance(10_000);
    expect(ready()).toBe('Unknown');
  }, 60_000);

  it('claim E5: should bring back a deleted namespace from a snapshot (save, status, restore)', () => {
    const lab = createLab();
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'namespaces',
      body: { metadata: { name: 'shop' } },
    });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'shop',
      body: { metadata: { name: 'settings' }, data: { currency: 'TWD' } },
    });
    const snap = lab.snapshotSave();
    expect(snap.totalKeys).toBe(lab.etcd.count());
    expect(snap.hash).toMatch(/^[0-9a-f]{8}$/);
    lab.request(ADMIN, {
      verb: 'delete',
      resource: 'configmaps',
      namespace: 'shop',
      name: 'settings',
    });
    expect(lab.peek('configmaps', 'shop', 'settings')).toBeUndefined();
    lab.snapshotRestore(snap);
    expect(
      (
        lab.request(ADMIN, 'get', 'configmaps', {
          namespace: 'shop',
          name: 'settings',
        }) as KubeObject
      )['data'],
    ).toEqual({ currency: 'TWD' });
  });

  it('claim E6: should store Secrets readable by anyone who can read etcd (base64 is not encryption)', () => {
    const lab = createLab();
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'secrets',
      namespace: 'default',
      body: { metadata: { name: 'my-secret' }, data: { password: 'aHVudGVyMg==' } },
    });
    expect(lab.etcd.get('/registry/secrets/default/my-secret')!.value).toContain('hunter2');
  });

  it('claim E7: should store Secrets as k8s:enc:aescbc:v1 ciphertext when encryption at rest is on', () => {
    const lab = createLab({ encryptionAtRest: { provider: 'aescbc', keyName: 'key1' } });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'secrets',
      namespace: 'default',
      body: { metadata: { name: 'my-secret' }, data: { password: 'aHVudGVyMg==' } },
    });
    const raw = lab.etcd.get('/registry/secrets/default/my-secret')!.value;
    expect(raw.startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    expect(raw).not.toContain('hunter2');
  });
});

describe('全程回顧 the whole journey', () => {
  it('claim J1: should have the scheduler write only spec.nodeName (and the PodScheduled condition the binding sets)', () => {
    const lab = createLab();
    lab.advance(3_000);
    lab.stopProcess({ component: 'kube-scheduler' });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment('web', 1),
    });
    lab.advance(2_000);
    const before = pods(lab)[0]!;
    expect(before.spec.nodeName).toBeUndefined();
    const rv = before.metadata.resourceVersion;
    lab.startProcess({ component: 'kube-scheduler' });
    lab.advance(200);
    // the first write after the scheduler starts is its binding
    const after = (
      lab.apiserver
        .client({ kind: 'cert', certId: 'kubernetes-admin' }, ADMIN)
        .watch('pods', Number(rv), { namespace: 'default' }) as { object: Pod }[]
    )[0]!.object;
    const strip = (p: Pod) => ({
      ...p,
      metadata: { ...p.metadata, resourceVersion: undefined, managedFields: undefined },
      spec: { ...p.spec, nodeName: undefined },
      status: { ...p.status, conditions: undefined },
    });
    expect(after.spec.nodeName).toBeDefined();
    expect(strip(after)).toEqual(strip(before));
  });

  it('claim J2: should leave pods Pending without a node while no scheduler runs (scheduling is its own step)', () => {
    const lab = createLab();
    lab.advance(3_000);
    lab.stopProcess({ component: 'kube-scheduler' });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment('web', 2),
    });
    lab.advance(30_000);
    expect(pods(lab).map((p) => [p.status?.phase, p.spec.nodeName])).toEqual([
      ['Pending', undefined],
      ['Pending', undefined],
    ]);
    lab.startProcess({ component: 'kube-scheduler' });
    expect(
      advanceUntil(lab, () => pods(lab).filter(isReadyRunning).length === 2, 5_000),
    ).not.toBeNull();
  }, 60_000);

  it('claim J3: should bring a deleted pod back, because only the actual state was changed, not the desired one', () => {
    const lab = runningApp(3);
    const victim = pods(lab)[0]!.metadata.name!;
    lab.request(ADMIN, { verb: 'delete', resource: 'pods', namespace: 'default', name: victim });
    expect(
      advanceUntil(
        lab,
        () => {
          const live = pods(lab).filter((p) => !p.metadata.deletionTimestamp);
          return (
            live.length === 3 &&
            live.every(isReadyRunning) &&
            !live.some((p) => p.metadata.name === victim)
          );
        },
        40_000,
      ),
    ).not.toBeNull();
  }, 60_000);

  it('claim J4: should keep a stopped controller-manager from repairing anything until it runs again (reconcile loops)', () => {
    const lab = runningApp(2);
    lab.stopProcess({ component: 'kube-controller-manager' });
    const victim = pods(lab)[0]!.metadata.name!;
    lab.request(ADMIN, { verb: 'delete', resource: 'pods', namespace: 'default', name: victim });
    lab.advance(40_000);
    expect(pods(lab)).toHaveLength(1);
    lab.startProcess({ component: 'kube-controller-manager' });
    expect(
      advanceUntil(lab, () => pods(lab).filter(isReadyRunning).length === 2, 10_000),
    ).not.toBeNull();
  }, 60_000);

  it('claim J5: should answer "deployment created" long before the service is usable (apply success is not deploy success)', () => {
    const lab = createLab();
    lab.advance(3_000);
    const t0 = lab.now;
    expect(
      code(lab, ADMIN, {
        verb: 'create',
        resource: 'deployments',
        namespace: 'default',
        body: deployment('web', 3),
      }),
    ).toBe(201);
    expect(lab.now).toBe(t0);
    const took = advanceUntil(lab, () => pods(lab).filter(isReadyRunning).length === 3, 10_000);
    expect(took).toBeGreaterThan(0);
  });
});
