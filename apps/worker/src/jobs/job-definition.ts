import type { z } from 'zod';

/**
 * What a job is, separate from what it does: its name (also the BullMQ job name), the zod schema
 * its payload must satisfy, and optionally a repeat schedule. Handlers live in *.handler.ts.
 */
export type TJobDefinition<TPayload = unknown> = {
  name: string;
  payload: z.ZodType<TPayload>;
  /** Cron pattern (UTC); the worker keeps one BullMQ Job Scheduler per scheduled job. */
  schedule?: { pattern: string; payload: TPayload };
};

export type TJobHandler<TPayload = unknown, TResult = unknown> = {
  name: string;
  handle(payload: TPayload): Promise<TResult>;
};

export function defineJob<TPayload>(
  definition: TJobDefinition<TPayload>,
): TJobDefinition<TPayload> {
  return definition;
}
