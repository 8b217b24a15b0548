import type { Logger } from 'pino';
import type { TJobHandler } from './job-definition';
import { sessionsPurgeExpiredJob } from './sessions-purge-expired.job';

export type TPurgeExpiredSessions = (now: Date) => Promise<number>;

/** Idempotent: running it twice deletes nothing the second time. */
export function createSessionsPurgeExpiredHandler(deps: {
  purgeExpiredSessions: TPurgeExpiredSessions;
  now: () => Date;
  logger: Logger;
}): TJobHandler<Record<string, never>, { deleted: number }> {
  return {
    name: sessionsPurgeExpiredJob.name,
    async handle() {
      const deleted = await deps.purgeExpiredSessions(deps.now());
      deps.logger.info({ deleted }, 'purged expired sessions');
      return { deleted };
    },
  };
}
