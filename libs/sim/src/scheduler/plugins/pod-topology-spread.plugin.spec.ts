import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../../model/apps';
import type { TopologySpreadConstraint } from '../../model';
import { buildSnapshot } from '../framework/node-info';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import {
  ERR_REASON_CONSTRAINTS_NOT_MATCH,
  ERR_REASON_NODE_LABEL_NOT_MATCH,
  podTopologySpreadPlugin,
} from './pod-topology-spread.plugin';

const hard = (key: string, maxSkew = 1): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey: key,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
});

describe('PodTopologySpread filter', () => {
  const cases: {
    name: string;
    counts: Record<string, number>;
    node: string;
    maxSkew?: number;
    want: unknown;
  }[] = [
    {
      name: 'should reject when placing here makes the skew exceed maxSkew',
      counts: { a: 1, b: 0 },
      node: 'a',
      want: { code: 'Unschedulable', reasons: [ERR_REASON_CONSTRAINTS_NOT_MATCH] },
    },
    {
      name: 'should pass when the node is in the least loaded domain',
      counts: { a: 1, b: 0 },
      node: 'b',
      want: { code: 'Success' },
    },
    {
      name: 'should pass when maxSkew tolerates the imbalance',
      counts: { a: 1, b: 0 },
      node: 'a',
      maxSkew: 2,
      want: { code: 'Success' },
    },
    {
      name: 'should reject as unresolvable when the node lacks the topology label',
      counts: { a: 0, b: 0 },
      node: 'nolabel',
      want: { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_NODE_LABEL_NOT_MATCH] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const nodes = [
        makeNode('a', { labels: { rack: 'a' } }),
        makeNode('b', { labels: { rack: 'b' } }),
        makeNode('nolabel'),
      ];
      const bound = Object.entries(c.counts).flatMap(([n, k]) =>
        Array.from({ length: k }, (_, i) =>
          makePod(`${n}-${i}`, { nodeName: n, labels: { app: 'web' }, phase: 'Running' }),
        ),
      );
      const snap = snapshotOf(nodes, bound);
      const pod = makePod('p', {
        labels: { app: 'web' },
        spec: { topologySpreadConstraints: [hard('rack', c.maxSkew)] },
      });
      const pre = podTopologySpreadPlugin.preFilter!(pod, snap);
      expect(podTopologySpreadPlugin.filter(pod, snap.get(c.node)!, pre.state, snap)).toEqual(
        c.want,
      );
    });
  }

  it('should skip PreFilter when the pod has no DoNotSchedule constraint', () => {
    const snap = snapshotOf([makeNode('a')]);
    expect(podTopologySpreadPlugin.preFilter!(makePod('p'), snap).status.code).toBe('Skip');
  });
});

describe('PodTopologySpread score (system defaults)', () => {
  const rs = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-abc', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { containers: [] } },
    },
  } as unknown as ReplicaSet;

  it('should favour the node with fewer replicas when the pod belongs to a ReplicaSet', () => {
    const nodes = [makeNode('a'), makeNode('b'), makeNode('c')];
    const mk = (n: string, i: number) =>
      makePod(`${n}${i}`, {
        nodeName: n,
        labels: { app: 'web' },
        ownerReplicaSet: 'web-abc',
        phase: 'Running',
      });
    const snap = buildSnapshot(nodes, [mk('a', 0), mk('a', 1), mk('b', 0)], { replicaSets: [rs] });
    const pod = makePod('p', { labels: { app: 'web' }, ownerReplicaSet: 'web-abc' });
    const pre = podTopologySpreadPlugin.preScore!(pod, snap.nodes, snap);
    expect(pre.skip).toBe(false);
    // hostname: cnt * ln(3 + 2) + (3 - 1); the zone default adds nothing without zone labels.
    const raw = snap.nodes.map((n) => podTopologySpreadPlugin.score(pod, n, pre.state, snap));
    expect(raw).toEqual([5, 4, 2]);
    const norm = podTopologySpreadPlugin.normalize!(raw, snap.nodes, pre.state);
    expect(norm).toEqual([40, 60, 100]);
  });

  it('should count the replicas of each zone when the nodes carry zone labels, cycle after cycle', () => {
    const zone = (z: string) => ({ labels: { 'topology.kubernetes.io/zone': z } });
    const nodes = [makeNode('a', zone('z1')), makeNode('b', zone('z1')), makeNode('c', zone('z2'))];
    const mk = (n: string, i: number) =>
      makePod(`${n}${i}`, {
        nodeName: n,
        labels: { app: 'web' },
        ownerReplicaSet: 'web-abc',
        phase: 'Running',
      });
    const snap = buildSnapshot(nodes, [mk('a', 0), mk('a', 1), mk('c', 0)], { replicaSets: [rs] });
    for (const name of ['p', 'q']) {
      const pod = makePod(name, { labels: { app: 'web' }, ownerReplicaSet: 'web-abc' });
      const pre = podTopologySpreadPlugin.preScore!(pod, snap.nodes, snap);
      // hostname: cnt * ln(3 + 2) + 2; zone: the zone's count * ln(2 + 2) + 4
      const raw = snap.nodes.map((n) => podTopologySpreadPlugin.score(pod, n, pre.state, snap));
      expect(raw).toEqual([12, 9, 9]);
      expect(podTopologySpreadPlugin.normalize!(raw, snap.nodes, pre.state)).toEqual([
        75, 100, 100,
      ]);
    }
  });

  it('should skip scoring when the pod has no owner and no Service', () => {
    const snap = snapshotOf([makeNode('a'), makeNode('b')]);
    expect(
      podTopologySpreadPlugin.preScore!(makePod('p', { labels: { app: 'x' } }), snap.nodes, snap)
        .skip,
    ).toBe(true);
  });

  it('should build the default selector from a Service selecting the pod', () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' } },
    } as const;
    const nodes = [makeNode('a'), makeNode('b')];
    const snap = buildSnapshot(
      nodes,
      [makePod('x', { nodeName: 'a', labels: { app: 'web' }, phase: 'Running' })],
      {
        services: [svc as never],
      },
    );
    const pod = makePod('p', { labels: { app: 'web' } });
    const pre = podTopologySpreadPlugin.preScore!(pod, snap.nodes, snap);
    const raw = snap.nodes.map((n) => podTopologySpreadPlugin.score(pod, n, pre.state, snap));
    expect(raw[0]).toBeGreaterThan(raw[1]!);
  });
});
