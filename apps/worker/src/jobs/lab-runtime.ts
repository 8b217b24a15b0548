import { randomUUID } from 'node:crypto';
import {
  bullmqPrefix,
  LAB_QUEUE,
  LAB_TICK_JOB,
  labChannel,
  labSchedulerId,
  type TLabTickPayload,
} from '@kubejourney/contracts';
import { simLabEngine } from '@kubejourney/content';
import { createLabDatabase, findLabHeader, LabStore } from '@kubejourney/db';
import type { SimLab } from '@kubejourney/sim';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { TWorkerConfig } from '../config/worker-config';
import { createJobRegistry } from './job-registry';
import { loadLabWorkerConfig, type TLabWorkerConfig } from './lab-config';
import { labHibernateJob } from './lab-hibernate.job';
import { createLabHibernateHandler } from './lab-hibernate.handler';
import { labRearmJob } from './lab-rearm.job';
import { createLabRearmHandler, rearmLabSchedulers } from './lab-rearm.handler';
import { labTickJob } from './lab-tick.job';
import {
  createLabTickHandler,
  LAB_AFFINITY_MS,
  type TLabScheduler,
  type TLabTickAffinity,
  type TLabTickOutcome,
} from './lab-tick.handler';

export type TLabRuntime = { close(): Promise<void> };

/**
 * Two processes upserting the same Job Scheduler at the same instant (two workers booting, the
 * API arming while a worker re-arms) race on the scheduler's next job id; the loser's error only
 * means the scheduler exists, which is what both wanted.
 */
export async function upsertIgnoringRace(upsert: () => Promise<unknown>): Promise<void> {
  try {
    await upsert();
  } catch (error) {
    if (error instanceof Error && /job ID already exists/.test(error.message)) return;
    throw error;
  }
}

/** A converging lab's tick scheduler: one BullMQ Job Scheduler per lab, `lab.tick` every `everyMs`. */
export function createLabScheduler(queue: Queue<TLabTickPayload>, everyMs: number): TLabScheduler {
  return {
    async arm(labId) {
      await queue.upsertJobScheduler(
        labSchedulerId(labId),
        { every: everyMs },
        {
          name: LAB_TICK_JOB,
          data: { labId },
          opts: { removeOnComplete: true, removeOnFail: 100 },
        },
      );
    },
    async disarm(labId) {
      await queue.removeJobScheduler(labSchedulerId(labId));
    },
  };
}

