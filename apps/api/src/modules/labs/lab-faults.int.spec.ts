import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TLabView } from '@kubejourney/contracts';
import { readTraceAfter } from '@kubejourney/db';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../../../libs/db/test/test-database';
import { createTestApp, type TTestApp } from '../../../test/test-app';

// Labs under faults, on localhost only: the real API in-process, real worker processes (the
// built worker: a source worker through tsx takes seconds to boot, and the first test boots 21),
// PostgreSQL, and Redis (the shared one, plus a second redis-server of our own on a spare port
// for the restart test, so the shared one is never touched). Every child process is killed in
// afterAll, whatever happened.

const ROOT = path.resolve(__dirname, '../../../../..');
const WORKER_MAIN = path.join(ROOT, 'apps/worker/dist/main.js');
const SPARE_REDIS_PORT = Number(process.env.FAULTS_REDIS_PORT ?? 6390);
const STUCK = 'kubectl run stuck --image=nginx:no-such-tag';
process.env.LAB_LIMIT_PER_USER = '10';
process.env.LAB_RATE_LIMIT_COMMANDS = '1000';

let t: TTestApp;
let cookie = '';
const children = new Set<ChildProcess>();
const http = () => request(t.app.getHttpServer());

type TTickRecord = {
  labId: string;
  pid: number;
  outcome: string;
  revision?: number;
  simTimeMs?: number;
  advancedMs?: number;
};

type TWorker = { child: ChildProcess; pid: number; ready: Promise<void> };

function track(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** A worker process; `ready` resolves when it says so (after re-arming schedulers). */
function startWorker(env: Record<string, string> = {}): TWorker {
  const child = spawn(process.execPath, [WORKER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: testDatabaseUrl(),
      REDIS_KEY_PREFIX: t.config.redisKeyPrefix,
      LOG_LEVEL: 'info',
      LAB_METRICS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  track(child);
  const ready = new Promise<void>((resolve, reject) => {
    let seen = '';
    // read everything (a full pipe would block the worker), look for the ready line
    child.stdout!.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4_000);
      if (seen.includes('"msg":"worker ready"')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`worker exited (${code ?? signal})`)));
  });
  ready.catch(() => undefined);
  return { child, pid: child.pid!, ready };
}

