import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import type { KubeEvent, Node, Pod } from '../model';
import { desiredNoScheduleTaints } from './node-lifecycle-controller';
import { planCidrs } from './node-ipam-controller';
import { computeZoneState, TokenBucket } from './node-zones';
import { evictionDecision } from './taint-eviction-controller';
import {
  ADMIN,
  bind,
  createObj,
  deployment,
  get,
  kcmErrors,
  list,
  newLab,
  registerNode,
  renewLease,
  runPods,
  setNodeReady,
  useControllerOnlyLab,
} from './lab-harness.test';

const NODES = ['control-plane', 'node-1', 'node-2', 'node-3'];

function node(name: string, o: { cidr?: string; cp?: boolean; created?: string } = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: o.created ?? '2026-01-05T09:00:00Z',
      labels: o.cp ? { 'node-role.kubernetes.io/control-plane': '' } : {},
    },
    spec: o.cidr ? { podCIDR: o.cidr } : {},
  };
}

describe('node IPAM', () => {
  it('should give the control-plane 10.244.0.0/24 and workers the next /24 in registration order', () => {
    const plan = planCidrs([
      node('node-2', { created: '2026-01-05T09:00:02Z' }),
      node('node-1', { created: '2026-01-05T09:00:01Z' }),
      node('control-plane', { cp: true, created: '2026-01-05T09:00:03Z' }),
    ]);
    expect([...plan]).toEqual([
      ['control-plane', '10.244.0.0/24'],
      ['node-1', '10.244.1.0/24'],
      ['node-2', '10.244.2.0/24'],
    ]);
  });

  it('should skip ranges already in use', () => {
    const plan = planCidrs([
      node('a', { cidr: '10.244.0.0/24' }),
      node('b', { cidr: '10.244.2.0/24' }),
      node('c'),
    ]);
    expect(plan.get('c')).toBe('10.244.1.0/24');
  });
});

describe('zones, rate limits and taint decisions', () => {
  const c = (status: 'True' | 'False' | 'Unknown') => ({ type: 'Ready', status });
  it.each([
    { ready: 4, notReady: 0, want: 'Normal' },
    { ready: 2, notReady: 2, want: 'Normal' },
    { ready: 1, notReady: 3, want: 'PartialDisruption' },
    { ready: 0, notReady: 2, want: 'FullDisruption' },
  ])(
    'should compute $want for $ready ready and $notReady not-ready nodes',
    ({ ready, notReady, want }) => {
      const conds = [...Array(ready).fill(c('True')), ...Array(notReady).fill(c('Unknown'))];
      expect(computeZoneState(conds)).toBe(want);
    },
  );

  it('should accept one taint per 10 s at the default eviction rate', () => {
    const b = new TokenBucket(0.1);
    expect(b.tryAccept(0)).toBe(true);
    expect(b.tryAccept(5000)).toBe(false);
    expect(b.nextTokenAt(5000)).toBe(10_000);
    expect(b.tryAccept(10_000)).toBe(true);
  });

  it.each([
    { name: 'evict at once without a toleration', tolerations: [], want: { kind: 'now' } },
    {
      name: 'evict after the default 300 s',
      tolerations: [
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists' as const,
          effect: 'NoExecute' as const,
          tolerationSeconds: 300,
        },
      ],
      want: { kind: 'after', ms: 300_000 },
    },
    {
      name: 'never evict with a toleration without seconds',
      tolerations: [{ operator: 'Exists' as const }],
      want: { kind: 'never' },
    },
  ])('should $name', ({ tolerations, want }) => {
    expect(
      evictionDecision(tolerations, [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
      ]),
    ).toEqual(want);
  });

  it('should want unreachable:NoSchedule for an Unknown Ready condition and drop it when Ready', () => {
    const n = node('n');
    n.status = { conditions: [{ type: 'Ready', status: 'Unknown' }] };
    expect(desiredNoScheduleTaints(n).add).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
    ]);
    n.status = { conditions: [{ type: 'Ready', status: 'True' }] };
    n.spec.taints = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }];
    expect(desiredNoScheduleTaints(n).remove).toHaveLength(1);
  });
});

/** Advances in 10 s steps, renewing the Leases of the nodes still alive (their kubelets). */
function heartbeatFor(lab: SimLab, ms: number, alive: string[]): void {
  for (let t = 0; t < ms; t += 10_000) {
    for (const n of alive) renewLease(lab, n);
    lab.advance(Math.min(10_000, ms - t));
  }
}

function readyOf(lab: SimLab, name: string) {
  return get<Node>(lab, 'nodes', name, undefined)?.status?.conditions?.find(
    (c) => c.type === 'Ready',
  );
}

