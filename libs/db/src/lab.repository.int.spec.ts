import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../test/test-database';
import { createPrismaClient } from './prisma-client.factory';
import { createLabDatabase } from './lab-sql';
import {
  findOwnedLab,
  insertLab,
  listLabsNeedingTicks,
  loadCoreState,
  loadLabObjects,
  loadLabStateParts,
  lockLab,
  lockOwnerAndCountLabs,
  persistLabChanges,
  readTraceAfter,
  touchLab,
  type TLabStateUpdate,
} from './lab.repository';

const prisma = createPrismaClient(testDatabaseUrl());
// the lab store's own pool, as the apps run it
const labDb = createLabDatabase(testDatabaseUrl());

function state(over: Partial<TLabStateUpdate> = {}): TLabStateUpdate {
  return {
    revision: 1,
    simTimeMs: 0,
    speed: 1,
    paused: false,
    coreState: '{"core":true}',
    clockAnchorWallMs: 1_764_000_000_000,
    clockAnchorSimMs: 0,
    lastTickWallMs: 1_764_000_000_000,
    quiescent: false,
    nextWakeAtMs: null,
    traceSeqOffset: 0,
    traceSeq: 1,
    commandSeq: 0,
    status: 'ACTIVE',
    ...over,
  };
}

let ownerId = '';

beforeAll(async () => {
  ownerId = `u-${randomUUID()}`;
  await prisma.user.create({
    data: { id: ownerId, email: `${ownerId}@example.test`, passwordHash: 'x', displayName: 'T' },
  });
});

afterAll(async () => {
  await prisma.user.delete({ where: { id: ownerId } });
  await prisma.$disconnect();
  await labDb.end();
});

async function newLab(): Promise<string> {
  const id = `lab-${randomUUID()}`;
  await labDb.transaction((tx) =>
    insertLab(tx, {
      id,
      ownerId,
      kind: 'SANDBOX',
      scenarioId: null,
      seed: 7,
      objects: [
        { key: '/registry/a', value: '{"a":1}', createRevision: 2, modRevision: 2, version: 1 },
        { key: '/registry/b', value: '{"b":1}', createRevision: 3, modRevision: 3, version: 1 },
      ],
      parts: [
        { name: 'host/cp', value: '{"files":null}' },
        { name: 'host/cp/files', value: '{"/etc/a":"x"}' },
      ],
      trace: [{ seq: 1, t: 0, component: 'etcd', verb: 'etcd.put', message: 'put a' }],
      state: state(),
    }),
  );
  return id;
}

describe('lab repository', () => {
  it('should store a lab with its objects and trace when inserted', async () => {
    const id = await newLab();
    const header = await findOwnedLab(labDb, id, ownerId);
    expect(header).toMatchObject({ id, kind: 'SANDBOX', seed: 7, revision: 1, simTimeMs: 0 });
    expect(await findOwnedLab(labDb, id, 'someone-else')).toBeNull();
    expect((await loadLabObjects(labDb, id)).map((o) => o.key)).toEqual([
      '/registry/a',
      '/registry/b',
    ]);
    expect(await listLabsNeedingTicks(labDb)).toContain(id);
  });

  it('should write only the changed keys, drop deleted ones and append trace when persisted', async () => {
    const id = await newLab();
    await labDb.transaction(async (tx) => {
      const row = await lockLab(tx, id, { skipLocked: false });
      expect(row?.revision).toBe(1);
      expect(await loadCoreState(tx, id)).toBe('{"core":true}');
      await persistLabChanges(tx, id, {
        upserts: [
          { key: '/registry/a', value: '{"a":2}', createRevision: 2, modRevision: 4, version: 2 },
          { key: '/registry/c', value: '{"c":1}', createRevision: 5, modRevision: 5, version: 1 },
        ],
        deletes: ['/registry/b'],
        partUpserts: [{ name: 'host/cp/files', value: '{"/etc/a":"y"}' }],
        partDeletes: ['host/cp'],
        trace: [
          {
            seq: 2,
            t: 12,
            component: 'kube-scheduler',
            verb: 'bind',
            object: { kind: 'Pod', namespace: 'default', name: 'p' },
            message: 'bound',
            causedBy: 1,
            data: { node: 'node-1' },
          },
        ],
        command: {
          seq: 1,
          input: 'kubectl get pods',
          stdout: 'No resources found in default namespace.\n',
          stderr: '',
          exitCode: 0,
          simTimeMs: 12,
          wallMs: 3,
        },
        state: state({ revision: 2, simTimeMs: 2 ** 40, traceSeq: 2, commandSeq: 1 }),
      });
    });
    const objects = await loadLabObjects(labDb, id);
    expect(objects).toEqual([
      { key: '/registry/a', value: '{"a":2}', createRevision: 2, modRevision: 4, version: 2 },
      { key: '/registry/c', value: '{"c":1}', createRevision: 5, modRevision: 5, version: 1 },
    ]);
    expect(await loadLabStateParts(labDb, id)).toEqual([
      { name: 'host/cp/files', value: '{"/etc/a":"y"}' },
    ]);
    expect(await readTraceAfter(labDb, id, 1, 100)).toEqual([
      {
        seq: 2,
        t: 12,
        component: 'kube-scheduler',
        verb: 'bind',
        object: { kind: 'Pod', namespace: 'default', name: 'p' },
        message: 'bound',
        causedBy: 1,
        data: { node: 'node-1' },
      },
    ]);
    expect(await findOwnedLab(labDb, id, ownerId)).toMatchObject({
      revision: 2,
      simTimeMs: 2 ** 40,
      commandSeq: 1,
    });
  });

  it('should skip a lab another transaction holds when locking with skipLocked', async () => {
    const id = await newLab();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = labDb.transaction(async (tx) => {
      await lockLab(tx, id, { skipLocked: false });
      locked();
      await held;
    });
    await isLocked;
    const skipped = await labDb.transaction((tx) => lockLab(tx, id, { skipLocked: true }));
    expect(skipped).toBeNull();
    release();
    await holder;
    const got = await labDb.transaction((tx) => lockLab(tx, id, { skipLocked: true }));
    expect(got?.id).toBe(id);
  });

  it('should count the owner labs when locking the owner', async () => {
    const before = await labDb.transaction((tx) => lockOwnerAndCountLabs(tx, ownerId));
    await newLab();
    const after = await labDb.transaction((tx) => lockOwnerAndCountLabs(tx, ownerId));
    expect(after).toBe(before + 1);
  });

  it('should keep timestamps in UTC between the lab pool and Prisma', async () => {
    const id = await newLab();
    const at = new Date('2026-07-01T23:30:00.123Z');
    await touchLab(labDb, id, at);
    expect((await prisma.lab.findUniqueOrThrow({ where: { id } })).lastActiveAt).toEqual(at);
    expect((await findOwnedLab(labDb, id, ownerId))?.lastActiveAt).toEqual(at);
  });

  it('should roll back everything and free the lock when the work throws', async () => {
    const id = await newLab();
    await expect(
      labDb.transaction(async (tx) => {
        await lockLab(tx, id, { skipLocked: false });
        await touchLab(tx, id, new Date('2030-01-01T00:00:00Z'));
        throw new Error('simulated failure');
      }),
    ).rejects.toThrow('simulated failure');
    const row = await labDb.transaction((tx) => lockLab(tx, id, { skipLocked: true }));
    expect(row?.lastActiveAt.getUTCFullYear()).not.toBe(2030);
  });
});
