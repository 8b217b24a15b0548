import { randomUUID } from 'node:crypto';
import {
  bullmqPrefix,
  LAB_QUEUE,
  labChannel,
  labSchedulerId,
  type TLabTickPayload,
} from '@kubejourney/contracts';
import { simLabEngine } from '@kubejourney/content';
import { createLabDatabase, createPrismaClient, findLabHeader, LabStore } from '@kubejourney/db';
import { ADMIN_USER, type SimLab } from '@kubejourney/sim';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../libs/db/test/test-database';
import { createLabHibernateHandler } from '../src/jobs/lab-hibernate.handler';
import { createLabScheduler } from '../src/jobs/lab-runtime';
import { createLabTickHandler } from '../src/jobs/lab-tick.handler';

// Hibernation with the real parts: labs in PostgreSQL through the lab store, their tick
// schedulers in BullMQ on Redis, notices on Redis pub/sub. The clock is injected, so "30 minutes
// later" takes no time.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `kj-test:${randomUUID()}:`;
const IDLE_MS = 30 * 60_000;
const prisma = createPrismaClient(testDatabaseUrl());
const db = createLabDatabase(testDatabaseUrl());
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const subscriber = new Redis(REDIS_URL);
const queue = new Queue<TLabTickPayload>(LAB_QUEUE, {
  connection: redis,
  prefix: bullmqPrefix(PREFIX),
});
const scheduler = createLabScheduler(queue, 250);
const logger = pino({ level: 'silent' });

let wallMs = Date.parse('2026-12-03T10:00:00Z');
const store = new LabStore<SimLab>(db, simLabEngine, {
  maxCatchUpMs: 2_000,
  restoreTraceEvents: 100,
  cacheSize: 10,
  now: () => wallMs,
});
const publish = async (labId: string, notice: unknown) => {
  await redis.publish(labChannel(PREFIX, labId), JSON.stringify(notice));
};
const hibernate = createLabHibernateHandler({
  db,
  store,
  scheduler,
  publish,
  idleMs: IDLE_MS,
  now: () => wallMs,
  logger,
});
const tick = createLabTickHandler({
  store,
  findLab: (labId) => findLabHeader(db, labId),
  scheduler,
  publish,
  logger,
});

let ownerId = '';

/** A sandbox whose pod can never pull its image: it keeps converging (and wanting ticks). */
async function createConvergingLab(): Promise<string> {
  const created = await store.create(ownerId, { kind: 'SANDBOX', scenarioId: null, seed: 7 }, 10);
  if (created.kind !== 'ok') throw new Error(created.kind);
  const labId = created.header.id;
  const written = await store.write(labId, { skipLocked: false }, (ctx) => {
    ctx.catchUp();
    ctx.isMutated = true;
    ctx.isTouched = true;
    return ctx.lab.request(ADMIN_USER, {
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'stuck' },
        spec: { containers: [{ name: 'app', image: 'nginx:does-not-exist' }] },
      },
    }).code;
  });
  expect(written).toMatchObject({ kind: 'ok', result: 201 });
  expect(written.kind === 'ok' && written.commit?.needsTicks).toBe(true);
  await scheduler.arm(labId);
  return labId;
}

async function stored(labId: string) {
  const lab = await prisma.lab.findUniqueOrThrow({ where: { id: labId } });
  return { status: lab.status, simTimeMs: Number(lab.simTimeMs), revision: lab.revision };
}

beforeAll(async () => {
  ownerId = `u-${randomUUID()}`;
  await prisma.user.create({
    data: { id: ownerId, email: `${ownerId}@example.test`, passwordHash: 'x', displayName: 'H' },
  });
});

afterAll(async () => {
  await prisma.user.deleteMany({ where: { id: ownerId } });
  await queue.obliterate({ force: true });
  await queue.close();
  await subscriber.quit();
  await redis.quit();
  await prisma.$disconnect();
  await db.end();
});

describe('lab hibernation', () => {
  it('should hibernate only the labs idle for 30 minutes, stop their clock and scheduler, and tell their streams', async () => {
    const idle = await createConvergingLab();
    const used = await createConvergingLab();
    const notices: unknown[] = [];
    await subscriber.subscribe(labChannel(PREFIX, idle));
    subscriber.on('message', (_channel, message) => notices.push(JSON.parse(message)));

    // 31 minutes pass; the learner of `used` touched it a minute ago
    wallMs += 31 * 60_000;
    await prisma.lab.update({
      where: { id: used },
      data: { lastActiveAt: new Date(wallMs - 60_000) },
    });
    expect(await hibernate.handle({})).toEqual({ hibernated: 1 });

    const slept = await stored(idle);
    expect(slept.status).toBe('HIBERNATED');
    expect(await queue.getJobScheduler(labSchedulerId(idle))).toBeUndefined();
    expect((await stored(used)).status).toBe('ACTIVE');
    expect(await queue.getJobScheduler(labSchedulerId(used))).toBeDefined();
    await expect
      .poll(() => notices, { timeout: 5_000 })
      .toContainEqual(expect.objectContaining({ type: 'changed', revision: slept.revision }));

    // asleep: an hour later neither a hibernate run nor a stray tick moves its clock
    wallMs += 60 * 60_000;
    await prisma.lab.update({
      where: { id: used },
      data: { lastActiveAt: new Date(wallMs - 60_000) },
    });
    expect(await hibernate.handle({})).toEqual({ hibernated: 0 });
    expect(await tick.handle({ labId: idle })).toEqual({ outcome: 'stopped' });
    expect(await stored(idle)).toEqual(slept);
  });

  it('should wake a hibernated lab from the cluster time it stopped at, without catching up the night', async () => {
    const labId = await createConvergingLab();
    wallMs += 31 * 60_000;
    expect(await hibernate.handle({})).toMatchObject({ hibernated: expect.any(Number) });
    const slept = await stored(labId);
    expect(slept.status).toBe('HIBERNATED');

    // eight hours later the learner comes back: the request that wakes it (as the API's do)
    wallMs += 8 * 60 * 60_000;
    const woken = await store.write(labId, { skipLocked: false }, (ctx) => {
      ctx.wake();
      ctx.isTouched = true;
      return ctx.catchUp();
    });
    expect(woken).toMatchObject({ kind: 'ok', result: 0 });
    expect(await stored(labId)).toMatchObject({ status: 'ACTIVE', simTimeMs: slept.simTimeMs });

    // from there its clock runs with the wall clock again
    wallMs += 1_000;
    const ticked = await tick.handle({ labId });
    expect(ticked).toMatchObject({ outcome: 'ticked', advancedMs: 1_000 });
    expect((await stored(labId)).simTimeMs).toBe(slept.simTimeMs + 1_000);
  });
});
