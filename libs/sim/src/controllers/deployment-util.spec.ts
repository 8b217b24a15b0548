import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../model';
import {
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  planOldScaleDown,
  replicaSetsToPrune,
  resolveFenceposts,
  resolveSpec,
  type ResolvedDeployment,
} from './deployment-util';

function resolved(
  replicas: number,
  surge: number | string = '25%',
  unavailable: number | string = '25%',
): ResolvedDeployment {
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      replicas,
      selector: { matchLabels: { a: 'b' } },
      template: { spec: { containers: [] } },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable },
      },
    },
  };
  return resolveSpec(d);
}

function rs(
  name: string,
  replicas: number,
  available: number,
  created = 0,
  revision?: number,
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      creationTimestamp: new Date(Date.UTC(2026, 0, 5, 9, 0, created))
        .toISOString()
        .replace('.000Z', 'Z'),
      ...(revision !== undefined
        ? { annotations: { 'deployment.kubernetes.io/revision': String(revision) } }
        : {}),
    },
    spec: { replicas, selector: {}, template: { spec: { containers: [] } } },
    status: { replicas, availableReplicas: available },
  };
}

describe('resolveFenceposts', () => {
  const cases = [
    { desired: 4, surge: '25%', unavailable: '25%', want: { surge: 1, unavailable: 1 } },
    { desired: 3, surge: '25%', unavailable: '25%', want: { surge: 1, unavailable: 0 } },
    { desired: 10, surge: '25%', unavailable: '25%', want: { surge: 3, unavailable: 2 } },
    { desired: 1, surge: '25%', unavailable: '25%', want: { surge: 1, unavailable: 0 } },
    { desired: 3, surge: 0, unavailable: '10%', want: { surge: 0, unavailable: 1 } },
    { desired: 5, surge: 2, unavailable: 1, want: { surge: 2, unavailable: 1 } },
    { desired: 0, surge: '25%', unavailable: '25%', want: { surge: 0, unavailable: 1 } },
  ];
  it.each(cases)(
    'should round surge up and unavailable down for $desired replicas ($surge/$unavailable)',
    ({ desired, surge, unavailable, want }) => {
      expect(resolveFenceposts(surge, unavailable, desired)).toEqual(want);
    },
  );

  it('should cap maxUnavailable at replicas and return 0 for a Deployment scaled to 0', () => {
    expect(maxUnavailable(resolved(2, 0, 5))).toBe(2);
    expect(maxUnavailable(resolved(0))).toBe(0);
    expect(maxSurge(resolved(10))).toBe(3);
  });
});

describe('newRSNewReplicas', () => {
  it.each([
    {
      name: 'surge by maxSurge at the start of a rollout',
      d: resolved(4),
      old: 4,
      newR: 0,
      want: 1,
    },
    { name: 'not exceed replicas + surge', d: resolved(4), old: 4, newR: 1, want: 1 },
    { name: 'fill up as old replicas go away', d: resolved(4), old: 2, newR: 1, want: 3 },
    { name: 'never exceed the desired count', d: resolved(4), old: 0, newR: 3, want: 4 },
  ])('should $name', ({ d, old, newR, want }) => {
    const o = rs('old', old, old);
    const n = rs('new', newR, 0, 1);
    expect(newRSNewReplicas(d, [o, n], n)).toBe(want);
  });
});

describe('planOldScaleDown', () => {
  it('should not scale old pods down while the new ones are not available yet', () => {
    const d = resolved(4, 1, 0);
    const old = rs('old', 4, 4);
    const n = rs('new', 1, 0, 1);
    expect([...planOldScaleDown(d, [old, n], [old], n)]).toEqual([]);
  });

  it('should scale old pods down by as many as are available beyond the minimum', () => {
    const d = resolved(4);
    const old = rs('old', 4, 4);
    const n = rs('new', 1, 1, 1);
    // available 5, minAvailable 3 -> 2 may go
    expect(planOldScaleDown(d, [old, n], [old], n).get('old')).toBe(2);
  });

  it('should clean up unavailable old replicas first', () => {
    const d = resolved(4, 1, 0);
    const old = rs('old', 4, 2);
    const n = rs('new', 1, 0, 1);
    // allPods 5, minAvailable 4, new unavailable 1 -> maxScaledDown 0: nothing
    expect([...planOldScaleDown(d, [old, n], [old], n)]).toEqual([]);
    const n2 = rs('new', 1, 1, 1);
    // maxScaledDown 1: one unhealthy old replica goes
    expect(planOldScaleDown(d, [old, n2], [old], n2).get('old')).toBe(3);
  });
});

describe('replicaSetsToPrune', () => {
  it('should prune the oldest revisions at 0 replicas beyond the history limit', () => {
    const olds = Array.from({ length: 12 }, (_, i) => rs(`r${i + 1}`, 0, 0, i, i + 1));
    const pruned = replicaSetsToPrune(olds, 10).map((r) => r.metadata.name);
    expect(pruned).toEqual(['r1', 'r2']);
  });

  it('should keep an old ReplicaSet that still has replicas', () => {
    const olds = [rs('r1', 1, 1, 0, 1), rs('r2', 0, 0, 1, 2)];
    expect(replicaSetsToPrune(olds, 0).map((r) => r.metadata.name)).toEqual(['r2']);
  });
});
