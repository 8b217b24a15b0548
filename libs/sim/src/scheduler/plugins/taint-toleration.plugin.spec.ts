import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../../model';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import { taintTolerationPlugin } from './taint-toleration.plugin';

const cp: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
const gpu: Taint = { key: 'gpu', value: 'true', effect: 'NoExecute' };
const soft: Taint = { key: 'spot', value: 'yes', effect: 'PreferNoSchedule' };

describe('TaintToleration filter', () => {
  const cases: { name: string; taints: Taint[]; tolerations?: Toleration[]; want: unknown }[] = [
    { name: 'should pass when the node has no taints', taints: [], want: { code: 'Success' } },
    {
      name: 'should reject with key and empty value when the control-plane taint is not tolerated',
      taints: [cp],
      want: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
      },
    },
    {
      name: 'should pass when an Exists toleration matches the key',
      taints: [cp],
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }],
      want: { code: 'Success' },
    },
    {
      name: 'should reject when an Equal toleration has another value',
      taints: [gpu],
      tolerations: [{ key: 'gpu', operator: 'Equal', value: 'false' }],
      want: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ['node(s) had untolerated taint {gpu: true}'],
      },
    },
    {
      name: 'should pass when an empty-key Exists toleration tolerates everything',
      taints: [cp, gpu],
      tolerations: [{ operator: 'Exists' }],
      want: { code: 'Success' },
    },
    {
      name: 'should reject when the toleration effect differs from the taint effect',
      taints: [gpu],
      tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      want: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ['node(s) had untolerated taint {gpu: true}'],
      },
    },
    {
      name: 'should pass when only a PreferNoSchedule taint is untolerated',
      taints: [soft],
      want: { code: 'Success' },
    },
    {
      name: 'should report the first untolerated taint when several are untolerated',
      taints: [soft, gpu, cp],
      want: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ['node(s) had untolerated taint {gpu: true}'],
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const node = makeNode('n', { taints: c.taints });
      const pod = makePod('p', { spec: c.tolerations ? { tolerations: c.tolerations } : {} });
      const snap = snapshotOf([node]);
      expect(taintTolerationPlugin.filter(pod, snap.nodes[0]!, undefined, snap)).toEqual(c.want);
    });
  }
});

describe('TaintToleration score', () => {
  it('should prefer nodes with fewer untolerated PreferNoSchedule taints when normalizing', () => {
    const nodes = [
      makeNode('a'),
      makeNode('b', { taints: [soft] }),
      makeNode('c', { taints: [soft, { key: 'x', effect: 'PreferNoSchedule' }] }),
    ];
    const snap = snapshotOf(nodes);
    const pod = makePod('p');
    const pre = taintTolerationPlugin.preScore!(pod, snap.nodes, snap);
    const raw = snap.nodes.map((n) => taintTolerationPlugin.score(pod, n, pre.state, snap));
    expect(raw).toEqual([0, 1, 2]);
    const norm = taintTolerationPlugin.normalize!(raw, snap.nodes, pre.state);
    expect(norm).toEqual([100, 50, 0]);
  });

  it('should give every node 100 when no node has an untolerated PreferNoSchedule taint', () => {
    const snap = snapshotOf([makeNode('a', { taints: [soft] }), makeNode('b')]);
    const pod = makePod('p', { spec: { tolerations: [{ key: 'spot', operator: 'Exists' }] } });
    const pre = taintTolerationPlugin.preScore!(pod, snap.nodes, snap);
    const raw = snap.nodes.map((n) => taintTolerationPlugin.score(pod, n, pre.state, snap));
    expect(raw).toEqual([0, 0]);
    expect(taintTolerationPlugin.normalize!(raw, snap.nodes, pre.state)).toEqual([100, 100]);
  });
});
