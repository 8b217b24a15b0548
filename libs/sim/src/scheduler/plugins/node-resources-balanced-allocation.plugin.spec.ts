import { describe, expect, it } from 'vitest';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import {
  balancedAllocationPlugin,
  balancedResourceScore,
} from './node-resources-balanced-allocation.plugin';

describe('NodeResourcesBalancedAllocation score', () => {
  const cases: {
    name: string;
    bound: { cpu?: string; memory?: string }[];
    pod: { cpu?: string; memory?: string };
    want: number;
  }[] = [
    {
      name: 'should score 100 when cpu and memory fractions are equal',
      bound: [],
      pod: { cpu: '500m', memory: '1Gi' },
      want: 100,
    },
    {
      name: 'should score 87 when the fractions are 0.5 and 0.25',
      bound: [],
      pod: { cpu: '1', memory: '1Gi' },
      want: 87,
    },
    {
      name: 'should take bound pods into account when they skew the node',
      bound: [{ cpu: '1' }],
      pod: { cpu: '500m', memory: '1Gi' },
      want: 75,
    },
    {
      name: 'should score a request-less pod on its real (zero) requests in v1.32',
      bound: [],
      pod: {},
      want: 100,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const bound = c.bound.map((b, i) =>
        makePod(`b${i}`, { ...b, nodeName: 'n', phase: 'Running' }),
      );
      const snap = snapshotOf([makeNode('n')], bound);
      const pod = makePod('p', c.pod);
      const pre = balancedAllocationPlugin.preScore!(pod, snap.nodes, snap);
      expect(pre.skip).toBe(false);
      expect(balancedAllocationPlugin.score(pod, snap.nodes[0]!, pre.state, snap)).toBe(c.want);
    });
  }

  it('should cap fractions at 1 when requests exceed allocatable', () => {
    expect(balancedResourceScore([4000, 1], [2000, 100])).toBe(50);
  });
});
