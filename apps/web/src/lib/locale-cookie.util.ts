import { LOCALE_COOKIE, type TLocale } from '@kubejourney/contracts';

const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

/**
 * The kj_locale cookie, as the browser should store it. It is deliberately readable (not
 * httpOnly): it holds no secret, and the server reads it to render a visitor's language.
 */
export function buildLocaleCookie(locale: TLocale, isSecure: boolean): string {
  return [
    `${LOCALE_COOKIE}=${locale}`,
    'Path=/',
    `Max-Age=${ONE_YEAR_SECONDS}`,
    'SameSite=Lax',
    ...(isSecure ? ['Secure'] : []),
  ].join('; ');
}

/** Remembers the language in this browser. Call only from client code. */
export function rememberLocale(locale: TLocale): void {
  document.cookie = buildLocaleCookie(locale, window.location.protocol === 'https:');
}
