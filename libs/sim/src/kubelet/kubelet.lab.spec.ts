// The kubelet inside a real lab (etcd + apiserver + the lab's event loop). Pods are created with
// spec.nodeName already set, so the scheduler is not involved.

import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import { createLab, restoreLab } from '../lab/lab';
import type { Container, KubeEvent, Lease, Node, Pod } from '../model';

// Whole-cluster runs of minutes of sim time; generous because CI shares the CPU.
const LAB_TEST_TIMEOUT_MS = 60_000;

function newLab(): SimLab {
  const lab = createLab({ seed: 7 });
  lab.advance(1_000);
  return lab;
}

function createPod(
  lab: SimLab,
  name: string,
  container: Partial<Container>,
  spec: Partial<Pod['spec']> = {},
): Pod {
  const res = lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'pods',
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels: { app: name } },
      spec: {
        nodeName: 'node-1',
        containers: [{ name: 'app', image: 'nginx:1.27', ...container }],
        ...spec,
      },
    },
  });
  expect(res.code).toBe(201);
  return res.body as Pod;
}

const pod = (lab: SimLab, name: string): Pod => lab.peek('pods', 'default', name) as Pod;
const status = (lab: SimLab, name: string) => pod(lab, name)?.status?.containerStatuses?.[0];

function events(lab: SimLab, podName: string): KubeEvent[] {
  return (lab.peekAll('events', 'default') as KubeEvent[])
    .filter((e) => e.involvedObject.name === podName)
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
}

