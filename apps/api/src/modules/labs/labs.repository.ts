import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { simLabEngine } from '@kubejourney/content';
import {
  deleteLab,
  findLastLabCheck,
  findOwnedLab,
  insertLabCheck,
  LabStore,
  listOwnedLabs,
  loadLabObjects,
  readTraceAfter,
  touchLab,
  type LabWriteContext,
  type TLabBlueprint,
  type TLabCheckRecord,
  type TLabHeader,
  type TLabObjectRecord,
  type TLabTraceRecord,
  type TLabDatabase,
  type TLabWriteResult,
} from '@kubejourney/db';
import type { SimLab } from '@kubejourney/sim';
import { LAB_DB } from '../../infra/prisma.module';
import { LABS_CONFIG, type TLabsConfig } from './labs.config';

export type TLabViewData = { header: TLabHeader; coreState: string; objects: TLabObjectRecord[] };

/** Every database access of the labs feature (the store does the locked read-modify-write). */
@Injectable()
export class LabsRepository implements OnApplicationBootstrap {
  private readonly store: LabStore<SimLab>;

  constructor(
    @Inject(LAB_DB) private readonly db: TLabDatabase,
    @Inject(LABS_CONFIG) config: TLabsConfig,
  ) {
    this.store = new LabStore(db, simLabEngine, {
      maxCatchUpMs: config.maxCatchUpMs,
      restoreTraceEvents: config.restoreTraceEvents,
      cacheSize: config.cacheSize,
    });
  }

  /** Boot images are built before the server listens, not on the first learner's request. */
  onApplicationBootstrap(): void {
    simLabEngine.warm();
  }

  create(ownerId: string, blueprint: TLabBlueprint, limit: number) {
    return this.store.create(ownerId, blueprint, limit);
  }

  write<T>(
    labId: string,
    ownerId: string,
    act: (ctx: LabWriteContext<SimLab>) => T,
  ): Promise<TLabWriteResult<T>> {
    return this.store.write(labId, { skipLocked: false, ownerId }, act);
  }

  reset(labId: string, ownerId: string): Promise<TLabWriteResult<null>> {
    return this.store.reset(labId, ownerId);
  }

  findOwned(labId: string, ownerId: string): Promise<TLabHeader | null> {
    return findOwnedLab(this.db, labId, ownerId);
  }

  listOwned(ownerId: string): Promise<TLabHeader[]> {
    return listOwnedLabs(this.db, ownerId);
  }

  /** The header, core state and keyspace of one lab, read from one consistent snapshot. */
  async readView(labId: string, ownerId: string): Promise<TLabViewData | null> {
    return this.db.transaction(
      async (tx) => {
        const header = await findOwnedLab(tx, labId, ownerId);
        if (!header) return null;
        const [core] = await tx.$queryRaw<{ coreState: string }[]>`SELECT "coreState" FROM "Lab"
          WHERE "id" = ${labId}`;
        const objects = await loadLabObjects(tx, labId);
        return { header, coreState: core?.coreState ?? '{}', objects };
      },
      { isolationLevel: 'RepeatableRead' },
    );
  }

  readTraceAfter(labId: string, afterSeq: number, limit: number): Promise<TLabTraceRecord[]> {
    return readTraceAfter(this.db, labId, afterSeq, limit);
  }

  recordCheck(labId: string, check: TLabCheckRecord): Promise<number> {
    return insertLabCheck(this.db, labId, check);
  }

  lastCheck(labId: string): Promise<(TLabCheckRecord & { seq: number }) | null> {
    return findLastLabCheck(this.db, labId);
  }

  touch(labId: string, at: Date): Promise<void> {
    return touchLab(this.db, labId, at);
  }

  async delete(labId: string): Promise<boolean> {
    this.store.forget(labId);
    return deleteLab(this.db, labId);
  }
}
