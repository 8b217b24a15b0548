import type { Redis } from 'ioredis';

export type THeartbeat = { stop(): Promise<void> };

/**
 * Keeps a key alive while this process runs (value: who and when), so the API can count live
 * workers. The TTL is three beats: a crashed worker disappears within that time.
 */
export async function startHeartbeat(
  redis: Redis,
  key: string,
  intervalSeconds: number,
): Promise<THeartbeat> {
  const startedAt = new Date().toISOString();
  const beat = () =>
    redis.set(
      key,
      JSON.stringify({ pid: process.pid, startedAt, at: new Date().toISOString() }),
      'EX',
      intervalSeconds * 3,
    );
  await beat();
  const timer = setInterval(() => void beat().catch(() => undefined), intervalSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await redis.del(key);
    },
  };
}
