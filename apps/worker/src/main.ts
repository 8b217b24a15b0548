import pino from 'pino';
import { loadWorkerConfig } from './config/worker-config';
import { startWorker } from './worker-runtime';

/** How long finishing the running jobs and closing connections may take after SIGTERM. */
const SHUTDOWN_LIMIT_MS = 30_000;

async function main(): Promise<void> {
  const config = loadWorkerConfig(process.env);
  const logger = pino({ level: config.logLevel, base: { service: 'worker', pid: process.pid } });
  const runtime = await startWorker(config, logger);
  logger.info({ workerId: runtime.workerId }, 'worker ready');

  let isStopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down: finishing running jobs');
    // Jobs are short (a tick takes milliseconds) and BullMQ gives a job a worker never finished
    // to another one, so a shutdown that stalls (a dependency that never answers) ends here
    // rather than keeping a dead worker around until someone SIGKILLs it.
    const watchdog = setTimeout(() => {
      logger.error({ afterMs: SHUTDOWN_LIMIT_MS }, 'shutdown stalled: exiting without waiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    watchdog.unref();
    runtime.close().then(
      () => {
        logger.info('worker stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
