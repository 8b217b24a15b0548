import { SESSION_COOKIE } from '@kubejourney/contracts';
import type { CookieOptions, Request, Response } from 'express';

const MAX_TOKEN_LENGTH = 128;

function baseOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure };
}

export function setSessionCookie(
  response: Response,
  token: string,
  maxAgeMs: number,
  secure: boolean,
): void {
  response.cookie(SESSION_COOKIE, token, { ...baseOptions(secure), maxAge: maxAgeMs });
}

export function clearSessionCookie(response: Response, secure: boolean): void {
  response.clearCookie(SESSION_COOKIE, baseOptions(secure));
}

export function readSessionToken(request: Request): string | undefined {
  const token: unknown = request.cookies?.[SESSION_COOKIE];
  return typeof token === 'string' && token.length > 0 && token.length <= MAX_TOKEN_LENGTH
    ? token
    : undefined;
}
