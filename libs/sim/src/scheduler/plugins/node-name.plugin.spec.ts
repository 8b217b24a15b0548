import { describe, expect, it } from 'vitest';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import { nodeNamePlugin } from './node-name.plugin';

describe('NodeName filter', () => {
  const cases = [
    { name: 'should pass when the pod names no node', nodeName: undefined, want: 'Success' },
    { name: 'should pass when the pod names this node', nodeName: 'n', want: 'Success' },
    {
      name: 'should reject when the pod names another node',
      nodeName: 'other',
      want: 'UnschedulableAndUnresolvable',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const snap = snapshotOf([makeNode('n')]);
      const pod = makePod('p', { nodeName: c.nodeName });
      const s = nodeNamePlugin.filter(pod, snap.nodes[0]!, undefined, snap);
      expect(s.code).toBe(c.want);
      if (c.want !== 'Success') {
        expect(s).toEqual({
          code: 'UnschedulableAndUnresolvable',
          reasons: ["node(s) didn't match the requested node name"],
        });
      }
    });
  }
});
