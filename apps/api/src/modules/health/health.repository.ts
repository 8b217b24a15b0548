import { Inject, Injectable } from '@nestjs/common';
import { workerHeartbeatKey } from '@kubejourney/contracts';
import type { TPrismaClient } from '@kubejourney/db';
import type { Redis } from 'ioredis';
import { APP_CONFIG } from '../../config/config.module';
import type { TAppConfig } from '../../config/env.schema';
import { PRISMA } from '../../infra/prisma.module';
import { REDIS } from '../../infra/redis.module';

const PROBE_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

@Injectable()
export class HealthRepository {
  constructor(
    @Inject(PRISMA) private readonly prisma: TPrismaClient,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: TAppConfig,
  ) {}

  async isPostgresUp(): Promise<boolean> {
    return withTimeout(this.prisma.$queryRaw`SELECT 1`).then(
      () => true,
      () => false,
    );
  }

  async isRedisUp(): Promise<boolean> {
    return withTimeout(this.redis.ping()).then(
      (reply) => reply === 'PONG',
      () => false,
    );
  }

  /** Workers refresh a heartbeat key with a short TTL; each live key is one live worker. */
  async countLiveWorkers(): Promise<number> {
    const pattern = workerHeartbeatKey(this.config.redisKeyPrefix, '*');
    let cursor = '0';
    let count = 0;
    do {
      const [next, keys] = await withTimeout(
        this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 100),
      );
      cursor = next;
      count += keys.length;
    } while (cursor !== '0');
    return count;
  }
}