/** Advances in small steps until `cond` holds; returns the sim ms it took (or throws). */
function waitFor(lab: SimLab, cond: () => boolean, limitMs: number, step = 50): number {
  const start = lab.now;
  while (!cond()) {
    if (lab.now - start > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
    lab.advance(step);
  }
  return lab.now - start;
}

describe(
  'kubelet in a lab: node registration and heartbeats',
  { timeout: LAB_TEST_TIMEOUT_MS },
  () => {
    it('should register every node as Ready with capacity, allocatable and nodeInfo', () => {
      const lab = newLab();
      const node = lab.peek('nodes', undefined, 'node-1') as Node;
      expect(node.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
      });
      expect(node.status?.capacity).toMatchObject({ cpu: '2', memory: '4194304Ki', pods: '110' });
      expect(node.status?.allocatable).toMatchObject({ cpu: '2', memory: '4091904Ki' });
      expect(node.status?.nodeInfo).toMatchObject({
        kubeletVersion: 'v1.32.5',
        containerRuntimeVersion: 'containerd://1.7.24',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
      });
      expect(node.status?.addresses).toEqual([
        { type: 'InternalIP', address: '172.18.0.3' },
        { type: 'Hostname', address: 'node-1' },
      ]);
      const cp = lab.peek('nodes', undefined, 'control-plane') as Node;
      expect(cp.spec.taints).toEqual([
        { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      ]);
    });

    it('should renew its Lease every 10 s, and stop when the kubelet is stopped while containers keep running', () => {
      const lab = newLab();
      createPod(lab, 'web', {});
      waitFor(lab, () => status(lab, 'web')?.ready === true, 5_000);
      const renew = (l = lab, node = 'node-1'): string =>
        (l.peek('leases', 'kube-node-lease', node) as Lease).spec.renewTime as string;
      const r1 = renew();
      lab.advance(10_000);
      const r2 = renew();
      expect(Date.parse(r2) - Date.parse(r1)).toBe(10_000);

      expect(lab.stopProcess({ component: 'kubelet', node: 'node-1' })).toBe(true);
      const frozen = renew();
      lab.advance(60_000);
      expect(renew()).toBe(frozen);
      expect(Date.parse(renew(lab, 'node-2'))).toBeGreaterThan(Date.parse(frozen) + 40_000);
      const host = lab.node('node-1')!;
      host.advanceTo(lab.now);
      const running = host.containerd.listContainers().filter((c) => c.podName === 'web');
      expect(running).toHaveLength(1);
      const ip = pod(lab, 'web').status?.podIP as string;
      expect(
        host.containerd.http(ip, 80, '/', lab.now, {
          clientIp: '10.244.1.1',
          userAgent: 'curl/7.88.1',
        }).status,
      ).toBe(200);
    });
  },
);

describe('kubelet in a lab: pod start', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('should run a pod with a cached image to Running/Ready within about a second, with the kubelet events', () => {
    const lab = newLab();
    createPod(lab, 'web', {});
    const took = waitFor(lab, () => status(lab, 'web')?.ready === true, 5_000, 20);
    expect(took).toBeLessThan(2_000);
    const p = pod(lab, 'web');
    expect(p.status).toMatchObject({
      phase: 'Running',
      hostIP: '172.18.0.3',
      qosClass: 'BestEffort',
    });
    expect(p.status?.podIP).toMatch(/^10\.244\.1\.\d+$/);
    expect(status(lab, 'web')).toMatchObject({
      image: 'docker.io/library/nginx:1.27',
      restartCount: 0,
      started: true,
      state: { running: {} },
    });
    expect(status(lab, 'web')?.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(events(lab, 'web').map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'Pulled: Container image "nginx:1.27" already present on machine',
      'Created: Created container app',
      'Started: Started container app',
    ]);
    const verbs = lab
      .trace()
      .filter((e) => e.component === 'kubelet' && e.object?.name === 'web')
      .map((e) => e.verb);
    expect(verbs.slice(0, 7)).toEqual([
      'sync-pod',
      'update-pod-status',
      'create-sandbox',
      'mount-volumes',
      'pull-image',
      'create-container',
      'start-container',
    ]);
  });

  it('should pull an uncached image for a few seconds and report its size', () => {
    const lab = newLab();
    createPod(lab, 'redis', { image: 'redis:7' });
    const took = waitFor(lab, () => status(lab, 'redis')?.ready === true, 15_000);
    expect(took).toBeGreaterThan(2_000);
    const pulled = events(lab, 'redis').find((e) => e.reason === 'Pulled');
    expect(pulled?.message).toMatch(
      /^Successfully pulled image "redis:7" in [\d.]+s \([\d.]+s including waiting\)\. Image size: 45158423 bytes\.$/,
    );
  });

  it('should go ErrImagePull then ImagePullBackOff, retrying after 10, 20 and 40 s when the tag does not exist', () => {
    const lab = newLab();
    createPod(lab, 'bad', { image: 'nginx:doesnotexist' });
    waitFor(lab, () => status(lab, 'bad')?.state.waiting?.reason === 'ErrImagePull', 5_000);
    expect(status(lab, 'bad')?.state.waiting?.message).toContain(
      'docker.io/library/nginx:doesnotexist: not found',
    );
    waitFor(lab, () => status(lab, 'bad')?.state.waiting?.reason === 'ImagePullBackOff', 5_000);
    expect(status(lab, 'bad')?.state.waiting?.message).toBe(
      'Back-off pulling image "nginx:doesnotexist"',
    );
    expect(pod(lab, 'bad').status?.phase).toBe('Pending');
    lab.advance(90_000);
    const pulls = lab
      .trace()
      .filter((e) => e.verb === 'pull-failed' && e.object?.name === 'bad')
      .map((e) => e.t);
    const gaps = pulls.slice(1, 4).map((t, i) => Math.round((t - pulls[i]!) / 1000));
    // each gap is the back-off plus the registry's answer time (under a second)
    expect(gaps.map((g, i) => g - [10, 20, 40][i]!).every((d) => d >= 0 && d <= 1)).toBe(true);
    const reasons = events(lab, 'bad').map((e) => `${e.type} ${e.reason}: ${e.message}`);
    expect(reasons).toContain('Warning Failed: Error: ErrImagePull');
    expect(reasons).toContain('Normal BackOff: Back-off pulling image "nginx:doesnotexist"');
    expect(reasons).toContain('Warning Failed: Error: ImagePullBackOff');
    expect(
      reasons.some((r) =>
        r.startsWith(
          'Warning Failed: Failed to pull image "nginx:doesnotexist": rpc error: code = NotFound',
        ),
      ),
    ).toBe(true);
  });

  it('should report CreateContainerConfigError when an env var refers to a missing ConfigMap', () => {
    const lab = newLab();
    createPod(lab, 'cfg', {
      env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'x' } } }],
    });
    waitFor(
      lab,
      () => status(lab, 'cfg')?.state.waiting?.reason === 'CreateContainerConfigError',
      5_000,
    );
    expect(status(lab, 'cfg')?.state.waiting?.message).toBe('configmap "app-config" not found');
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'app-config' },
        data: { x: '1' },
      },
    });
    waitFor(lab, () => status(lab, 'cfg')?.ready === true, 15_000);
  });

  it('should stay ContainerCreating with FailedMount when a configMap volume does not exist', () => {
    const lab = newLab();
    createPod(lab, 'vol', {}, { volumes: [{ name: 'cfg', configMap: { name: 'nope' } }] });
    lab.advance(5_000);
    expect(status(lab, 'vol')?.state.waiting?.reason).toBe('ContainerCreating');
    expect(events(lab, 'vol').find((e) => e.reason === 'FailedMount')?.message).toBe(
      'MountVolume.SetUp failed for volume "cfg" : configmap "nope" not found',
    );
  });
});

