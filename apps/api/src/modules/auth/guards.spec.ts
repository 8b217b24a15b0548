import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SESSION_COOKIE, type TRole } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import { Public, Roles } from '../../common/auth.decorators';
import type { TAuthenticatedRequest, TAuthenticatedUser } from '../../common/authenticated-request';
import { DomainError } from '../../common/domain-error';
import type { AuthService } from './auth.service';
import { hasAnyRole } from './role-policy';
import { RolesGuard } from './roles.guard';
import { SessionGuard } from './session.guard';

// Routes as Nest sees them: decorators attach metadata to a class and its handler methods.
class OpenController {
  @Public() open() {}
}
class ClosedController {
  closed() {}
  @Roles('ADMIN') adminOnly() {}
  @Roles('INSTRUCTOR', 'ADMIN') teachers() {}
}

function contextFor(
  controller: new () => object,
  handler: string,
  request: Partial<TAuthenticatedRequest>,
): ExecutionContext {
  return {
    getClass: () => controller,
    getHandler: () => (controller.prototype as Record<string, unknown>)[handler],
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

const userWithRole = (role: TRole): TAuthenticatedUser => ({
  id: 'u1',
  email: 'u@example.com',
  displayName: 'U',
  role,
  locale: 'en',
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** The guard's only collaborator: accepts exactly one token. */
function fakeAuthService(validToken: string, user: TAuthenticatedUser): AuthService {
  return {
    authenticate: async (token: string | undefined) => (token === validToken ? user : null),
  } as AuthService;
}

async function errorCode(run: () => Promise<unknown> | unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('SessionGuard', () => {
  const user = userWithRole('LEARNER');
  const guard = new SessionGuard(new Reflector(), fakeAuthService('good', user));

  it('should let a request through without a session when the route is @Public', async () => {
    expect(await guard.canActivate(contextFor(OpenController, 'open', { cookies: {} }))).toBe(true);
  });

  it.each([
    ['there is no cookie', {}],
    ['the token is unknown', { [SESSION_COOKIE]: 'bad' }],
  ])('should refuse with UNAUTHENTICATED when %s', async (_case, cookies) => {
    const context = contextFor(ClosedController, 'closed', { cookies });
    expect(await errorCode(() => guard.canActivate(context))).toBe('UNAUTHENTICATED');
  });

  it('should attach the user when the session token is valid', async () => {
    const request: Partial<TAuthenticatedRequest> = { cookies: { [SESSION_COOKIE]: 'good' } };
    expect(await guard.canActivate(contextFor(ClosedController, 'closed', request))).toBe(true);
    expect(request.user).toBe(user);
  });
});

describe('RolesGuard', () => {
  const guard = new RolesGuard(new Reflector());

  it.each<[string, TRole, string | undefined]>([
    ['adminOnly', 'ADMIN', undefined],
    ['adminOnly', 'INSTRUCTOR', 'FORBIDDEN'],
    ['adminOnly', 'LEARNER', 'FORBIDDEN'],
    ['teachers', 'INSTRUCTOR', undefined],
    ['teachers', 'ADMIN', undefined],
    ['teachers', 'LEARNER', 'FORBIDDEN'],
    ['closed', 'LEARNER', undefined],
  ])('should answer %s for a %s with %s', async (handler, role, expected) => {
    const context = contextFor(ClosedController, handler, { user: userWithRole(role) });
    expect(await errorCode(() => guard.canActivate(context))).toBe(expected);
  });

  it('should refuse with UNAUTHENTICATED when a role is required and no user is attached', async () => {
    const context = contextFor(ClosedController, 'adminOnly', {});
    expect(await errorCode(() => guard.canActivate(context))).toBe('UNAUTHENTICATED');
  });
});

describe('hasAnyRole', () => {
  it('should match by exact membership when roles are listed', () => {
    expect(hasAnyRole('ADMIN', ['ADMIN'])).toBe(true);
    expect(hasAnyRole('ADMIN', ['INSTRUCTOR'])).toBe(false);
    expect(hasAnyRole('LEARNER', [])).toBe(false);
  });
});