async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function createLab(): Promise<string> {
  const created = await http().post('/api/labs').set('Cookie', cookie).send({ kind: 'sandbox' });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** Runs a command line; returns its seq when the API acknowledged it (200), else null. */
async function exec(labId: string, command: string): Promise<number | null> {
  const response = await http()
    .post(`/api/labs/${labId}/exec`)
    .set('Cookie', cookie)
    .send({ command });
  if (response.status !== 200) return null;
  expect(response.body.exitCode).toBe(0);
  return response.body.seq as number;
}

async function tickRecords(redis: Redis, labIds: string[]): Promise<TTickRecord[]> {
  const entries = await redis.lrange(`${t.config.redisKeyPrefix}lab-metrics`, 0, -1);
  return entries.map((e) => JSON.parse(e) as TTickRecord).filter((r) => labIds.includes(r.labId));
}

function isWebConverged(view: TLabView): boolean {
  const web = view.pods.filter((p) => p.name.startsWith('web-'));
  return web.length === 3 && web.every((p) => p.phase === 'Running' && p.isReady);
}

beforeAll(async () => {
  if (!existsSync(WORKER_MAIN)) {
    throw new Error(`${WORKER_MAIN} is missing: build the worker first (npm run build)`);
  }
  t = await createTestApp();
  await t.reset();
  const response = await http()
    .post('/api/auth/signup')
    .send({ email: 'faults@example.com', password: 'Kubernetes-1-32', displayName: 'faults' })
    .expect(201);
  cookie = (([] as string[]).concat(response.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0]!;
}, 90_000);

afterAll(async () => {
  await Promise.all([...children].map((child) => kill(child, 'SIGKILL')));
  await t?.close();
}, 60_000);

describe('labs under faults', () => {
  it(
    'should keep every acknowledged command and still converge when a worker is killed 20 times',
    { timeout: 420_000 },
    async () => {
      const labId = await createLab();
      const acknowledged: { seq: number; input: string }[] = [];
      const run = async (input: string) => {
        const seq = await exec(labId, input);
        if (seq !== null) acknowledged.push({ seq, input });
      };
      // the stuck pod's image pull backoff keeps the lab ticking through every round
      await run(STUCK);
      await run('kubectl create deployment web --image=nginx:1.27 --replicas=3');
      let current = startWorker();
      await current.ready;
      let kills = 0;
      for (let round = 1; round <= 20; round++) {
        // the next worker boots while the current one ticks, then the current one dies
        const next = startWorker();
        await run(`kubectl create configmap round-${round} --from-literal=round=${round}`);
        await run(`kubectl label deployment web round=${round} --overwrite`);
        const pid = current.pid;
        const before = (await tickRecords(t.redis, [labId])).filter((r) => r.pid === pid).length;
        await waitFor(
          async () =>
            (await tickRecords(t.redis, [labId])).filter((r) => r.pid === pid).length > before
              ? true
              : undefined,
          60_000,
          `worker ${pid} to tick`,
          20,
        );
        // at a different point of the 250 ms tick period each round
        await new Promise((resolve) => setTimeout(resolve, (round * 97) % 250));
        await kill(current.child, 'SIGKILL');
        kills++;
        await next.ready;
        current = next;
      }
      expect(kills).toBe(20);
      const view = await waitFor(
        async () => {
          const response = await http().get(`/api/labs/${labId}`).set('Cookie', cookie);
          const v = response.body as TLabView;
          return isWebConverged(v) ? v : undefined;
        },
        120_000,
        '3/3 web pods Running',
        250,
      );
      expect(view.pods.filter((p) => p.name.startsWith('web-')).map((p) => p.ready)).toEqual([
        '1/1',
        '1/1',
        '1/1',
      ]);
      // every acknowledged command is stored, once, with its seq
      const stored = await t.prisma.labCommand.findMany({
        where: { labId },
        orderBy: { seq: 'asc' },
      });
      expect(stored.map((c) => ({ seq: c.seq, input: c.input }))).toEqual(acknowledged);
      expect(acknowledged).toHaveLength(42);
      // and its effect is in the lab
      const objects = await t.prisma.labObject.findMany({ where: { labId } });
      const keys = new Set(objects.map((o) => o.key));
      for (let round = 1; round <= 20; round++) {
        expect(keys.has(`/registry/configmaps/default/round-${round}`)).toBe(true);
      }
      const deployment = objects.find((o) => o.key === '/registry/deployments/default/web');
      expect(JSON.parse(deployment!.value).metadata.labels.round).toBe('20');
      await kill(current.child, 'SIGTERM');
      await http().delete(`/api/labs/${labId}`).set('Cookie', cookie).expect(204);
    },
  );

  it(
    'should resume ticking within 5 s without user action when Redis restarts empty',
    { timeout: 180_000 },
    async () => {
      const url = `redis://127.0.0.1:${SPARE_REDIS_PORT}`;
      const startRedis = async () => {
        const child = spawn(
          'redis-server',
          [
            '--port',
            String(SPARE_REDIS_PORT),
            '--bind',
            '127.0.0.1',
            '--save',
            '',
            '--appendonly',
            'no',
            '--daemonize',
            'no',
          ],
          { stdio: 'ignore' },
        );
        track(child);
        const probe = new Redis(url, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        probe.on('error', () => undefined);
        await waitFor(
          async () => {
            if (child.exitCode !== null)
              throw new Error(`redis-server on ${SPARE_REDIS_PORT} exited`);
            try {
              await probe.connect();
              return (await probe.ping()) === 'PONG' ? true : undefined;
            } catch {
              probe.disconnect();
              return undefined;
            }
          },
          10_000,
          `redis-server on port ${SPARE_REDIS_PORT}`,
          50,
        );
        return { child, client: probe };
      };
      let redis = await startRedis();
      const labId = await createLab();
      expect(await exec(labId, STUCK)).not.toBeNull();
      // this worker's Redis is the spare one; the API's scheduler lives in the shared one, so
      // it is the worker's own re-arming (boot, then reconnect) that keeps this lab ticking
      const worker = startWorker({ REDIS_URL: url });
      await worker.ready;
      await waitFor(
        async () =>
          (await tickRecords(redis.client, [labId])).some((r) => r.outcome === 'ticked')
            ? true
            : undefined,
        60_000,
        'ticks before the restart',
      );
      redis.client.disconnect();
      await kill(redis.child, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      redis = await startRedis();
      const restartedAt = Date.now();
      // a tick recorded in the new (empty) Redis ran from a scheduler armed after the restart
      await waitFor(
        async () =>
          (await tickRecords(redis.client, [labId])).some((r) => r.outcome === 'ticked')
            ? true
            : undefined,
        30_000,
        'ticks after the restart',
        50,
      );
      const resumedMs = Date.now() - restartedAt;
      console.info(`lab ticking resumed ${resumedMs} ms after Redis came back`);
      expect(resumedMs).toBeLessThan(5_000);
      await kill(worker.child, 'SIGTERM');
      redis.client.disconnect();
      await kill(redis.child, 'SIGKILL');
      await http().delete(`/api/labs/${labId}`).set('Cookie', cookie).expect(204);
    },
  );

  it(
    'should never tick a lab from two workers at once when two workers run',
    { timeout: 180_000 },
    async () => {
      const labIds = [await createLab(), await createLab(), await createLab()];
      for (const labId of labIds) {
        expect(await exec(labId, STUCK)).not.toBeNull();
        expect(
          await exec(labId, 'kubectl create deployment web --image=nginx:1.27 --replicas=3'),
        ).not.toBeNull();
      }
      // Affinity off: each worker would otherwise leave a lab to the one that ticked it last,
      // and the point here is both workers reaching for the same lab as often as they can.
      const workers = [
        startWorker({ LAB_TICK_CONCURRENCY: '4', LAB_TICK_AFFINITY: '0' }),
        startWorker({ LAB_TICK_CONCURRENCY: '4', LAB_TICK_AFFINITY: '0' }),
      ];
      await Promise.all(workers.map((w) => w.ready));
      // both workers tick, while commands (a third writer) keep coming
      const end = Date.now() + 15_000;
      for (let i = 0; Date.now() < end; i++) {
        await exec(
          labIds[i % labIds.length]!,
          `kubectl create configmap c-${i} --from-literal=i=${i}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      await Promise.all(workers.map((w) => kill(w.child, 'SIGTERM')));
      const ticked = (await tickRecords(t.redis, labIds)).filter((r) => r.outcome === 'ticked');
      const pids = new Set(ticked.map((r) => r.pid));
      // otherwise the test proves nothing
      expect([...pids].sort()).toEqual(workers.map((w) => w.pid).sort());
      for (const labId of labIds) {
        const mine = ticked
          .filter((r) => r.labId === labId)
          .sort((a, b) => a.revision! - b.revision!);
        expect(mine.length).toBeGreaterThan(5);
        // one revision per tick: two workers on the same interval would commit the same one
        expect(new Set(mine.map((r) => r.revision)).size).toBe(mine.length);
        // the simulated intervals they covered follow each other and never overlap
        for (let i = 1; i < mine.length; i++) {
          const from = mine[i]!.simTimeMs! - mine[i]!.advancedMs!;
          expect(from).toBeGreaterThanOrEqual(mine[i - 1]!.simTimeMs!);
        }
        const lab = await t.prisma.lab.findUniqueOrThrow({ where: { id: labId } });
        expect(lab.revision).toBeGreaterThanOrEqual(mine.at(-1)!.revision!);
        // the stored journey (the boot image's events, then the lab's own) is one timeline:
        // seqs 1..n without gaps, time never going back
        const trace = await readTraceAfter(t.prisma, labId, 0, 1_000_000);
        expect(trace.map((e) => e.seq)).toEqual(trace.map((_e, i) => i + 1));
        for (let i = 1; i < trace.length; i++) {
          expect(trace[i]!.t).toBeGreaterThanOrEqual(trace[i - 1]!.t);
        }
      }
    },
  );

  it(
    'should keep ticking a lab on the worker that ticked it last when two workers run',
    { timeout: 120_000 },
    async () => {
      // A stuck pod keeps the lab converging (ImagePullBackOff retries), so it ticks throughout.
      const labId = await createLab();
      expect(await exec(labId, STUCK)).not.toBeNull();
      const workers = [startWorker(), startWorker()];
      await Promise.all(workers.map((w) => w.ready));
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      await Promise.all(workers.map((w) => kill(w.child, 'SIGTERM')));
      const records = (await tickRecords(t.redis, [labId])).filter((r) =>
        workers.some((w) => w.pid === r.pid),
      );
      const ticked = records.filter((r) => r.outcome === 'ticked');
      expect(ticked.length).toBeGreaterThan(5);
      // the other worker got about half of the jobs and left them to the lab's ticker
      expect(records.some((r) => r.outcome === 'deferred')).toBe(true);
      let switches = 0;
      for (let i = 1; i < ticked.length; i++) {
        if (ticked[i]!.pid !== ticked[i - 1]!.pid) switches++;
      }
      // Without affinity the two workers alternate on about every other tick. With it a lab
      // changes hands only when its worker was held up for 1.5 s (a loaded CI machine can do
      // that now and then).
      expect(switches).toBeLessThan(ticked.length / 4);
    },
  );
});
