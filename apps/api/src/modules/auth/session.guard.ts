import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC_KEY } from '../../common/auth.decorators';
import type { TAuthenticatedRequest } from '../../common/authenticated-request';
import { DomainError } from '../../common/domain-error';
import { AuthService } from './auth.service';
import { readSessionToken } from './session-cookie';

/** Global guard: every route needs a live session unless it is marked @Public(). */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authService: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<TAuthenticatedRequest>();
    const user = await this.authService.authenticate(readSessionToken(request));
    if (!user) throw new DomainError('UNAUTHENTICATED', 'Sign in to continue');
    request.user = user;
    return true;
  }
}
