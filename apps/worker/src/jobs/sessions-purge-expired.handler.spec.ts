import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { JOB_DEFINITIONS } from '.';
import { createSessionsPurgeExpiredHandler } from './sessions-purge-expired.handler';
import { sessionsPurgeExpiredJob } from './sessions-purge-expired.job';

describe('sessions.purge-expired', () => {
  it('should purge with the current time and report the count when it runs', async () => {
    const now = new Date('2026-12-01T10:00:00Z');
    const calls: Date[] = [];
    const handler = createSessionsPurgeExpiredHandler({
      purgeExpiredSessions: async (at) => {
        calls.push(at);
        return 3;
      },
      now: () => now,
      logger: pino({ level: 'silent' }),
    });
    expect(handler.name).toBe('sessions.purge-expired');
    await expect(handler.handle({})).resolves.toEqual({ deleted: 3 });
    expect(calls).toEqual([now]);
  });

  it('should be scheduled hourly and registered when the worker lists its jobs', () => {
    expect(sessionsPurgeExpiredJob.schedule?.pattern).toBe('0 * * * *');
    expect(
      sessionsPurgeExpiredJob.payload.safeParse(sessionsPurgeExpiredJob.schedule?.payload).success,
    ).toBe(true);
    expect(JOB_DEFINITIONS).toContain(sessionsPurgeExpiredJob);
  });
});
