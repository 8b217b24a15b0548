import { describe, expect, it } from 'vitest';
import type { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

function serviceWith(postgres: boolean, redis: boolean, workers = 2): HealthService {
  const repository: { [K in keyof HealthRepository]: HealthRepository[K] } = {
    isPostgresUp: async () => postgres,
    isRedisUp: async () => redis,
    countLiveWorkers: async () => workers,
  };
  return new HealthService(repository as HealthRepository);
}

describe('HealthService', () => {
  it.each([
    [true, true, 'ok', 'up', 'up', 2],
    [false, true, 'error', 'down', 'up', 2],
    [true, false, 'error', 'up', 'down', 0],
    [false, false, 'error', 'down', 'down', 0],
  ] as const)(
    'should report postgres=%s redis=%s as %s',
    async (pg, redis, status, pgCheck, redisCheck, workers) => {
      expect(await serviceWith(pg, redis).check()).toEqual({
        status,
        checks: { postgres: pgCheck, redis: redisCheck },
        workers,
      });
    },
  );
});
