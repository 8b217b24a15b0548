import { randomUUID } from 'node:crypto';
import { ZUserResponse, type TSignupRequest, type TUser } from '@kubejourney/contracts';
import type { APIRequestContext, BrowserContext } from 'playwright-core';

export const TEST_PASSWORD = 'journey-2-pods';

/** An address no earlier run has used, so every run starts as a brand-new visitor. */
export function uniqueEmail(tag = 'learner'): string {
  return `e2e-${tag}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`;
}

export function newAccount(overrides: Partial<TSignupRequest> = {}): TSignupRequest {
  return {
    email: uniqueEmail(),
    password: TEST_PASSWORD,
    displayName: 'Ada Lovelace',
    ...overrides,
  };
}

/**
 * Signs up through the API, as a fixture for specs that are not about the sign-up form. With a
 * browser context's `request`, the session cookie lands in that context: it is then logged in.
 */
export async function signUpViaApi(
  request: APIRequestContext | BrowserContext['request'],
  account: TSignupRequest,
): Promise<TUser> {
  const response = await request.post('/api/auth/signup', { data: account });
  if (response.status() !== 201) {
    throw new Error(`signup failed: ${response.status()} ${await response.text()}`);
  }
  return ZUserResponse.parse(await response.json()).user;
}

/** The logged-in user as the API sees it, or null on 401. */
export async function fetchMe(request: APIRequestContext): Promise<TUser | null> {
  const response = await request.get('/api/me');
  if (response.status() === 401) return null;
  if (!response.ok()) throw new Error(`GET /api/me failed: ${response.status()}`);
  return ZUserResponse.parse(await response.json()).user;
}
