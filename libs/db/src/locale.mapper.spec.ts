import { LOCALES } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import { Locale } from './generated/enums';
import { toApiLocale, toDbLocale } from './locale.mapper';

describe('locale mapper', () => {
  it.each([
    [Locale.zh_TW, 'zh-TW'],
    [Locale.en, 'en'],
  ] as const)('should map %s to %s and back when round-tripping', (db, api) => {
    expect(toApiLocale(db)).toBe(api);
    expect(toDbLocale(api)).toBe(db);
  });

  it('should cover every API locale when the contract lists them', () => {
    expect(LOCALES.map((locale) => toApiLocale(toDbLocale(locale)))).toEqual([...LOCALES]);
  });
});