describe('node lifecycle in a lab', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  function setup(): SimLab {
    const lab = newLab();
    for (const n of NODES)
      registerNode(
        lab,
        n,
        n === 'control-plane' ? { 'node-role.kubernetes.io/control-plane': '' } : {},
      );
    lab.advance(1000);
    return lab;
  }

  it('should assign pod CIDRs to registered nodes, control-plane first', () => {
    const lab = setup();
    expect(NODES.map((n) => get<Node>(lab, 'nodes', n, undefined)?.spec.podCIDR)).toEqual([
      '10.244.0.0/24',
      '10.244.1.0/24',
      '10.244.2.0/24',
      '10.244.3.0/24',
    ]);
    const events = list<KubeEvent>(lab, 'events').filter((e) => e.reason === 'RegisteredNode');
    expect(events.map((e) => e.message)).toContain(
      'Node node-1 event: Registered Node node-1 in Controller',
    );
  });

  it('should mark a silent node Unknown after the 50 s grace period, taint it, and evict its pods after 300 s', () => {
    const lab = setup();
    createObj(lab, 'deployments', deployment('web', 3));
    lab.advance(500);
    const pods = list<Pod>(lab, 'pods');
    pods.forEach((p, i) => bind(lab, p, `node-${i + 1}`));
    runPods(lab);
    lab.advance(500);
    const alive = ['control-plane', 'node-1', 'node-3'];
    // node-2's kubelet stops: no more Lease renewals from t0
    const t0 = lab.now;
    heartbeatFor(lab, 40_000, alive);
    expect(readyOf(lab, 'node-2')?.status).toBe('True');
    heartbeatFor(lab, 20_000, alive);
    const ready = readyOf(lab, 'node-2');
    expect(ready).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    const notReadyAt = lab
      .trace()
      .find((e) => e.verb === 'node-not-ready' && e.object?.name === 'node-2')?.t as number;
    expect(notReadyAt - t0).toBeGreaterThanOrEqual(50_000);
    expect(notReadyAt - t0).toBeLessThanOrEqual(56_000);
    expect(
      list<KubeEvent>(lab, 'events').find(
        (e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node',
      )?.message,
    ).toBe('Node node-2 status is now: NodeNotReady');
    heartbeatFor(lab, 10_000, alive);
    const taints = get<Node>(lab, 'nodes', 'node-2', undefined)?.spec.taints ?? [];
    expect(taints.map((t) => `${t.key}:${t.effect}`).sort()).toEqual([
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    const victim = list<Pod>(lab, 'pods').find((p) => p.spec.nodeName === 'node-2') as Pod;
    expect(victim.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    // 300 s of toleration, then eviction
    heartbeatFor(lab, 280_000, alive);
    expect(
      get<Pod>(lab, 'pods', victim.metadata.name as string)?.metadata.deletionTimestamp,
    ).toBeUndefined();
    heartbeatFor(lab, 30_000, alive);
    expect(
      get<Pod>(lab, 'pods', victim.metadata.name as string)?.metadata.deletionTimestamp,
    ).toBeDefined();
    const evictions = list<KubeEvent>(lab, 'events').filter(
      (e) => e.reason === 'TaintManagerEviction',
    );
    expect(evictions.map((e) => e.message)).toEqual([
      `Marking for deletion Pod default/${victim.metadata.name}`,
    ]);
    const taintedAt = lab
      .trace()
      .find(
        (e) =>
          e.verb === 'update' &&
          e.object?.name === 'node-2' &&
          e.message.includes('unreachable:NoExecute'),
      )?.t as number;
    const evictedAt = lab
      .trace()
      .find((e) => e.verb === 'delete' && e.object?.name === victim.metadata.name)?.t as number;
    expect(evictedAt - taintedAt).toBeGreaterThanOrEqual(300_000);
    expect(evictedAt - taintedAt).toBeLessThan(301_000);
    // the ReplicaSet replaces it; the scheduler's part is played by hand on a healthy node
    const replacement = list<Pod>(lab, 'pods').filter(
      (p) => !p.metadata.deletionTimestamp && p.spec.nodeName !== 'node-2',
    );
    expect(replacement).toHaveLength(3);
    expect(replacement.filter((p) => !p.spec.nodeName)).toHaveLength(1);
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should remove the taints when the node reports Ready again', () => {
    const lab = setup();
    heartbeatFor(lab, 70_000, ['control-plane', 'node-1', 'node-3']);
    expect((get<Node>(lab, 'nodes', 'node-2', undefined)?.spec.taints ?? []).length).toBe(2);
    renewLease(lab, 'node-2');
    setNodeReady(lab, 'node-2', 'True');
    heartbeatFor(lab, 10_000, NODES);
    expect(get<Node>(lab, 'nodes', 'node-2', undefined)?.spec.taints ?? []).toEqual([]);
  });

  it('should not taint anything when every node goes silent (master disruption mode)', () => {
    const lab = setup();
    heartbeatFor(lab, 80_000, []);
    for (const n of NODES) {
      expect(readyOf(lab, n)?.status).toBe('Unknown');
      expect(
        (get<Node>(lab, 'nodes', n, undefined)?.spec.taints ?? []).filter(
          (t) => t.effect === 'NoExecute',
        ),
      ).toEqual([]);
    }
  });

  it('should stop tainting in a small cluster when more than 55 % of the nodes fail (partial disruption)', () => {
    const lab = setup();
    heartbeatFor(lab, 80_000, ['control-plane']);
    const noExecute = ['node-1', 'node-2', 'node-3'].flatMap((n) =>
      (get<Node>(lab, 'nodes', n, undefined)?.spec.taints ?? []).filter(
        (t) => t.effect === 'NoExecute',
      ),
    );
    expect(noExecute).toEqual([]);
  });

  it('should keep a node silent for less than the grace period Ready', () => {
    const lab = setup();
    heartbeatFor(lab, 45_000, ['control-plane', 'node-1', 'node-3']);
    renewLease(lab, 'node-2');
    heartbeatFor(lab, 45_000, NODES);
    expect(readyOf(lab, 'node-2')?.status).toBe('True');
    expect(lab.request(ADMIN, 'get', 'nodes', { name: 'node-2' })).toBeDefined();
  });
});
