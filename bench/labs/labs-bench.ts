// bench/labs: labs at runtime, measured end to end on this machine, side by side with pgbench.
//   npm run build && TSX_TSCONFIG_PATH=tsconfig.depcruise.json npx tsx bench/labs/labs-bench.ts [--labs 50]
//     [--workers 2] [--window 20] [--create 10] [--users 50] [--budget 180] [--duration 15]
//     [--pgbench 15] [--pace 1] [--profile DIR]
// --labs 1000 is bounded in time: labs are created (8 at a time) until --budget seconds have
// passed, and the run reports how many it reached; then every lab gets its Deployment and the
// window (--window seconds) starts with the first one.
// A smoke run (does the tooling work?): --labs 4 --window 5 --create 2 --users 4 --duration 3
//   --pgbench 3
// Starts its own API (port 4310) and worker processes on a database of its own
// (kubejourney_bench), prints a summary and writes bench/results/labs-<time>.json.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPrismaClient } from '@kubejourney/db';
import { createRng } from '@kubejourney/sim';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';

const ROOT = path.resolve(__dirname, '../..');
const { values: args } = parseArgs({
  options: {
    labs: { type: 'string', default: '50' },
    workers: { type: 'string', default: '2' },
    window: { type: 'string', default: '20' },
    create: { type: 'string', default: '10' },
    users: { type: 'string', default: '50' },
    budget: { type: 'string', default: '180' },
    duration: { type: 'string', default: '15' },
    pgbench: { type: 'string', default: '15' },
    /** seconds between one user's commands in the paced part of D (a learner typing) */
    pace: { type: 'string', default: '1' },
    /** write V8 CPU profiles of the API and the workers into this folder */
    profile: { type: 'string' },
  },
});
const LABS = Number(args.labs);
const WORKERS = Number(args.workers);
const WINDOW_S = Number(args.window);
const CREATE_RUNS = Number(args.create);
const USERS = Number(args.users);
const BUDGET_S = Number(args.budget);
const DURATION_S = Number(args.duration);
const PGBENCH_S = Number(args.pgbench);
const PACE_S = Number(args.pace);
const PROFILE_DIR = args.profile ? path.resolve(args.profile) : null;
/** labs created or applied at once in part C */
const IN_FLIGHT = 8;
const PG = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
const DB_URL = `${PG}/kubejourney_bench`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `kj-bench:${randomUUID().slice(0, 8)}:`;
const PORT = 4310;
const BASE = `http://127.0.0.1:${PORT}`;

/** The Deployment every lab gets: 3 replicas of a cached image, `web-...` pods. */
const APPLY_COMMAND = 'kubectl create deployment web --image=nginx:1.27 --replicas=3';

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs one statement; the first column of its first row, if any. */
async function sql(database: string, text: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: `${PG}/${database}` });
  await client.connect();
  try {
    const result = await client.query(text);
    const row = result.rows[0] as Record<string, unknown> | undefined;
    return row ? Object.values(row)[0] : undefined;
  } finally {
    await client.end();
  }
}

function pgbenchTps(): number {
  const db = 'kj_bench_pgbench';
  const url = new URL(PG);
  const common = ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username || 'postgres'];
  execFileSync('pgbench', [...common, '-i', '-q', '-s', '10', db], { stdio: 'ignore' });
  const out = execFileSync(
    'pgbench',
    [...common, '-b', 'simple-update', '-c', '8', '-j', '2', '-T', String(PGBENCH_S), '-n', db],
    { encoding: 'utf8' },
  );
  const match = /tps = ([\d.]+)/.exec(out);
  return match ? Number(match[1]) : NaN;
}

