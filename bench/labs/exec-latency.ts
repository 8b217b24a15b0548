// bench/labs/exec-latency: what one `exec` costs the API process right after the worker ticked
// the lab (the API's cached instance is behind the database) and when nothing ticked in between.
//   TSX_TSCONFIG_PATH=tsconfig.depcruise.json npx tsx bench/labs/exec-latency.ts [--execs 30]
// Two LabStores on the real PostgreSQL (TEST_DATABASE_URL or kubejourney_test), as deployed: the
// API's (creates the lab, runs the commands) and the worker's (restores the lab and ticks it every
// 250 ms of injected wall time). A command here is the store write `POST /exec` does: catch up,
// an apiserver list of pods (what `kubectl get pods` sends), the command record. Prints CPU ms
// (this process: simulator, snapshot, Prisma client) and wall ms per exec, median and p95.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  createLabDatabase,
  createPrismaClient,
  LabStore,
  type LabWriteContext,
} from '@kubejourney/db';
import { createLab, restoreLab, runCommandLine, type SimLab } from '@kubejourney/sim';

const { values: args } = parseArgs({
  options: {
    execs: { type: 'string', default: '30' },
    // the API's and the worker's LAB_RESTORE_TRACE_EVENTS default
    'restore-trace': { type: 'string', default: '100' },
  },
});
const EXECS = Number(args.execs);
const url =
  process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/kubejourney_test';

/** What `POST /exec` does in its write: catch up, run the line through the shell, record it. */
function command(ctx: LabWriteContext<SimLab>, input: string): void {
  ctx.catchUp();
  const out = runCommandLine(ctx.lab, input, (ms) => ctx.advance(ms), ctx.terminalState);
  ctx.terminalState = out.terminalState;
  ctx.recordCommand({
    input,
    stdout: out.stdout,
    stderr: out.stderr,
    exitCode: out.exitCode,
    simTimeMs: ctx.lab.now,
    wallMs: 0,
  });
}

async function main(): Promise<void> {
  const prisma = createPrismaClient(url);
  const labDb = createLabDatabase(url);
  let wall = 1_764_000_000_000;
  // restores per store: how often a write had to rebuild its lab from the rows
  const restores = { api: 0, worker: 0 };
  const engineFor = (who: keyof typeof restores) => ({
    create: (b: { kind: string; seed: number }) =>
      b.kind === 'SANDBOX' ? createLab({ seed: b.seed }) : null,
    restore: (text: string) => {
      restores[who]++;
      return restoreLab(text);
    },
    // as libs/content's engine: the worker runs the API's command again instead of restoring
    replayCommand: (
      lab: SimLab,
      c: { input: string },
      terminal: string | null,
      advance: (ms: number) => unknown,
    ) => runCommandLine(lab, c.input, advance, terminal).terminalState,
  });
  const options = {
    maxCatchUpMs: 2_000,
    restoreTraceEvents: Number(args['restore-trace']),
    cacheSize: 10,
    now: () => wall,
  };
  const api = new LabStore<SimLab>(labDb, engineFor('api'), options);
  const worker = new LabStore<SimLab>(labDb, engineFor('worker'), options);
  const ownerId = `bench-${randomUUID()}`;
  await prisma.user.create({
    data: { id: ownerId, email: `${ownerId}@example.test`, passwordHash: 'x', displayName: 'B' },
  });
  const samples = {
    afterTick: { cpu: [] as number[], wall: [] as number[] },
    warm: { cpu: [] as number[], wall: [] as number[] },
  };
  try {
    const created = await api.create(ownerId, { kind: 'SANDBOX', scenarioId: null, seed: 7 }, 100);
    if (created.kind !== 'ok') throw new Error(created.kind);
    const id = created.header.id;
    const tick = async () => {
      wall += 250;
      const r = await worker.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
      if (r.kind !== 'ok') throw new Error(`tick: ${r.kind}`);
    };
    const exec = async (into: { cpu: number[]; wall: number[] }) => {
      wall += 50;
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const r = await api.write(id, { skipLocked: false, ownerId }, (ctx) =>
        command(ctx, 'kubectl get pods'),
      );
      const c = process.cpuUsage(c0);
      if (r.kind !== 'ok') throw new Error(`exec: ${r.kind}`);
      into.cpu.push((c.user + c.system) / 1000);
      into.wall.push(performance.now() - w0);
    };
    for (let i = 0; i < 20; i++) await tick(); // the fresh cluster settles
    await api.write(id, { skipLocked: false, ownerId }, (ctx) =>
      command(ctx, 'kubectl create deployment web --image=nginx:1.27 --replicas=3'),
    );

    for (let i = 0; i < EXECS; i++) {
      // the learner types while the worker ticks the converging lab: one tick, then the command
      await tick();
      await exec(samples.afterTick);
      // and a second command before the next tick: the API's instance is current
      await exec(samples.warm);
    }
    const pick = (xs: number[], q: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
    const sum = (s: { cpu: number[]; wall: number[] }) => ({
      cpuMs: { median: +pick(s.cpu, 0.5).toFixed(2), p95: +pick(s.cpu, 0.95).toFixed(2) },
      wallMs: { median: +pick(s.wall, 0.5).toFixed(2), p95: +pick(s.wall, 0.95).toFixed(2) },
    });
    console.log(
      JSON.stringify({
        execs: EXECS,
        afterTick: sum(samples.afterTick),
        warm: sum(samples.warm),
        restores,
      }),
    );
  } finally {
    await prisma.user.delete({ where: { id: ownerId } });
    await prisma.$disconnect();
    await labDb.end();
  }
}

void main();
