import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createPrismaClient, type TPrismaClient } from '@kubejourney/db';
import { APP_CONFIG } from '../config/config.module';
import type { TAppConfig } from '../config/env.schema';

export const PRISMA = Symbol('PRISMA');

/** One Prisma client per API process, injected into repositories only (see STYLE.md). */
@Global()
@Module({
  providers: [
    {
      provide: PRISMA,
      inject: [APP_CONFIG],
      useFactory: (config: TAppConfig) => createPrismaClient(config.databaseUrl),
    },
  ],
  exports: [PRISMA],
})
export class PrismaModule implements OnApplicationShutdown {
  constructor(@Inject(PRISMA) private readonly prisma: TPrismaClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
  }
}
