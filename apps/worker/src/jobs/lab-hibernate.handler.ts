import { listIdleLabs, type LabStore, type TDb } from '@kubejourney/db';
import type { SimLab } from '@kubejourney/sim';
import type { Logger } from 'pino';
import type { TJobHandler } from './job-definition';
import { labHibernateJob } from './lab-hibernate.job';
import { toChangedNotice, type TLabTickDeps } from './lab-tick.handler';

const BATCH = 200;

/**
 * Hibernates labs idle for longer than `idleMs`: their clock stops and their scheduler goes, so
 * a lab stuck in a CrashLoopBackOff nobody watches stops costing ticks. The next request wakes it.
 */
export function createLabHibernateHandler(deps: {
  db: TDb;
  store: Pick<LabStore<SimLab>, 'write'>;
  scheduler: TLabTickDeps['scheduler'];
  publish: TLabTickDeps['publish'];
  idleMs: number;
  now: () => number;
  logger: Logger;
}): TJobHandler<Record<string, never>, { hibernated: number }> {
  return {
    name: labHibernateJob.name,
    async handle() {
      const before = new Date(deps.now() - deps.idleMs);
      let hibernated = 0;
      for (const labId of await listIdleLabs(deps.db, before, BATCH)) {
        const written = await deps.store.write(labId, { skipLocked: true }, (ctx) => {
          // re-checked under the lock: a request may have touched it since the listing
          if (ctx.status !== 'ACTIVE' || ctx.row.lastActiveAt >= before) return false;
          ctx.hibernate();
          return true;
        });
        if (written.kind !== 'ok' || !written.result) continue;
        hibernated++;
        await deps.scheduler.disarm(labId);
        if (written.commit)
          await deps.publish(labId, toChangedNotice(written.commit)).catch(() => undefined);
      }
      if (hibernated > 0) deps.logger.info({ hibernated }, 'hibernated idle labs');
      return { hibernated };
    },
  };
}
