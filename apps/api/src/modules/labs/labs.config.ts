import { z } from 'zod';

// Settings of the labs feature, read from the environment once when the module is built.

const ZLabsEnv = z.object({
  /** labs one learner may hold at once */
  LAB_LIMIT_PER_USER: z.coerce.number().int().positive().default(3),
  /** commands per lab per window (fixed window in Redis) */
  LAB_RATE_LIMIT_COMMANDS: z.coerce.number().int().positive().default(20),
  LAB_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(10),
  /** period of a converging lab's tick scheduler */
  LAB_TICK_EVERY_MS: z.coerce.number().int().min(20).default(250),
  // A write never replays more simulated time than this: when the simulator cannot keep up
  // with the wall clock, the lab's clock slips instead of ticks (and lock holds) growing.
  LAB_MAX_CATCHUP_MS: z.coerce.number().int().positive().default(2_000),
  /** restored labs kept in memory per process */
  LAB_CACHE_SIZE: z.coerce.number().int().positive().default(200),
  // Trace events a restored lab gets back in memory. Every event is in the database already and
  // the server reads them from there; in memory they only make each write's serialize() longer.
  LAB_RESTORE_TRACE_EVENTS: z.coerce.number().int().nonnegative().default(100),
  /** SSE comment sent on idle streams so proxies keep them open */
  LAB_SSE_HEARTBEAT_MS: z.coerce.number().int().positive().default(15_000),
  // A stream whose socket holds more than this many unsent bytes (a slow or stalled reader)
  // stops getting events queued; it resyncs from the database once it drains.
  LAB_SSE_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** a stream that stays over the bound this long is closed (the client resumes by Last-Event-ID) */
  LAB_SSE_STALL_SECONDS: z.coerce.number().int().positive().default(30),
});

export type TLabsConfig = {
  limitPerUser: number;
  rateLimit: { commands: number; windowSeconds: number };
  tickEveryMs: number;
  maxCatchUpMs: number;
  cacheSize: number;
  restoreTraceEvents: number;
  sseHeartbeatMs: number;
  sseMaxBufferedBytes: number;
  sseStallMs: number;
};

export function loadLabsConfig(env: Record<string, string | undefined>): TLabsConfig {
  const parsed = ZLabsEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    limitPerUser: e.LAB_LIMIT_PER_USER,
    rateLimit: {
      commands: e.LAB_RATE_LIMIT_COMMANDS,
      windowSeconds: e.LAB_RATE_LIMIT_WINDOW_SECONDS,
    },
    tickEveryMs: e.LAB_TICK_EVERY_MS,
    maxCatchUpMs: e.LAB_MAX_CATCHUP_MS,
    cacheSize: e.LAB_CACHE_SIZE,
    restoreTraceEvents: e.LAB_RESTORE_TRACE_EVENTS,
    sseHeartbeatMs: e.LAB_SSE_HEARTBEAT_MS,
    sseMaxBufferedBytes: e.LAB_SSE_MAX_BUFFERED_BYTES,
    sseStallMs: e.LAB_SSE_STALL_SECONDS * 1_000,
  };
}

export const LABS_CONFIG = Symbol('LABS_CONFIG');
