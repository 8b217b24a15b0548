import { z } from 'zod';

// The worker's environment, validated once at boot.
const ZWorkerEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/kubejourney'),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().min(1).default('kj:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(4),
  WORKER_HEARTBEAT_SECONDS: z.coerce.number().int().positive().default(10),
});

export type TWorkerConfig = {
  databaseUrl: string;
  redisUrl: string;
  redisKeyPrefix: string;
  logLevel: z.infer<typeof ZWorkerEnv>['LOG_LEVEL'];
  concurrency: number;
  heartbeatSeconds: number;
};

export function loadWorkerConfig(env: Record<string, string | undefined>): TWorkerConfig {
  const parsed = ZWorkerEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    logLevel: e.LOG_LEVEL,
    concurrency: e.WORKER_CONCURRENCY,
    heartbeatSeconds: e.WORKER_HEARTBEAT_SECONDS,
  };
}
