import { describe, expect, it } from 'vitest';
import type { Pod } from '../../model';
import { createRng } from '../../runtime/rng';
import { DEFAULT_PROFILE } from '../plugins/default-plugins';
import { defaultLabNodes, makeNode, makePod, snapshotOf } from '../testing/factories';
import { formatFitError } from './fit-error';
import { runPreemption } from './preemption';
import { failureMessage, scheduleOne } from './schedule-one';

const MB = 1024 * 1024;

function run(pod: Pod, nodes = defaultLabNodes(), bound: Pod[] = [], seed = 1) {
  return scheduleOne({
    pod,
    snapshot: snapshotOf(nodes, bound),
    profile: DEFAULT_PROFILE,
    rng: createRng(seed),
    t: 0,
    attempt: 1,
    startIndex: 0,
  });
}

/** The full FailedScheduling message: FitError plus DefaultPreemption's PostFilter message. */
function fullMessage(pod: Pod, nodes = defaultLabNodes(), bound: Pod[] = []): string {
  const snapshot = snapshotOf(nodes, bound);
  const out = run(pod, nodes, bound);
  if (out.result.kind !== 'unschedulable') throw new Error('expected a failure');
  const pre = runPreemption(pod, snapshot, out.result.diagnosis, DEFAULT_PROFILE);
  return formatFitError(nodes.length, { ...out.result.diagnosis, postFilterMsg: pre.message });
}

