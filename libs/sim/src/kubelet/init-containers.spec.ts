// Init containers and sidecars as the v1.32 kubelet runs them: one at a time, each to completion,
// before the app containers; failures back off (or fail the pod under restartPolicy Never);
// restartable init containers keep running beside the app containers. Pods are created with
// spec.nodeName set, so the scheduler is not involved.

import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import { createLab, restoreLab } from '../lab/lab';
import type { Container, ContainerStatus, KubeEvent, Pod } from '../model';
import type { TraceEvent } from '../trace/trace-event';
import type { ContainerView } from './pod-status';
import { buildPodStatus, podPhaseWithInit } from './pod-status';

const LAB_TEST_TIMEOUT_MS = 60_000;

function newLab(): SimLab {
  const lab = createLab({ seed: 11 });
  lab.advance(1_000);
  return lab;
}

function createPod(
  lab: SimLab,
  name: string,
  initContainers: Container[],
  spec: Partial<Pod['spec']> = {},
  app: Partial<Container> = {},
): Pod {
  const res = lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'pods',
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: {
        nodeName: 'node-1',
        initContainers,
        containers: [{ name: 'app', image: 'nginx:1.27', ...app }],
        ...spec,
      },
    },
  });
  expect(res.code, JSON.stringify(res.body)).toBe(201);
  return res.body as Pod;
}

const sh = (name: string, script: string, extra: Partial<Container> = {}): Container => ({
  name,
  image: 'busybox:1.36',
  command: ['sh', '-c', script],
  ...extra,
});

const pod = (lab: SimLab, name: string): Pod => lab.peek('pods', 'default', name) as Pod;
const init = (lab: SimLab, name: string, i: number): ContainerStatus | undefined =>
  pod(lab, name)?.status?.initContainerStatuses?.[i];
const app = (lab: SimLab, name: string): ContainerStatus | undefined =>
  pod(lab, name)?.status?.containerStatuses?.[0];
const condition = (lab: SimLab, name: string, type: string) =>
  pod(lab, name)?.status?.conditions?.find((c) => c.type === type);

function events(lab: SimLab, podName: string): KubeEvent[] {
  return (lab.peekAll('events', 'default') as KubeEvent[])
    .filter((e) => e.involvedObject.name === podName)
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
}

