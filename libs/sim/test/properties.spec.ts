// Property tests (fast-check) over whole labs: determinism, lossless serialize/restore,
// scheduling never overcommits a node, and Deployments that fit converge.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLab, restoreLab } from '../src/lab/lab';
import type { SimLab } from '../src/lab/lab';
import type { Node, Pod } from '../src/model';
import { intValue, milliCpu } from '../src/shared/quantity';
import { startComponent, stopComponent } from '../src/faults/faults';
import type { ProcessRef } from '../src/lab/lab-types';
import { ADMIN, advanceUntil, deployment, isReadyRunning, pods, service } from './journey-helpers';

type Action =
  | { kind: 'deploy'; name: string; replicas: number }
  | { kind: 'scale'; name: string; replicas: number }
  | { kind: 'deletePod'; index: number }
  | { kind: 'wait'; ms: number };

const name = fc.constantFrom('web', 'api', 'cache');
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('deploy' as const),
    name,
    replicas: fc.integer({ min: 0, max: 4 }),
  }),
  fc.record({
    kind: fc.constant('scale' as const),
    name,
    replicas: fc.integer({ min: 0, max: 4 }),
  }),
  fc.record({ kind: fc.constant('deletePod' as const), index: fc.nat(10) }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
);

function apply(lab: SimLab, a: Action): void {
  switch (a.kind) {
    case 'deploy':
      lab.request(ADMIN, {
        verb: 'create',
        resource: 'deployments',
        namespace: 'default',
        body: deployment(a.name, a.replicas),
      });
      break;
    case 'scale':
      lab.request(ADMIN, {
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: a.name,
        patchType: 'merge',
        body: { spec: { replicas: a.replicas } },
      });
      break;
    case 'deletePod': {
      const all = pods(lab).sort((x, y) => (x.metadata.name! < y.metadata.name! ? -1 : 1));
      const p = all[a.index % Math.max(1, all.length)];
      if (p)
        lab.request(ADMIN, {
          verb: 'delete',
          resource: 'pods',
          namespace: 'default',
          name: p.metadata.name,
        });
      break;
    }
    case 'wait':
      lab.advance(a.ms);
      break;
  }
}

function run(seed: number, actions: Action[]): SimLab {
  const lab = createLab({ seed });
  lab.advance(2_000);
  for (const a of actions) apply(lab, a);
  lab.advance(2_000);
  return lab;
}

