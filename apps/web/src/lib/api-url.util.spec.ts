import { describe, expect, it } from 'vitest';
import { DEFAULT_API_URL, resolveApiUrl } from './api-url.util';

describe('resolveApiUrl', () => {
  it.each([
    [undefined, DEFAULT_API_URL],
    ['', DEFAULT_API_URL],
    ['http://127.0.0.1:4100', 'http://127.0.0.1:4100'],
    ['http://api:4000/', 'http://api:4000'],
    ['  https://api.example.com//  ', 'https://api.example.com'],
  ])('should resolve %o to %s', (value, expected) => {
    expect(resolveApiUrl(value)).toBe(expected);
  });

  it.each(['not a url', 'ftp://api:21'])('should throw when API_URL is %s', (value) => {
    expect(() => resolveApiUrl(value)).toThrow();
  });
});