function waitFor(lab: SimLab, cond: () => boolean, limitMs: number, step = 50): number {
  const start = lab.now;
  while (!cond()) {
    if (lab.now - start > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
    lab.advance(step);
  }
  return lab.now - start;
}

/** The STATUS column as kubectl prints it (the apiserver's pod printer). */
function statusColumn(lab: SimLab, name: string): string {
  const res = lab.request('kubernetes-admin', {
    verb: 'get',
    resource: 'pods',
    namespace: 'default',
    name,
    query: { asTable: true },
  });
  const table = res.body as { rows: { cells: unknown[] }[] };
  return `${table.rows[0]?.cells[1]} ${table.rows[0]?.cells[2]} ${table.rows[0]?.cells[3]}`;
}

function kubeletTrace(lab: SimLab, podName: string): TraceEvent[] {
  return lab
    .trace()
    .filter(
      (e) => e.component === 'kubelet' && e.object?.kind === 'Pod' && e.object.name === podName,
    );
}

describe(
  'init containers in a lab: in order, each to completion',
  { timeout: LAB_TEST_TIMEOUT_MS },
  () => {
    it('should run two init containers one after the other, then the app, with Init:0/2 -> Init:1/2 -> Running', () => {
      const lab = newLab();
      createPod(lab, 'web', [
        sh('init-1', 'echo first done; sleep 2'),
        sh('init-2', 'echo second; sleep 3'),
      ]);
      waitFor(lab, () => init(lab, 'web', 0)?.state.running !== undefined, 10_000, 20);
      expect(statusColumn(lab, 'web')).toBe('0/1 Init:0/2 0');
      const p = pod(lab, 'web');
      expect(p.status?.phase).toBe('Pending');
      expect(condition(lab, 'web', 'Initialized')).toMatchObject({
        status: 'False',
        reason: 'ContainersNotInitialized',
        message: 'containers with incomplete status: [init-1 init-2]',
      });
      expect(init(lab, 'web', 0)).toMatchObject({
        name: 'init-1',
        ready: false,
        started: true,
        restartCount: 0,
        image: 'docker.io/library/busybox:1.36',
        imageID: expect.stringMatching(/^docker\.io\/library\/busybox@sha256:[0-9a-f]{64}$/),
        containerID: expect.stringMatching(/^containerd:\/\/[0-9a-f]{64}$/),
      });
      expect(init(lab, 'web', 1)).toEqual({
        name: 'init-2',
        state: { waiting: { reason: 'PodInitializing' } },
        lastState: {},
        ready: false,
        restartCount: 0,
        image: 'busybox:1.36',
        imageID: '',
        started: false,
      });
      expect(app(lab, 'web')?.state).toEqual({ waiting: { reason: 'PodInitializing' } });

      waitFor(lab, () => init(lab, 'web', 1)?.state.running !== undefined, 10_000, 20);
      expect(statusColumn(lab, 'web')).toBe('0/1 Init:1/2 0');
      expect(condition(lab, 'web', 'Initialized')?.message).toBe(
        'containers with incomplete status: [init-2]',
      );
      const first = init(lab, 'web', 0);
      expect(first).toMatchObject({
        state: { terminated: { exitCode: 0, reason: 'Completed' } },
        lastState: {},
        ready: true,
        started: false,
        restartCount: 0,
      });
      const t1 = first!.state.terminated!;
      expect(Date.parse(t1.finishedAt!) - Date.parse(t1.startedAt!)).toBe(2_000);
      expect(t1.containerID).toBe(first!.containerID);
      // The second starts only after the first finished.
      expect(Date.parse(init(lab, 'web', 1)!.state.running!.startedAt!)).toBeGreaterThanOrEqual(
        Date.parse(t1.finishedAt!),
      );
      expect(app(lab, 'web')?.state).toEqual({ waiting: { reason: 'PodInitializing' } });

      waitFor(lab, () => app(lab, 'web')?.ready === true, 10_000, 20);
      expect(statusColumn(lab, 'web')).toBe('1/1 Running 0');
      expect(pod(lab, 'web').status?.phase).toBe('Running');
      expect(condition(lab, 'web', 'Initialized')).toMatchObject({ status: 'True' });
      expect(condition(lab, 'web', 'Initialized')?.reason).toBeUndefined();
      expect(condition(lab, 'web', 'Ready')).toMatchObject({ status: 'True' });
      const second = init(lab, 'web', 1)!.state.terminated!;
      expect(Date.parse(second.finishedAt!) - Date.parse(second.startedAt!)).toBe(3_000);
      expect(Date.parse(app(lab, 'web')!.state.running!.startedAt!)).toBeGreaterThanOrEqual(
        Date.parse(second.finishedAt!),
      );

      const kubeletEvents = events(lab, 'web')
        .filter((e) => e.source?.component === 'kubelet')
        .map((e) => `${e.reason} ${e.involvedObject.fieldPath} ${e.message}`);
      expect(kubeletEvents).toEqual([
        'Pulling spec.initContainers{init-1} Pulling image "busybox:1.36"',
        expect.stringMatching(
          /^Pulled spec\.initContainers\{init-1\} Successfully pulled image "busybox:1\.36" in (\d+)ms \(\1ms including waiting\)\. Image size: 2166802 bytes\.$/,
        ),
        'Created spec.initContainers{init-1} Created container init-1',
        'Started spec.initContainers{init-1} Started container init-1',
        'Pulled spec.initContainers{init-2} Container image "busybox:1.36" already present on machine',
        'Created spec.initContainers{init-2} Created container init-2',
        'Started spec.initContainers{init-2} Started container init-2',
        'Pulled spec.containers{app} Container image "nginx:1.27" already present on machine',
        'Created spec.containers{app} Created container app',
        'Started spec.containers{app} Started container app',
      ]);

      const trace = kubeletTrace(lab, 'web');
      const initTrace = trace
        .filter((e) => e.data?.init === true || e.verb === 'pod-initialized')
        .map((e) => `${e.verb}: ${e.message}`);
      expect(initTrace).toEqual([
        expect.stringMatching(
          /^create-container: Created init container init-1 \([0-9a-f]{13}\) through CRI$/,
        ),
        'start-container: Started init container init-1',
        'container-exited: Init container init-1 exited with code 0 (Completed)',
        expect.stringMatching(
          /^create-container: Created init container init-2 \([0-9a-f]{13}\) through CRI$/,
        ),
        'start-container: Started init container init-2',
        'container-exited: Init container init-2 exited with code 0 (Completed)',
        'pod-initialized: All 2 init containers of default/web done; starting its app containers',
      ]);
      expect(trace.every((e) => e.node === 'node-1')).toBe(true);
      const ip = pod(lab, 'web').status?.podIP as string;
      expect(trace.filter((e) => e.verb === 'update-pod-status').map((e) => e.message)).toEqual([
        'Reported pod default/web: phase Pending (Init:0/2), 0/1 containers ready',
        `Reported pod default/web: phase Pending (Init:1/2), 0/1 containers ready, IP ${ip}`,
        `Reported pod default/web: phase Pending (PodInitializing), 0/1 containers ready, IP ${ip}`,
        `Reported pod default/web: phase Running, 1/1 containers ready, IP ${ip}`,
      ]);

      const logs = lab
        .node('node-1')!
        .containerd.podContainerLogs('default', 'web', 'init-1', false);
      expect(logs.ok && logs.lines.map((l) => l.line)).toEqual(['first done']);
    });

    it('should show PodInitializing while the app image is pulled after the init containers', () => {
      const lab = newLab();
      createPod(lab, 'slow', [sh('init', 'true')], {}, { image: 'redis:7' });
      waitFor(lab, () => condition(lab, 'slow', 'Initialized')?.status === 'True', 10_000, 20);
      expect(app(lab, 'slow')?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
      expect(statusColumn(lab, 'slow')).toBe('0/1 PodInitializing 0');
      expect(pod(lab, 'slow').status?.phase).toBe('Pending');
      waitFor(lab, () => app(lab, 'slow')?.state.running !== undefined, 60_000);
      expect(statusColumn(lab, 'slow')).toBe('1/1 Running 0');
    });

    it('should keep the init containers completed and the app running across serialize/restore and a kubelet restart', () => {
      const lab = newLab();
      createPod(lab, 'keep', [sh('init-1', 'sleep 2'), sh('init-2', 'sleep 2')]);
      waitFor(lab, () => init(lab, 'keep', 1)?.state.running !== undefined, 10_000, 20);
      const copy = restoreLab(lab.serialize());
      const since = lab.trace().at(-1)?.seq ?? 0;
      lab.advance(10_000);
      copy.advance(10_000);
      expect(pod(copy, 'keep').status).toEqual(pod(lab, 'keep').status);
      expect(copy.trace(since)).toEqual(lab.trace(since));
      expect(lab.trace(since).some((e) => e.verb === 'pod-initialized')).toBe(true);
      expect(statusColumn(copy, 'keep')).toBe('1/1 Running 0');

      expect(lab.stopProcess({ component: 'kubelet', node: 'node-1' })).toBe(true);
      lab.advance(5_000);
      expect(lab.startProcess({ component: 'kubelet', node: 'node-1' })).toBe(true);
      lab.advance(20_000);
      expect(statusColumn(lab, 'keep')).toBe('1/1 Running 0');
      expect(init(lab, 'keep', 0)).toMatchObject({
        state: { terminated: { reason: 'Completed' } },
        restartCount: 0,
      });
      const started = events(lab, 'keep').filter((e) => e.reason === 'Started');
      expect(started.map((e) => e.message)).toEqual([
        'Started container init-1',
        'Started container init-2',
        'Started container app',
      ]);
    });

    it('should resume initialization where it was when the kubelet restarts in the middle', () => {
      const lab = newLab();
      createPod(lab, 'resume', [sh('init-1', 'sleep 1'), sh('init-2', 'sleep 6')]);
      waitFor(lab, () => init(lab, 'resume', 1)?.state.running !== undefined, 10_000, 20);
      expect(lab.stopProcess({ component: 'kubelet', node: 'node-1' })).toBe(true);
      lab.advance(2_000);
      expect(lab.startProcess({ component: 'kubelet', node: 'node-1' })).toBe(true);
      waitFor(lab, () => app(lab, 'resume')?.ready === true, 30_000);
      expect(init(lab, 'resume', 0)?.restartCount).toBe(0);
      expect(init(lab, 'resume', 1)?.restartCount).toBe(0);
      expect(events(lab, 'resume').filter((e) => e.reason === 'Started')).toHaveLength(3);
    });
  },
);

describe('init containers in a lab: failures', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('should restart a failing init container with the CrashLoopBackOff back-off and never start the app', () => {
    const lab = newLab();
    const created = createPod(lab, 'crash', [
      sh('migrate', 'echo no database; exit 1'),
      sh('after', 'true'),
    ]);
    waitFor(lab, () => init(lab, 'crash', 0)?.state.terminated !== undefined, 10_000, 20);
    expect(statusColumn(lab, 'crash')).toBe('0/1 Init:Error 0');
    expect(init(lab, 'crash', 0)?.state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(pod(lab, 'crash').status?.phase).toBe('Pending');

    waitFor(lab, () => init(lab, 'crash', 0)?.state.waiting?.reason === 'CrashLoopBackOff', 20_000);
    expect(init(lab, 'crash', 0)).toMatchObject({
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 10s restarting failed container=migrate pod=crash_default(${created.metadata.uid})`,
        },
      },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
      restartCount: 1,
      ready: false,
      started: false,
    });
    expect(statusColumn(lab, 'crash')).toMatch(/^0\/1 Init:CrashLoopBackOff 1 \(\d+s ago\)$/);
    expect(pod(lab, 'crash').status?.phase).toBe('Pending');
    expect(condition(lab, 'crash', 'Initialized')?.message).toBe(
      'containers with incomplete status: [migrate after]',
    );
    waitFor(
      lab,
      () => init(lab, 'crash', 0)?.state.waiting?.message?.startsWith('back-off 20s') === true,
      40_000,
    );
    expect(init(lab, 'crash', 1)?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(app(lab, 'crash')?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
    const host = lab.node('node-1')!;
    expect(
      host.containerd
        .listContainers({ all: true })
        .filter((c) => c.podName === 'crash')
        .map((c) => c.name),
    ).toEqual(['migrate', 'migrate']);
    const backoff = events(lab, 'crash').find((e) => e.reason === 'BackOff');
    expect(backoff).toMatchObject({
      type: 'Warning',
      message: `Back-off restarting failed container migrate in pod crash_default(${created.metadata.uid})`,
      involvedObject: { fieldPath: 'spec.initContainers{migrate}' },
    });
    const previous = host.containerd.podContainerLogs('default', 'crash', 'migrate', true);
    expect(previous.ok && previous.lines.map((l) => l.line)).toEqual(['no database']);
  });

  it('should fail the pod when an init container fails under restartPolicy Never', () => {
    const lab = newLab();
    createPod(lab, 'once', [sh('check', 'exit 3'), sh('after', 'true')], {
      restartPolicy: 'Never',
    });
    waitFor(lab, () => pod(lab, 'once').status?.phase === 'Failed', 10_000, 20);
    expect(statusColumn(lab, 'once')).toBe('0/1 Init:Error 0');
    expect(init(lab, 'once', 0)).toMatchObject({
      state: { terminated: { exitCode: 3, reason: 'Error' } },
      ready: false,
      restartCount: 0,
    });
    expect(init(lab, 'once', 1)?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(app(lab, 'once')?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(condition(lab, 'once', 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [check after]',
    });
    expect(condition(lab, 'once', 'PodReadyToStartContainers')?.status).toBe('False');
    lab.advance(30_000);
    expect(pod(lab, 'once').status?.phase).toBe('Failed');
    expect(init(lab, 'once', 0)?.restartCount).toBe(0);
    const names = lab
      .node('node-1')!
      .containerd.listContainers({ all: true })
      .filter((c) => c.podName === 'once')
      .map((c) => c.name);
    expect(names).toEqual(['check']);
    expect(kubeletTrace(lab, 'once').find((e) => e.verb === 'pod-finished')?.message).toBe(
      'Init container check of default/once failed and restartPolicy is Never; pod Failed',
    );
  });

  it('should rerun only the failed init container under restartPolicy OnFailure', () => {
    const lab = newLab();
    createPod(lab, 'retry', [sh('ok', 'true'), sh('bad', 'exit 1')], {
      restartPolicy: 'OnFailure',
    });
    waitFor(lab, () => (init(lab, 'retry', 1)?.restartCount ?? 0) >= 2, 60_000);
    expect(init(lab, 'retry', 0)).toMatchObject({
      state: { terminated: { reason: 'Completed' } },
      restartCount: 0,
    });
    expect(pod(lab, 'retry').status?.phase).toBe('Pending');
  });

  it('should not probe an init container that runs to completion (the prober has no worker for it)', () => {
    const lab = newLab();
    createPod(lab, 'unprobed', [
      sh('wait', 'sleep 12', {
        livenessProbe: { exec: { command: ['false'] }, periodSeconds: 1, failureThreshold: 1 },
      }),
    ]);
    waitFor(lab, () => init(lab, 'unprobed', 0)?.state.terminated !== undefined, 30_000);
    expect(init(lab, 'unprobed', 0)).toMatchObject({
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
      restartCount: 0,
    });
    expect(events(lab, 'unprobed').filter((e) => e.reason === 'Unhealthy')).toEqual([]);
  });

  it('should show Init:ErrImagePull and then Init:ImagePullBackOff for a missing init image', () => {
    const lab = newLab();
    createPod(lab, 'pull', [{ name: 'fetch', image: 'busybox:no-such-tag' }]);
    waitFor(lab, () => init(lab, 'pull', 0)?.state.waiting?.reason === 'ErrImagePull', 20_000);
    expect(statusColumn(lab, 'pull')).toBe('0/1 Init:ErrImagePull 0');
    waitFor(lab, () => init(lab, 'pull', 0)?.state.waiting?.reason === 'ImagePullBackOff', 20_000);
    expect(statusColumn(lab, 'pull')).toBe('0/1 Init:ImagePullBackOff 0');
    expect(init(lab, 'pull', 0)?.state.waiting?.message).toBe(
      'Back-off pulling image "busybox:no-such-tag"',
    );
    const failed = events(lab, 'pull').filter((e) => e.reason === 'Failed');
    expect(failed[0]?.involvedObject.fieldPath).toBe('spec.initContainers{fetch}');
    expect(failed.map((e) => e.message)).toContain('Error: ErrImagePull');
    expect(app(lab, 'pull')?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
  });
});

describe(
  'sidecars (restartable init containers) in a lab',
  { timeout: LAB_TEST_TIMEOUT_MS },
  () => {
    const sidecar = (extra: Partial<Container> = {}): Container => ({
      ...sh('logger', 'while true; do echo tick; sleep 5; done'),
      restartPolicy: 'Always',
      ...extra,
    });

    it('should start the next init container once the sidecar is started and keep it running beside the app (READY 2/2)', () => {
      const lab = newLab();
      createPod(lab, 'side', [sidecar(), sh('setup', 'sleep 2')]);
      waitFor(lab, () => init(lab, 'side', 1)?.state.running !== undefined, 10_000, 20);
      expect(init(lab, 'side', 0)).toMatchObject({ ready: true, started: true });
      expect(init(lab, 'side', 0)?.state.running).toBeDefined();
      expect(statusColumn(lab, 'side')).toBe('1/2 Init:1/2 0');
      expect(condition(lab, 'side', 'Initialized')?.message).toBe(
        'containers with incomplete status: [setup]',
      );
      expect(condition(lab, 'side', 'Ready')?.message).toBe(
        'containers with unready status: [app]',
      );
      waitFor(lab, () => app(lab, 'side')?.ready === true, 10_000);
      expect(statusColumn(lab, 'side')).toBe('2/2 Running 0');
      expect(init(lab, 'side', 0)?.state.running).toBeDefined();
      expect(init(lab, 'side', 1)?.state.terminated?.reason).toBe('Completed');
      expect(condition(lab, 'side', 'Ready')?.status).toBe('True');
      lab.advance(20_000);
      const logs = lab
        .node('node-1')!
        .containerd.podContainerLogs('default', 'side', 'logger', false);
      expect(logs.ok && logs.lines.length).toBeGreaterThanOrEqual(4);
      expect(kubeletTrace(lab, 'side').find((e) => e.verb === 'sidecar-started')?.message).toBe(
        'Sidecar logger is started; the next container may start',
      );
    });

    it('should count an unready sidecar in READY and list it first among the unready containers', () => {
      const lab = newLab();
      createPod(lab, 'unready', [
        {
          name: 'proxy',
          image: 'nginx:1.27',
          restartPolicy: 'Always',
          env: [{ name: 'FAIL_READINESS', value: 'true' }],
          readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
        },
      ]);
      waitFor(lab, () => app(lab, 'unready')?.ready === true, 20_000);
      lab.advance(10_000);
      expect(statusColumn(lab, 'unready')).toBe('1/2 Running 0');
      expect(condition(lab, 'unready', 'Ready')).toMatchObject({
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unready status: [proxy]',
      });
      expect(init(lab, 'unready', 0)).toMatchObject({ ready: false, started: true });
    });

    it('should restart a crashing sidecar while the app keeps running and the pod stays Running', () => {
      const lab = newLab();
      createPod(lab, 'flaky', [sidecar({ command: ['sh', '-c', 'sleep 3; exit 1'] })]);
      waitFor(
        lab,
        () => init(lab, 'flaky', 0)?.state.waiting?.message?.startsWith('back-off 20s') === true,
        60_000,
      );
      // printPod keeps the Init: reason of a crash-looping sidecar even once the pod is initialized.
      expect(statusColumn(lab, 'flaky')).toMatch(/^1\/2 Init:CrashLoopBackOff 2 \(\d+s ago\)$/);
      expect(pod(lab, 'flaky').status?.phase).toBe('Running');
      expect(condition(lab, 'flaky', 'Initialized')?.status).toBe('True');
      waitFor(lab, () => init(lab, 'flaky', 0)?.started === true, 30_000);
      expect(statusColumn(lab, 'flaky')).toMatch(/^2\/2 Running 3 \(\d+s ago\)$/);
      expect(app(lab, 'flaky')?.ready).toBe(true);
      expect(app(lab, 'flaky')?.restartCount).toBe(0);
    });

    it('should hold the next init container until the sidecar passes its startup probe', () => {
      const lab = newLab();
      createPod(lab, 'gated', [
        {
          name: 'proxy',
          image: 'nginx:1.27',
          restartPolicy: 'Always',
          env: [{ name: 'STARTUP_DELAY_SECONDS', value: '8' }],
          startupProbe: { tcpSocket: { port: 80 }, periodSeconds: 2, failureThreshold: 10 },
        },
        sh('setup', 'true'),
      ]);
      waitFor(lab, () => init(lab, 'gated', 0)?.state.running !== undefined, 10_000, 20);
      expect(init(lab, 'gated', 0)).toMatchObject({ started: false, ready: false });
      expect(statusColumn(lab, 'gated')).toBe('0/2 Init:0/2 0');
      lab.advance(5_000);
      expect(init(lab, 'gated', 1)?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
      waitFor(lab, () => init(lab, 'gated', 0)?.started === true, 20_000);
      const proxyStarted = Date.parse(init(lab, 'gated', 0)!.state.running!.startedAt!);
      waitFor(lab, () => init(lab, 'gated', 1)?.state.terminated !== undefined, 10_000);
      const setupStarted = Date.parse(init(lab, 'gated', 1)!.state.terminated!.startedAt!);
      expect(setupStarted - proxyStarted).toBeGreaterThanOrEqual(8_000);
      waitFor(lab, () => app(lab, 'gated')?.ready === true, 10_000);
      expect(statusColumn(lab, 'gated')).toBe('2/2 Running 0');
    });

    it('should restart a sidecar that fails its liveness probe, worded as the kubelet does for init containers', () => {
      const lab = newLab();
      createPod(lab, 'sick', [
        {
          name: 'proxy',
          image: 'nginx:1.27',
          restartPolicy: 'Always',
          livenessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 5 },
        },
      ]);
      waitFor(lab, () => (init(lab, 'sick', 0)?.restartCount ?? 0) >= 1, 40_000);
      const killing = events(lab, 'sick').find((e) => e.reason === 'Killing');
      expect(killing).toMatchObject({
        message: 'Init container proxy failed liveness probe',
        involvedObject: { fieldPath: 'spec.initContainers{proxy}' },
      });
      expect(app(lab, 'sick')?.restartCount).toBe(0);
    });

    it('should stop the sidecar when the app of a restartPolicy Never pod completes, and end Succeeded', () => {
      const lab = newLab();
      createPod(
        lab,
        'job',
        [{ name: 'proxy', image: 'nginx:1.27', restartPolicy: 'Always' }],
        { restartPolicy: 'Never' },
        { image: 'busybox:1.36', command: ['sh', '-c', 'echo work; sleep 2'] },
      );
      waitFor(lab, () => pod(lab, 'job').status?.phase === 'Succeeded', 30_000);
      expect(init(lab, 'job', 0)?.state.terminated).toMatchObject({
        exitCode: 0,
        reason: 'Completed',
      });
      expect(app(lab, 'job')?.state.terminated?.reason).toBe('Completed');
      expect(condition(lab, 'job', 'Initialized')).toMatchObject({
        status: 'True',
        reason: 'PodCompleted',
      });
      expect(statusColumn(lab, 'job')).toBe('0/2 Completed 0');
      const killing = events(lab, 'job').filter((e) => e.reason === 'Killing');
      expect(killing.map((e) => `${e.involvedObject.fieldPath} ${e.message}`)).toEqual([
        'spec.initContainers{proxy} Stopping container proxy',
      ]);
    });

    it('should stop the sidecar too when the pod is deleted', () => {
      const lab = newLab();
      createPod(lab, 'gone', [{ name: 'proxy', image: 'nginx:1.27', restartPolicy: 'Always' }]);
      waitFor(lab, () => app(lab, 'gone')?.ready === true, 10_000);
      lab.request('kubernetes-admin', {
        verb: 'delete',
        resource: 'pods',
        namespace: 'default',
        name: 'gone',
      });
      waitFor(lab, () => lab.peek('pods', 'default', 'gone') === undefined, 40_000);
      expect(
        events(lab, 'gone')
          .filter((e) => e.reason === 'Killing')
          .map((e) => e.message),
      ).toEqual(['Stopping container app', 'Stopping container proxy']);
      expect(
        lab
          .node('node-1')!
          .containerd.listContainers()
          .filter((c) => c.podName === 'gone'),
      ).toEqual([]);
    });

    it('should stop the sidecar only once the app container is gone when the pod is deleted', () => {
      const lab = newLab();
      createPod(
        lab,
        'order',
        [{ ...sidecar(), command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] }],
        { terminationGracePeriodSeconds: 5 },
      );
      waitFor(lab, () => app(lab, 'order')?.ready === true, 20_000);
      const deletedAt = lab.now;
      lab.request('kubernetes-admin', {
        verb: 'delete',
        resource: 'pods',
        namespace: 'default',
        name: 'order',
      });
      const host = lab.node('node-1')!;
      const record = (name: string) => {
        host.advanceTo(lab.now);
        return host.containerd
          .listContainers({ all: true })
          .find((c) => c.podName === 'order' && c.name === name);
      };
      waitFor(lab, () => record('app')?.stopAt !== undefined, 1_000, 10);
      // nginx is still shutting down: the sidecar has heard of the deletion but waits its turn.
      expect(record('app')?.state).toBe('running');
      expect(record('logger')?.state).toBe('running');
      expect(record('logger')?.stopAt).toBeUndefined();
      expect(
        events(lab, 'order')
          .filter((e) => e.reason === 'Killing')
          .map((e) => e.message),
      ).toEqual(['Stopping container app', 'Stopping container logger']);
      waitFor(lab, () => record('app')?.state === 'exited', 1_000, 10);
      lab.advance(50);
      // The shell ignores SIGTERM: it gets what is left of the grace period, then SIGKILL.
      expect(record('logger')?.state).toBe('running');
      expect(record('logger')?.stopAt).toBeGreaterThan(record('app')?.finishedAt as number);
      waitFor(lab, () => lab.peek('pods', 'default', 'order') === undefined, 10_000);
      expect(lab.now - deletedAt).toBeGreaterThanOrEqual(5_000);
      expect(lab.now - deletedAt).toBeLessThan(6_500);
    });
  },
);

describe('getPhase and the Initialized condition with init containers', () => {
  const view = (name: string, over: Partial<ContainerView>): ContainerView => ({
    name,
    image: 'busybox',
    state: { waiting: { reason: 'PodInitializing' } },
    lastState: {},
    ready: false,
    started: false,
    restartCount: 0,
    ...over,
  });
  const completed = (name: string) =>
    view(name, { state: { terminated: { exitCode: 0, reason: 'Completed' } }, ready: true });
  const failed = (name: string) =>
    view(name, { state: { terminated: { exitCode: 1, reason: 'Error' } } });
  const runningView = (name: string, ready = true) =>
    view(name, { state: { running: {} }, started: true, ready });
  const podWith = (restartPolicy: 'Always' | 'OnFailure' | 'Never', sidecar = false): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      restartPolicy,
      initContainers: [
        { name: 'a', image: 'busybox', ...(sidecar ? { restartPolicy: 'Always' as const } : {}) },
        { name: 'b', image: 'busybox' },
      ],
      containers: [{ name: 'app', image: 'nginx' }],
    },
  });

  it.each<[string, Pod, ContainerView[], ContainerView[], string]>([
    [
      'first init running',
      podWith('Always'),
      [runningView('a', false), view('b', {})],
      [view('app', {})],
      'Pending',
    ],
    [
      'init failed, Always',
      podWith('Always'),
      [failed('a'), view('b', {})],
      [view('app', {})],
      'Pending',
    ],
    [
      'init failed, Never',
      podWith('Never'),
      [failed('a'), view('b', {})],
      [view('app', {})],
      'Failed',
    ],
    [
      'all done, app running',
      podWith('Always'),
      [completed('a'), completed('b')],
      [runningView('app')],
      'Running',
    ],
    [
      'sidecar not started yet',
      podWith('Always', true),
      [runningView('a', false), view('b', {})],
      [view('app', {})],
      'Pending',
    ],
    [
      'sidecar restarting after the app ran',
      podWith('Always', true),
      [
        view('a', {
          lastState: { terminated: { exitCode: 1 } },
          state: { waiting: { reason: 'CrashLoopBackOff' } },
        }),
        completed('b'),
      ],
      [runningView('app')],
      'Running',
    ],
  ])('%s -> %s', (_what, p, inits, apps, phase) => {
    expect(podPhaseWithInit(p, inits, apps)).toBe(phase);
  });

  it('should report Initialized True once an app container has run, even while a sidecar restarts', () => {
    const status = buildPodStatus(podWith('Always', true), {
      hostIP: '172.18.0.3',
      sandboxReady: true,
      containers: [runningView('app')],
      initContainers: [
        view('a', {
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 1 } },
        }),
        completed('b'),
      ],
      transitions: {},
      nowIso: '2026-01-01T00:00:00Z',
    });
    expect(status.conditions?.find((c) => c.type === 'Initialized')).toMatchObject({
      status: 'True',
    });
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      message: 'containers with unready status: [a]',
    });
    expect(status.initContainerStatuses?.map((c) => c.name)).toEqual(['a', 'b']);
    expect(Object.keys(status)).toEqual([
      'phase',
      'conditions',
      'hostIP',
      'hostIPs',
      'initContainerStatuses',
      'containerStatuses',
      'qosClass',
    ]);
  });
});
