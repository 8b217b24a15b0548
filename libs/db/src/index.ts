export { createPrismaClient, type TPrismaClient } from './prisma-client.factory';
export { toApiLocale, toDbLocale } from './locale.mapper';
export { purgeExpiredSessions } from './session-purge.repository';
export { Prisma, PrismaClient, Locale, Role } from './generated/client';
export type { User, Session } from './generated/client';
export * from './lab.repository';
export * from './lab-clock';
export * from './lab-snapshot';
export * from './lab-store';
