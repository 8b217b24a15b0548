import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../model';
import { makeNode, makePod } from '../testing/factories';
import type { NodeInfo } from './node-info';
import { buildSnapshot, registerPodCounter } from './node-info';
import { SnapshotCache } from './snapshot-cache';

const NODE_NAMES = ['a', 'b', 'c'];

const podArb = fc.record({
  name: fc.constantFrom('p0', 'p1', 'p2', 'p3', 'p4', 'p5'),
  node: fc.option(fc.constantFrom(...NODE_NAMES, 'gone'), { nil: undefined }),
  cpuM: fc.option(fc.integer({ min: 1, max: 3000 }), { nil: undefined }),
  memMi: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }),
  gpus: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
  // Pi and Ei requests take the cache off its running sums (past 2^53 they are not exact)
  memUnit: fc.constantFrom('Mi', 'Mi', 'Pi', 'Ei'),
  hostPort: fc.option(fc.constantFrom(80, 443), { nil: undefined }),
  phase: fc.constantFrom<'Pending' | 'Running' | 'Succeeded'>('Pending', 'Running', 'Succeeded'),
  app: fc.constantFrom('web', 'db'),
  deleting: fc.boolean(),
});

type PodArb = typeof podArb extends fc.Arbitrary<infer T> ? T : never;

const opArb = fc.oneof(
  { arbitrary: podArb.map((p) => ({ kind: 'pod' as const, p })), weight: 6 },
  {
    arbitrary: fc.constantFrom('p0', 'p1', 'p2').map((name) => ({ kind: 'delete' as const, name })),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      name: fc.constantFrom(...NODE_NAMES),
      present: fc.boolean(),
      cpu: fc.constantFrom('2', '4'),
    }),
    weight: 1,
  },
);

function podOf(p: PodArb): Pod {
  const pod = makePod(p.name, {
    ...(p.node ? { nodeName: p.node } : {}),
    labels: { app: p.app },
  });
  const requests: Record<string, string> = {};
  if (p.cpuM) requests['cpu'] = `${p.cpuM}m`;
  if (p.memMi)
    requests['memory'] = `${p.memUnit === 'Mi' ? p.memMi : (p.memMi % 7) + 1}${p.memUnit}`;
  if (p.gpus) requests['nvidia.com/gpu'] = String(p.gpus);
  const container = {
    name: 'app',
    image: 'nginx:1.27',
    resources: { requests },
    ...(p.hostPort ? { ports: [{ containerPort: 80, hostPort: p.hostPort }] } : {}),
  };
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      ...(p.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { ...pod.spec, containers: [container] },
    status: { phase: p.phase },
  };
}

/** Everything a NodeInfo says, minus the memo. */
function view(info: NodeInfo): unknown {
  return {
    name: info.name,
    node: info.node,
    unschedulable: info.unschedulable,
    taints: info.taints,
    labels: info.labels,
    pods: info.pods,
    requested: info.requested,
    nonZeroRequested: info.nonZeroRequested,
    allocatable: info.allocatable,
    allowedPodNumber: info.allowedPodNumber,
    usedPorts: info.usedPorts,
    numPods: info.numPods,
    allocatableMilliCpu: info.allocatableMilliCpu,
    allocatableMemory: info.allocatableMemory,
    requestedMilliCpu: info.requestedMilliCpu,
    requestedMemory: info.requestedMemory,
    nonZeroMilliCpu: info.nonZeroMilliCpu,
    nonZeroMemory: info.nonZeroMemory,
    imageStates: [...info.imageStates.entries()],
  };
}

const countsApp = (app: string) => (p: Pod) =>
  !p.metadata.deletionTimestamp && p.metadata.labels?.['app'] === app;

// Keys with a counter are carried over as pods come and go; the others are dropped and recounted.
registerPodCounter('counted:app=web', countsApp('web'));
registerPodCounter('counted:app=db', countsApp('db'));

/** A memoized count must still be right: NodeInfos share the memo only while it holds. */
function checkSelectorCounts(info: NodeInfo): void {
  for (const app of ['web', 'db']) {
    const count = info.pods.filter(countsApp(app)).length;
    for (const key of [`app=${app}`, `counted:app=${app}`]) {
      const memo = info.selectorCounts.get(key);
      if (memo !== undefined) expect(memo).toBe(count);
      else info.selectorCounts.set(key, count);
    }
  }
}

describe('SnapshotCache', () => {
  it('should give the snapshot a rebuild from scratch gives when pods and nodes change one by one', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const cache = new SnapshotCache();
        const nodes = new Map<string, Node>();
        const pods = new Map<string, Pod>();
        for (const name of NODE_NAMES) {
          const node = makeNode(name, { images: [{ names: ['nginx:1.27'], sizeBytes: 1e8 }] });
          nodes.set(name, node);
          cache.setNode(name, node);
        }
        for (const op of ops) {
          if (op.kind === 'pod') {
            const pod = podOf(op.p);
            pods.set(`default/${op.p.name}`, pod);
            cache.setPod(`default/${op.p.name}`, pod);
          } else if (op.kind === 'delete') {
            pods.delete(`default/${op.name}`);
            cache.setPod(`default/${op.name}`, undefined);
          } else {
            const node = op.present ? makeNode(op.name, { cpu: op.cpu }) : undefined;
            if (node) nodes.set(op.name, node);
            else nodes.delete(op.name);
            cache.setNode(op.name, node);
          }
          const got = cache.snapshot({ services: [], replicaSets: [] });
          const want = buildSnapshot([...nodes.values()], [...pods.values()]);
          expect(got.nodes.map(view)).toEqual(want.nodes.map(view));
          got.nodes.forEach(checkSelectorCounts);
        }
      }),
    );
  });
});
