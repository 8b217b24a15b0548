import { Injectable } from '@nestjs/common';
import type { TUpdateMeRequest, TUser } from '@kubejourney/contracts';
import { toDbLocale } from '@kubejourney/db';
import type { TAuthenticatedUser } from '../../common/authenticated-request';
import { toUserDto } from './user.mapper';
import { UserRepository } from './user.repository';

@Injectable()
export class UsersService {
  constructor(private readonly users: UserRepository) {}

  getMe(user: TAuthenticatedUser): TUser {
    return toUserDto(user);
  }

  async updateMe(user: TAuthenticatedUser, update: TUpdateMeRequest): Promise<TUser> {
    return toUserDto(await this.users.updateLocale(user.id, toDbLocale(update.locale)));
  }
}
