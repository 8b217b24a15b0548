import { SESSION_COOKIE, workerHeartbeatKey } from '@kubejourney/contracts';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionRepository } from '../src/modules/auth/session.repository';
import { createTestApp, type TTestApp } from './test-app';

const ACCOUNT = {
  email: 'ada@example.com',
  password: 'Analytical-engine-1843',
  displayName: 'Ada Lovelace',
  locale: 'zh-TW',
};

let t: TTestApp;
const http = () => request(t.app.getHttpServer());

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

function sessionCookie(response: request.Response): string {
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const cookie = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error('no session cookie set');
  return cookie;
}

describe('auth journey', () => {
  it('should sign up, log in, read /me, log out and then be refused when following the whole flow', async () => {
    const signup = await http().post('/api/auth/signup').send(ACCOUNT).expect(201);
    expect(signup.body).toEqual({
      user: {
        id: expect.any(String),
        email: 'ada@example.com',
        displayName: 'Ada Lovelace',
        role: 'LEARNER',
        locale: 'zh-TW',
      },
    });
    const signupCookie = sessionCookie(signup);
    expect(signupCookie).toMatch(/HttpOnly/);
    expect(signupCookie).toMatch(/SameSite=Lax/);
    expect(signupCookie).toMatch(/Path=\//);
    expect(signupCookie).toMatch(/Max-Age=604800/);
    expect(signupCookie).not.toMatch(/Secure/);

    const login = await http()
      .post('/api/auth/login')
      .send({ email: 'ADA@example.com', password: ACCOUNT.password })
      .expect(200);
    expect(login.body.user.email).toBe('ada@example.com');
    const cookie = sessionCookie(login).split(';')[0] as string;

    const me = await http().get('/api/me').set('Cookie', cookie).expect(200);
    expect(me.body.user).toEqual(login.body.user);

    const patched = await http()
      .patch('/api/me')
      .set('Cookie', cookie)
      .send({ locale: 'en' })
      .expect(200);
    expect(patched.body.user.locale).toBe('en');

    // The database holds the hash of the token, never the token itself.
    const token = cookie.split('=')[1] as string;
    const sessions = await t.prisma.session.findMany();
    expect(sessions).toHaveLength(2);
    expect(sessions.map((s) => s.tokenHash)).not.toContain(token);

    const logout = await http().post('/api/auth/logout').set('Cookie', cookie).expect(204);
    expect(sessionCookie(logout)).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await t.prisma.session.count()).toBe(1);

    const after = await http().get('/api/me').set('Cookie', cookie).expect(401);
    expect(after.body).toEqual({
      error: { code: 'UNAUTHENTICATED', message: expect.any(String) },
    });
  });

  it('should read a session and its user exactly as Prisma reads them when looking up a token', async () => {
    await http().post('/api/auth/signup').send(ACCOUNT).expect(201);
    const stored = await t.prisma.session.findFirstOrThrow({ include: { user: true } });
    const sessions = t.app.get(SessionRepository);
    expect(await sessions.findByTokenHash(stored.tokenHash)).toEqual(stored);
    expect(await sessions.findByTokenHash('0'.repeat(64))).toBeNull();
  });

  it('should answer 409 EMAIL_TAKEN with a clear message when the email is already registered', async () => {
    await http().post('/api/auth/signup').send(ACCOUNT).expect(201);
    const again = await http()
      .post('/api/auth/signup')
      .send({ ...ACCOUNT, email: ' Ada@Example.COM ' })
      .expect(409);
    expect(again.body.error).toMatchObject({
      code: 'EMAIL_TAKEN',
      message: 'An account with this email already exists',
    });
  });

  it('should answer 400 naming the rule when the password is weak', async () => {
    const response = await http()
      .post('/api/auth/signup')
      .send({ ...ACCOUNT, password: 'onlyletters' })
      .expect(400);
    expect(response.body).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Password must contain at least one digit',
        fields: { password: 'Password must contain at least one digit' },
      },
    });
    expect(await t.prisma.user.count()).toBe(0);
  });

  it('should answer 401 without saying which field was wrong when the password or email is wrong', async () => {
    await http().post('/api/auth/signup').send(ACCOUNT).expect(201);
    const wrongPassword = await http()
      .post('/api/auth/login')
      .send({ email: ACCOUNT.email, password: 'Not-the-password-1' })
      .expect(401);
    const wrongEmail = await http()
      .post('/api/auth/login')
      .send({ email: 'ghost@example.com', password: ACCOUNT.password })
      .expect(401);
    const expected = {
      error: { code: 'INVALID_CREDENTIALS', message: 'Email or password is incorrect' },
    };
    expect(wrongPassword.body).toEqual(expected);
    expect(wrongEmail.body).toEqual(expected);
    expect(wrongPassword.headers['set-cookie']).toBeUndefined();
  });

  it('should answer 429 with Retry-After when the 11th failed login comes within the window', async () => {
    await http().post('/api/auth/signup').send(ACCOUNT).expect(201);
    const wrong = { email: ACCOUNT.email, password: 'Not-the-password-1' };
    for (let attempt = 1; attempt <= 10; attempt++) {
      await http().post('/api/auth/login').send(wrong).expect(401);
    }
    const blocked = await http().post('/api/auth/login').send(wrong).expect(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.body.error.retryAfterSeconds).toBe(retryAfter);
    // The right password does not get through while the email is blocked.
    await http()
      .post('/api/auth/login')
      .send({ email: ACCOUNT.email, password: ACCOUNT.password })
      .expect(429);
  });
});

