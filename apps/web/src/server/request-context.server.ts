import 'server-only';
import { getMessages, type TMessages } from '@kubejourney/content';
import {
  LOCALE_COOKIE,
  SESSION_COOKIE,
  ZUserResponse,
  type TLocale,
  type TUser,
} from '@kubejourney/contracts';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { resolveApiUrl } from '@/lib/api-url.util';
import { resolveLocale } from '@/lib/locale.util';

// What every server-rendered page needs to know about the request: who is logged in and which
// language to render. `cache` makes the layout and the page share one /api/me call per request.

const ME_TIMEOUT_MS = 3000;

export const getCurrentUser = cache(async (): Promise<TUser | null> => {
  const [jar, headerList] = await Promise.all([cookies(), headers()]);
  // Without a session cookie there is no session: skip the round trip to the API.
  const cookieHeader = headerList.get('cookie');
  if (!jar.has(SESSION_COOKIE) || !cookieHeader) return null;
  try {
    const response = await fetch(`${resolveApiUrl()}/api/me`, {
      headers: { cookie: cookieHeader, accept: 'application/json' },
      cache: 'no-store',
      signal: AbortSignal.timeout(ME_TIMEOUT_MS),
    });
    if (response.status === 401) return null;
    if (!response.ok) {
      console.error(`[web] GET /api/me answered ${response.status}; rendering as logged out`);
      return null;
    }
    const parsed = ZUserResponse.safeParse(await response.json());
    if (!parsed.success) {
      console.error('[web] GET /api/me returned an unexpected body; rendering as logged out');
      return null;
    }
    return parsed.data.user;
  } catch (error) {
    console.error('[web] GET /api/me failed; rendering as logged out:', (error as Error).message);
    return null;
  }
});

export type TRequestContext = { user: TUser | null; locale: TLocale; messages: TMessages };

export const getRequestContext = cache(async (): Promise<TRequestContext> => {
  const [user, jar, headerList] = await Promise.all([getCurrentUser(), cookies(), headers()]);
  const locale = resolveLocale({
    userLocale: user?.locale,
    cookieLocale: jar.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerList.get('accept-language'),
  });
  return { user, locale, messages: getMessages(locale) };
});
