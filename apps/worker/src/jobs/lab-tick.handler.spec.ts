import type { TLabCommit, TLabHeader, TLabWriteResult } from '@kubejourney/db';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLabTickHandler, type TLabTickDeps } from './lab-tick.handler';

// The tick handler's decisions (publish, keep or drop the scheduler), with the store and the
// queue replaced by recording fakes. The real store is covered by libs/db's integration tests.

const header = (over: Partial<TLabHeader> = {}): TLabHeader => ({
  id: 'lab-1',
  ownerId: 'u',
  kind: 'SANDBOX',
  scenarioId: null,
  status: 'ACTIVE',
  seed: 1,
  simTimeMs: 1_000,
  speed: 1,
  paused: false,
  revision: 5,
  clockAnchorWallMs: 0,
  clockAnchorSimMs: 0,
  lastTickWallMs: 0,
  quiescent: false,
  nextWakeAtMs: 1_010,
  traceSeqOffset: 0,
  traceSeq: 10,
  commandSeq: 0,
  createdAt: new Date(0),
  lastActiveAt: new Date(0),
  ...over,
});

const commit = (needsTicks: boolean): TLabCommit => ({
  revision: 6,
  simTimeMs: 1_250,
  events: [{ seq: 11, t: 1_200, component: 'kubelet', verb: 'x', message: 'y' }],
  objectsChanged: true,
  needsTicks,
  header: header({ revision: 6, quiescent: !needsTicks }),
});

function fakes(written: TLabWriteResult<number>, stored: TLabHeader | null) {
  const calls: string[] = [];
  const deps: TLabTickDeps = {
    store: { write: async () => written as never },
    findLab: async () => stored,
    scheduler: {
      arm: async (id) => void calls.push(`arm ${id}`),
      disarm: async (id) => void calls.push(`disarm ${id}`),
    },
    publish: async (id, notice) =>
      void calls.push(`publish ${id} ${notice.type === 'changed' ? notice.revision : ''}`),
    logger: pino({ level: 'silent' }),
  };
  return { deps, calls };
}

describe('lab tick handler', () => {
  it.each([
    [
      'publish and keep ticking when the lab still converges',
      { kind: 'ok', result: 250, commit: commit(true) } as const,
      header(),
      {
        outcome: 'ticked',
        advancedMs: 250,
        revision: 6,
        simTimeMs: 1_250,
        events: 1,
        needsTicks: true,
      },
      ['publish lab-1 6'],
    ],
    [
      'publish and drop the scheduler when the lab became quiescent',
      { kind: 'ok', result: 250, commit: commit(false) } as const,
      header({ quiescent: true }),
      {
        outcome: 'ticked',
        advancedMs: 250,
        revision: 6,
        simTimeMs: 1_250,
        events: 1,
        needsTicks: false,
      },
      ['publish lab-1 6', 'disarm lab-1'],
    ],
    [
      're-arm after dropping when a command made the lab converge again meanwhile',
      { kind: 'ok', result: 250, commit: commit(false) } as const,
      header({ quiescent: false, revision: 7 }),
      {
        outcome: 'ticked',
        advancedMs: 250,
        revision: 6,
        simTimeMs: 1_250,
        events: 1,
        needsTicks: false,
      },
      ['publish lab-1 6', 'disarm lab-1', 'arm lab-1'],
    ],
    [
      'write nothing and drop the scheduler when the lab is paused',
      { kind: 'ok', result: 0, commit: null } as const,
      header({ paused: true }),
      { outcome: 'stopped' },
      ['disarm lab-1'],
    ],
    [
      'write nothing and keep the scheduler when a retried tick finds the lab at its target',
      { kind: 'ok', result: 0, commit: null } as const,
      header(),
      { outcome: 'unchanged' },
      [],
    ],
    [
      'skip a lab another writer holds',
      { kind: 'busy' } as const,
      header(),
      { outcome: 'busy' },
      [],
    ],
    [
      'drop the scheduler of a deleted lab',
      { kind: 'busy' } as const,
      null,
      { outcome: 'gone' },
      ['disarm lab-1'],
    ],
  ])('should %s', async (_name, written, stored, outcome, calls) => {
    const f = fakes(written, stored);
    const handler = createLabTickHandler(f.deps);
    expect(await handler.handle({ labId: 'lab-1' })).toEqual(outcome);
    expect(f.calls).toEqual(calls);
  });
});

describe('lab tick affinity', () => {
  const ok = { kind: 'ok', result: 250, commit: commit(true) } as const;
  const withAffinity = (last: { worker: string; atMs: number } | null | 'redis down') => {
    const f = fakes(ok, header());
    f.deps.affinity = {
      self: 'w-1',
      lastTicker: async () => {
        if (last === 'redis down') throw new Error('Connection is closed.');
        return last;
      },
      recordTick: async (id) => void f.calls.push(`ticked-by-me ${id}`),
      now: () => 10_000,
    };
    return f;
  };

  it.each([
    ['tick a lab nobody ticked yet, and record it', null, 'ticked'],
    ['tick a lab it ticked last', { worker: 'w-1', atMs: 9_900 }, 'ticked'],
    [
      'leave a lab to the worker that ticked it just now',
      { worker: 'w-2', atMs: 9_000 },
      'deferred',
    ],
    ['take over a lab whose worker stopped ticking it', { worker: 'w-2', atMs: 8_400 }, 'ticked'],
    ['tick anyway when Redis cannot say who ticked last', 'redis down', 'ticked'],
  ] as const)('should %s', async (_name, last, outcome) => {
    const f = withAffinity(last);
    const result = await createLabTickHandler(f.deps).handle({ labId: 'lab-1' });
    expect(result.outcome).toBe(outcome);
    expect(f.calls.includes('ticked-by-me lab-1')).toBe(outcome === 'ticked');
  });
});
