import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.loader';

describe('loadConfig', () => {
  it('should apply the documented defaults when the environment is empty', () => {
    expect(loadConfig({})).toEqual({
      nodeEnv: 'development',
      apiPort: 4000,
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/kubejourney',
      redisUrl: 'redis://127.0.0.1:6379',
      redisKeyPrefix: 'kj:',
      sessionTtlMs: 168 * 3_600_000,
      cookieSecure: false,
      logLevel: 'info',
      trustProxy: 'loopback, uniquelocal',
      loginThrottle: { maxFailures: 10, windowSeconds: 900 },
    });
  });

  it.each([
    [{ NODE_ENV: 'production' }, true],
    [{ NODE_ENV: 'production', COOKIE_SECURE: 'false' }, false],
    [{ NODE_ENV: 'development', COOKIE_SECURE: 'true' }, true],
  ])('should derive cookieSecure when env is %o', (env, expected) => {
    expect(loadConfig(env).cookieSecure).toBe(expected);
  });

  it('should name every invalid variable when parsing fails', () => {
    expect(() => loadConfig({ API_PORT: 'abc', SESSION_TTL_HOURS: '-1' })).toThrow(
      /API_PORT.*SESSION_TTL_HOURS/,
    );
  });
});
