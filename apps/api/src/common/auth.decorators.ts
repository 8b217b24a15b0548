import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { TRole } from '@kubejourney/contracts';
import type { TAuthenticatedRequest, TAuthenticatedUser } from './authenticated-request';

export const IS_PUBLIC_KEY = 'kj:isPublic';
export const ROLES_KEY = 'kj:roles';

/** Every route requires a session unless marked public: forgetting a guard cannot open a route. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);

/** Restricts a route to users holding one of these roles (exact match, no hierarchy). */
export const Roles = (...roles: [TRole, ...TRole[]]) => SetMetadata(ROLES_KEY, roles);

/** The user the session guard attached to the request. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): TAuthenticatedUser => {
    const user = context.switchToHttp().getRequest<TAuthenticatedRequest>().user;
    if (!user) throw new Error('CurrentUser used on a route the session guard did not run for');
    return user;
  },
);
