import { Injectable } from '@nestjs/common';
import type { THealthResponse } from '@kubejourney/contracts';
import { HealthRepository } from './health.repository';

@Injectable()
export class HealthService {
  constructor(private readonly health: HealthRepository) {}

  async check(): Promise<THealthResponse> {
    const [postgres, redis] = await Promise.all([
      this.health.isPostgresUp(),
      this.health.isRedisUp(),
    ]);
    const workers = redis ? await this.health.countLiveWorkers().catch(() => 0) : 0;
    return {
      status: postgres && redis ? 'ok' : 'error',
      checks: { postgres: postgres ? 'up' : 'down', redis: redis ? 'up' : 'down' },
      workers,
    };
  }
}
