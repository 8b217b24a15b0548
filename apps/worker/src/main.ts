import pino from 'pino';
import { loadWorkerConfig } from './config/worker-config';
import { startWorker } from './worker-runtime';

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