describe('scheduleOne', () => {
  it('should print the exact v1.32 message when a pod asks for 10 CPUs in the default lab', () => {
    expect(fullMessage(makePod('big', { cpu: '10' }))).toBe(
      '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
    );
  });

  it('should record every filter verdict when a node is rejected early', () => {
    const out = run(makePod('big', { cpu: '10' }));
    const cp = out.decision.nodes.find((n) => n.node === 'control-plane')!;
    expect(cp.filters.map((f) => `${f.plugin}:${f.verdict}`)).toEqual([
      'NodeUnschedulable:pass',
      'NodeName:pass',
      'TaintToleration:fail',
      'NodeAffinity:not-run',
      'NodePorts:not-run',
      'NodeResourcesFit:not-run',
      'VolumeBinding:not-run',
      'PodTopologySpread:not-run',
    ]);
    const n1 = out.decision.nodes.find((n) => n.node === 'node-1')!;
    expect(n1.filters.map((f) => `${f.plugin}:${f.verdict}`)).toEqual([
      'NodeUnschedulable:pass',
      'NodeName:pass',
      'TaintToleration:pass',
      'NodeAffinity:skip',
      'NodePorts:skip',
      'NodeResourcesFit:fail',
      'VolumeBinding:not-run',
      'PodTopologySpread:not-run',
    ]);
    expect(n1.filters[5]!.reasons).toEqual(['Insufficient cpu']);
  });

  it('should prefer the node that already has the image when everything else is equal', () => {
    const nodes = ['node-1', 'node-2', 'node-3'].map((n) =>
      makeNode(n, {
        images: n === 'node-2' ? [{ names: ['example.com/app:2'], sizeBytes: 500 * MB }] : [],
      }),
    );
    for (const seed of [1, 2, 3, 4, 5]) {
      const out = run(makePod('p', { image: 'example.com/app:2' }), nodes, [], seed);
      expect(out.result).toEqual({ kind: 'scheduled', node: 'node-2' });
    }
    const out = run(makePod('p', { image: 'example.com/app:2' }), nodes);
    const n2 = out.decision.nodes.find((n) => n.node === 'node-2')!;
    expect(n2.scores.find((s) => s.plugin === 'ImageLocality')).toEqual({
      plugin: 'ImageLocality',
      weight: 1,
      raw: 14,
      normalized: 14,
      weighted: 14,
    });
    expect(out.decision.tiedNodes).toEqual(['node-2']);
  });

  it('should spread 3 replicas over 3 nodes when least-allocated scoring decides', () => {
    const nodes = defaultLabNodes();
    const bound: Pod[] = [];
    for (let i = 0; i < 3; i++) {
      const pod = makePod(`web-${i}`, { cpu: '250m', memory: '256Mi' });
      const out = run(pod, nodes, bound, 7 + i);
      if (out.result.kind !== 'scheduled') throw new Error('unschedulable');
      bound.push({ ...pod, spec: { ...pod.spec, nodeName: out.result.node } });
    }
    expect(bound.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('should record raw, normalized and weighted scores and totals when scoring runs', () => {
    const out = run(makePod('p', { cpu: '500m', memory: '1Gi' }));
    const n1 = out.decision.nodes.find((n) => n.node === 'node-1')!;
    expect(n1.scores.map((s) => [s.plugin, s.raw, s.normalized, s.weighted])).toEqual([
      ['TaintToleration', 0, 100, 300],
      ['NodeResourcesFit', 75, 75, 75],
      ['NodeResourcesBalancedAllocation', 100, 100, 100],
      ['ImageLocality', 0, 0, 0],
    ]);
    expect(n1.total).toBe(475);
    expect(out.decision.scorePlugins.filter((s) => s.skipped).map((s) => s.plugin)).toEqual([
      'NodeAffinity',
      'PodTopologySpread',
    ]);
    expect(out.decision.tiedNodes).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('should show the nodes in snapshot order when the cycle starts mid-list, and save the plain record', () => {
    const bound = [makePod('busy', { cpu: '1', nodeName: 'node-1', phase: 'Running' })];
    const out = scheduleOne({
      pod: makePod('p', { cpu: '500m', memory: '1Gi' }),
      snapshot: snapshotOf(defaultLabNodes(), bound),
      profile: DEFAULT_PROFILE,
      rng: createRng(1),
      t: 0,
      attempt: 1,
      startIndex: 2,
    });
    const d = out.decision;
    expect(d.nodes.map((n) => [n.node, n.evaluated, n.feasible])).toEqual([
      ['control-plane', true, false],
      ['node-1', true, true],
      ['node-2', true, true],
      ['node-3', true, true],
    ]);
    const scored = d.nodes.filter((n) => n.total !== null).map((n) => [n.node, n.total]);
    expect(Object.entries(d.totalsByNode())).toEqual(scored);
    expect(scored.map(([node]) => node)).toEqual(['node-1', 'node-2', 'node-3']);
    expect(d.feasibleNames()).toEqual(['node-1', 'node-2', 'node-3']);
    expect(Object.keys(d.rejectedReasons())).toEqual(['control-plane']);
    const saved = JSON.parse(JSON.stringify(d));
    expect(Object.keys(saved)).toEqual([
      'namespace',
      'name',
      'uid',
      'attempt',
      't',
      'outcome',
      'node',
      'message',
      'numAllNodes',
      'evaluatedNodes',
      'feasibleNodes',
      'preFilter',
      'nodes',
      'scorePlugins',
      'scoringSkipped',
      'tiedNodes',
    ]);
    expect(saved.nodes).toEqual(JSON.parse(JSON.stringify(d.nodes)));
  });

  it('should break ties the same way when the seed is the same', () => {
    const pick = (seed: number) =>
      (run(makePod('p'), defaultLabNodes(), [], seed).result as { node: string }).node;
    expect(pick(42)).toBe(pick(42));
    const seen = new Set(Array.from({ length: 30 }, (_, i) => pick(i)));
    expect([...seen].sort()).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('should skip scoring when only one node fits', () => {
    const nodes = defaultLabNodes().map((n) =>
      n.metadata.name === 'node-3' ? makeNode('node-3', { labels: { disktype: 'ssd' } }) : n,
    );
    const out = run(makePod('p', { spec: { nodeSelector: { disktype: 'ssd' } } }), nodes);
    expect(out.result).toEqual({ kind: 'scheduled', node: 'node-3' });
    expect(out.decision.scoringSkipped).toBe(true);
  });

  it('should skip the cordoned node when another node is free', () => {
    const nodes = [makeNode('node-1', { unschedulable: true }), makeNode('node-2')];
    expect(run(makePod('p'), nodes).result).toEqual({ kind: 'scheduled', node: 'node-2' });
  });

  it('should fail with the no-nodes error when the cluster has no nodes', () => {
    const out = run(makePod('p'), []);
    expect(failureMessage(0, out.result)).toBe('no nodes available to schedule pods');
  });

  it('should report the selector mismatch for every node when no node has the label', () => {
    expect(fullMessage(makePod('p', { spec: { nodeSelector: { disktype: 'ssd' } } }))).toBe(
      "0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
    );
  });
});

describe('runPreemption', () => {
  it('should find victims on a node when lower-priority pods hold the cpu', () => {
    const nodes = [makeNode('node-1'), makeNode('node-2')];
    const bound = [
      makePod('low-1', { nodeName: 'node-1', cpu: '1500m', priority: 0, phase: 'Running' }),
      makePod('mid-2', { nodeName: 'node-2', cpu: '1500m', priority: 50, phase: 'Running' }),
    ];
    const pod = makePod('vip', { cpu: '1', priority: 100 });
    const snapshot = snapshotOf(nodes, bound);
    const out = run(pod, nodes, bound);
    if (out.result.kind !== 'unschedulable') throw new Error('expected failure');
    const pre = runPreemption(pod, snapshot, out.result.diagnosis, DEFAULT_PROFILE);
    expect(pre.message).toBe('');
    expect(pre.candidate?.node).toBe('node-1');
    expect(pre.candidate?.victims.map((v) => v.metadata.name)).toEqual(['low-1']);
  });

  it('should report the remaining filter failure when evicting every victim is not enough', () => {
    const nodes = [makeNode('node-1')];
    const bound = [
      makePod('low', { nodeName: 'node-1', cpu: '500m', priority: 0, phase: 'Running' }),
      makePod('high', { nodeName: 'node-1', cpu: '1500m', priority: 1000, phase: 'Running' }),
    ];
    expect(fullMessage(makePod('vip', { cpu: '1', priority: 100 }), nodes, bound)).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.',
    );
  });

  it('should not preempt when the pod says preemptionPolicy Never', () => {
    const nodes = [makeNode('node-1')];
    const bound = [makePod('low', { nodeName: 'node-1', cpu: '2', priority: 0, phase: 'Running' })];
    const pod = makePod('vip', { cpu: '1', priority: 100, spec: { preemptionPolicy: 'Never' } });
    expect(fullMessage(pod, nodes, bound)).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. not eligible due to preemptionPolicy=Never.',
    );
  });
});
