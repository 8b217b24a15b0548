import { Inject, Injectable } from '@nestjs/common';
import type { Session, TPrismaClient, User } from '@kubejourney/db';
import { PRISMA } from '../../infra/prisma.module';

export type TNewSession = Pick<Session, 'userId' | 'tokenHash' | 'expiresAt'> &
  Partial<Pick<Session, 'userAgent' | 'ip'>>;

export type TSessionWithUser = Session & { user: User };

@Injectable()
export class SessionRepository {
  constructor(@Inject(PRISMA) private readonly prisma: TPrismaClient) {}

  async create(session: TNewSession): Promise<Session> {
    return this.prisma.session.create({ data: session });
  }

  findByTokenHash(tokenHash: string): Promise<TSessionWithUser | null> {
    return this.prisma.session.findUnique({ where: { tokenHash }, include: { user: true } });
  }

  /** Idempotent: deleting an already deleted session is not an error. */
  async deleteByTokenHash(tokenHash: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { tokenHash } });
  }

  async deleteById(id: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { id } });
  }

  async touch(id: string, lastSeenAt: Date): Promise<void> {
    await this.prisma.session.updateMany({ where: { id }, data: { lastSeenAt } });
  }
}
