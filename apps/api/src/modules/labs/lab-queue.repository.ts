import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  bullmqPrefix,
  LAB_QUEUE,
  LAB_TICK_JOB,
  labSchedulerId,
  type TLabTickPayload,
} from '@kubejourney/contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../../config/config.module';
import type { TAppConfig } from '../../config/env.schema';
import { LABS_CONFIG, type TLabsConfig } from './labs.config';

/**
 * The API's side of the tick schedulers: after a command or a clock change leaves a lab
 * converging, it (re-)arms the lab's Job Scheduler; the worker removes it once the lab is
 * quiescent. Upserting an existing scheduler is a no-op for the lab, so arming is idempotent.
 */
@Injectable()
export class LabQueueRepository implements OnApplicationShutdown {
  private readonly connection: Redis;
  private readonly queue: Queue<TLabTickPayload>;

  constructor(
    @Inject(APP_CONFIG) config: TAppConfig,
    @Inject(LABS_CONFIG) private readonly labs: TLabsConfig,
  ) {
    // A queue connection of its own: BullMQ wants maxRetriesPerRequest null.
    this.connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
    this.queue = new Queue<TLabTickPayload>(LAB_QUEUE, {
      connection: this.connection,
      prefix: bullmqPrefix(config.redisKeyPrefix),
    });
  }

  async arm(labId: string): Promise<void> {
    try {
      await this.queue.upsertJobScheduler(
        labSchedulerId(labId),
        { every: this.labs.tickEveryMs },
        {
          name: LAB_TICK_JOB,
          data: { labId },
          opts: { removeOnComplete: true, removeOnFail: 100 },
        },
      );
    } catch (error) {
      // A worker upserting the same scheduler at the same instant wins the race for its next
      // job id: the scheduler exists, which is all we wanted.
      if (error instanceof Error && /job ID already exists/.test(error.message)) return;
      throw error;
    }
  }

  async disarm(labId: string): Promise<void> {
    await this.queue.removeJobScheduler(labSchedulerId(labId));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
