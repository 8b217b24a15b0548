import { randomUUID } from 'node:crypto';
import { createLab, restoreLab, runCommandLine, type SimLab } from '@kubejourney/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../test/test-database';
import { createPrismaClient } from './prisma-client.factory';
import { createLabDatabase } from './lab-sql';
import { findLabHeader, loadLabObjects, loadLabStateParts, readTraceAfter } from './lab.repository';
import { mergeLabSnapshot } from './lab-snapshot';
import { LAB_TERMINAL_PART, LabStore, type LabWriteContext, type TLabEngine } from './lab-store';

const prisma = createPrismaClient(testDatabaseUrl());
// the lab store's own pool, as the apps run it
const labDb = createLabDatabase(testDatabaseUrl());
let wall = 1_764_000_000_000;
const restores: string[] = [];

const engine: TLabEngine<SimLab> = {
  create: (b) => (b.kind === 'SANDBOX' ? createLab({ seed: b.seed }) : null),
  restore: (text) => {
    restores.push(text);
    return restoreLab(text);
  },
  replayCommand: (lab, command, terminalState, advance) =>
    runCommandLine(lab, command.input, advance, terminalState).terminalState,
};

/** What `POST /exec` does in a write: catch up, run the line, record it. */
function exec(ctx: LabWriteContext<SimLab>, line: string): string {
  ctx.catchUp();
  const out = runCommandLine(ctx.lab, line, (ms) => ctx.advance(ms), ctx.terminalState);
  ctx.terminalState = out.terminalState;
  ctx.recordCommand({
    input: line,
    stdout: out.stdout,
    stderr: out.stderr,
    exitCode: out.exitCode,
    simTimeMs: ctx.lab.now,
    wallMs: 0,
  });
  return out.stdout;
}

function newStore(): LabStore<SimLab> {
  return new LabStore(labDb, engine, {
    maxCatchUpMs: 60_000,
    restoreTraceEvents: 10_000,
    cacheSize: 10,
    now: () => wall,
  });
}

let ownerId = '';

beforeAll(async () => {
  ownerId = `u-${randomUUID()}`;
  await prisma.user.create({
    data: { id: ownerId, email: `${ownerId}@example.test`, passwordHash: 'x', displayName: 'T' },
  });
});

afterAll(async () => {
  await prisma.user.deleteMany({ where: { id: ownerId } });
  await prisma.$disconnect();
  await labDb.end();
});

const sandbox = { kind: 'SANDBOX' as const, scenarioId: null, seed: 11 };

async function createOne(store: LabStore<SimLab>): Promise<string> {
  const created = await store.create(ownerId, sandbox, 100);
  if (created.kind !== 'ok') throw new Error(created.kind);
  return created.header.id;
}

/**
 * What the database holds, merged back into the simulator's serialized form. (Compared as data:
 * jsonb keeps trace `data` objects with its own key order.)
 */
async function storedSerialization(labId: string): Promise<string> {
  const row = await prisma.lab.findUniqueOrThrow({ where: { id: labId } });
  const [objects, parts] = await Promise.all([
    loadLabObjects(labDb, labId),
    loadLabStateParts(labDb, labId),
  ]);
  const trace = await readTraceAfter(labDb, labId, 0, 1_000_000);
  return mergeLabSnapshot(row.coreState, parts, objects, trace);
}

