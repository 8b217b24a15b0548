import { z } from 'zod';

// Every setting the API reads from the environment, validated once at boot (config.loader.ts).

const ZBooleanString = z.enum(['true', 'false']).transform((value) => value === 'true');

export const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  API_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/kubejourney'),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** Namespace for every Redis key we write; tests use their own. */
  REDIS_KEY_PREFIX: z.string().min(1).default('kj:'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(168),
  /** Defaults to true in production, false elsewhere (plain http on localhost). */
  COOKIE_SECURE: ZBooleanString.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Express "trust proxy": which hops may set X-Forwarded-For. The web app proxies /api, so the
   * client address (used by the per-IP login limit) comes from it. Default: same host or a
   * private network (docker-compose).
   */
  TRUST_PROXY: z.string().min(1).default('loopback, uniquelocal'),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  LOGIN_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
});

export type TAppConfig = {
  nodeEnv: 'development' | 'test' | 'production';
  apiPort: number;
  databaseUrl: string;
  redisUrl: string;
  redisKeyPrefix: string;
  sessionTtlMs: number;
  cookieSecure: boolean;
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  trustProxy: string;
  loginThrottle: { maxFailures: number; windowSeconds: number };
};
