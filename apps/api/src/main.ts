import 'reflect-metadata';
import { createApp } from './app.factory';
import { loadConfig } from './config/config.loader';

async function bootstrap(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApp(config);
  // enableShutdownHooks (in createApp) closes Prisma and Redis on SIGTERM/SIGINT.
  await app.listen(config.apiPort);
}

bootstrap().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