describe('kubelet in a lab: restarts and probes', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('should back off a crashing container with the exact CrashLoopBackOff message and keep its previous logs', () => {
    const lab = newLab();
    const created = createPod(lab, 'crash', {
      image: 'busybox:1.36',
      command: ['sh', '-c', 'echo boom; exit 1'],
    });
    waitFor(lab, () => status(lab, 'crash')?.state.waiting?.reason === 'CrashLoopBackOff', 20_000);
    expect(status(lab, 'crash')?.state.waiting?.message).toBe(
      `back-off 10s restarting failed container=app pod=crash_default(${created.metadata.uid})`,
    );
    expect(status(lab, 'crash')).toMatchObject({
      restartCount: 1,
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
    waitFor(
      lab,
      () => status(lab, 'crash')?.state.waiting?.message?.startsWith('back-off 20s') === true,
      30_000,
    );
    waitFor(
      lab,
      () => status(lab, 'crash')?.state.waiting?.message?.startsWith('back-off 40s') === true,
      60_000,
    );
    expect(pod(lab, 'crash').status?.phase).toBe('Running');
    const backoff = events(lab, 'crash').find((e) => e.reason === 'BackOff');
    expect(backoff?.message).toBe(
      `Back-off restarting failed container app in pod crash_default(${created.metadata.uid})`,
    );
    const logs = lab.node('node-1')!.containerd.podContainerLogs('default', 'crash', 'app', true);
    expect(logs.ok && logs.lines.map((l) => l.line)).toEqual(['boom']);
  });

  it('should restart the container when the liveness probe fails three times', () => {
    const lab = newLab();
    createPod(lab, 'live', {
      livenessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 5 },
    });
    waitFor(lab, () => (status(lab, 'live')?.restartCount ?? 0) >= 1, 30_000);
    const evs = events(lab, 'live');
    expect(evs.find((e) => e.reason === 'Unhealthy')?.message).toBe(
      'Liveness probe failed: HTTP probe failed with statuscode: 404',
    );
    expect(evs.find((e) => e.reason === 'Killing')?.message).toBe(
      'Container app failed liveness probe, will be restarted',
    );
    expect(evs.find((e) => e.reason === 'Unhealthy')?.count).toBeGreaterThanOrEqual(3);
  });

  it('should mark the pod not Ready without restarting it when the readiness probe fails', () => {
    const lab = newLab();
    createPod(lab, 'unready', {
      env: [{ name: 'FAIL_READINESS', value: 'true' }],
      readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
    });
    lab.advance(60_000);
    const p = pod(lab, 'unready');
    expect(p.status?.phase).toBe('Running');
    expect(p.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
    });
    expect(status(lab, 'unready')).toMatchObject({ ready: false, restartCount: 0, started: true });
    expect(events(lab, 'unready').find((e) => e.reason === 'Unhealthy')?.message).toBe(
      'Readiness probe failed: HTTP probe failed with statuscode: 503',
    );
  });

  it('should protect a slow start with a startup probe where liveness alone kills it', () => {
    const slow = {
      env: [{ name: 'STARTUP_DELAY_SECONDS', value: '30' }],
      livenessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5, failureThreshold: 2 },
    };
    const lab = newLab();
    createPod(lab, 'guarded', {
      ...slow,
      startupProbe: { tcpSocket: { port: 80 }, periodSeconds: 5, failureThreshold: 12 },
    });
    createPod(lab, 'unguarded', slow);
    lab.advance(45_000);
    expect(status(lab, 'guarded')).toMatchObject({ restartCount: 0, ready: true, started: true });
    expect(status(lab, 'unguarded')?.restartCount).toBeGreaterThanOrEqual(1);
    expect(events(lab, 'unguarded').find((e) => e.reason === 'Unhealthy')?.message).toMatch(
      /^Liveness probe failed: dial tcp 10\.244\.1\.\d+:80: connect: connection refused$/,
    );
  });
});

