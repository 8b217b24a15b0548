import { Inject, Injectable } from '@nestjs/common';
import type { TLoginRequest, TSignupRequest } from '@kubejourney/contracts';
import { toDbLocale, type User } from '@kubejourney/db';
import type { TAuthenticatedUser } from '../../common/authenticated-request';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { TAppConfig } from '../../config/env.schema';
import { UserRepository } from '../users/user.repository';
import { CryptoRepository } from './crypto.repository';
import { LoginThrottleRepository } from './login-throttle.repository';
import { SessionRepository } from './session.repository';

export type TClientInfo = { ip: string; userAgent?: string };

/** A new session: the raw token goes into the cookie and nowhere else. */
export type TStartedSession = { user: TAuthenticatedUser; token: string; maxAgeMs: number };

// Writing lastSeenAt on every request would turn each read into a write; once a minute is enough
// to show activity.
const TOUCH_INTERVAL_MS = 60_000;

export function isSessionExpired(session: { expiresAt: Date }, now: Date): boolean {
  return session.expiresAt.getTime() <= now.getTime();
}

function withoutPasswordHash({ passwordHash: _hash, ...user }: User): TAuthenticatedUser {
  return user;
}

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: TAppConfig,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly crypto: CryptoRepository,
    private readonly throttle: LoginThrottleRepository,
    private readonly clock: Clock,
  ) {}

  async signup(input: TSignupRequest, client: TClientInfo): Promise<TStartedSession> {
    const user = await this.users.create({
      email: input.email,
      passwordHash: await this.crypto.hashPassword(input.password),
      displayName: input.displayName,
      locale: input.locale === undefined ? undefined : toDbLocale(input.locale),
    });
    if (!user) {
      throw new DomainError('EMAIL_TAKEN', 'An account with this email already exists', {
        fields: { email: 'An account with this email already exists' },
      });
    }
    return this.startSession(user, client);
  }

  async login(input: TLoginRequest, client: TClientInfo): Promise<TStartedSession> {
    const subjects = { ip: client.ip, email: input.email };
    await this.assertNotThrottled(subjects);
    const user = await this.users.findByEmail(input.email);
    const isValid = await this.crypto.verifyPassword(user?.passwordHash ?? null, input.password);
    if (!user || !isValid) {
      await this.throttle.recordFailure(subjects, this.config.loginThrottle.windowSeconds);
      // One message for both cases, so the response never tells which part was wrong.
      throw new DomainError('INVALID_CREDENTIALS', 'Email or password is incorrect');
    }
    await this.throttle.clearEmail(input.email);
    return this.startSession(user, client);
  }

  async logout(token: string | undefined): Promise<void> {
    if (token === undefined) return;
    await this.sessions.deleteByTokenHash(this.crypto.hashToken(token));
  }

  /** The user behind a session token, or null if the token is unknown or expired. */
  async authenticate(token: string | undefined): Promise<TAuthenticatedUser | null> {
    if (token === undefined) return null;
    const session = await this.sessions.findByTokenHash(this.crypto.hashToken(token));
    if (!session) return null;
    const now = this.clock.now();
    if (isSessionExpired(session, now)) {
      await this.sessions.deleteById(session.id);
      return null;
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
      await this.sessions.touch(session.id, now);
    }
    return withoutPasswordHash(session.user);
  }

  private async assertNotThrottled(subjects: { ip: string; email: string }): Promise<void> {
    const { maxFailures } = this.config.loginThrottle;
    const blocked = (await this.throttle.getFailures(subjects)).filter(
      (failures) => failures.count >= maxFailures,
    );
    if (blocked.length === 0) return;
    const retryAfterSeconds = Math.max(1, ...blocked.map((failures) => failures.ttlSeconds));
    throw new DomainError(
      'RATE_LIMITED',
      'Too many failed sign-in attempts. Wait a few minutes and try again.',
      { retryAfterSeconds },
    );
  }

  private async startSession(user: User, client: TClientInfo): Promise<TStartedSession> {
    const token = this.crypto.createSessionToken();
    const maxAgeMs = this.config.sessionTtlMs;
    await this.sessions.create({
      userId: user.id,
      tokenHash: this.crypto.hashToken(token),
      expiresAt: new Date(this.clock.now().getTime() + maxAgeMs),
      userAgent: client.userAgent,
      ip: client.ip,
    });
    return { user: withoutPasswordHash(user), token, maxAgeMs };
  }
}
