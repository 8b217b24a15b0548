import type { PrismaClient } from './generated/client';

/** Deletes sessions that expired before `now`; shared by the worker's maintenance job. */
export async function purgeExpiredSessions(prisma: PrismaClient, now: Date): Promise<number> {
  const { count } = await prisma.session.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
