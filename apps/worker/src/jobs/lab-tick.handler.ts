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

/**
 * Which worker ticked a lab last, and when. BullMQ hands a lab's next tick to whichever worker is
 * free, and a worker whose copy of the lab is behind another's tick must replay it (or, the first
 * time, rebuild the lab from its rows): with two workers alternating, most ticks paid for that.
 * A worker that did not tick a lab last leaves it to the one that did, for as long as that one
 * keeps ticking it; the lab is then ticked about half as often, each tick covering the time
 * since the last (a lab's clock never depends on how often it is ticked).
 */
export type TLabTickAffinity = {
  /** this worker's name (unique among the running workers) */
  self: string;
  lastTicker(labId: string): Promise<{ worker: string; atMs: number } | null>;
  recordTick(labId: string): Promise<void>;
  now(): number;
};

/** A worker that stopped ticking a lab for this long (gone, or overloaded) loses it to another. */
export const LAB_AFFINITY_MS = 1_500;

export type TLabTickDeps = {
  store: Pick<LabStore<SimLab>, 'write'>;
  findLab(labId: string): Promise<TLabHeader | null>;
  scheduler: TLabScheduler;
  publish(labId: string, notice: TLabNotice): Promise<void>;
  logger: Logger;
  affinity?: TLabTickAffinity;
};

export type TLabTickOutcome =
  | { outcome: 'busy' | 'gone' | 'unchanged' | 'stopped' | 'deferred' }
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
      const { affinity } = deps;
      if (affinity) {
        // Redis down: no affinity, tick anyway (the row lock keeps ticks one at a time)
        const last = await affinity.lastTicker(labId).catch(() => null);
        if (last && last.worker !== affinity.self && affinity.now() - last.atMs < LAB_AFFINITY_MS) {
          return { outcome: 'deferred' };
        }
      }
      const written = await deps.store.write(labId, { skipLocked: true }, (ctx) => {
        if (ctx.status !== 'ACTIVE') return 0;
        return ctx.catchUp();
      });
      if (written.kind === 'ok' && affinity) {
        await affinity.recordTick(labId).catch((error: unknown) => {
          deps.logger.warn({ err: error, labId }, 'could not record the lab tick');
        });
      }
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
