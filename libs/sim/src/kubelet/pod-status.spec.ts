import { describe, expect, it } from 'vitest';
import type { Pod } from '../model';
import type { ContainerView } from './pod-status';
import { buildPodStatus, podPhase, qosClass } from './pod-status';

const running: ContainerView = {
  name: 'a',
  image: 'nginx',
  state: { running: {} },
  lastState: {},
  ready: true,
  started: true,
  restartCount: 0,
};
const creating: ContainerView = {
  ...running,
  state: { waiting: { reason: 'ContainerCreating' } },
  ready: false,
  started: false,
};
const exited = (code: number): ContainerView => ({
  ...running,
  state: { terminated: { exitCode: code } },
  ready: false,
  started: false,
});
const backoff: ContainerView = {
  ...creating,
  state: { waiting: { reason: 'CrashLoopBackOff' } },
  lastState: { terminated: { exitCode: 1 } },
};

describe('podPhase (getPhase)', () => {
  it.each<[string, string, ContainerView[], string]>([
    ['creating', 'Always', [creating], 'Pending'],
    ['running', 'Always', [running], 'Running'],
    ['crash-looping', 'Always', [backoff], 'Running'],
    ['one running one pulling', 'Always', [running, creating], 'Pending'],
    ['exited 0 with Never', 'Never', [exited(0)], 'Succeeded'],
    ['exited 1 with Never', 'Never', [exited(1)], 'Failed'],
    ['exited 1 with OnFailure', 'OnFailure', [exited(1)], 'Running'],
    ['exited 0 with OnFailure', 'OnFailure', [exited(0)], 'Succeeded'],
    ['exited 0 with Always', 'Always', [exited(0)], 'Running'],
  ])('should be %s -> %s/%j gives %s', (_name, policy, cs, phase) => {
    expect(podPhase(policy, cs)).toBe(phase);
  });
});

const pod = (resources: Record<string, Record<string, string>>[]): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', uid: 'u' },
  spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'nginx', resources: r })) },
});

describe('qosClass', () => {
  it.each<[string, Record<string, Record<string, string>>[], string]>([
    ['nothing set', [{}], 'BestEffort'],
    ['limits only', [{ limits: { cpu: '1', memory: '1Gi' } }], 'Guaranteed'],
    [
      'requests equal limits',
      [{ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '0.5', memory: '1Gi' } }],
      'Guaranteed',
    ],
    ['requests only', [{ requests: { cpu: '100m' } }], 'Burstable'],
    ['one container without limits', [{ limits: { cpu: '1', memory: '1Gi' } }, {}], 'Burstable'],
  ])('should classify %s as %s', (_n, r, q) => {
    expect(qosClass(pod(r))).toBe(q);
  });
});

describe('buildPodStatus', () => {
  it('should list the five conditions in kubelet order with ContainersNotReady when a container is not ready', () => {
    const st = buildPodStatus(pod([{}]), {
      hostIP: '172.18.0.3',
      sandboxReady: true,
      containers: [{ ...creating, name: 'c0' }],
      transitions: {},
      nowIso: '2026-01-05T09:00:01Z',
    });
    expect(st.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual([
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=False',
      'ContainersReady=False',
      'PodScheduled=True',
    ]);
    expect(st.conditions?.[2]).toMatchObject({
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [c0]',
    });
    expect(st.phase).toBe('Pending');
  });

  it('should keep the lastTransitionTime of a condition while its status does not change', () => {
    const transitions: Record<string, string> = {};
    const view = {
      hostIP: 'h',
      sandboxReady: true,
      containers: [{ ...running, name: 'c0' }],
      transitions,
    };
    buildPodStatus(pod([{}]), { ...view, nowIso: '2026-01-05T09:00:01Z' });
    const later = buildPodStatus(pod([{}]), { ...view, nowIso: '2026-01-05T09:05:00Z' });
    expect(later.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime).toBe(
      '2026-01-05T09:00:01Z',
    );
  });
});
