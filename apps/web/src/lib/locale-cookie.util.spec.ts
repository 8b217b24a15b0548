import { describe, expect, it } from 'vitest';
import { buildLocaleCookie } from './locale-cookie.util';

describe('buildLocaleCookie', () => {
  it('should build a year-long, site-wide, lax cookie when the page is served over http', () => {
    expect(buildLocaleCookie('en', false)).toBe(
      'kj_locale=en; Path=/; Max-Age=31536000; SameSite=Lax',
    );
  });

  it('should mark the cookie Secure when the page is served over https', () => {
    expect(buildLocaleCookie('zh-TW', true)).toMatch(/^kj_locale=zh-TW; .*; Secure$/);
  });
});