/** Runs a built app (`npm run build` first: NestJS needs the decorator metadata tsc emits). */
function start(file: string, env: Record<string, string>): ChildProcess {
  const profiling = PROFILE_DIR
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${PROFILE_DIR}`,
        '-r',
        path.join(__dirname, 'exit-on-signal.cjs'),
      ]
    : [];
  return spawn(process.execPath, [...profiling, file], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function api(method: string, url: string, cookie: string, body?: unknown) {
  const response = await fetch(`${BASE}${url}`, {
    method,
    headers: { Cookie: cookie, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    headers: response.headers,
  };
}

async function signup(i: number): Promise<string> {
  const r = await fetch(`${BASE}/api/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${PREFIX.slice(9, 17)}-${i}@example.com`,
      password: 'Benchmark-12345',
      displayName: `bench ${i}`,
    }),
  });
  if (r.status !== 201) throw new Error(`signup ${r.status}`);
  return (r.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

/** Runs `task(0..count-1)` IN_FLIGHT at a time; a task answering false stops new ones. */
async function inParallel(count: number, task: (i: number) => Promise<boolean>): Promise<void> {
  let next = 0;
  let isStopped = false;
  const lane = async () => {
    while (!isStopped && next < count) {
      const i = next++;
      if (!(await task(i))) isStopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count) }, lane));
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = {
    at: new Date().toISOString(),
    cores: cpus().length,
    // the machine's load when the run started (1, 5, 15 min): a shared machine skews everything
    loadavg: loadavg(),
    labs: LABS,
    workers: WORKERS,
  };
  console.log(
    `nproc=${cpus().length} loadavg=${loadavg().map((l) => l.toFixed(2))}; pgbench simple-update (scale 10, 8 clients, ${PGBENCH_S} s)...`,
  );
  await sql('postgres', 'DROP DATABASE IF EXISTS kj_bench_pgbench').catch(() => undefined);
  await sql('postgres', 'CREATE DATABASE kj_bench_pgbench');
  const tps = pgbenchTps();
  results.pgbenchTps = tps;
  results.postgresAutovacuum = await sql('postgres', 'SHOW autovacuum');
  console.log(`pgbench tps=${tps.toFixed(0)}`);

  await sql('postgres', 'DROP DATABASE IF EXISTS kubejourney_bench WITH (FORCE)');
  await sql('postgres', 'CREATE DATABASE kubejourney_bench');
  execFileSync(path.join(ROOT, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: DB_URL },
    stdio: 'ignore',
  });

  const env = {
    DATABASE_URL: DB_URL,
    REDIS_URL,
    REDIS_KEY_PREFIX: PREFIX,
    LOG_LEVEL: 'warn',
    API_PORT: String(PORT),
    LAB_LIMIT_PER_USER: '100000',
    LAB_RATE_LIMIT_COMMANDS: '1000000',
    LAB_METRICS: '1',
    LOGIN_MAX_FAILURES: '1000000',
  };
  const children: ChildProcess[] = [start('apps/api/dist/main.js', env)];
  for (let i = 0; i < WORKERS; i++) children.push(start('apps/worker/dist/main.js', env));
  const redis = new Redis(REDIS_URL);
  const prisma = createPrismaClient(DB_URL);
  // A learner's apply: one command through POST /exec (the API runs it on its cached lab and
  // arms the lab's tick scheduler, as for any command that leaves the cluster converging).
  const apply = async (cookie: string, labId: string) => {
    const r = await api('POST', `/api/labs/${labId}/exec`, cookie, { command: APPLY_COMMAND });
    if (r.status !== 200 || r.body?.exitCode !== 0) {
      throw new Error(`apply on lab ${labId}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  const isConverged = async (cookie: string, labId: string) => {
    const v = await api('GET', `/api/labs/${labId}`, cookie);
    const web = (v.body.pods as { name: string; phase: string; isReady: boolean }[]).filter((p) =>
      p.name.startsWith('web-'),
    );
    return web.length === 3 && web.every((p) => p.phase === 'Running' && p.isReady);
  };

  try {
    for (let i = 0; ; i++) {
      const up = await fetch(`${BASE}/api/health`).catch(() => null);
      if (up?.ok) break;
      if (i > 240) throw new Error('API did not start');
      await sleep(500);
    }
    const cookie = await signup(0);

    // A. lab creation -> first exec answered
    const createToExec: number[] = [];
    let execStatus = 0;
    const created: string[] = [];
    for (let i = 0; i < CREATE_RUNS; i++) {
      const t0 = performance.now();
      const lab = await api('POST', '/api/labs', cookie, { kind: 'sandbox' });
      const exec = await api('POST', `/api/labs/${lab.body.id}/exec`, cookie, {
        command: 'kubectl get nodes',
      });
      execStatus = exec.status;
      createToExec.push(performance.now() - t0);
      created.push(lab.body.id as string);
    }
    results.createToFirstExec = {
      p50: pct(createToExec, 50),
      p95: pct(createToExec, 95),
      execStatus,
    };
    console.log('A create->first exec', results.createToFirstExec);

    // B. apply -> 3/3 Running seen by the API at 1x
    const toRunning: number[] = [];
    for (const labId of created.slice(0, Math.min(5, created.length))) {
      const t0 = performance.now();
      await apply(cookie, labId);
      while (!(await isConverged(cookie, labId))) await sleep(50);
      toRunning.push(performance.now() - t0);
    }
    results.applyToRunning = {
      p50: pct(toRunning, 50),
      p95: pct(toRunning, 95),
      n: toRunning.length,
    };
    console.log('B apply->3/3 Running', results.applyToRunning);
    for (const labId of created) await api('DELETE', `/api/labs/${labId}`, cookie);

    // C. LABS labs converging at once, WORKERS worker processes. Creating is bounded by BUDGET_S:
    // with --labs 1000 on a small machine the run stops where the budget ends and reports how
    // many labs it reached. A created sandbox is booted and quiescent (no ticks); the window
    // starts when the Deployments start to be applied (8 at a time), so it sees every lab
    // converge.
    const many: string[] = [];
    const tCreate = performance.now();
    const deadline = Date.now() + BUDGET_S * 1000;
    await inParallel(LABS, async () => {
      if (Date.now() > deadline) return false;
      const lab = await api('POST', '/api/labs', cookie, { kind: 'sandbox' });
      if (lab.status !== 201) throw new Error(`create lab: HTTP ${lab.status}`);
      many.push(lab.body.id as string);
      return true;
    });
    results.createSeconds = (performance.now() - tCreate) / 1000;
    console.log(`C ${many.length}/${LABS} labs created in ${results.createSeconds} s`);
    const metricsKey = `${PREFIX}lab-metrics`;
    await redis.del(metricsKey);
    const revBefore = await prisma.lab.aggregate({ _sum: { revision: true } });
    const w0 = performance.now();
    await inParallel(many.length, async (i) => {
      await apply(cookie, many[i]!);
      return true;
    });
    const applySeconds = (performance.now() - w0) / 1000;
    await sleep(Math.max(0, WINDOW_S * 1000 - (performance.now() - w0)));
    const windowS = (performance.now() - w0) / 1000;
    const revAfter = await prisma.lab.aggregate({ _sum: { revision: true } });
    const samples = (await redis.lrange(metricsKey, 0, -1)).map(
      (s) => JSON.parse(s) as { lagMs: number; ms: number; outcome: string; endedAt: number },
    );
    const ticked = samples.filter((s) => s.outcome === 'ticked');
    // The window's average is bounded by demand (a lab needs a handful of ticks, then goes
    // quiescent); the busiest PEAK_S seconds show what the workers can persist when every lab
    // wants ticks at once.
    const PEAK_S = 5;
    const ends = ticked.map((s) => s.endedAt).sort((a, b) => a - b);
    let peakTicks = 0;
    for (let i = 0, j = 0; j < ends.length; j++) {
      while ((ends[j] as number) - (ends[i] as number) >= PEAK_S * 1000) i++;
      peakTicks = Math.max(peakTicks, j - i + 1);
    }
    const peakPerS = peakTicks / PEAK_S;
    // ticks the workers persisted (every write of the window, the applies included, beside it)
    const persistedPerS = ticked.length / windowS;
    const writesPerS = ((revAfter._sum.revision ?? 0) - (revBefore._sum.revision ?? 0)) / windowS;
    let running = 0;
    for (const labId of many) if (await isConverged(cookie, labId)) running++;
    results.converging = {
      requestedLabs: LABS,
      labs: many.length,
      applySeconds,
      windowS,
      ticks: samples.length,
      persistedTicksPerS: persistedPerS,
      writesPerS,
      ratioToPgbench: persistedPerS / tps,
      peakPersistedTicksPerS: peakPerS,
      peakRatioToPgbench: peakPerS / tps,
      // the lag of the ticks that ran; a job a worker leaves to the lab's last ticker
      // ('deferred') starts on time but does nothing, so it is counted apart
      lagP50: pct(
        ticked.map((s) => s.lagMs),
        50,
      ),
      lagP99: pct(
        ticked.map((s) => s.lagMs),
        99,
      ),
      allJobsLagP99: pct(
        samples.map((s) => s.lagMs),
        99,
      ),
      deferred: samples.filter((s) => s.outcome === 'deferred').length,
      tickMsP50: pct(
        ticked.map((s) => s.ms),
        50,
      ),
      tickMsP99: pct(
        ticked.map((s) => s.ms),
        99,
      ),
      converged: running,
    };
    console.log('C converging', results.converging);
    await inParallel(many.length, async (i) => {
      await api('DELETE', `/api/labs/${many[i]}`, cookie);
      return true;
    });
    // Deleting the labs leaves ~1,500 dead rows per lab behind. A PostgreSQL with autovacuum on
    // (its default, and docker-compose's) reclaims them in the background; without it (this
    // machine's setting) every later lookup of D wades through them. Vacuum here, timed, so that
    // D measures commands and not C's leftovers.
    const v0 = performance.now();
    await sql('kubejourney_bench', 'VACUUM (ANALYZE)');
    results.vacuumAfterCSeconds = (performance.now() - v0) / 1000;

    // D. exec round trip, USERS concurrent users each on their own lab
    const users: { cookie: string; lab: string }[] = [];
    for (let i = 1; i <= USERS; i++) {
      const c = await signup(i);
      users.push({
        cookie: c,
        lab: (await api('POST', '/api/labs', c, { kind: 'sandbox' })).body.id,
      });
    }
    // A learner types into a lab that has settled: wait for every lab to be quiescent first
    // (booting labs tick and would measure part C again).
    const settleBy = Date.now() + 60_000;
    for (const u of users) {
      while (Date.now() < settleBy) {
        const v = await api('GET', `/api/labs/${u.lab}`, u.cookie);
        if (v.body?.clock?.quiescent) break;
        await sleep(200);
      }
    }
    const probe = await api('POST', `/api/labs/${users[0]!.lab}/exec`, users[0]!.cookie, {
      command: 'kubectl get pods',
    });
    const isExec = probe.status === 200;
    const requestOf = (u: { cookie: string; lab: string }): autocannon.TRequest =>
      isExec
        ? {
            method: 'POST' as const,
            path: `/api/labs/${u.lab}/exec`,
            headers: { cookie: u.cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ command: 'kubectl get pods' }),
          }
        : { method: 'GET' as const, path: `/api/labs/${u.lab}`, headers: { cookie: u.cookie } };
    // One connection per user, each on the user's own lab (commands on one lab serialize on its
    // row lock, which is not what 50 learners at once look like). "saturated": back to back, which
    // measures the throughput ceiling (latency there is USERS / throughput, by Little's law).
    const saturate = async () => {
      let nextUser = 0;
      const run = await autocannon({
        url: BASE,
        connections: USERS,
        duration: DURATION_S,
        requests: [requestOf(users[0]!)],
        setupClient: (client) => {
          client.setRequests([requestOf(users[nextUser++ % users.length]!)]);
        },
      });
      return {
        p50: run.latency.p50,
        p90: run.latency.p90,
        p99: run.latency.p99,
        max: run.latency.max,
        rps: run.requests.average,
        non2xx: run.non2xx,
      };
    };
    // "paced": each user sends a command on average every PACE_S seconds, at random moments
    // (exponential gaps, so users are independent rather than firing in lockstep as autocannon's
    // connectionRate would make them), as learners typing at a fast pace.
    const pace = async () => {
      const latencies: number[] = [];
      let failures = 0;
      const until = Date.now() + DURATION_S * 1000;
      // seeded: two runs send the same pattern of gaps
      const rng = createRng(42);
      await Promise.all(
        users.map(async (u) => {
          const request = requestOf(u);
          await sleep(rng.next() * PACE_S * 1000);
          while (Date.now() < until) {
            const t0 = performance.now();
            const r = await fetch(`${BASE}${request.path}`, {
              method: request.method,
              headers: request.headers,
              body: request.body,
            });
            await r.arrayBuffer();
            latencies.push(performance.now() - t0);
            if (r.status >= 300) failures++;
            await sleep(-Math.log(1 - rng.next()) * PACE_S * 1000);
          }
        }),
      );
      return {
        p50: pct(latencies, 50),
        p90: pct(latencies, 90),
        p99: pct(latencies, 99),
        max: pct(latencies, 100),
        rps: latencies.length / DURATION_S,
        non2xx: failures,
      };
    };
    // Worker ticks while commands run: a command that leaves its lab converging arms the lab's
    // scheduler, and each such tick costs CPU beside the API (and a restore: the worker's copy of
    // the lab is behind the command).
    const withTicks = async <T>(measure: () => Promise<T>) => {
      const before = await redis.llen(metricsKey);
      const result = await measure();
      const samples = await redis.lrange(metricsKey, before, -1);
      const ticked = samples.filter(
        (s) => (JSON.parse(s) as { outcome: string }).outcome === 'ticked',
      );
      return { ...result, workerTicks: samples.length, workerTicksPersisted: ticked.length };
    };
    results.concurrent = {
      route: isExec ? 'POST exec' : `GET view (exec answered ${probe.status})`,
      users: USERS,
      paceS: PACE_S,
      paced: await withTicks(pace),
      saturated: await withTicks(saturate),
    };
    console.log('D concurrent', results.concurrent);
  } finally {
    await Promise.all(children.map((child) => stop(child)));
    await redis.quit();
    await prisma.$disconnect();
  }
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  const file = path.join(ROOT, `bench/results/labs-${Date.now()}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`results: ${file}`);
  // undici's keep-alive sockets to the (stopped) API must not keep the bench alive
  process.exit(0);
}

/** Stops a child and waits for it: SIGTERM (SIGUSR2 when profiling), SIGKILL after 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(PROFILE_DIR ? 'SIGUSR2' : 'SIGTERM');
  const timer = setTimeout(() => {
    console.error(`pid ${child.pid} ignored the signal for 10 s: SIGKILL`);
    child.kill('SIGKILL');
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
