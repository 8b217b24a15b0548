import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createPrismaClient, type TPrismaClient } from '@kubejourney/db';
import { Redis } from 'ioredis';
import { testDatabaseUrl } from '../../../libs/db/test/test-database';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/config.loader';
import type { TAppConfig } from '../src/config/env.schema';

export type TTestApp = {
  app: NestExpressApplication;
  config: TAppConfig;
  prisma: TPrismaClient;
  redis: Redis;
  /** Empties our tables and deletes only this run's Redis keys. */
  reset(): Promise<void>;
  close(): Promise<void>;
};

/** The real app, in-process, on the test database and a Redis key prefix of its own. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TTestApp> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDatabaseUrl(),
    REDIS_KEY_PREFIX: `kj-test:${randomUUID()}:`,
    ...env,
  });
  const app = await createApp(config);
  await app.init();
  const prisma = createPrismaClient(config.databaseUrl);
  const redis = new Redis(config.redisUrl);
  redis.on('error', () => undefined); // some tests point the app at an unreachable Redis

  async function reset(): Promise<void> {
    await prisma.$executeRawUnsafe('TRUNCATE TABLE "Session", "User" CASCADE');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.redisKeyPrefix}*`);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  }

  return {
    app,
    config,
    prisma,
    redis,
    reset,
    async close() {
      await reset();
      await app.close();
      await prisma.$disconnect();
      await redis.quit();
    },
  };
}
