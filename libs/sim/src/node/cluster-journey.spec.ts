// The node side of the article's journey with every component running: Deployment -> ReplicaSet
// -> Pods -> scheduler -> kubelet (sandbox, image, CRI, probes) -> endpoints -> kube-proxy rules
// -> a connection through a ClusterIP reaches a pod. The node folder hosts it because it is the
// one place allowed to see the kubelet, kube-proxy and the control plane together (the lab wires
// every component through lab/components.ts).

import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import { createLab } from '../lab/lab';
import type { EndpointSlice, Node, Pod, Service } from '../model';
import { httpConnect } from './network';

// Whole-cluster runs of minutes of sim time; generous because CI shares the CPU.
const LAB_TEST_TIMEOUT_MS = 60_000;

function deploy(lab: SimLab, name: string, env: { name: string; value: string }[] = []): void {
  const res = lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'deployments',
    namespace: 'default',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'nginx:1.27',
                env,
                ports: [{ containerPort: 80 }],
                readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
              },
            ],
          },
        },
      },
    },
  });
  expect(res.code).toBe(201);
  const svc = lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'services',
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `${name}-svc` },
      spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 80 }] },
    },
  });
  expect(svc.code).toBe(201);
}

const podsOf = (lab: SimLab, app: string): Pod[] =>
  (lab.peekAll('pods', 'default') as Pod[]).filter((p) => p.metadata.labels?.['app'] === app);
const readyCount = (lab: SimLab, app: string): number =>
  podsOf(lab, app).filter((p) => p.status?.containerStatuses?.[0]?.ready).length;

describe('the journey, node side', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('should bring a 3-replica Deployment with a cached image to 3/3 Ready in about 2 s and route its ClusterIP to the pods', () => {
    const lab = createLab({ seed: 11 });
    lab.advance(2_000);
    const t0 = lab.now;
    deploy(lab, 'my-app');
    while (readyCount(lab, 'my-app') < 3 && lab.now - t0 < 10_000) lab.advance(50);
    const took = lab.now - t0;
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThanOrEqual(3_000);

    lab.advance(500);
    const ips = podsOf(lab, 'my-app')
      .map((p) => p.status?.podIP as string)
      .sort();
    const slices = (lab.peekAll('endpointslices', 'default') as EndpointSlice[]).filter(
      (s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'my-app-svc',
    );
    expect(slices.flatMap((s) => s.endpoints.flatMap((e) => e.addresses)).sort()).toEqual(ips);
    const svc = lab.peek('services', 'default', 'my-app-svc') as Service;
    for (const host of lab.nodes()) {
      const r = host.iptables.resolve(svc.spec.clusterIP as string, 80);
      expect(r.outcome === 'dnat' && r.candidates.map((c) => c.ip).sort()).toEqual(ips);
    }
    const conn = httpConnect(
      lab.nodes(),
      'node-1',
      svc.spec.clusterIP as string,
      80,
      '/',
      lab.now,
      { random: () => 0.99 },
    );
    expect(conn).toMatchObject({ ok: true, status: 200 });
    expect(conn.body).toContain('Welcome to nginx!');
    const kubeletVerbs = new Set(
      lab
        .trace()
        .filter((e) => e.component === 'kubelet')
        .map((e) => e.verb),
    );
    for (const v of [
      'create-sandbox',
      'pull-image',
      'create-container',
      'start-container',
      'update-pod-status',
    ])
      expect(kubeletVerbs).toContain(v);
  });

  it('should keep pods failing readiness out of the Service (connection refused) without restarting them', () => {
    const lab = createLab({ seed: 12 });
    lab.advance(2_000);
    deploy(lab, 'flaky', [{ name: 'FAIL_READINESS', value: 'true' }]);
    lab.advance(30_000);
    const pods = podsOf(lab, 'flaky');
    expect(pods).toHaveLength(3);
    for (const p of pods)
      expect(p.status?.containerStatuses?.[0]).toMatchObject({
        ready: false,
        restartCount: 0,
        state: { running: {} },
      });
    const svc = lab.peek('services', 'default', 'flaky-svc') as Service;
    const conn = httpConnect(lab.nodes(), 'node-2', svc.spec.clusterIP as string, 80, '/', lab.now);
    expect(conn).toMatchObject({ ok: false, error: 'connection refused' });
  });

  it('should go NotReady when the kubelet stops, keep the pod running, and resume it (same container) when the kubelet starts', () => {
    const lab = createLab({ seed: 13 });
    lab.advance(2_000);
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web' },
        spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    });
    lab.advance(5_000);
    const container = () =>
      (lab.peek('pods', 'default', 'web') as Pod).status?.containerStatuses?.[0];
    const ready = () =>
      (lab.peek('nodes', undefined, 'node-1') as Node).status?.conditions?.find(
        (c) => c.type === 'Ready',
      );
    const before = container()?.containerID;
    expect(ready()?.status).toBe('True');
    lab.stopProcess({ component: 'kubelet', node: 'node-1' });
    lab.advance(70_000);
    expect(ready()?.status).toBe('Unknown');
    const running = lab.node('node-1')!.containerd.listContainers();
    expect(running.filter((c) => c.namespace === 'default').map((c) => c.podName)).toEqual(['web']);
    // the node's own kube-proxy (its DaemonSet pod) keeps running too
    expect(
      running.some((c) => /^kube-proxy-[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(c.podName)),
    ).toBe(true);
    lab.startProcess({ component: 'kubelet', node: 'node-1' });
    lab.advance(3_000);
    expect(ready()).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(container()).toMatchObject({ containerID: before, restartCount: 0 });
    expect(
      lab
        .node('node-1')!
        .containerd.listSandboxes()
        .filter((s) => s.podName === 'web'),
    ).toHaveLength(1);
  });

  it('should reach the pods through a NodePort on any node address', () => {
    const lab = createLab({ seed: 14 });
    lab.advance(2_000);
    deploy(lab, 'np');
    const patched = lab.request('kubernetes-admin', {
      verb: 'patch',
      resource: 'services',
      namespace: 'default',
      name: 'np-svc',
      patchType: 'merge',
      body: { spec: { type: 'NodePort', ports: [{ port: 80, targetPort: 80, nodePort: 30080 }] } },
    });
    expect(patched.code).toBe(200);
    lab.advance(5_000);
    const conn = httpConnect(lab.nodes(), 'node-1', '172.18.0.5', 30080, '/', lab.now);
    expect(conn).toMatchObject({ ok: true, status: 200 });
    expect(conn.route.path.slice(0, 3)).toEqual(['PREROUTING', 'KUBE-SERVICES', 'KUBE-NODEPORTS']);
  });
});
