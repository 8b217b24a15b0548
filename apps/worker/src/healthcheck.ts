// Container health probe (docker-compose `healthcheck`): healthy while this host has at least one
// worker process whose heartbeat key is alive in Redis. Exit 0 healthy, 1 otherwise.
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { workerHeartbeatKey } from '@kubejourney/contracts';
import { loadWorkerConfig } from './config/worker-config';

async function main(): Promise<number> {
  const config = loadWorkerConfig(process.env);
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(workerHeartbeatKey(config.redisKeyPrefix, `${hostname()}:*`));
    return keys.length > 0 ? 0 : 1;
  } finally {
    redis.disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  () => process.exit(1),
);