describe('kubelet in a lab: finishing and deleting', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it.each([
    ['Never', 'exit 0', 'Succeeded', 'Completed'],
    ['Never', 'exit 2', 'Failed', 'Error'],
    ['OnFailure', 'exit 0', 'Succeeded', 'Completed'],
  ] as const)(
    'should end a restartPolicy=%s pod whose command does `%s` as %s',
    (policy, script, phase, reason) => {
      const lab = newLab();
      createPod(
        lab,
        'job',
        { image: 'busybox:1.36', command: ['sh', '-c', `echo done; ${script}`] },
        { restartPolicy: policy },
      );
      waitFor(lab, () => pod(lab, 'job').status?.phase === phase, 20_000);
      expect(status(lab, 'job')).toMatchObject({
        restartCount: 0,
        state: { terminated: { reason } },
      });
      expect(pod(lab, 'job').status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
        status: 'False',
        reason: 'PodCompleted',
      });
    },
  );

  it('should stop the containers (Killing) and then delete the pod object on graceful deletion', () => {
    const lab = newLab();
    createPod(lab, 'web', {});
    waitFor(lab, () => status(lab, 'web')?.ready === true, 5_000);
    const del = lab.request('kubernetes-admin', {
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'web',
    });
    expect(del.code).toBe(200);
    waitFor(lab, () => lab.peek('pods', 'default', 'web') === undefined, 10_000);
    expect(events(lab, 'web').find((e) => e.reason === 'Killing')?.message).toBe(
      'Stopping container app',
    );
    const host = lab.node('node-1')!;
    expect(host.containerd.listSandboxes().filter((s) => s.podName === 'web')).toEqual([]);
  });

  it('should keep running pods and their restart counts across serialize/restore', () => {
    const lab = newLab();
    createPod(lab, 'crash', { image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] });
    lab.advance(20_000);
    const before = status(lab, 'crash')?.restartCount ?? 0;
    const copy = restoreLab(lab.serialize());
    lab.advance(60_000);
    copy.advance(60_000);
    expect(status(copy, 'crash')?.restartCount).toBe(status(lab, 'crash')?.restartCount);
    expect(status(copy, 'crash')?.restartCount).toBeGreaterThan(before);
  });
});

describe('kubelet in a lab: static pods', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  const manifest = '/etc/kubernetes/manifests/kube-scheduler.yaml';

  it('should run the control plane from its manifests and post mirror pods named <name>-<node>', () => {
    const lab = createLab({ seed: 5 });
    lab.advance(15_000);
    const names = (lab.peekAll('pods', 'kube-system') as Pod[])
      .map((p) => p.metadata.name)
      .filter((n) => n?.endsWith('-control-plane'))
      .sort();
    expect(names).toEqual([
      'etcd-control-plane',
      'kube-apiserver-control-plane',
      'kube-controller-manager-control-plane',
      'kube-scheduler-control-plane',
    ]);
    const api = lab.peek('pods', 'kube-system', 'kube-apiserver-control-plane') as Pod;
    expect(api.metadata.annotations?.['kubernetes.io/config.mirror']).toMatch(/^[0-9a-f]{32}$/);
    expect(api.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Node',
      name: 'control-plane',
    });
    expect(api.status).toMatchObject({
      phase: 'Running',
      podIP: '172.18.0.2',
      hostIP: '172.18.0.2',
    });
    expect(api.status?.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
  });

  it('should replace a static pod when its manifest changes and stop it when the manifest is removed', () => {
    const lab = createLab({ seed: 5 });
    lab.advance(15_000);
    const host = lab.node('control-plane')!;
    const oldHash = (lab.peek('pods', 'kube-system', 'kube-scheduler-control-plane') as Pod)
      .metadata.annotations?.['kubernetes.io/config.mirror'];
    host.files.set(
      manifest,
      (host.files.get(manifest) as string).replace('--leader-elect=true', '--leader-elect=false'),
    );
    lab.advance(15_000);
    const mirror = lab.peek('pods', 'kube-system', 'kube-scheduler-control-plane') as Pod;
    expect(mirror.metadata.annotations?.['kubernetes.io/config.mirror']).not.toBe(oldHash);
    expect(mirror.status?.phase).toBe('Running');
    expect(
      host.containerd.listContainers().filter((c) => c.podName === 'kube-scheduler-control-plane'),
    ).toHaveLength(1);
    host.files.delete(manifest);
    lab.advance(2_000);
    expect(lab.peek('pods', 'kube-system', 'kube-scheduler-control-plane')).toBeUndefined();
    expect(
      host.containerd.listContainers().filter((c) => c.podName === 'kube-scheduler-control-plane'),
    ).toEqual([]);
  });

  it('should post the mirror pod again, without touching the containers, when someone deletes it', () => {
    const lab = createLab({ seed: 5 });
    lab.advance(15_000);
    const host = lab.node('control-plane')!;
    const before = host.containerd
      .listContainers()
      .find((c) => c.podName === 'etcd-control-plane')?.id;
    lab.request('kubernetes-admin', {
      verb: 'delete',
      resource: 'pods',
      namespace: 'kube-system',
      name: 'etcd-control-plane',
    });
    lab.advance(3_000);
    expect(lab.peek('pods', 'kube-system', 'etcd-control-plane')).toBeDefined();
    expect(
      host.containerd.listContainers().find((c) => c.podName === 'etcd-control-plane')?.id,
    ).toBe(before);
  });
});

