import type { User } from '@kubejourney/db';
import type { Request } from 'express';

/** The signed-in user as the API holds it in memory: everything but the password hash. */
export type TAuthenticatedUser = Omit<User, 'passwordHash'>;

export type TAuthenticatedRequest = Request & { user?: TAuthenticatedUser };
