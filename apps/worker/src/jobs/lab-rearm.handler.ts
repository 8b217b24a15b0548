import { listLabsNeedingTicks, type TDb } from '@kubejourney/db';
import type { TJobHandler } from './job-definition';
import { LAB_REARM_JOB } from './lab-rearm.job';
import type { TLabScheduler } from './lab-tick.handler';

/** Upserts the scheduler of every converging lab (boot, Redis restart, and every minute). */
export async function rearmLabSchedulers(db: TDb, scheduler: TLabScheduler): Promise<number> {
  const ids = await listLabsNeedingTicks(db);
  for (const labId of ids) await scheduler.arm(labId);
  return ids.length;
}

export function createLabRearmHandler(deps: {
  db: TDb;
  scheduler: TLabScheduler;
}): TJobHandler<Record<string, never>, { armed: number }> {
  return {
    name: LAB_REARM_JOB,
    async handle() {
      return { armed: await rearmLabSchedulers(deps.db, deps.scheduler) };
    },
  };
}
