import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../client/api-client';
import { createLab } from '../lab/lab';
import type { LabRequest } from '../lab/lab-types';
import type { KubeObject, Pod, Status } from '../model';
import { createTerminal } from '../cli/terminal';
import { isLatestImage } from './admission';

function setup(nsLabels?: Record<string, string>) {
  const lab = createLab({ seed: 3 });
  const admin = (r: LabRequest): ApiResponse => lab.request('kubernetes-admin', r);
  if (nsLabels) {
    admin({
      verb: 'create',
      resource: 'namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: nsLabels } },
    });
  }
  return { lab, admin };
}

const pod = (name: string, image = 'nginx:1.27'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'app', image }] },
});

describe('mutating admission', () => {
  it('should add the not-ready and unreachable NoExecute tolerations for 300s when a pod is created', () => {
    const { admin } = setup();
    const p = admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') })
      .body as Pod;
    expect(p.spec.tolerations).toEqual([
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
  });

  it('should default the service account and mount its token volume when a pod is created', () => {
    const { admin } = setup();
    const p = admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') })
      .body as Pod;
    expect(p.spec.serviceAccountName).toBe('default');
    expect(p.spec.volumes?.[0]?.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(p.spec.containers[0]?.volumeMounts?.[0]?.mountPath).toBe(
      '/var/run/secrets/kubernetes.io/serviceaccount',
    );
  });

  it('should mount the token volume into init containers too, and describe should list it', () => {
    const { lab, admin } = setup();
    const body = pod('p');
    (body['spec'] as Pod['spec']).initContainers = [{ name: 'setup', image: 'busybox:1.36' }];
    const p = admin({ verb: 'create', resource: 'pods', namespace: 'default', body }).body as Pod;
    const volume = p.spec.volumes?.[0]?.name ?? '';
    const mount = {
      name: volume,
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      readOnly: true,
    };
    expect(p.spec.initContainers?.[0]?.volumeMounts).toEqual([mount]);
    expect(p.spec.containers[0]?.volumeMounts).toEqual([mount]);
    const out = createTerminal(lab).exec('kubectl describe pod p').stdout;
    const initSection = out.slice(out.indexOf('Init Containers:'), out.indexOf('\nContainers:'));
    expect(initSection).toContain(
      `    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from ${volume} (ro)`,
    );
  });

  it('should leave a container that mounts its own token path alone, and add no volume if none needs it', () => {
    const { admin } = setup();
    const body = pod('p');
    const own = { name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    (body['spec'] as Pod['spec']).containers[0]!.volumeMounts = [own];
    (body['spec'] as Pod['spec']).volumes = [{ name: 'mine', emptyDir: {} }];
    const p = admin({ verb: 'create', resource: 'pods', namespace: 'default', body }).body as Pod;
    expect(p.spec.containers[0]?.volumeMounts).toEqual([own]);
    expect(p.spec.volumes?.map((v) => v.name)).toEqual(['mine']);
  });

  it('should reject a pod whose named service account does not exist', () => {
    const { admin } = setup();
    const body = pod('p');
    (body['spec'] as { serviceAccountName: string }).serviceAccountName = 'robot';
    const r = admin({ verb: 'create', resource: 'pods', namespace: 'default', body });
    expect(r.code).toBe(403);
    expect((r.body as Status).message).toBe(
      'pods "p" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found',
    );
  });

  it('should default container resources from a LimitRange when the namespace has one', () => {
    const { admin } = setup();
    admin({
      verb: 'create',
      resource: 'limitranges',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'defaults' },
        spec: {
          limits: [
            {
              type: 'Container',
              default: { cpu: '500m', memory: '256Mi' },
              defaultRequest: { cpu: '100m', memory: '128Mi' },
            },
          ],
        },
      },
    });
    const p = admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') })
      .body as Pod;
    expect(p.spec.containers[0]?.resources).toEqual({
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    });
    expect(p.status?.qosClass).toBe('Burstable');
  });

  it('should inject the sidecar only when the namespace is labelled for injection', () => {
    const { admin } = setup({ 'kubejourney.dev/sidecar-injection': 'enabled' });
    const injected = admin({ verb: 'create', resource: 'pods', namespace: 'team', body: pod('p') })
      .body as Pod;
    expect(injected.spec.containers.map((c) => c.name)).toEqual(['app', 'istio-proxy']);
    const plain = admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') })
      .body as Pod;
    expect(plain.spec.containers.map((c) => c.name)).toEqual(['app']);
  });

  it('should run mutating admission before validating admission in the trace', () => {
    const { lab, admin } = setup({ 'kubejourney.dev/sidecar-injection': 'enabled' });
    const last = lab.trace().at(-1)!.seq;
    admin({ verb: 'create', resource: 'pods', namespace: 'team', body: pod('p') });
    const verbs = lab.trace(last).map((e) => e.verb);
    expect(verbs.indexOf('admission.mutating')).toBeLessThan(verbs.indexOf('admission.validating'));
    expect(lab.trace(last).find((e) => e.verb === 'admission.mutating')?.message).toContain(
      'istio-proxy',
    );
  });
});

describe('validating admission: no-latest policy', () => {
  it.each([
    ['nginx', true],
    ['nginx:latest', true],
    ['registry.local:5000/team/app', true],
    ['registry.local:5000/team/app:1.2', false],
    ['nginx:1.27', false],
    ['nginx@sha256:abc', false],
  ])('should classify %s as latest=%s', (image, latest) => {
    expect(isLatestImage(image)).toBe(latest);
  });

  it('should deny a Deployment with an untagged image in a namespace with the policy, in the webhook denial format', () => {
    const { admin } = setup({ 'kubejourney.dev/policy': 'no-latest' });
    const r = admin({
      verb: 'create',
      resource: 'deployments',
      namespace: 'team',
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx:latest' }] },
          },
        },
      },
    });
    expect(r.code).toBe(403);
    expect((r.body as Status).message).toBe(
      'deployments.apps "web" is forbidden: admission webhook "no-latest.kubejourney.dev" denied the request: images must be pinned to a version tag, ":latest" and untagged images are not allowed: container "web" uses image "nginx:latest"',
    );
  });

  it('should allow a pinned image in the policy namespace and any image elsewhere', () => {
    const { admin } = setup({ 'kubejourney.dev/policy': 'no-latest' });
    expect(
      admin({ verb: 'create', resource: 'pods', namespace: 'team', body: pod('a', 'nginx:1.27') })
        .code,
    ).toBe(201);
    expect(
      admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('b', 'nginx') })
        .code,
    ).toBe(201);
  });
});
