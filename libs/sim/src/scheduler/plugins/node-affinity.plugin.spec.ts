import { describe, expect, it } from 'vitest';
import type { Affinity, NodeSelectorTerm } from '../../model';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import { nodeAffinityPlugin } from './node-affinity.plugin';

const REASON = "node(s) didn't match Pod's node affinity/selector";
const required = (...terms: NodeSelectorTerm[]): Affinity => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
});

describe('NodeAffinity filter', () => {
  const cases: {
    name: string;
    labels: Record<string, string>;
    nodeSelector?: Record<string, string>;
    affinity?: Affinity;
    fits: boolean;
  }[] = [
    {
      name: 'should pass when the nodeSelector matches',
      labels: { disktype: 'ssd' },
      nodeSelector: { disktype: 'ssd' },
      fits: true,
    },
    {
      name: 'should reject when the nodeSelector label is missing',
      labels: {},
      nodeSelector: { disktype: 'ssd' },
      fits: false,
    },
    {
      name: 'should reject when the nodeSelector value differs',
      labels: { disktype: 'hdd' },
      nodeSelector: { disktype: 'ssd' },
      fits: false,
    },
    {
      name: 'should pass when one of the ORed terms matches',
      labels: { zone: 'b' },
      affinity: required(
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
      ),
      fits: true,
    },
    {
      name: 'should reject when the expressions of a term are not all met',
      labels: { zone: 'a' },
      affinity: required({
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['a'] },
          { key: 'gpu', operator: 'Exists' },
        ],
      }),
      fits: false,
    },
    {
      name: 'should pass when NotIn meets a missing label',
      labels: {},
      affinity: required({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }),
      fits: true,
    },
    {
      name: 'should pass when Gt compares integers',
      labels: { cores: '16' },
      affinity: required({ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] }),
      fits: true,
    },
    {
      name: 'should reject when DoesNotExist meets the label',
      labels: { spot: 'true' },
      affinity: required({ matchExpressions: [{ key: 'spot', operator: 'DoesNotExist' }] }),
      fits: false,
    },
    {
      name: 'should reject when the only term is empty',
      labels: { a: 'b' },
      affinity: required({}),
      fits: false,
    },
    {
      name: 'should match metadata.name through matchFields',
      labels: {},
      affinity: required({
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }],
      }),
      fits: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const snap = snapshotOf([makeNode('n', { labels: c.labels })]);
      const pod = makePod('p', {
        spec: {
          ...(c.nodeSelector ? { nodeSelector: c.nodeSelector } : {}),
          ...(c.affinity ? { affinity: c.affinity } : {}),
        },
      });
      const s = nodeAffinityPlugin.filter(pod, snap.nodes[0]!, undefined, snap);
      expect(s).toEqual(
        c.fits ? { code: 'Success' } : { code: 'UnschedulableAndUnresolvable', reasons: [REASON] },
      );
    });
  }

  it('should skip PreFilter when the pod has neither nodeSelector nor required affinity', () => {
    const snap = snapshotOf([makeNode('n')]);
    expect(nodeAffinityPlugin.preFilter!(makePod('p'), snap).status.code).toBe('Skip');
  });

  it('should narrow the candidates when the required terms pin node names', () => {
    const snap = snapshotOf([makeNode('a'), makeNode('b')]);
    const pod = makePod('p', {
      spec: {
        affinity: required({
          matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }],
        }),
      },
    });
    expect(nodeAffinityPlugin.preFilter!(pod, snap).state).toEqual({ nodeNames: ['b'] });
  });
});

describe('NodeAffinity score', () => {
  it('should sum preferred term weights and normalize to the best node', () => {
    const snap = snapshotOf([
      makeNode('a', { labels: { disktype: 'ssd', zone: 'x' } }),
      makeNode('b', { labels: { disktype: 'ssd' } }),
      makeNode('c'),
    ]);
    const pod = makePod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 80,
                preference: {
                  matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }],
                },
              },
              {
                weight: 20,
                preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] },
              },
            ],
          },
        },
      },
    });
    expect(nodeAffinityPlugin.preScore!(pod, snap.nodes, snap).skip).toBe(false);
    const raw = snap.nodes.map((n) => nodeAffinityPlugin.score(pod, n, undefined, snap));
    expect(raw).toEqual([100, 80, 0]);
    expect(nodeAffinityPlugin.normalize!(raw, snap.nodes, undefined)).toEqual([100, 80, 0]);
  });

  it('should skip scoring when the pod has no preferred terms', () => {
    const snap = snapshotOf([makeNode('a')]);
    expect(nodeAffinityPlugin.preScore!(makePod('p'), snap.nodes, snap).skip).toBe(true);
  });
});
