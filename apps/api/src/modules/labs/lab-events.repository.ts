import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { labChannel, type TLabNotice, ZLabNotice } from '@kubejourney/contracts';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../../config/config.module';
import type { TAppConfig } from '../../config/env.schema';
import { REDIS } from '../../infra/redis.module';

type TListener = (notice: TLabNotice) => void;

/**
 * Redis side of labs: the per-lab notice channel (writers publish after each commit, SSE
 * streams follow it) and the per-lab command rate limit. Subscriptions share one subscriber
 * connection per process, with a listener set per lab.
 */
@Injectable()
export class LabEventsRepository implements OnApplicationShutdown {
  private readonly logger = new Logger(LabEventsRepository.name);
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<TListener>>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: TAppConfig,
  ) {}

  async publish(labId: string, notice: TLabNotice): Promise<void> {
    await this.redis.publish(this.channel(labId), JSON.stringify(notice));
  }

  /** Follows a lab's notices; resolves once Redis confirmed the subscription. */
  async subscribe(labId: string, listener: TListener): Promise<() => Promise<void>> {
    const subscriber = this.ensureSubscriber();
    const channel = this.channel(labId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    await subscriber.subscribe(channel);
    return async () => {
      const current = this.listeners.get(channel);
      current?.delete(listener);
      if (current && current.size === 0) {
        this.listeners.delete(channel);
        await subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  /**
   * Counts one command in the lab's fixed window; returns the seconds to wait when over the
   * limit, or null when the command may run.
   */
  async takeCommandToken(
    labId: string,
    limit: number,
    windowSeconds: number,
  ): Promise<number | null> {
    const key = `${this.config.redisKeyPrefix}lab-rate:${labId}`;
    const replies = await this.redis
      .multi()
      .incr(key)
      .expire(key, windowSeconds, 'NX')
      .ttl(key)
      .exec();
    const count = Number(replies?.[0]?.[1] ?? 0);
    const ttl = Number(replies?.[2]?.[1] ?? windowSeconds);
    return count > limit ? Math.max(1, ttl) : null;
  }

  private channel(labId: string): string {
    return labChannel(this.config.redisKeyPrefix, labId);
  }

  private ensureSubscriber(): Redis {
    if (this.subscriber) return this.subscriber;
    // Subscribed connections cannot run other commands: a dedicated one, re-subscribing by
    // itself (ioredis autoResubscribe) after a Redis restart.
    const subscriber = new Redis(this.config.redisUrl, { maxRetriesPerRequest: null });
    subscriber.on('message', (channel: string, message: string) => {
      const set = this.listeners.get(channel);
      if (!set) return;
      const parsed = ZLabNotice.safeParse(JSON.parse(message));
      if (!parsed.success) {
        this.logger.warn(`ignored a malformed lab notice on ${channel}`);
        return;
      }
      for (const listener of set) listener(parsed.data);
    });
    subscriber.on('error', (error: Error) => this.logger.warn(`lab subscriber: ${error.message}`));
    this.subscriber = subscriber;
    return subscriber;
  }

  async onApplicationShutdown(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }
}