describe('per-IP login limit', () => {
  it('should block an address after 10 failures across many emails, and only that address', async () => {
    const fromProxy = (ip: string, email: string) =>
      http()
        .post('/api/auth/login')
        .set('X-Forwarded-For', ip)
        .send({ email, password: 'Not-the-password-1' });
    for (let attempt = 1; attempt <= 10; attempt++) {
      await fromProxy('203.0.113.7', `guess${attempt}@example.com`).expect(401);
    }
    const blocked = await fromProxy('203.0.113.7', 'fresh@example.com').expect(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    await fromProxy('198.51.100.1', 'fresh@example.com').expect(401);
  });
});

describe('request edge', () => {
  it('should answer 413 PAYLOAD_TOO_LARGE when the body is over 1 MB', async () => {
    const response = await http()
      .post('/api/auth/signup')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ ...ACCOUNT, displayName: 'x'.repeat(1024 * 1024 + 1) }))
      .expect(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('should answer 400 when the JSON is malformed', async () => {
    const response = await http()
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expect(response.body).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'Request body is not valid JSON' },
    });
  });

  it('should answer 415 when the body is not JSON', async () => {
    const response = await http()
      .post('/api/auth/login')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('email=a%40b.c&password=x')
      .expect(415);
    expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('should answer 404 in the error shape when the route does not exist', async () => {
    const response = await http().get('/api/nowhere').expect(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });
});

describe('health and docs', () => {
  it('should report postgres and redis up when both are reachable', async () => {
    const response = await http().get('/api/health').expect(200);
    expect(response.body).toEqual({
      status: 'ok',
      checks: { postgres: 'up', redis: 'up' },
      workers: 0,
    });
  });

  it('should count live workers when their heartbeat keys are in Redis', async () => {
    await t.redis.set(workerHeartbeatKey(t.config.redisKeyPrefix, 'host-a:1'), '{}', 'EX', 30);
    await t.redis.set(workerHeartbeatKey(t.config.redisKeyPrefix, 'host-b:2'), '{}', 'EX', 30);
    const response = await http().get('/api/health').expect(200);
    expect(response.body.workers).toBe(2);
  });

  it('should serve the OpenAPI document when /api/docs-json is requested', async () => {
    const response = await http().get('/api/docs-json').expect(200);
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/api/auth/signup', '/api/auth/login', '/api/me', '/api/health']),
    );
  });
});

describe('health when a dependency is down', () => {
  it('should answer 503 naming the failing check when Redis is unreachable', async () => {
    const broken = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const response = await request(broken.app.getHttpServer()).get('/api/health').expect(503);
      expect(response.body).toEqual({
        status: 'error',
        checks: { postgres: 'up', redis: 'down' },
        workers: 0,
      });
    } finally {
      await broken.app.close();
      await broken.prisma.$disconnect();
      broken.redis.disconnect();
    }
  });
});
