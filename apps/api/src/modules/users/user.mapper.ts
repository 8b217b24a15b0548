import type { TUser } from '@kubejourney/contracts';
import { toApiLocale, type User } from '@kubejourney/db';

/** The public shape of a user (libs/contracts ZUser): never the password hash. */
export function toUserDto(user: Omit<User, 'passwordHash'>): TUser {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    locale: toApiLocale(user.locale),
  };
}