describe('LabStore', () => {
  it('should store exactly the lab it created when created', async () => {
    const store = newStore();
    const id = await createOne(store);
    const header = await findLabHeader(labDb, id);
    expect(header).toMatchObject({ revision: 1, status: 'ACTIVE', speed: 1, paused: false });
    expect(JSON.parse(await storedSerialization(id))).toEqual(
      JSON.parse(createLab({ seed: 11 }).serialize()),
    );
  });

  it('should advance by wall time, persist every change and restore identically', async () => {
    const store = newStore();
    const id = await createOne(store);
    wall += 1_000;
    const result = await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(result).toMatchObject({ kind: 'ok', result: 1_000 });
    const reference = createLab({ seed: 11 });
    reference.advance(0);
    reference.advance(1_000);
    reference.advance(0);
    expect(JSON.parse(await storedSerialization(id))).toEqual(JSON.parse(reference.serialize()));
    expect(await findLabHeader(labDb, id)).toMatchObject({ revision: 2, simTimeMs: 1_000 });
  });

  it('should reuse the cached instance when nobody else wrote, and restore when someone changed the lab', async () => {
    const store = newStore();
    const other = newStore();
    const id = await createOne(store);
    restores.length = 0;
    wall += 250;
    await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(restores).toHaveLength(0);
    wall += 250;
    await other.write(id, { skipLocked: false }, (ctx) => {
      ctx.catchUp();
      ctx.isMutated = true;
      ctx.lab.request('kubernetes-admin', {
        verb: 'create',
        resource: 'namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'elsewhere' } },
      });
    });
    expect(restores).toHaveLength(1);
    wall += 250;
    const seen = await store.write(id, { skipLocked: true }, (ctx) => {
      ctx.catchUp();
      return ctx.lab.peek('namespaces', undefined, 'elsewhere') !== undefined;
    });
    expect(restores).toHaveLength(2);
    expect(seen).toMatchObject({ kind: 'ok', result: true });
    expect(await findLabHeader(labDb, id)).toMatchObject({ revision: 4, simTimeMs: 750 });
  });

  it("should bring its cached instance up to another process's ticks without restoring, and store the same lab", async () => {
    const store = newStore();
    const worker = newStore();
    const id = await createOne(store);
    restores.length = 0;
    for (let i = 0; i < 3; i++) {
      wall += 250;
      await worker.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    }
    expect(restores).toHaveLength(1);
    wall += 250;
    await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(restores).toHaveLength(1);
    expect(await findLabHeader(labDb, id)).toMatchObject({ revision: 5, simTimeMs: 1_000 });
    // the same lab as one advanced tick by tick in a single process
    const reference = createLab({ seed: 11 });
    reference.advance(0);
    for (let i = 0; i < 4; i++) reference.advance(250);
    expect(JSON.parse(await storedSerialization(id))).toEqual(JSON.parse(reference.serialize()));
  });

  it("should run another process's command again instead of restoring, and store the same lab", async () => {
    const api = newStore();
    const worker = newStore();
    const id = await createOne(api);
    restores.length = 0;
    wall += 250;
    await worker.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(restores).toHaveLength(1); // the worker's first look at the lab
    wall += 300;
    await api.write(id, { skipLocked: false }, (ctx) =>
      exec(ctx, 'kubectl create deployment web --image=nginx:1.27 --replicas=2'),
    );
    wall += 250;
    const ticked = await worker.write(id, { skipLocked: true }, (ctx) => {
      ctx.catchUp();
      return ctx.lab.peek('deployments', 'default', 'web') !== undefined;
    });
    expect(ticked).toMatchObject({ kind: 'ok', result: true });
    expect(restores).toHaveLength(1);
    // (the replay is checked against the rows it wrote: core text, keyspace and parts digests)
    expect(await findLabHeader(labDb, id)).toMatchObject({ revision: 4, commandSeq: 1 });

    // a command that lets time pass itself cannot be placed in time: the worker restores
    wall += 250;
    await api.write(id, { skipLocked: false }, (ctx) => exec(ctx, 'sleep 1'));
    wall += 250;
    await worker.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(restores).toHaveLength(2);
    // several commands in a row are run again one after the other, the shell's state carried
    wall += 100;
    await api.write(id, { skipLocked: false }, (ctx) => exec(ctx, 'cd /tmp'));
    wall += 100;
    await api.write(id, { skipLocked: false }, (ctx) =>
      exec(ctx, 'kubectl scale deployment web --replicas=3'),
    );
    wall += 100;
    await api.write(id, { skipLocked: false }, (ctx) => exec(ctx, 'pwd'));
    wall += 250;
    const scaled = await worker.write(id, { skipLocked: true }, (ctx) => {
      ctx.catchUp();
      return [ctx.lab.peek('deployments', 'default', 'web')?.spec?.replicas, ctx.terminalState];
    });
    expect(restores).toHaveLength(2);
    expect(scaled).toMatchObject({ kind: 'ok', result: [3, expect.stringContaining('/tmp')] });
    // but not when a write in between was no command (here: a clock change)
    wall += 100;
    await api.write(id, { skipLocked: false }, (ctx) => exec(ctx, 'kubectl get pods'));
    wall += 100;
    await api.write(id, { skipLocked: false }, (ctx) => ctx.changeClock({ speed: 2 }));
    wall += 250;
    await worker.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(restores).toHaveLength(3);
  });

  it('should restore when another process changed only what the lab does not hold (the terminal)', async () => {
    const store = newStore();
    const id = await createOne(store);
    restores.length = 0;
    await newStore().write(id, { skipLocked: false }, (ctx) => {
      ctx.terminalState = '{"cwd":"/root"}';
    });
    expect(restores).toHaveLength(1);
    const seen = await store.write(id, { skipLocked: false }, (ctx) => ctx.terminalState);
    expect(restores).toHaveLength(2);
    expect(seen).toMatchObject({ kind: 'ok', result: '{"cwd":"/root"}', commit: null });
  });

  it('should write nothing when a retried tick finds the lab already at its target', async () => {
    const store = newStore();
    const id = await createOne(store);
    wall += 500;
    await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    const again = await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(again).toEqual({ kind: 'ok', result: 0, commit: null });
    expect(await findLabHeader(labDb, id)).toMatchObject({ revision: 2, simTimeMs: 500 });
  });

  it('should keep the clock still while paused and move exactly the step when stepped', async () => {
    const store = newStore();
    const id = await createOne(store);
    await store.write(id, { skipLocked: false }, (ctx) => ctx.changeClock({ paused: true }));
    wall += 5_000;
    const tick = await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(tick).toEqual({ kind: 'ok', result: 0, commit: null });
    await store.write(id, { skipLocked: false }, (ctx) => ctx.step(2_000));
    wall += 5_000;
    await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(await findLabHeader(labDb, id)).toMatchObject({ simTimeMs: 2_000, paused: true });
  });

  it('should run four times as fast at speed 4', async () => {
    const store = newStore();
    const id = await createOne(store);
    await store.write(id, { skipLocked: false }, (ctx) => ctx.changeClock({ speed: 4 }));
    wall += 1_500;
    await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(await findLabHeader(labDb, id)).toMatchObject({ simTimeMs: 6_000, speed: 4 });
  });

  it('should persist the keys a request wrote when the act mutated the lab', async () => {
    const store = newStore();
    const id = await createOne(store);
    const result = await store.write(id, { skipLocked: false, ownerId }, (ctx) => {
      ctx.isMutated = true;
      return ctx.lab.request('kubernetes-admin', {
        verb: 'create',
        resource: 'namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      }).code;
    });
    expect(result.kind === 'ok' && result.result).toBe(201);
    expect(result.kind === 'ok' && result.commit?.objectsChanged).toBe(true);
    const keys = (await loadLabObjects(labDb, id)).map((o) => o.key);
    expect(keys).toContain('/registry/namespaces/shop');
    const trace = await readTraceAfter(labDb, id, 0, 10_000);
    expect(trace.map((e) => e.seq)).toEqual(trace.map((_e, i) => i + 1));
  });

  it('should persist what an etcd snapshot restore put back and took away', async () => {
    const store = newStore();
    const id = await createOne(store);
    const createNamespace = (ctx: { lab: SimLab; isMutated: boolean }, name: string) => {
      ctx.isMutated = true;
      ctx.lab.request('kubernetes-admin', {
        verb: 'create',
        resource: 'namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      });
    };
    let saved: ReturnType<SimLab['snapshotSave']> | undefined;
    await store.write(id, { skipLocked: false }, (ctx) => {
      createNamespace(ctx, 'before');
      saved = ctx.lab.snapshotSave();
    });
    wall += 500;
    await store.write(id, { skipLocked: false }, (ctx) => {
      ctx.catchUp();
      createNamespace(ctx, 'after');
    });
    // the restore deletes "after" and rewrites every key with its old revision
    wall += 500;
    await store.write(id, { skipLocked: false }, (ctx) => {
      ctx.catchUp();
      ctx.lab.snapshotRestore(saved!);
      ctx.isMutated = true;
    });
    const keys = (await loadLabObjects(labDb, id)).map((o) => o.key);
    expect(keys).toContain('/registry/namespaces/before');
    expect(keys).not.toContain('/registry/namespaces/after');
    // what the database holds is exactly the lab in memory (a fresh process restores that)
    const live = await store.write(id, { skipLocked: false }, (ctx) => ctx.lab.serialize());
    const stored = JSON.parse(await storedSerialization(id)) as { etcd: unknown };
    expect(live.kind === 'ok' && JSON.parse(live.result).etcd).toEqual(stored.etcd);
  });

  it('should keep the terminal part through ticks and restores and drop it on reset', async () => {
    const store = newStore();
    const id = await createOne(store);
    const terminalPart = async () =>
      (await loadLabStateParts(labDb, id)).find((p) => p.name === LAB_TERMINAL_PART)?.value;
    const saved = await store.write(id, { skipLocked: false, ownerId }, (ctx) => {
      ctx.terminalState = '{"cwd":"/etc"}';
    });
    expect(saved).toMatchObject({ kind: 'ok', commit: { revision: 2 } });
    expect(await terminalPart()).toBe('{"cwd":"/etc"}');
    wall += 5_000;
    await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    expect(await terminalPart()).toBe('{"cwd":"/etc"}');
    // another process (empty cache) restores it from the database
    const seen = await newStore().write(id, { skipLocked: false }, (ctx) => ctx.terminalState);
    expect(seen).toMatchObject({ kind: 'ok', result: '{"cwd":"/etc"}', commit: null });
    await store.reset(id, ownerId);
    expect(await terminalPart()).toBeUndefined();
    const afterReset = await newStore().write(
      id,
      { skipLocked: false },
      (ctx) => ctx.terminalState,
    );
    expect(afterReset).toMatchObject({ kind: 'ok', result: null });
  });

  it('should answer not-found to anyone but the owner', async () => {
    const store = newStore();
    const id = await createOne(store);
    const result = await store.write(id, { skipLocked: false, ownerId: 'intruder' }, () => 1);
    expect(result).toEqual({ kind: 'not-found' });
  });

  it('should refuse a lab over the limit', async () => {
    const store = newStore();
    const count = await prisma.lab.count({ where: { ownerId } });
    const refused = await store.create(ownerId, sandbox, count);
    expect(refused).toEqual({ kind: 'limit-reached', count });
  });

  it('should continue trace seqs after a reset and restore the fresh cluster', async () => {
    const store = newStore();
    const id = await createOne(store);
    wall += 1_000;
    await store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    const before = await findLabHeader(labDb, id);
    const reset = await store.reset(id, ownerId);
    expect(reset.kind).toBe('ok');
    const after = await findLabHeader(labDb, id);
    expect(after).toMatchObject({ simTimeMs: 0, traceSeqOffset: before?.traceSeq });
    const events = await readTraceAfter(labDb, id, before?.traceSeq ?? 0, 100);
    expect(events[0]?.seq).toBe((before?.traceSeq ?? 0) + 1);
    // a different process restores the reset lab from the database
    wall += 300;
    const other = newStore();
    await other.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
    const reference = createLab({ seed: 11 });
    reference.advance(0);
    reference.advance(300);
    reference.advance(0);
    const row = await findLabHeader(labDb, id);
    expect(row?.simTimeMs).toBe(300);
    expect(JSON.parse(await storedCore(id)).now).toBe(JSON.parse(reference.serialize()).now);
  });
});

async function storedCore(labId: string): Promise<string> {
  const row = await prisma.lab.findUniqueOrThrow({ where: { id: labId } });
  return row.coreState;
}

describe('LabStore with boot images', () => {
  // Labs "from an image": the fresh lab's first events stand for the image's, as a lab
  // restored from a boot image starts with the image's trace (libs/content boot-image.ts).
  const imageId = `spec-image@${randomUUID()}`;
  const imageEngine = (traceSeq: number): TLabEngine<SimLab> => ({
    ...engine,
    bootImageTrace: () => ({ id: imageId, traceSeq }),
  });

  it("should store an image's trace once, keep each lab's own events apart, and read them back as one trace", async () => {
    const reference = createLab({ seed: 11 });
    reference.advance(0);
    const fresh = reference.trace(0);
    const traceSeq = 20;
    expect(fresh.length).toBeGreaterThan(traceSeq);
    const store = new LabStore(labDb, imageEngine(traceSeq), {
      maxCatchUpMs: 60_000,
      restoreTraceEvents: 10_000,
      cacheSize: 10,
      now: () => wall,
    });
    const a = await createOne(store);
    const b = await createOne(store);
    const shared = await prisma.labImageTraceEvent.count({ where: { imageKey: imageId } });
    expect(shared).toBe(traceSeq);
    for (const id of [a, b]) {
      const own = await prisma.labTraceEvent.findMany({
        where: { labId: id },
        orderBy: { seq: 'asc' },
      });
      expect(own.map((e) => e.seq)).toEqual(fresh.slice(traceSeq).map((e) => e.seq));
      // the whole trace, as the simulator has it: what restores and streams read
      expect(await readTraceAfter(labDb, id, 0, 1_000_000)).toEqual(fresh);
      // pages across the boundary between the image's events and the lab's
      expect(await readTraceAfter(labDb, id, traceSeq - 3, 5)).toEqual(
        fresh.slice(traceSeq - 3, traceSeq + 2),
      );
      expect(JSON.parse(await storedSerialization(id))).toEqual(JSON.parse(reference.serialize()));
    }
    // a lab restored from its rows (another process) carries on exactly as the original
    wall += 1_000;
    await newStore().write(a, { skipLocked: true }, (ctx) => ctx.catchUp());
    reference.advance(1_000);
    reference.advance(0);
    expect(JSON.parse(await storedSerialization(a))).toEqual(JSON.parse(reference.serialize()));
    // deleting a lab keeps the rows its image shares with others
    await prisma.lab.delete({ where: { id: b } });
    expect(await prisma.labImageTraceEvent.count({ where: { imageKey: imageId } })).toBe(traceSeq);
  });

  it("should keep every event as the lab's own when its trace does not start with the image", async () => {
    const store = new LabStore(labDb, imageEngine(1_000_000), {
      maxCatchUpMs: 60_000,
      restoreTraceEvents: 10_000,
      cacheSize: 10,
      now: () => wall,
    });
    const id = await createOne(store);
    const row = await prisma.lab.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ traceImageKey: null, traceImageSeq: 0 });
    expect(await prisma.labTraceEvent.count({ where: { labId: id } })).toBe(row.traceSeq);
  });
});
