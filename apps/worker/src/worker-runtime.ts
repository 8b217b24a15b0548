import { hostname } from 'node:os';
import { bullmqPrefix, MAINTENANCE_QUEUE, workerHeartbeatKey } from '@kubejourney/contracts';
import { createPrismaClient, purgeExpiredSessions } from '@kubejourney/db';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { TWorkerConfig } from './config/worker-config';
import { startHeartbeat } from './heartbeat';
import { JOB_DEFINITIONS } from './jobs';
import { createJobRegistry } from './jobs/job-registry';
import { startLabRuntime } from './jobs/lab-runtime';
import { createSessionsPurgeExpiredHandler } from './jobs/sessions-purge-expired.handler';

export type TWorkerRuntime = {
  workerId: string;
  /** Stops taking jobs, waits for running ones, then releases every connection. */
  close(): Promise<void>;
};

export async function startWorker(config: TWorkerConfig, logger: Logger): Promise<TWorkerRuntime> {
  const prisma = createPrismaClient(config.databaseUrl);
  // BullMQ needs maxRetriesPerRequest: null so its blocking commands are never cut off.
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const registry = createJobRegistry(JOB_DEFINITIONS, [
    createSessionsPurgeExpiredHandler({
      purgeExpiredSessions: (now) => purgeExpiredSessions(prisma, now),
      now: () => new Date(),
      logger,
    }),
  ]);
  const prefix = bullmqPrefix(config.redisKeyPrefix);

  // Schedulers are upserted on every boot, so Redis can be wiped without losing schedules.
  const queue = new Queue(MAINTENANCE_QUEUE, { connection, prefix });
  for (const definition of registry.definitions) {
    if (!definition.schedule) continue;
    await queue.upsertJobScheduler(
      definition.name,
      { pattern: definition.schedule.pattern, tz: 'UTC' },
      { name: definition.name, data: definition.schedule.payload },
    );
  }

  const worker = new Worker(MAINTENANCE_QUEUE, (job) => registry.dispatch(job.name, job.data), {
    connection,
    prefix,
    concurrency: config.concurrency,
  });
  worker.on('completed', (job, result) =>
    logger.info({ job: job.name, id: job.id, result }, 'job completed'),
  );
  worker.on('failed', (job, error) =>
    logger.error({ job: job?.name, id: job?.id, err: error }, 'job failed'),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'worker error'));
  await worker.waitUntilReady();

  const labs = await startLabRuntime(config, logger);

  const workerId = `${hostname()}:${process.pid}`;
  const heartbeat = await startHeartbeat(
    connection,
    workerHeartbeatKey(config.redisKeyPrefix, workerId),
    config.heartbeatSeconds,
  );

  return {
    workerId,
    async close() {
      await heartbeat.stop();
      await labs.close();
      await worker.close();
      await queue.close();
      await prisma.$disconnect();
      await connection.quit();
    },
  };
}
