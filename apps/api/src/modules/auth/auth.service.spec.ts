import { beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../common/domain-error';
import {
  FakeClock,
  FakeCryptoRepository,
  FakeLoginThrottleRepository,
  FakeSessionRepository,
  FakeUserRepository,
  TEST_CONFIG,
} from './auth.fakes';
import { AuthService, isSessionExpired } from './auth.service';
import type { UserRepository } from '../users/user.repository';
import type { SessionRepository } from './session.repository';
import type { CryptoRepository } from './crypto.repository';
import type { LoginThrottleRepository } from './login-throttle.repository';

const CLIENT = { ip: '10.0.0.1', userAgent: 'vitest' };
const SIGNUP = {
  email: 'ada@example.com',
  password: 'Correct-horse-1',
  displayName: 'Ada',
  locale: 'zh-TW' as const,
};

function newTestService() {
  const clock = new FakeClock();
  const users = new FakeUserRepository(clock);
  const sessions = new FakeSessionRepository(users, clock);
  const crypto = new FakeCryptoRepository();
  const throttle = new FakeLoginThrottleRepository();
  const service = new AuthService(
    TEST_CONFIG,
    users as unknown as UserRepository,
    sessions as unknown as SessionRepository,
    crypto as unknown as CryptoRepository,
    throttle as unknown as LoginThrottleRepository,
    clock,
  );
  return { service, clock, users, sessions, throttle };
}

async function expectDomainError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  return error as DomainError;
}

describe('AuthService', () => {
  let t: ReturnType<typeof newTestService>;
  beforeEach(() => {
    t = newTestService();
  });

  describe('signup', () => {
    it('should store only the password hash and the token hash when signing up', async () => {
      const session = await t.service.signup(SIGNUP, CLIENT);
      const [stored] = t.users.users.values();
      expect(stored?.passwordHash).toBe('hashed(Correct-horse-1)');
      expect(stored?.locale).toBe('zh_TW');
      expect(session.user).not.toHaveProperty('passwordHash');
      const [storedSession] = t.sessions.sessions.values();
      expect(storedSession?.tokenHash).toBe(`sha256(${session.token})`);
      expect(storedSession).toMatchObject({ ip: '10.0.0.1', userAgent: 'vitest' });
    });

    it('should set the expiry one TTL from now when a session starts', async () => {
      const session = await t.service.signup(SIGNUP, CLIENT);
      const [stored] = t.sessions.sessions.values();
      expect(session.maxAgeMs).toBe(TEST_CONFIG.sessionTtlMs);
      expect(stored?.expiresAt.getTime()).toBe(t.clock.now().getTime() + TEST_CONFIG.sessionTtlMs);
    });

    it('should fail with EMAIL_TAKEN when the email already has an account', async () => {
      await t.service.signup(SIGNUP, CLIENT);
      const error = await expectDomainError(t.service.signup(SIGNUP, CLIENT), 'EMAIL_TAKEN');
      expect(error.message).toBe('An account with this email already exists');
    });
  });

  describe('login', () => {
    beforeEach(async () => {
      await t.service.signup(SIGNUP, CLIENT);
    });

    it('should start a session when the password round-trips through the hash', async () => {
      const session = await t.service.login(
        { email: SIGNUP.email, password: SIGNUP.password },
        CLIENT,
      );
      expect(session.user.email).toBe(SIGNUP.email);
      expect(await t.service.authenticate(session.token)).toMatchObject({ email: SIGNUP.email });
    });

    it.each([
      ['the password is wrong', { email: SIGNUP.email, password: 'Wrong-password-1' }],
      ['the email is unknown', { email: 'nobody@example.com', password: SIGNUP.password }],
    ])('should give the same INVALID_CREDENTIALS answer when %s', async (_case, input) => {
      const error = await expectDomainError(t.service.login(input, CLIENT), 'INVALID_CREDENTIALS');
      expect(error.message).toBe('Email or password is incorrect');
    });

    it('should rate-limit when failures reach the maximum and report a retry delay', async () => {
      const wrong = { email: SIGNUP.email, password: 'Wrong-password-1' };
      for (let i = 0; i < TEST_CONFIG.loginThrottle.maxFailures; i++) {
        await expectDomainError(t.service.login(wrong, CLIENT), 'INVALID_CREDENTIALS');
      }
      const error = await expectDomainError(t.service.login(wrong, CLIENT), 'RATE_LIMITED');
      expect(error.details.retryAfterSeconds).toBe(600);
      // Even the right password is refused while blocked.
      await expectDomainError(
        t.service.login({ email: SIGNUP.email, password: SIGNUP.password }, CLIENT),
        'RATE_LIMITED',
      );
    });

    it('should clear the email counter when a login succeeds', async () => {
      const wrong = { email: SIGNUP.email, password: 'Wrong-password-1' };
      await expectDomainError(t.service.login(wrong, CLIENT), 'INVALID_CREDENTIALS');
      await t.service.login({ email: SIGNUP.email, password: SIGNUP.password }, CLIENT);
      expect(t.throttle.failures.get(`email:${SIGNUP.email}`)).toBeUndefined();
      expect(t.throttle.failures.get(`ip:${CLIENT.ip}`)).toBe(1);
    });
  });

  describe('authenticate', () => {
    it('should return null when there is no token or the token is unknown', async () => {
      expect(await t.service.authenticate(undefined)).toBeNull();
      expect(await t.service.authenticate('token-999')).toBeNull();
    });

    it('should reject and delete the session when it has expired', async () => {
      const { token } = await t.service.signup(SIGNUP, CLIENT);
      t.clock.advance(TEST_CONFIG.sessionTtlMs);
      expect(await t.service.authenticate(token)).toBeNull();
      expect(t.sessions.sessions.size).toBe(0);
    });

    it('should accept the session when it is one millisecond before expiry', async () => {
      const { token } = await t.service.signup(SIGNUP, CLIENT);
      t.clock.advance(TEST_CONFIG.sessionTtlMs - 1);
      expect(await t.service.authenticate(token)).toMatchObject({ email: SIGNUP.email });
    });

    it('should refresh lastSeenAt only when a minute has passed', async () => {
      const { token } = await t.service.signup(SIGNUP, CLIENT);
      const started = t.clock.now();
      t.clock.advance(30_000);
      await t.service.authenticate(token);
      expect([...t.sessions.sessions.values()][0]?.lastSeenAt).toEqual(started);
      t.clock.advance(30_000);
      await t.service.authenticate(token);
      expect([...t.sessions.sessions.values()][0]?.lastSeenAt).toEqual(t.clock.now());
    });
  });

  describe('logout', () => {
    it('should delete the session when logging out and ignore a missing token', async () => {
      const { token } = await t.service.signup(SIGNUP, CLIENT);
      await t.service.logout(undefined);
      expect(t.sessions.sessions.size).toBe(1);
      await t.service.logout(token);
      expect(t.sessions.sessions.size).toBe(0);
      expect(await t.service.authenticate(token)).toBeNull();
    });
  });
});

describe('isSessionExpired', () => {
  const now = new Date('2026-12-01T10:00:00Z');
  it.each([
    [true, -1],
    [true, 0],
    [false, 1],
  ])('should report expired=%s when the expiry is %s ms from now', (expected, offsetMs) => {
    expect(isSessionExpired({ expiresAt: new Date(now.getTime() + offsetMs) }, now)).toBe(expected);
  });
});
