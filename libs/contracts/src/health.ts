import { z } from 'zod';

// GET /api/health. 200 when every check is up, 503 otherwise (same body shape).

export const ZCheckStatus = z.enum(['up', 'down']);
export type TCheckStatus = z.infer<typeof ZCheckStatus>;

export const ZHealthResponse = z.object({
  status: z.enum(['ok', 'error']),
  checks: z.object({ postgres: ZCheckStatus, redis: ZCheckStatus }),
  /** Worker processes with a live heartbeat in Redis; informational, does not affect status. */
  workers: z.number().int().nonnegative(),
});
export type THealthResponse = z.infer<typeof ZHealthResponse>;

/** Redis key each worker process refreshes while alive (value: ISO time, short TTL). */
export function workerHeartbeatKey(redisKeyPrefix: string, workerId: string): string {
  return `${redisKeyPrefix}worker:${workerId}`;
}
