import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import type { TAppConfig } from '../config/env.schema';

export const REDIS = Symbol('REDIS');

/** Logs an outage once (not once per reconnect attempt) and its recovery. */
function watchConnection(redis: Redis): void {
  const logger = new Logger('Redis');
  let isDown = false;
  redis.on('error', (error: Error) => {
    if (isDown) return;
    isDown = true;
    logger.warn(`Redis unreachable, retrying: ${error.message}`);
  });
  redis.on('ready', () => {
    if (isDown) logger.log('Redis reachable again');
    isDown = false;
  });
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      // Fail a command after a couple of retries instead of queueing it forever, so a Redis
      // outage turns into a fast error (and a 503 on /api/health), not a hung request.
      useFactory: (config: TAppConfig) => {
        const redis = new Redis(config.redisUrl, {
          maxRetriesPerRequest: 2,
          connectTimeout: 2_000,
        });
        watchConnection(redis);
        return redis;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
