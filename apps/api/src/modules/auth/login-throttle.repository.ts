import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG } from '../../config/config.module';
import type { TAppConfig } from '../../config/env.schema';
import { REDIS } from '../../infra/redis.module';

/** Who a failed login is counted against. */
export type TLoginSubjects = { ip: string; email: string };

export type TFailureCount = { count: number; ttlSeconds: number };

/**
 * Fixed-window failure counters in Redis, one per IP and one per email (hashed, so Redis holds
 * no addresses). The window starts at the first failure and is not extended by later ones.
 */
@Injectable()
export class LoginThrottleRepository {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: TAppConfig,
  ) {}

  async getFailures(subjects: TLoginSubjects): Promise<TFailureCount[]> {
    const keys = this.keysFor(subjects);
    const pipeline = this.redis.multi();
    for (const key of keys) pipeline.get(key).ttl(key);
    const replies = (await pipeline.exec()) ?? [];
    return keys.map((_key, index) => {
      const [countError, count] = replies[index * 2] ?? [];
      const [ttlError, ttl] = replies[index * 2 + 1] ?? [];
      if (countError || ttlError) throw countError ?? ttlError;
      return { count: Number(count ?? 0), ttlSeconds: Number(ttl) };
    });
  }

  async recordFailure(subjects: TLoginSubjects, windowSeconds: number): Promise<void> {
    const pipeline = this.redis.multi();
    for (const key of this.keysFor(subjects)) {
      pipeline.incr(key).expire(key, windowSeconds, 'NX');
    }
    await pipeline.exec();
  }

  async clearEmail(email: string): Promise<void> {
    await this.redis.del(this.emailKey(email));
  }

  private keysFor({ ip, email }: TLoginSubjects): string[] {
    return [`${this.config.redisKeyPrefix}login-failures:ip:${ip}`, this.emailKey(email)];
  }

  private emailKey(email: string): string {
    const digest = createHash('sha256').update(email).digest('hex');
    return `${this.config.redisKeyPrefix}login-failures:email:${digest}`;
  }
}
