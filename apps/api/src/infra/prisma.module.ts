import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  createLabDatabase,
  createPrismaClient,
  type TLabDatabase,
  type TPrismaClient,
} from '@kubejourney/db';
import { APP_CONFIG } from '../config/config.module';
import type { TAppConfig } from '../config/env.schema';

export const PRISMA = Symbol('PRISMA');
/** The lab store's own pg pool (libs/db lab-sql.ts says why labs do not go through Prisma). */
export const LAB_DB = Symbol('LAB_DB');

/**
 * One Prisma client and one lab pool per API process, injected into repositories only (see
 * STYLE.md).
 */
@Global()
@Module({
  providers: [
    {
      provide: PRISMA,
      inject: [APP_CONFIG],
      useFactory: (config: TAppConfig) => createPrismaClient(config.databaseUrl),
    },
    {
      provide: LAB_DB,
      inject: [APP_CONFIG],
      useFactory: (config: TAppConfig) => createLabDatabase(config.databaseUrl),
    },
  ],
  exports: [PRISMA, LAB_DB],
})
export class PrismaModule implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA) private readonly prisma: TPrismaClient,
    @Inject(LAB_DB) private readonly labDb: TLabDatabase,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.prisma.$disconnect(), this.labDb.end()]);
  }
}
