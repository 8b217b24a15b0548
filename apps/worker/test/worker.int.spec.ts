import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { bullmqPrefix, MAINTENANCE_QUEUE, workerHeartbeatKey } from '@kubejourney/contracts';
import { createPrismaClient } from '@kubejourney/db';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../libs/db/test/test-database';

const ROOT = path.resolve(__dirname, '../../..');
const PREFIX = `kj-test:${randomUUID()}:`;
const prisma = createPrismaClient(testDatabaseUrl());
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  maxRetriesPerRequest: null,
});
const queue = new Queue(MAINTENANCE_QUEUE, { connection: redis, prefix: bullmqPrefix(PREFIX) });
const queueEvents = new QueueEvents(MAINTENANCE_QUEUE, {
  connection: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  prefix: bullmqPrefix(PREFIX),
});

type TRunningWorker = {
  child: ChildProcess;
  logs: Array<{ msg?: string }>;
  exited: Promise<number | null>;
};

/** Runs the real worker entry point (from source, via tsx) as its own process. */
function startWorkerProcess(): TRunningWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: 'tsconfig.depcruise.json', // resolves @kubejourney/* to sources
      DATABASE_URL: testDatabaseUrl(),
      REDIS_KEY_PREFIX: PREFIX,
      LOG_LEVEL: 'info',
      WORKER_HEARTBEAT_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: Array<{ msg?: string }> = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) logs.push(JSON.parse(line) as { msg?: string });
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, logs, exited };
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function heartbeatKeys(): Promise<string[]> {
  return redis.keys(workerHeartbeatKey(PREFIX, '*'));
}

let worker: TRunningWorker | undefined;

beforeAll(async () => {
  await prisma.$executeRawUnsafe('TRUNCATE TABLE "Session", "User" CASCADE');
  await queueEvents.waitUntilReady();
});

afterAll(async () => {
  if (worker && worker.child.exitCode === null) worker.child.kill('SIGKILL');
  await queue.obliterate({ force: true });
  await queueEvents.close();
  await queue.close();
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await prisma.$executeRawUnsafe('TRUNCATE TABLE "Session", "User" CASCADE');
  await prisma.$disconnect();
});

describe('worker process', () => {
  it('should purge expired sessions, keep a heartbeat and exit 0 on SIGTERM when run for real', async () => {
    const user = await prisma.user.create({
      data: { email: 'w@example.com', passwordHash: 'x', displayName: 'W' },
    });
    const hour = 3_600_000;
    await prisma.session.createMany({
      data: [
        { userId: user.id, tokenHash: 'expired', expiresAt: new Date(Date.now() - hour) },
        { userId: user.id, tokenHash: 'live', expiresAt: new Date(Date.now() + hour) },
      ],
    });

    worker = startWorkerProcess();
    const running = worker;
    await waitFor(() => running.logs.some((log) => log.msg === 'worker ready'));
    expect(await heartbeatKeys()).toHaveLength(1);

    // The hourly schedule is registered at boot.
    const scheduler = await queue.getJobScheduler('sessions.purge-expired');
    expect(scheduler?.pattern).toBe('0 * * * *');

    const job = await queue.add('sessions.purge-expired', {});
    await expect(job.waitUntilFinished(queueEvents, 20_000)).resolves.toEqual({ deleted: 1 });
    const remaining = await prisma.session.findMany({ select: { tokenHash: true } });
    expect(remaining).toEqual([{ tokenHash: 'live' }]);

    // A payload that breaks the job's schema fails the job instead of running the handler.
    const bad = await queue.add('sessions.purge-expired', { everything: true });
    await expect(bad.waitUntilFinished(queueEvents, 20_000)).rejects.toThrow();

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.logs.map((log) => log.msg)).toContain('worker stopped');
    expect(await heartbeatKeys()).toHaveLength(0);
  });

  it('should finish the running job before exiting when SIGTERM arrives mid-job', async () => {
    await prisma.session.deleteMany();
    const user = await prisma.user.upsert({
      where: { email: 'w@example.com' },
      create: { email: 'w@example.com', passwordHash: 'x', displayName: 'W' },
      update: {},
    });
    await prisma.session.create({
      data: { userId: user.id, tokenHash: 'old', expiresAt: new Date(Date.now() - 1000) },
    });
    worker = startWorkerProcess();
    const running = worker;
    await waitFor(() => running.logs.some((log) => log.msg === 'worker ready'));

    // Hold a lock on the table so the job's DELETE blocks: the job stays in flight for as long
    // as we like, without any test-only code in the worker.
    const blocker = new pg.Client({ connectionString: testDatabaseUrl() });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE "Session" IN ACCESS EXCLUSIVE MODE');
      const job = await queue.add('sessions.purge-expired', {});
      await waitFor(async () => (await job.getState()) === 'active');

      running.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(running.child.exitCode).toBeNull(); // still waiting for its job

      await blocker.query('COMMIT');
      expect(await running.exited).toBe(0);
      expect(await job.getState()).toBe('completed');
      expect((await queue.getJob(job.id as string))?.returnvalue).toEqual({ deleted: 1 });
    } finally {
      await blocker.end();
    }
  });
});
