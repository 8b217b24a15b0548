import { z } from 'zod';

// The lab runtime's settings, validated once at boot (the worker's other settings live in
// config/worker-config.ts).
const ZLabWorkerEnv = z.object({
  /** period of a converging lab's tick scheduler */
  LAB_TICK_EVERY_MS: z.coerce.number().int().min(20).default(250),
  /** ticks one worker process runs at once (they overlap on database round trips) */
  LAB_TICK_CONCURRENCY: z.coerce.number().int().positive().default(8),
  /** a lab nobody used for this long hibernates */
  LAB_IDLE_HIBERNATE_MINUTES: z.coerce.number().positive().default(30),
  // A write never replays more simulated time than this: when the simulator cannot keep up
  // with the wall clock, the lab's clock slips instead of ticks (and lock holds) growing.
  LAB_MAX_CATCHUP_MS: z.coerce.number().int().positive().default(2_000),
  LAB_CACHE_SIZE: z.coerce.number().int().positive().default(2_000),
  // Trace events a restored lab gets back in memory. Every event is in the database already and
  // the server reads them from there; in memory they only make each write's serialize() longer.
  LAB_RESTORE_TRACE_EVENTS: z.coerce.number().int().nonnegative().default(100),
  /** leave a lab to the worker that ticked it last (see lab-tick.handler.ts); 0 turns it off */
  LAB_TICK_AFFINITY: z.enum(['0', '1']).default('1'),
  /** record every tick's lag and outcome in Redis (benchmarks) */
  LAB_METRICS: z.enum(['0', '1']).default('0'),
});

export type TLabWorkerConfig = {
  tickEveryMs: number;
  tickConcurrency: number;
  idleHibernateMs: number;
  maxCatchUpMs: number;
  cacheSize: number;
  restoreTraceEvents: number;
  isMetricsEnabled: boolean;
  isAffinityEnabled: boolean;
};

export function loadLabWorkerConfig(env: Record<string, string | undefined>): TLabWorkerConfig {
  const parsed = ZLabWorkerEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    tickEveryMs: e.LAB_TICK_EVERY_MS,
    tickConcurrency: e.LAB_TICK_CONCURRENCY,
    idleHibernateMs: e.LAB_IDLE_HIBERNATE_MINUTES * 60_000,
    maxCatchUpMs: e.LAB_MAX_CATCHUP_MS,
    cacheSize: e.LAB_CACHE_SIZE,
    restoreTraceEvents: e.LAB_RESTORE_TRACE_EVENTS,
    isMetricsEnabled: e.LAB_METRICS === '1',
    isAffinityEnabled: e.LAB_TICK_AFFINITY === '1',
  };
}
