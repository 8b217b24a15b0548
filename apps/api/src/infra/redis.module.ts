import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import type { TAppConfig } from '../config/env.schema';

export const REDIS = Symbol('REDIS');

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      // Fail a command after a couple of retries instead of queueing it forever, so a Redis
      // outage turns into a fast error (and a 503 on /api/health), not a hung request.
      useFactory: (config: TAppConfig) =>
        new Redis(config.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 2_000 }),
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