/** Redis list the ticks append to when LAB_METRICS=1 (read by bench/labs). */
export function labMetricsKey(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}lab-metrics`;
}

/**
 * The labs queue: per-lab tick schedulers (armed by the API and by this worker), plus the
 * minute jobs that hibernate idle labs and re-arm converging ones. Runs beside the maintenance
 * worker, with its own concurrency: ticks are many and short.
 */
export async function startLabRuntime(
  config: TWorkerConfig,
  logger: Logger,
  labConfig: TLabWorkerConfig = loadLabWorkerConfig(process.env),
): Promise<TLabRuntime> {
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  // Notices and tick affinity ride on this one. A tick awaits its commands, so none may hang:
  // a job that never ends would also hold up the worker's shutdown (close waits for it).
  const publisher = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, commandTimeout: 5_000 });
  const prefix = bullmqPrefix(config.redisKeyPrefix);
  const queue = new Queue<TLabTickPayload>(LAB_QUEUE, { connection, prefix });
  // the lab store's own pg pool (libs/db lab-sql.ts says why labs do not go through Prisma);
  // ticks run `tickConcurrency` at a time, each holding one connection
  const db = createLabDatabase(config.databaseUrl, { max: labConfig.tickConcurrency + 2 });
  const store = new LabStore<SimLab>(db, simLabEngine, {
    maxCatchUpMs: labConfig.maxCatchUpMs,
    restoreTraceEvents: labConfig.restoreTraceEvents,
    cacheSize: labConfig.cacheSize,
  });
  const scheduler = createLabScheduler(queue, labConfig.tickEveryMs);
  // a name no other running worker has (two processes may share a pid across machines)
  const self = `${globalThis.process.pid}-${randomUUID().slice(0, 8)}`;
  const tickerKey = (labId: string) => `${config.redisKeyPrefix}lab-ticker:${labId}`;
  const affinity: TLabTickAffinity = {
    self,
    async lastTicker(labId) {
      const value = await publisher.get(tickerKey(labId));
      if (!value) return null;
      const at = value.lastIndexOf(':');
      return { worker: value.slice(0, at), atMs: Number(value.slice(at + 1)) };
    },
    async recordTick(labId) {
      await publisher.set(tickerKey(labId), `${self}:${Date.now()}`, 'PX', LAB_AFFINITY_MS * 4);
    },
    now: Date.now,
  };
  const tickDeps = {
    store,
    findLab: (labId: string) => findLabHeader(db, labId),
    ...(labConfig.isAffinityEnabled ? { affinity } : {}),
    scheduler,
    publish: async (labId: string, notice: unknown) => {
      await publisher.publish(labChannel(config.redisKeyPrefix, labId), JSON.stringify(notice));
    },
    logger,
  };
  const registry = createJobRegistry(
    [labTickJob, labHibernateJob, labRearmJob],
    [
      createLabTickHandler(tickDeps),
      createLabHibernateHandler({
        db,
        store,
        scheduler,
        publish: tickDeps.publish,
        idleMs: labConfig.idleHibernateMs,
        now: Date.now,
        logger,
      }),
      createLabRearmHandler({ db, scheduler }),
    ],
  );

  const upsertMinuteJobs = async () => {
    for (const definition of registry.definitions) {
      const schedule = definition.schedule;
      if (!schedule) continue;
      await upsertIgnoringRace(() =>
        queue.upsertJobScheduler(
          definition.name,
          { pattern: schedule.pattern, tz: 'UTC' },
          { name: definition.name, data: schedule.payload as never },
        ),
      );
    }
  };
  await upsertMinuteJobs();

  const metricsKey = labMetricsKey(config.redisKeyPrefix);
  const process = async (job: Job) => {
    const dueAt = job.timestamp + (job.opts.delay ?? 0);
    const startedAt = Date.now();
    const result = await registry.dispatch(job.name, job.data);
    if (labConfig.isMetricsEnabled && job.name === LAB_TICK_JOB) {
      const tick = result as TLabTickOutcome;
      await publisher.rpush(
        metricsKey,
        JSON.stringify({
          labId: (job.data as TLabTickPayload).labId,
          pid: globalThis.process.pid,
          lagMs: startedAt - dueAt,
          ms: Date.now() - startedAt,
          endedAt: Date.now(),
          ...tick,
        }),
      );
    }
    return result;
  };
  const worker = new Worker(LAB_QUEUE, process, {
    connection,
    prefix,
    concurrency: labConfig.tickConcurrency,
    // A tick runs the simulator synchronously; on a busy machine it can hold the event loop for
    // seconds, so give the job lock room before BullMQ declares it stalled.
    lockDuration: 120_000,
  });
  worker.on('failed', (job, error) =>
    logger.error({ job: job?.name, data: job?.data, err: error }, 'lab job failed'),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'lab worker error'));
  await worker.waitUntilReady();

  // Redis holds no state: a Redis that restarted empty gets every converging lab's scheduler
  // (and the minute jobs) back as soon as we reconnect; at boot likewise.
  const rearmAll = async (why: string) => {
    const armed = await rearmLabSchedulers(db, scheduler);
    logger.info({ armed, why }, 're-armed lab schedulers');
  };
  let wasDisconnected = false;
  connection.on('close', () => {
    wasDisconnected = true;
  });
  connection.on('ready', () => {
    if (!wasDisconnected) return;
    wasDisconnected = false;
    void (async () => {
      await upsertMinuteJobs();
      await rearmAll('redis reconnected');
    })().catch((error: unknown) => logger.error({ err: error }, 'could not re-arm lab schedulers'));
  });
  await rearmAll('boot');

  return {
    async close() {
      await worker.close();
      await queue.close();
      await connection.quit().catch(() => connection.disconnect());
      await publisher.quit().catch(() => publisher.disconnect());
      await db.end();
    },
  };
}
