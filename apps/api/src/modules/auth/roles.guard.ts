import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { TRole } from '@kubejourney/contracts';
import { ROLES_KEY } from '../../common/auth.decorators';
import type { TAuthenticatedRequest } from '../../common/authenticated-request';
import { DomainError } from '../../common/domain-error';
import { hasAnyRole } from './role-policy';

/** Global guard, runs after SessionGuard: enforces @Roles(...) where present. */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<TRole[] | undefined>(ROLES_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!roles) return true;
    const { user } = context.switchToHttp().getRequest<TAuthenticatedRequest>();
    if (!user) throw new DomainError('UNAUTHENTICATED', 'Sign in to continue');
    if (!hasAnyRole(user.role, roles)) {
      throw new DomainError('FORBIDDEN', 'You do not have permission to do this');
    }
    return true;
  }
}
