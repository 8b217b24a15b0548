import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../model';
import { createRng } from '../runtime/rng';
import { milliCpu, intValue } from '../shared/quantity';
import { podRequests } from './framework/resources';
import { scheduleOne } from './framework/schedule-one';
import { DEFAULT_PROFILE } from './plugins/default-plugins';
import { defaultLabNodes, makePod, snapshotOf } from './testing/factories';
import { createPod, createSchedulerLab, podManifest } from './testing/lab-harness';

const requestArb = fc.record({
  cpuM: fc.integer({ min: 0, max: 2500 }),
  memMi: fc.integer({ min: 0, max: 5000 }),
});

function assertWithinAllocatable(nodes: Node[], pods: Pod[]): void {
  for (const node of nodes) {
    const mine = pods.filter((p) => p.spec.nodeName === node.metadata.name);
    const cpu = mine.reduce((s, p) => s + podRequests(p).milliCpu, 0);
    const mem = mine.reduce((s, p) => s + podRequests(p).memory, 0);
    expect(cpu).toBeLessThanOrEqual(milliCpu(node.status?.allocatable?.['cpu']));
    expect(mem).toBeLessThanOrEqual(intValue(node.status?.allocatable?.['memory']));
    expect(mine.length).toBeLessThanOrEqual(intValue(node.status?.allocatable?.['pods']));
  }
}

describe('scheduler properties', () => {
  it('should never let bound requests exceed allocatable when pods are scheduled one by one', () => {
    fc.assert(
      fc.property(fc.array(requestArb, { maxLength: 30 }), fc.integer(), (reqs, seed) => {
        const nodes = defaultLabNodes();
        const bound: Pod[] = [];
        const rng = createRng(seed);
        reqs.forEach((r, i) => {
          const pod = makePod(`p${i}`, {
            ...(r.cpuM ? { cpu: `${r.cpuM}m` } : {}),
            ...(r.memMi ? { memory: `${r.memMi}Mi` } : {}),
          });
          const out = scheduleOne({
            pod,
            snapshot: snapshotOf(nodes, bound),
            profile: DEFAULT_PROFILE,
            rng,
            t: i,
            attempt: 1,
            startIndex: 0,
          });
          if (out.result.kind === 'scheduled') {
            expect(out.result.node).not.toBe('control-plane');
            bound.push({ ...pod, spec: { ...pod.spec, nodeName: out.result.node } });
          }
        });
        assertWithinAllocatable(nodes, bound);
      }),
      { numRuns: 100 },
    );
  });

  it('should never overcommit a node when many pods arrive at once in a lab', () => {
    fc.assert(
      fc.property(
        fc.array(requestArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 1000 }),
        (reqs, seed) => {
          const lab = createSchedulerLab({ seed });
          reqs.forEach((r, i) =>
            createPod(
              lab,
              podManifest(`p${i}`, {
                ...(r.cpuM ? { cpu: `${r.cpuM}m` } : {}),
                ...(r.memMi ? { memory: `${r.memMi}Mi` } : {}),
              }),
            ),
          );
          lab.advance(2000);
          const nodes = lab.peekAll('nodes') as Node[];
          const pods = lab.peekAll('pods', 'default') as Pod[];
          assertWithinAllocatable(nodes, pods);
          // every pod that fits an empty worker node by itself was considered at least once
          expect(
            pods.every(
              (p) =>
                p.spec.nodeName || p.status?.conditions?.some((c) => c.type === 'PodScheduled'),
            ),
          ).toBe(true);
        },
      ),
      { numRuns: 8 },
    );
  }, 60_000);
});