describe('kubelet PLEG relist', () => {
  const kubeProxyPod = (lab: SimLab, node: string): Pod =>
    (lab.peekAll('pods', 'kube-system') as Pod[]).find(
      (p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy' && p.spec.nodeName === node,
    ) as Pod;

  it(
    'should report the kube-proxy container terminated 143 within 2 s when kube-proxy is stopped on its node',
    () => {
      const lab = createLab({ seed: 8 });
      // a moment when the kube-proxy pod has no timer of its own for ~9 s (its next full sync)
      lab.advance(21_100);
      const name = kubeProxyPod(lab, 'node-1').metadata.name as string;
      expect(kubeProxyPod(lab, 'node-1').status?.containerStatuses?.[0]?.ready).toBe(true);
      lab.stopProcess({ component: 'kube-proxy', node: 'node-1' });
      const took = waitFor(
        lab,
        () => {
          const cs = (lab.peek('pods', 'kube-system', name) as Pod).status?.containerStatuses?.[0];
          return cs?.ready === false;
        },
        5_000,
      );
      // the next relist (1 s grid), not the next full sync
      expect(took).toBeLessThanOrEqual(1_100);
      const cs = (lab.peek('pods', 'kube-system', name) as Pod).status?.containerStatuses?.[0];
      const term = cs?.state?.terminated ?? cs?.lastState?.terminated;
      expect(term).toMatchObject({ exitCode: 143, reason: 'Error' });
      // while stopped, every restart dies at once: CrashLoopBackOff with a growing restart count
      lab.advance(30_000);
      const looping = (lab.peek('pods', 'kube-system', name) as Pod).status?.containerStatuses?.[0];
      expect(looping?.state?.waiting?.reason).toBe('CrashLoopBackOff');
      expect(looping?.restartCount).toBeGreaterThanOrEqual(2);
      expect(looping?.lastState?.terminated?.exitCode).toBe(143);
      lab.startProcess({ component: 'kube-proxy', node: 'node-1' });
      waitFor(
        lab,
        () =>
          (lab.peek('pods', 'kube-system', name) as Pod).status?.containerStatuses?.[0]?.ready ===
          true,
        60_000,
        500,
      );
      const back = (lab.peek('pods', 'kube-system', name) as Pod).status?.containerStatuses?.[0];
      expect(back?.state?.running).toBeDefined();
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'should notice a container that exits on its own within 1 s when its app crashes',
    () => {
      const lab = newLab();
      createPod(lab, 'crash', { image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3; exit 2'] });
      waitFor(lab, () => status(lab, 'crash')?.state?.running !== undefined, 30_000);
      const rec = lab
        .node('node-1')
        ?.containerd.listContainers({ all: true })
        .find((c) => c.podName === 'crash');
      const exitAt = (rec?.startedAt ?? 0) + 3_000;
      waitFor(lab, () => status(lab, 'crash')?.state?.running === undefined, 10_000);
      expect(lab.now - exitAt).toBeLessThanOrEqual(1_050);
      const cs = status(lab, 'crash');
      expect(cs?.state?.terminated?.exitCode ?? cs?.lastState?.terminated?.exitCode).toBe(2);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
