// bench/labs/tick-cost: what one persisted tick costs the worker process, on a converging lab.
//   TSX_TSCONFIG_PATH=tsconfig.depcruise.json npx tsx bench/labs/tick-cost.ts [--ticks 40]
// A sandbox lab settles, a 3-replica Deployment is created through the apiserver, then the lab
// is ticked through the real LabStore (real PostgreSQL, TEST_DATABASE_URL or kubejourney_test)
// every 250 ms of (injected) wall time. Prints CPU ms per tick of this process (simulator +
// snapshot + Prisma client; PostgreSQL's own CPU is not in it) and wall ms per tick.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createLabDatabase, createPrismaClient, LabStore } from '@kubejourney/db';
import { ADMIN_USER, createLab, restoreLab, type SimLab } from '@kubejourney/sim';

const { values: args } = parseArgs({
  options: {
    ticks: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '3' },
    // the worker's LAB_RESTORE_TRACE_EVENTS default
    'restore-trace': { type: 'string', default: '100' },
  },
});
const TICKS = Number(args.ticks);
const ROUNDS = Number(args.rounds);
const RESTORE_TRACE = Number(args['restore-trace']);
const url =
  process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/kubejourney_test';

async function main(): Promise<void> {
  const prisma = createPrismaClient(url);
  const labDb = createLabDatabase(url);
  let wall = 1_764_000_000_000;
  const engine = {
    create: (b: { kind: string; seed: number }) =>
      b.kind === 'SANDBOX' ? createLab({ seed: b.seed }) : null,
    restore: (text: string) => restoreLab(text),
  };
  // As deployed: the API creates the lab and applies, the worker (another store, another cache)
  // restores it and ticks it.
  const options = { maxCatchUpMs: 2_000, restoreTraceEvents: RESTORE_TRACE, now: () => wall };
  const api = new LabStore<SimLab>(labDb, engine, { ...options, cacheSize: 10 });
  const store = new LabStore<SimLab>(labDb, engine, { ...options, cacheSize: 10 });
  const ownerId = `bench-${randomUUID()}`;
  await prisma.user.create({
    data: { id: ownerId, email: `${ownerId}@example.test`, passwordHash: 'x', displayName: 'B' },
  });
  const cpu: number[] = [];
  const walls: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await api.create(
        ownerId,
        { kind: 'SANDBOX', scenarioId: null, seed: 7 },
        100,
      );
      if (created.kind !== 'ok') throw new Error(created.kind);
      const id = created.header.id;
      const tick = async () => {
        wall += 250;
        return store.write(id, { skipLocked: true }, (ctx) => ctx.catchUp());
      };
      for (let i = 0; i < 40; i++) await tick(); // the fresh cluster settles
      await api.write(id, { skipLocked: false }, (ctx) => {
        ctx.catchUp();
        ctx.lab.request(ADMIN_USER, {
          verb: 'create',
          resource: 'deployments',
          namespace: 'default',
          body: {
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
          },
        });
        ctx.isMutated = true;
      });
      for (let i = 0; i < TICKS; i++) {
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        await tick();
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
        walls.push(performance.now() - w0);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      JSON.stringify({
        ticks: TICKS * ROUNDS,
        cpuMsPerTick: { mean: +mean(cpu).toFixed(2), median: +median(cpu).toFixed(2) },
        wallMsPerTick: { mean: +mean(walls).toFixed(2), median: +median(walls).toFixed(2) },
      }),
    );
  } finally {
    await prisma.user.delete({ where: { id: ownerId } });
    await prisma.$disconnect();
    await labDb.end();
  }
}

void main();
