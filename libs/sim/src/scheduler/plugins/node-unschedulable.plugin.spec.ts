import { describe, expect, it } from 'vitest';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import { nodeUnschedulablePlugin } from './node-unschedulable.plugin';

describe('NodeUnschedulable filter', () => {
  const cases = [
    {
      name: 'should pass when the node is not cordoned',
      unschedulable: false,
      tolerations: undefined,
      want: { code: 'Success' },
    },
    {
      name: 'should reject as unresolvable when the node is cordoned',
      unschedulable: true,
      tolerations: undefined,
      want: { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] },
    },
    {
      name: 'should pass when the pod tolerates the unschedulable taint',
      unschedulable: true,
      tolerations: [
        {
          key: 'node.kubernetes.io/unschedulable',
          operator: 'Exists' as const,
          effect: 'NoSchedule' as const,
        },
      ],
      want: { code: 'Success' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const snap = snapshotOf([makeNode('n', { unschedulable: c.unschedulable })]);
      const pod = makePod('p', { spec: c.tolerations ? { tolerations: c.tolerations } : {} });
      expect(nodeUnschedulablePlugin.filter(pod, snap.nodes[0]!, undefined, snap)).toEqual(c.want);
    });
  }
});
