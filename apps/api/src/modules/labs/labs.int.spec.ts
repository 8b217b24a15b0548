import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  bullmqPrefix,
  LAB_QUEUE,
  labSchedulerId,
  type TLabView,
  type TTraceEventPayload,
} from '@kubejourney/contracts';
import { Queue } from 'bullmq';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../../../libs/db/test/test-database';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { LabsService } from './labs.service';

// The labs feature end to end: the real API in-process, the real worker as a child process,
// PostgreSQL and Redis. The journey's Deployment is applied through the apiserver
// (`LabsService.request`); the command line has its own test.

const ROOT = path.resolve(__dirname, '../../../../..');
process.env.LAB_LIMIT_PER_USER = '3';
process.env.LAB_RATE_LIMIT_COMMANDS = '5';
process.env.LAB_RATE_LIMIT_WINDOW_SECONDS = '30';

let t: TTestApp;
let baseUrl = '';
let worker: ChildProcess;
let queue: Queue;
let ada = '';
let bob = '';
let cyd = '';

const http = () => request(t.app.getHttpServer());

const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
    },
  },
};

async function signup(name: string): Promise<string> {
  const response = await http()
    .post('/api/auth/signup')
    .send({ email: `${name}@example.com`, password: 'Kubernetes-1-32', displayName: name })
    .expect(201);
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  return (cookies[0] ?? '').split(';')[0] as string;
}

async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function getView(cookie: string, id: string): Promise<TLabView> {
  return (await http().get(`/api/labs/${id}`).set('Cookie', cookie).expect(200)).body as TLabView;
}

async function createLab(cookie: string): Promise<TLabView> {
  return (
    await http().post('/api/labs').set('Cookie', cookie).send({ kind: 'sandbox' }).expect(201)
  ).body as TLabView;
}

/** Seconds between the Deployment's creation and its last pod turning Ready (object timestamps). */
async function readySecondsAfterCreate(id: string): Promise<number> {
  const rows = await t.prisma.labObject.findMany({ where: { labId: id } });
  const parse = (key: string) => JSON.parse(rows.find((r) => r.key === key)!.value);
  const created = Date.parse(parse('/registry/deployments/default/web').metadata.creationTimestamp);
  const readyAt = rows
    .filter((r) => r.key.startsWith('/registry/pods/default/web-'))
    .map((r) =>
      JSON.parse(r.value).status.conditions.find((c: { type: string }) => c.type === 'Ready'),
    )
    .map((c: { lastTransitionTime: string }) => Date.parse(c.lastTransitionTime));
  return (Math.max(...readyAt) - created) / 1000;
}

async function storedClock(id: string) {
  const lab = await t.prisma.lab.findUniqueOrThrow({ where: { id } });
  return { revision: lab.revision, simTimeMs: Number(lab.simTimeMs), quiescent: lab.quiescent };
}

/** Everything the database holds for a lab, down to row versions (xmin changes on any write). */
async function labFootprint(id: string): Promise<unknown> {
  const rows = await t.prisma.$queryRaw<{ part: string; rows: number; versions: string }[]>`
    SELECT 'Lab' AS part, count(*)::int AS rows, md5(string_agg(xmin::text, ',')) AS versions
      FROM "Lab" WHERE id = ${id}
    UNION ALL SELECT 'LabObject', count(*)::int, md5(string_agg(key || '@' || xmin::text, ',' ORDER BY key))
      FROM "LabObject" WHERE "labId" = ${id}
    UNION ALL SELECT 'LabStatePart', count(*)::int, md5(string_agg(name || '@' || xmin::text, ',' ORDER BY name))
      FROM "LabStatePart" WHERE "labId" = ${id}
    UNION ALL SELECT 'LabTraceEvent', count(*)::int, md5(string_agg(seq || '@' || xmin::text, ',' ORDER BY seq))
      FROM "LabTraceEvent" WHERE "labId" = ${id}
    UNION ALL SELECT 'LabCommand', count(*)::int, md5(string_agg(seq || '@' || xmin::text, ',' ORDER BY seq))
      FROM "LabCommand" WHERE "labId" = ${id}`;
  return rows;
}

