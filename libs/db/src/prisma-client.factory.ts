import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export type TPrismaClient = PrismaClient;

/**
 * Builds a client on the pg driver adapter (Prisma's TypeScript query compiler, no native
 * engine). Each process creates its own and disconnects it on shutdown; there is deliberately no
 * global singleton, so tests and apps choose their database explicitly.
 */
export function createPrismaClient(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}
