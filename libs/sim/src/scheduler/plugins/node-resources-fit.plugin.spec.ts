import { describe, expect, it } from 'vitest';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import { leastAllocatedScore, nodeResourcesFitPlugin } from './node-resources-fit.plugin';

describe('NodeResourcesFit filter', () => {
  const cases: {
    name: string;
    node?: { cpu?: string; memory?: string; pods?: string };
    bound?: { cpu?: string; memory?: string }[];
    pod: { cpu?: string; memory?: string };
    want: unknown;
  }[] = [
    {
      name: 'should pass when requests fit in an empty node',
      pod: { cpu: '1', memory: '1Gi' },
      want: { code: 'Success' },
    },
    {
      name: 'should report Insufficient cpu when the cpu request exceeds what is left',
      bound: [{ cpu: '1500m' }],
      pod: { cpu: '600m' },
      want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] },
    },
    {
      name: 'should pass when the request equals exactly what is left',
      bound: [{ cpu: '1500m' }],
      pod: { cpu: '500m' },
      want: { code: 'Success' },
    },
    {
      name: 'should stay Unschedulable (v1.32) when the request exceeds the whole node',
      pod: { cpu: '10' },
      want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] },
    },
    {
      name: 'should report every missing resource when cpu and memory are short',
      pod: { cpu: '3', memory: '5Gi' },
      want: { code: 'Unschedulable', reasons: ['Insufficient cpu', 'Insufficient memory'] },
    },
    {
      name: 'should report Too many pods when the pod count is at allocatable',
      node: { pods: '1' },
      bound: [{}],
      pod: {},
      want: { code: 'Unschedulable', reasons: ['Too many pods'] },
    },
    {
      name: 'should list Too many pods first when resources are short as well',
      node: { pods: '1' },
      bound: [{ memory: '4Gi' }],
      pod: { memory: '1Mi' },
      want: { code: 'Unschedulable', reasons: ['Too many pods', 'Insufficient memory'] },
    },
    {
      name: 'should pass a pod without requests when only the pod count matters',
      bound: [{ cpu: '2', memory: '4Gi' }],
      pod: {},
      want: { code: 'Success' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const bound = (c.bound ?? []).map((b, i) =>
        makePod(`b${i}`, { ...b, nodeName: 'n', phase: 'Running' }),
      );
      const snap = snapshotOf([makeNode('n', c.node ?? {})], bound);
      const pod = makePod('p', c.pod);
      const pre = nodeResourcesFitPlugin.preFilter!(pod, snap);
      expect(nodeResourcesFitPlugin.filter(pod, snap.nodes[0]!, pre.state, snap)).toEqual(c.want);
    });
  }

  it('should count the largest init container when it exceeds the app containers', () => {
    const snap = snapshotOf([makeNode('n')]);
    const pod = makePod('p', {
      cpu: '100m',
      spec: {
        initContainers: [
          { name: 'init', image: 'busybox', resources: { requests: { cpu: '2500m' } } },
        ],
      },
    });
    const pre = nodeResourcesFitPlugin.preFilter!(pod, snap);
    expect(nodeResourcesFitPlugin.filter(pod, snap.nodes[0]!, pre.state, snap)).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient cpu'],
    });
  });
});

describe('NodeResourcesFit score (LeastAllocated)', () => {
  const cases: {
    name: string;
    bound: { cpu?: string; memory?: string }[];
    pod: { cpu?: string; memory?: string };
    want: number;
  }[] = [
    {
      name: 'should score 75 when a quarter of an empty node is requested',
      bound: [],
      pod: { cpu: '500m', memory: '1Gi' },
      want: 75,
    },
    {
      name: 'should score 25 when the node is already half full',
      bound: [{ cpu: '1', memory: '2Gi' }],
      pod: { cpu: '500m', memory: '1Gi' },
      want: 25,
    },
    {
      name: 'should use 100m/200Mi defaults when the pod states no requests',
      bound: [],
      pod: {},
      want: 95,
    },
    {
      name: 'should count request-less bound pods with the defaults too',
      bound: [{}],
      pod: {},
      want: 90,
    },
    {
      name: 'should score 0 when requests exceed allocatable',
      bound: [],
      pod: { cpu: '3', memory: '5Gi' },
      want: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const bound = c.bound.map((b, i) =>
        makePod(`b${i}`, { ...b, nodeName: 'n', phase: 'Running' }),
      );
      const snap = snapshotOf([makeNode('n')], bound);
      expect(leastAllocatedScore(makePod('p', c.pod), snap.nodes[0]!)).toBe(c.want);
    });
  }
});
