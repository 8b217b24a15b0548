import type { TLabNotice, TLabTickPayload } from '@kubejourney/contracts';
import type { LabStore, TLabCommit, TLabHeader } from '@kubejourney/db';
import type { SimLab } from '@kubejourney/sim';
import type { Logger } from 'pino';
import type { TJobHandler } from './job-definition';
import { labTickJob } from './lab-tick.job';

export type TLabScheduler = {
  arm(labId: string): Promise<void>;
  disarm(labId: string): Promise<void>;
};

export type TLabTickDeps = {
  store: Pick<LabStore<SimLab>, 'write'>;
  findLab(labId: string): Promise<TLabHeader | null>;
  scheduler: TLabScheduler;
  publish(labId: string, notice: TLabNotice): Promise<void>;
  logger: Logger;
};

export type TLabTickOutcome =
  | { outcome: 'busy' | 'gone' | 'unchanged' | 'stopped' }
  | {
      outcome: 'ticked';
      advancedMs: number;
      revision: number;
      /** the lab's sim time after the tick (it covered simTimeMs - advancedMs .. simTimeMs) */
      simTimeMs: number;
      events: number;
      needsTicks: boolean;
    };

export function toChangedNotice(commit: TLabCommit): TLabNotice {
  return {
    type: 'changed',
    revision: commit.revision,
    simTimeMs: commit.simTimeMs,
    events: commit.events,
    objectsChanged: commit.objectsChanged,
  };
}

/**
 * Removes a lab's scheduler, then looks at the lab again: a command committed meanwhile may
 * have made it converge again and armed the scheduler we just removed. Checking after removing
 * (never before) leaves no window where a converging lab has no scheduler.
 */
export async function disarmUnlessNeeded(deps: TLabTickDeps, labId: string): Promise<void> {
  await deps.scheduler.disarm(labId);
  const header = await deps.findLab(labId);
  if (header && header.status === 'ACTIVE' && !header.paused && !header.quiescent) {
    await deps.scheduler.arm(labId);
  }
}

export function createLabTickHandler(
  deps: TLabTickDeps,
): TJobHandler<TLabTickPayload, TLabTickOutcome> {
  return {
    name: labTickJob.name,
    async handle({ labId }) {
      const written = await deps.store.write(labId, { skipLocked: true }, (ctx) => {
        if (ctx.status !== 'ACTIVE') return 0;
        return ctx.catchUp();
      });
      if (written.kind !== 'ok') {
        // SKIP LOCKED: another writer holds the lab (it moves the clock itself), or it is gone.
        if (await deps.findLab(labId)) return { outcome: 'busy' };
        await deps.scheduler.disarm(labId);
        return { outcome: 'gone' };
      }
      const commit = written.commit;
      if (!commit) {
        // Nothing to do: a retried tick, or a paused / hibernated / settled lab.
        const header = await deps.findLab(labId);
        const isIdle = !header || header.status !== 'ACTIVE' || header.paused || header.quiescent;
        if (!isIdle) return { outcome: 'unchanged' };
        await disarmUnlessNeeded(deps, labId);
        return { outcome: 'stopped' };
      }
      await deps.publish(labId, toChangedNotice(commit)).catch((error: unknown) => {
        deps.logger.warn({ err: error, labId }, 'could not publish a lab notice');
      });
      if (!commit.needsTicks) await disarmUnlessNeeded(deps, labId);
      return {
        outcome: 'ticked',
        advancedMs: written.result,
        revision: commit.revision,
        simTimeMs: commit.simTimeMs,
        events: commit.events.length,
        needsTicks: commit.needsTicks,
      };
    },
  };
}
