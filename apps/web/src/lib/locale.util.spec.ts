import { describe, expect, it } from 'vitest';
import { negotiateLocale, resolveLocale } from './locale.util';

describe('negotiateLocale', () => {
  it.each([
    ['zh-TW,zh;q=0.9,en;q=0.8', 'zh-TW'],
    ['en-US,en;q=0.9', 'en'],
    ['zh-CN', 'zh-TW'],
    ['fr-FR,en;q=0.5,zh;q=0.4', 'en'],
    ['en;q=0.2,zh-Hant;q=0.8', 'zh-TW'],
    ['de-DE,fr;q=0.8', undefined],
    ['', undefined],
    [null, undefined],
    ['en;q=0,zh;q=0.1', 'zh-TW'],
  ])('should pick the best supported language when the header is %o', (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe('resolveLocale', () => {
  it.each([
    [{ userLocale: 'en', cookieLocale: 'zh-TW', acceptLanguage: 'zh-TW' }, 'en'],
    [{ userLocale: null, cookieLocale: 'en', acceptLanguage: 'zh-TW' }, 'en'],
    [{ cookieLocale: 'klingon', acceptLanguage: 'en-GB' }, 'en'],
    [{ acceptLanguage: 'de' }, 'zh-TW'],
    [{}, 'zh-TW'],
  ] as const)(
    'should choose by user, then cookie, then browser when given %o',
    (input, expected) => {
      expect(resolveLocale(input)).toBe(expected);
    },
  );
});
