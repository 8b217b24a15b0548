import { describe, expect, it } from 'vitest';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import { nodePortsPlugin } from './node-ports.plugin';

describe('NodePorts filter', () => {
  const cases: { name: string; used?: number; wanted?: number; fits: boolean }[] = [
    { name: 'should pass when the node has no host ports in use', wanted: 8080, fits: true },
    { name: 'should pass when another host port is in use', used: 9090, wanted: 8080, fits: true },
    {
      name: 'should reject when the same host port is in use',
      used: 8080,
      wanted: 8080,
      fits: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const bound = c.used
        ? [makePod('other', { nodeName: 'n', hostPort: c.used, phase: 'Running' })]
        : [];
      const snap = snapshotOf([makeNode('n')], bound);
      const pod = makePod('p', { hostPort: c.wanted });
      const pre = nodePortsPlugin.preFilter!(pod, snap);
      expect(nodePortsPlugin.filter(pod, snap.nodes[0]!, pre.state, snap)).toEqual(
        c.fits
          ? { code: 'Success' }
          : {
              code: 'Unschedulable',
              reasons: ["node(s) didn't have free ports for the requested pod ports"],
            },
      );
    });
  }

  it('should ignore a finished pod when it held the port', () => {
    const snap = snapshotOf(
      [makeNode('n')],
      [makePod('done', { nodeName: 'n', hostPort: 80, phase: 'Succeeded' })],
    );
    const pod = makePod('p', { hostPort: 80 });
    expect(nodePortsPlugin.filter(pod, snap.nodes[0]!, undefined, snap).code).toBe('Success');
  });

  it('should skip PreFilter when the pod wants no host port', () => {
    const snap = snapshotOf([makeNode('n')]);
    expect(nodePortsPlugin.preFilter!(makePod('p'), snap).status.code).toBe('Skip');
  });
});
