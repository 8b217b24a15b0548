import { Inject, Injectable } from '@nestjs/common';
import { Prisma, type Locale, type Role, type TPrismaClient, type User } from '@kubejourney/db';
import { PRISMA } from '../../infra/prisma.module';

export type TNewUser = {
  email: string;
  passwordHash: string;
  displayName: string;
  locale?: Locale;
  role?: Role;
};

@Injectable()
export class UserRepository {
  constructor(@Inject(PRISMA) private readonly prisma: TPrismaClient) {}

  findByEmail(email: string): Promise<User | null> {
    return this.prisma.user.findUnique({ where: { email } });
  }

  findById(id: string): Promise<User | null> {
    return this.prisma.user.findUnique({ where: { id } });
  }

  /** Returns null when the email is already taken (unique violation), instead of throwing. */
  async create(user: TNewUser): Promise<User | null> {
    try {
      return await this.prisma.user.create({ data: user });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        return null;
      }
      throw error;
    }
  }

  updateLocale(id: string, locale: Locale): Promise<User> {
    return this.prisma.user.update({ where: { id }, data: { locale } });
  }
}
