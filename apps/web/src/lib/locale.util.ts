import { LOCALES, type TLocale } from '@kubejourney/contracts';

export const DEFAULT_LOCALE: TLocale = 'zh-TW';

export function isLocale(value: unknown): value is TLocale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the first language in an Accept-Language header that we speak. Any Chinese variant maps to
 * zh-TW (the only Chinese we write); any English variant to en.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): TLocale | undefined {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter(({ tag, q }) => tag && !Number.isNaN(q) && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-TW';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return undefined;
}

/**
 * The language a page is rendered in. A logged-in user's saved choice wins (it follows them across
 * devices); then the kj_locale cookie a visitor set with the switch; then the browser's languages.
 */
export function resolveLocale(input: {
  userLocale?: TLocale | null;
  cookieLocale?: string | null;
  acceptLanguage?: string | null;
}): TLocale {
  if (input.userLocale) return input.userLocale;
  if (isLocale(input.cookieLocale)) return input.cookieLocale;
  return negotiateLocale(input.acceptLanguage) ?? DEFAULT_LOCALE;
}