/** Tick jobs the worker ran for a lab (LAB_METRICS=1 records each one). */
async function ticksRecorded(id: string): Promise<number> {
  const entries = await t.redis.lrange(`${t.config.redisKeyPrefix}lab-metrics`, 0, -1);
  return entries.filter((e) => (JSON.parse(e) as { labId?: string }).labId === id).length;
}

type TSseEvent = { id?: string; event: string; data: string };

/** A minimal EventSource over fetch: collects events until `stop()`. */
function openStream(cookie: string, id: string, since: number) {
  const events: TSseEvent[] = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${baseUrl}/api/labs/${id}/stream`, {
      headers: { Cookie: cookie, 'Last-Event-ID': String(since) },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done: isDone } = await reader.read();
      if (isDone) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: TSseEvent = { event: 'message', data: '' };
        for (const line of frame.split('\n')) {
          if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('data: ')) event.data += line.slice(6);
        }
        if (event.data) events.push(event);
      }
    }
  })().catch(() => undefined);
  return {
    events,
    trace: () =>
      events
        .filter((e) => e.event === 'trace')
        .map((e) => JSON.parse(e.data) as TTraceEventPayload),
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await t.reset();
  const server = await t.app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  worker = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: 'tsconfig.depcruise.json',
      DATABASE_URL: testDatabaseUrl(),
      REDIS_KEY_PREFIX: t.config.redisKeyPrefix,
      LOG_LEVEL: 'warn',
      LAB_METRICS: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  queue = new Queue(LAB_QUEUE, {
    connection: { url: t.config.redisUrl },
    prefix: bullmqPrefix(t.config.redisKeyPrefix),
  });
  ada = await signup('ada');
  bob = await signup('bob');
  cyd = await signup('cyd');
}, 90_000);

afterAll(async () => {
  worker?.kill('SIGTERM');
  await new Promise((resolve) => worker?.once('exit', resolve));
  await queue?.close();
  await t?.close();
}, 60_000);

describe('labs', () => {
  let labId = '';

  it(
    'should stream the journey in order and show 3/3 Running when a Deployment is applied',
    { timeout: 150_000 },
    async () => {
      const created = await createLab(ada);
      labId = created.id;
      expect(created).toMatchObject({ kind: 'sandbox', status: 'active', clock: { speed: 1 } });
      const stream = openStream(ada, labId, created.traceSeq);
      const applied = await t.app.get(LabsService).request(ownerOf(ada), labId, {
        verb: 'create',
        resource: 'deployments',
        namespace: 'default',
        body: DEPLOYMENT,
      });
      expect(applied.code).toBe(201);
      const view = await waitFor(
        async () => {
          const v = await getView(ada, labId);
          const web = v.pods.filter((p) => p.name.startsWith('web-'));
          return web.length === 3 && web.every((p) => p.phase === 'Running' && p.isReady)
            ? v
            : undefined;
        },
        90_000,
        '3/3 Running',
      );
      expect(view.pods.filter((p) => p.name.startsWith('web-')).map((p) => p.ready)).toEqual([
        '1/1',
        '1/1',
        '1/1',
      ]);
      // the article's claim: about 2 s of cluster time with cached images (timestamps are seconds)
      expect(await readySecondsAfterCreate(labId)).toBeLessThanOrEqual(3);
      await waitFor(
        async () => (stream.trace().some((e) => e.component === 'kubelet') ? true : undefined),
        10_000,
        'kubelet events on the stream',
      );
      await stream.stop();
      const trace = stream.trace();
      // complete and in order: consecutive seqs right after the position the stream resumed from
      expect(trace.map((e) => e.seq)).toEqual(trace.map((_e, i) => created.traceSeq + 1 + i));
      // the Deployment's own journey (heartbeats of a live cluster interleave with it)
      const journey = trace.filter((e) => e.object?.name.startsWith('web'));
      const firstOf = (component: string) => journey.findIndex((e) => e.component === component);
      expect(firstOf('kube-apiserver')).toBeGreaterThanOrEqual(0);
      expect(firstOf('kube-apiserver')).toBeLessThan(firstOf('kube-controller-manager'));
      expect(firstOf('kube-controller-manager')).toBeLessThan(firstOf('kube-scheduler'));
      expect(firstOf('kube-scheduler')).toBeLessThan(firstOf('kubelet'));
      expect(stream.events.some((e) => e.event === 'view')).toBe(true);
    },
  );

  it('should replay stored events after Last-Event-ID when a stream resumes', async () => {
    const stream = openStream(ada, labId, 0);
    const header = await storedClock(labId);
    const last = (await t.prisma.lab.findUniqueOrThrow({ where: { id: labId } })).traceSeq;
    await waitFor(async () => (stream.trace().length >= last ? true : undefined), 10_000, 'replay');
    await stream.stop();
    expect(
      stream
        .trace()
        .slice(0, last)
        .map((e) => e.seq),
    ).toEqual(Array.from({ length: last }, (_v, i) => i + 1));
    expect(header.revision).toBeGreaterThan(1);
  });

  // A converged lab reports quiescent (only heartbeats and resyncs pending): its scheduler goes
  // away, so an idle lab costs no tick jobs and no database writes. The issue asks for 60 s of
  // wall time, and wall time it is: the window then always spans one run of the minute jobs
  // (re-arm, hibernate), which must leave a converged lab alone too; a faster lab clock would
  // change nothing, since an unscheduled lab has no clock running anywhere. The window runs
  // beside the tests below (another user's lab, so they do not disturb it) and the last test of
  // the file collects its verdict.
  let idle: Promise<{ schedulerSeen: number; ticks: number; isUnchanged: boolean }> | undefined;

  it('should start watching a converged lab when it has lost its scheduler', async () => {
    const id = (await createLab(cyd)).id;
    const applied = await t.app.get(LabsService).request(ownerOf(cyd), id, {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: DEPLOYMENT,
    });
    expect(applied.code).toBe(201);
    await waitFor(
      async () => ((await storedClock(id)).quiescent ? true : undefined),
      60_000,
      'quiescence',
    );
    await waitFor(
      async () => ((await queue.getJobScheduler(labSchedulerId(id))) ? undefined : true),
      5_000,
      'the scheduler to be removed',
    );
    const view = await getView(cyd, id);
    expect(view.pods.filter((p) => p.name.startsWith('web-') && p.isReady)).toHaveLength(3);
    // a tick already running when the scheduler went away may still finish: let it
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = await labFootprint(id);
    const ticksBefore = await ticksRecorded(id);
    idle = (async () => {
      let schedulerSeen = 0;
      const end = Date.now() + 60_000;
      while (Date.now() < end) {
        if (await queue.getJobScheduler(labSchedulerId(id))) schedulerSeen++;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      return {
        schedulerSeen,
        ticks: (await ticksRecorded(id)) - ticksBefore,
        isUnchanged: JSON.stringify(await labFootprint(id)) === JSON.stringify(before),
      };
    })();
  }, 150_000);

  it(
    'should not move while paused and move exactly the step when stepped',
    { timeout: 150_000 },
    async () => {
      const paused = await http()
        .post(`/api/labs/${labId}/clock`)
        .set('Cookie', ada)
        .send({ action: 'pause' })
        .expect(200);
      expect(paused.body.clock.paused).toBe(true);
      const before = await storedClock(labId);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await storedClock(labId)).toEqual(before);
      expect((await getView(ada, labId)).clock.simTimeMs).toBe(before.simTimeMs);
      await http()
        .post(`/api/labs/${labId}/clock`)
        .set('Cookie', ada)
        .send({ action: 'step', ms: 2_000 })
        .expect(200);
      expect((await storedClock(labId)).simTimeMs).toBe(before.simTimeMs + 2_000);
      await http()
        .post(`/api/labs/${labId}/clock`)
        .set('Cookie', ada)
        .send({ action: 'resume' })
        .expect(200);
    },
  );

  it('should run the clock four times as fast at speed 4', async () => {
    await http().post(`/api/labs/${labId}/clock`).set('Cookie', ada).send({ speed: 4 }).expect(200);
    const a = await getView(ada, labId);
    const wallA = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const b = await getView(ada, labId);
    expect(b.clock.speed).toBe(4);
    expect((await t.prisma.lab.findUniqueOrThrow({ where: { id: labId } })).speed).toBe(4);
    // The live clock runs at 4x from its anchor; a worker that cannot simulate that fast (a
    // loaded machine) re-anchors, so the ratio is at most 4 and never more. The exact 4x of the
    // stored clock is checked with an injected wall clock in libs/db (lab-store.int.spec.ts).
    const ratio = (b.clock.simTimeMs - a.clock.simTimeMs) / (Date.now() - wallA);
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(4.3);
    await http().post(`/api/labs/${labId}/clock`).set('Cookie', ada).send({ speed: 1 }).expect(200);
  }, 150_000);

  it('should answer 404 on every lab endpoint to another user', { timeout: 150_000 }, async () => {
    const routes: Array<[string, string, object?]> = [
      ['get', `/api/labs/${labId}`],
      ['get', `/api/labs/${labId}/stream`],
      ['post', `/api/labs/${labId}/exec`, { command: 'kubectl get pods' }],
      ['post', `/api/labs/${labId}/clock`, { action: 'pause' }],
      ['post', `/api/labs/${labId}/reset`],
      ['delete', `/api/labs/${labId}`],
    ];
    for (const [method, url, body] of routes) {
      const call = (http() as unknown as Record<string, (u: string) => request.Test>)[method]!(url);
      const response = await call.set('Cookie', bob).send(body);
      expect([url, response.status, response.body.error?.code]).toEqual([url, 404, 'NOT_FOUND']);
    }
    expect((await http().get('/api/labs').set('Cookie', bob).expect(200)).body).toEqual({
      labs: [],
    });
    await http().get(`/api/labs/${labId}`).expect(401);
    await http().get('/api/labs/no-such-lab').set('Cookie', ada).expect(404);
  });

  it('should refuse a fourth lab with LIMIT_REACHED', async () => {
    await createLab(ada);
    await createLab(ada);
    const refused = await http().post('/api/labs').set('Cookie', ada).send({ kind: 'sandbox' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('LIMIT_REACHED');
    expect(refused.body.error.message).toMatch(/Delete one/);
  });

  it('should run a command line at once and keep it in the history', async () => {
    const labs = (await http().get('/api/labs').set('Cookie', ada).expect(200)).body.labs as {
      id: string;
    }[];
    const other = labs.find((l) => l.id !== labId)!.id;
    const response = await http()
      .post(`/api/labs/${other}/exec`)
      .set('Cookie', ada)
      .send({ command: 'kubectl get namespaces' })
      .expect(200);
    expect(response.body).toMatchObject({ seq: 1, exitCode: 0, stderr: '' });
    expect(response.body.stdout).toMatch(/^NAME\s+STATUS\s+AGE\n/);
    expect(response.body.stdout).toMatch(/kube-system\s+Active/);
    const stored = await t.prisma.labCommand.findMany({ where: { labId: other } });
    expect(stored.map((c) => [c.seq, c.input, c.exitCode])).toEqual([
      [1, 'kubectl get namespaces', 0],
    ]);
  }, 150_000);

  it(
    'should keep the shell between commands when the learner ssh-es to node-1 and back',
    { timeout: 150_000 },
    async () => {
      const lab = (await createLab(bob)).id;
      const exec = async (command: string) =>
        (
          await http()
            .post(`/api/labs/${lab}/exec`)
            .set('Cookie', bob)
            .send({ command })
            .expect(200)
        ).body as { stdout: string; exitCode: number; prompt: string };
      const terminalPart = () =>
        t.prisma.labStatePart.findUnique({
          where: { labId_name: { labId: lab, name: 'terminal' } },
        });

      expect(await exec('ssh node-1')).toMatchObject({ exitCode: 0, prompt: 'root@node-1:~# ' });
      expect(await exec('hostname')).toMatchObject({
        stdout: 'node-1\n',
        prompt: 'root@node-1:~# ',
      });
      expect(await exec('exit')).toMatchObject({
        stdout: 'logout\nConnection to node-1 closed.\n',
        prompt: 'root@control-plane:~# ',
      });
      expect(await exec('cd /etc/kubernetes')).toMatchObject({
        prompt: 'root@control-plane:/etc/kubernetes# ',
      });
      const stored = JSON.parse((await terminalPart())?.value ?? 'null') as {
        sessions: { host: string; cwd: string }[];
        history: string[];
      };
      expect(stored.sessions).toEqual([
        { host: 'control-plane', user: 'root', cwd: '/etc/kubernetes', home: '/root' },
      ]);
      expect(stored.history).toEqual(['ssh node-1', 'hostname', 'exit', 'cd /etc/kubernetes']);

      await http().post(`/api/labs/${lab}/reset`).set('Cookie', bob).expect(200);
      expect(await terminalPart()).toBeNull();
      expect(await exec('pwd')).toMatchObject({
        stdout: '/root\n',
        prompt: 'root@control-plane:~# ',
      });
    },
  );

  it('should tell the UI to open its editor when the command is vi', async () => {
    const labs = (await http().get('/api/labs').set('Cookie', ada).expect(200)).body.labs as {
      id: string;
    }[];
    // not `labId`: the rate-limit test below counts that lab's commands
    const lab = labs.find((l) => l.id !== labId)!.id;
    const response = await http()
      .post(`/api/labs/${lab}/exec`)
      .set('Cookie', ada)
      .send({ command: 'vi notes.txt' })
      .expect(200);
    expect(response.body).toMatchObject({
      exitCode: 0,
      prompt: 'root@control-plane:~# ',
      openEditor: { path: '/root/notes.txt', host: 'control-plane' },
    });
  }, 150_000);

  it(
    'should refuse oversized commands and too many commands with clear errors',
    { timeout: 150_000 },
    async () => {
      const long = await http()
        .post(`/api/labs/${labId}/exec`)
        .set('Cookie', ada)
        .send({ command: `echo ${'x'.repeat(10_001)}` });
      expect(long.status).toBe(400);
      expect(long.body.error.message).toMatch(/at most 10000 characters/);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await http()
          .post(`/api/labs/${labId}/exec`)
          .set('Cookie', ada)
          .send({ command: 'kubectl get pods' });
        statuses.push(r.status);
        if (r.status === 429) expect(r.body.error.code).toBe('RATE_LIMITED');
      }
      expect(statuses.slice(0, 5)).not.toContain(429);
      expect(statuses[5]).toBe(429);
    },
  );

  it(
    'should cost no tick jobs and no database writes when a lab has converged for 60 s',
    { timeout: 120_000 },
    async () => {
      expect(idle).toBeDefined();
      expect(await idle).toEqual({ schedulerSeen: 0, ticks: 0, isUnchanged: true });
    },
  );

  it('should wake a hibernated lab when its learner comes back, from the cluster time it stopped at', async () => {
    const id = (await createLab(cyd)).id;
    // as the worker's hibernation leaves it (apps/worker lab-hibernate.int.spec.ts): asleep,
    // its clock anchored an hour ago, its learner gone for longer than that
    const hourAgo = Date.now() - 60 * 60_000;
    await t.prisma.lab.update({
      where: { id },
      data: {
        status: 'HIBERNATED',
        clockAnchorWallMs: hourAgo,
        lastTickWallMs: hourAgo,
        lastActiveAt: new Date(hourAgo),
      },
    });
    const slept = await storedClock(id);
    const summary = (await http().get('/api/labs').set('Cookie', cyd).expect(200)).body.labs as {
      id: string;
      status: string;
    }[];
    expect(summary.find((l) => l.id === id)?.status).toBe('hibernated');

    const view = await getView(cyd, id);
    expect(view.status).toBe('active');
    // no catch-up of the hour: the clock restarts where it stopped
    expect(await storedClock(id)).toMatchObject({ simTimeMs: slept.simTimeMs });
    const row = await t.prisma.lab.findUniqueOrThrow({ where: { id } });
    expect(row.lastActiveAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // and runs again with the wall clock: a command a second later sees it about a second on
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await http()
      .post(`/api/labs/${id}/exec`)
      .set('Cookie', cyd)
      .send({ command: 'kubectl get nodes' })
      .expect(200);
    const moved = (await storedClock(id)).simTimeMs - slept.simTimeMs;
    expect(moved).toBeGreaterThanOrEqual(1_000);
    expect(moved).toBeLessThan(2_000);
  });

  it('should delete a lab and its scheduler when deleted', async () => {
    await http().delete(`/api/labs/${labId}`).set('Cookie', ada).expect(204);
    await http().get(`/api/labs/${labId}`).set('Cookie', ada).expect(404);
    expect(await t.prisma.labObject.count({ where: { labId } })).toBe(0);
  });
});

/** The user id behind a session cookie (the service works with ids). */
let owners = new Map<string, string>();
function ownerOf(cookie: string): string {
  const id = owners.get(cookie);
  if (!id) throw new Error('unknown cookie');
  return id;
}
beforeAll(async () => {
  owners = new Map();
  for (const cookie of [ada, bob, cyd]) {
    const me = await http().get('/api/me').set('Cookie', cookie).expect(200);
    owners.set(cookie, me.body.user.id as string);
  }
});

describe('shutdown', () => {
  it(
    'should end open lab streams and exit when the API process gets SIGTERM',
    { timeout: 60_000 },
    async () => {
      // The real process (built: `npm test` builds before the integration suite): NestJS's signal
      // path closes the HTTP server last, and an open stream used to keep it waiting for ever.
      const main = path.join(ROOT, 'apps/api/dist/main.js');
      expect(existsSync(main), 'apps/api/dist/main.js: run `npm run build` first').toBe(true);
      const port = 4390 + (process.pid % 50);
      const url = `http://127.0.0.1:${port}`;
      const api = spawn(process.execPath, [main], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: testDatabaseUrl(),
          REDIS_KEY_PREFIX: t.config.redisKeyPrefix,
          API_PORT: String(port),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const exited = new Promise<number | string | null>((resolve) =>
        api.once('exit', (code, signal) => resolve(signal ?? code)),
      );
      const lab = await createLab(cyd);
      try {
        await waitFor(
          async () => ((await fetch(`${url}/api/health`).catch(() => null))?.ok ? true : undefined),
          30_000,
          'the API to start',
        );
        const stream = await fetch(`${url}/api/labs/${lab.id}/stream`, {
          headers: { Cookie: cyd },
        });
        expect(stream.status).toBe(200);
        const reader = stream.body!.getReader();
        await reader.read(); // open: `retry:` came through
        api.kill('SIGTERM');
        const timeout = new Promise<string>((resolve) =>
          setTimeout(() => resolve('timeout'), 5_000),
        );
        expect(await Promise.race([exited, timeout])).toBe('SIGTERM');
        const ended = (async () => {
          for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return true;
        })();
        expect(await Promise.race([ended, timeout])).toBe(true);
      } finally {
        api.kill('SIGKILL');
        await http().delete(`/api/labs/${lab.id}`).set('Cookie', cyd);
      }
    },
  );
});
