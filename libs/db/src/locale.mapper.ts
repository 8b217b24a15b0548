import type { TLocale } from '@kubejourney/contracts';
import { Locale } from './generated/enums';

// PostgreSQL enum labels cannot be BCP 47 tags with a dash in Prisma, so the database stores
// identifiers and the API speaks tags. These two functions are the only translation point.

const TO_API: Record<Locale, TLocale> = { [Locale.zh_TW]: 'zh-TW', [Locale.en]: 'en' };
const TO_DB: Record<TLocale, Locale> = { 'zh-TW': Locale.zh_TW, en: Locale.en };

export function toApiLocale(locale: Locale): TLocale {
  return TO_API[locale];
}

export function toDbLocale(locale: TLocale): Locale {
  return TO_DB[locale];
}
