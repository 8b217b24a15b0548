import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from './worker-config';

describe('loadWorkerConfig', () => {
  it('should apply defaults when the environment is empty', () => {
    expect(loadWorkerConfig({})).toEqual({
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/kubejourney',
      redisUrl: 'redis://127.0.0.1:6379',
      redisKeyPrefix: 'kj:',
      logLevel: 'info',
      concurrency: 4,
      heartbeatSeconds: 10,
    });
  });

  it('should name the variable when a value is invalid', () => {
    expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: '0' })).toThrow(/WORKER_CONCURRENCY/);
  });
});
