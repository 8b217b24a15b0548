import type { Session, User } from '@kubejourney/db';
import { Clock } from '../../common/clock';
import type { TAppConfig } from '../../config/env.schema';
import type { TNewUser, UserRepository } from '../users/user.repository';
import type { CryptoRepository } from './crypto.repository';
import type {
  LoginThrottleRepository,
  TFailureCount,
  TLoginSubjects,
} from './login-throttle.repository';
import type { SessionRepository, TNewSession, TSessionWithUser } from './session.repository';

// Hand-made in-memory fakes for the auth repositories. Each implements the full public surface
// of the real class (checked by `implements TPublic<...>`), so a new repository method breaks
// the build of the tests until its fake exists: nothing is silently stubbed.

type TPublic<T> = { [K in keyof T]: T[K] };

export const TEST_CONFIG: TAppConfig = {
  nodeEnv: 'test',
  apiPort: 0,
  databaseUrl: 'postgresql://unused',
  redisUrl: 'redis://unused',
  redisKeyPrefix: 'kj-test:',
  sessionTtlMs: 60 * 60 * 1000,
  cookieSecure: false,
  logLevel: 'silent',
  trustProxy: 'loopback',
  loginThrottle: { maxFailures: 3, windowSeconds: 900 },
};

export class FakeClock extends Clock {
  constructor(private current = new Date('2026-12-01T10:00:00Z')) {
    super();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export class FakeUserRepository implements TPublic<UserRepository> {
  readonly users = new Map<string, User>();
  private nextId = 1;

  constructor(private readonly clock: FakeClock) {}

  async findByEmail(email: string): Promise<User | null> {
    return [...this.users.values()].find((user) => user.email === email) ?? null;
  }
  async findById(id: string): Promise<User | null> {
    return this.users.get(id) ?? null;
  }
  async create(input: TNewUser): Promise<User | null> {
    if (await this.findByEmail(input.email)) return null;
    const user: User = {
      id: `user-${this.nextId++}`,
      email: input.email,
      passwordHash: input.passwordHash,
      displayName: input.displayName,
      role: input.role ?? 'LEARNER',
      locale: input.locale ?? 'en',
      createdAt: this.clock.now(),
      updatedAt: this.clock.now(),
    };
    this.users.set(user.id, user);
    return user;
  }
  async updateLocale(id: string, locale: User['locale']): Promise<User> {
    const user = this.users.get(id);
    if (!user) throw new Error(`no user ${id}`);
    const updated = { ...user, locale };
    this.users.set(id, updated);
    return updated;
  }
}

export class FakeSessionRepository implements TPublic<SessionRepository> {
  readonly sessions = new Map<string, Session>();
  private nextId = 1;

  constructor(
    private readonly users: FakeUserRepository,
    private readonly clock: FakeClock,
  ) {}

  async create(input: TNewSession): Promise<Session> {
    const session: Session = {
      id: `session-${this.nextId++}`,
      userId: input.userId,
      tokenHash: input.tokenHash,
      expiresAt: input.expiresAt,
      createdAt: this.clock.now(),
      lastSeenAt: this.clock.now(),
      userAgent: input.userAgent ?? null,
      ip: input.ip ?? null,
    };
    this.sessions.set(session.id, session);
    return session;
  }
  async findByTokenHash(tokenHash: string): Promise<TSessionWithUser | null> {
    const session = [...this.sessions.values()].find((s) => s.tokenHash === tokenHash);
    const user = session && (await this.users.findById(session.userId));
    return session && user ? { ...session, user } : null;
  }
  async deleteByTokenHash(tokenHash: string): Promise<void> {
    for (const [id, session] of this.sessions) {
      if (session.tokenHash === tokenHash) this.sessions.delete(id);
    }
  }
  async deleteById(id: string): Promise<void> {
    this.sessions.delete(id);
  }
  async touch(id: string, lastSeenAt: Date): Promise<void> {
    const session = this.sessions.get(id);
    if (session) this.sessions.set(id, { ...session, lastSeenAt });
  }
}

/** Deterministic and transparent: "hash" and token values are readable in assertions. */
export class FakeCryptoRepository implements TPublic<CryptoRepository> {
  private nextToken = 1;

  async hashPassword(password: string): Promise<string> {
    return `hashed(${password})`;
  }
  async verifyPassword(hash: string | null, password: string): Promise<boolean> {
    return hash !== null && hash === `hashed(${password})`;
  }
  createSessionToken(): string {
    return `token-${this.nextToken++}`;
  }
  hashToken(token: string): string {
    return `sha256(${token})`;
  }
}

export class FakeLoginThrottleRepository implements TPublic<LoginThrottleRepository> {
  readonly failures = new Map<string, number>();

  async getFailures({ ip, email }: TLoginSubjects): Promise<TFailureCount[]> {
    return [`ip:${ip}`, `email:${email}`].map((key) => ({
      count: this.failures.get(key) ?? 0,
      ttlSeconds: this.failures.has(key) ? 600 : -2,
    }));
  }
  async recordFailure({ ip, email }: TLoginSubjects): Promise<void> {
    for (const key of [`ip:${ip}`, `email:${email}`]) {
      this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    }
  }
  async clearEmail(email: string): Promise<void> {
    this.failures.delete(`email:${email}`);
  }
}