describe('simulator properties', () => {
  it('should give the same trace and state when the seed and inputs are the same', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(action, { maxLength: 5 }),
        (seed, actions) => {
          expect(run(seed, actions).serialize()).toBe(run(seed, actions).serialize());
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);

  it('should advance a restored lab exactly like the original', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(action, { maxLength: 4 }),
        fc.integer({ min: 0, max: 8_000 }),
        (seed, actions, after) => {
          const a = run(seed, actions);
          const b = restoreLab(a.serialize());
          a.advance(after);
          b.advance(after);
          expect(b.etcd.toJSON()).toEqual(a.etcd.toJSON());
          expect(JSON.stringify(b.trace())).toBe(JSON.stringify(a.trace()));
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);

  it('should act exactly as the original when restored between any two steps, faults included', () => {
    // Labs are saved and restored all the time at runtime, also while a learner has stopped a
    // component: a restored lab must not act otherwise than one that never was (components whose
    // watch lagged behind, or that relist while the apiserver is stopped, included). One case
    // is known to differ and is not reached by this fixed sample: a component that had not read
    // since the apiserver restarted (its watch history is gone), restored while the apiserver is
    // stopped again, lists the cluster as it is instead of as it last saw it.
    const ref = fc.constantFrom<ProcessRef>(
      { component: 'kube-apiserver' },
      { component: 'kube-controller-manager' },
      { component: 'kube-scheduler' },
      { component: 'kubelet', node: 'node-2' },
      { component: 'kube-proxy', node: 'node-1' },
    );
    const step = fc.oneof(
      action,
      fc.record({ kind: fc.constant('service' as const), name }),
      fc.record({ kind: fc.constant('stop' as const), ref }),
      fc.record({ kind: fc.constant('start' as const), ref }),
      fc.record({ kind: fc.constant('restore' as const) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(step, { minLength: 3, maxLength: 10 }),
        (seed, steps) => {
          const original = createLab({ seed });
          let restored = createLab({ seed });
          for (const lab of [original, restored]) lab.advance(2_000);
          for (const s of steps) {
            if (s.kind === 'restore') {
              restored = restoreLab(restored.serialize());
              continue;
            }
            for (const lab of [original, restored]) {
              if (s.kind === 'stop') stopComponent(lab, s.ref);
              else if (s.kind === 'start') startComponent(lab, s.ref);
              else if (s.kind === 'service')
                lab.request(ADMIN, {
                  verb: 'create',
                  resource: 'services',
                  namespace: 'default',
                  body: service(s.name, s.name),
                });
              else apply(lab, s);
              lab.advance(400);
            }
          }
          for (const lab of [original, restored]) lab.advance(15_000);
          // the same state and trace (by value: a restored object may list its fields in
          // another order)
          expect(JSON.parse(restored.serialize())).toEqual(JSON.parse(original.serialize()));
        },
      ),
      // a fixed sample, so CI is deterministic; scripts/sim-restore-fuzz.ts explores further
      { numRuns: 8, seed: 1 },
    );
  }, 180_000);

  it('should never bind more requests to a node than it can allocate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(
          fc.record({
            cpu: fc.integer({ min: 100, max: 1_500 }),
            mem: fc.integer({ min: 64, max: 2_048 }),
            replicas: fc.integer({ min: 1, max: 4 }),
          }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        (seed, workloads) => {
          const lab = createLab({ seed });
          lab.advance(2_000);
          workloads.forEach((w, i) =>
            lab.request(ADMIN, {
              verb: 'create',
              resource: 'deployments',
              namespace: 'default',
              body: deployment(`w${i}`, w.replicas, 'nginx:1.27', {
                cpu: `${w.cpu}m`,
                memory: `${w.mem}Mi`,
              }),
            }),
          );
          lab.advance(6_000);
          for (const node of lab.peekAll('nodes') as Node[]) {
            const bound = (lab.peekAll('pods') as Pod[]).filter(
              (p) => p.spec.nodeName === node.metadata.name,
            );
            const sum = (res: 'cpu' | 'memory') =>
              bound.reduce(
                (acc, p) =>
                  acc +
                  p.spec.containers.reduce(
                    (s, c) =>
                      s +
                      (res === 'cpu'
                        ? milliCpu(c.resources?.requests?.cpu ?? 0)
                        : intValue(c.resources?.requests?.memory ?? 0)),
                    0,
                  ),
                0,
              );
            expect(sum('cpu')).toBeLessThanOrEqual(
              milliCpu(node.status?.allocatable?.['cpu'] ?? '0'),
            );
            expect(sum('memory')).toBeLessThanOrEqual(
              intValue(node.status?.allocatable?.['memory'] ?? '0'),
            );
          }
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);

  it('should converge a Deployment whose pods fit to spec.replicas ready pods', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        (seed, first, second) => {
          const lab = createLab({ seed });
          lab.advance(2_000);
          lab.request(ADMIN, {
            verb: 'create',
            resource: 'deployments',
            namespace: 'default',
            body: deployment('web', first),
          });
          lab.advance(1_000);
          lab.request(ADMIN, {
            verb: 'patch',
            resource: 'deployments',
            namespace: 'default',
            name: 'web',
            patchType: 'merge',
            body: { spec: { replicas: second } },
          });
          const took = advanceUntil(
            lab,
            () => {
              const live = pods(lab).filter((p) => !p.metadata.deletionTimestamp);
              return live.length === second && live.every(isReadyRunning);
            },
            60_000,
            250,
          );
          expect(took).not.toBeNull();
        },
      ),
      { numRuns: 4 },
    );
  }, 180_000);
});
