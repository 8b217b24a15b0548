import { ZUserResponse } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import { callApi } from './api-client.util';

const user = { id: 'u1', email: 'a@b.co', displayName: 'Ada', role: 'LEARNER', locale: 'en' };
const respond =
  (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  async () =>
    new Response(body === undefined ? null : JSON.stringify(body), { status, headers });

describe('callApi', () => {
  it('should return the parsed body when the API answers 2xx with a valid body', async () => {
    const result = await callApi(
      '/api/me',
      { method: 'GET', schema: ZUserResponse },
      respond(200, { user }),
    );
    expect(result).toEqual({ ok: true, status: 200, data: { user } });
  });

  it('should send JSON with same-origin credentials when given a body', async () => {
    let seen: RequestInit | undefined;
    await callApi(
      '/api/auth/login',
      { method: 'POST', body: { email: 'a' } },
      async (_url, init) => {
        seen = init;
        return new Response(null, { status: 204 });
      },
    );
    expect(seen).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      body: '{"email":"a"}',
      headers: { 'content-type': 'application/json' },
    });
  });

  it('should succeed without data when the API answers 204 and no schema is given', async () => {
    const result = await callApi('/api/auth/logout', { method: 'POST' }, respond(204));
    expect(result).toEqual({ ok: true, status: 204, data: undefined });
  });

  it('should report unexpected when a 2xx body does not match the schema', async () => {
    const result = await callApi(
      '/api/me',
      { method: 'GET', schema: ZUserResponse },
      respond(200, { user: { id: 1 } }),
    );
    expect(result).toEqual({ ok: false, error: { kind: 'unexpected', status: 200 } });
  });

  it('should return the error code and fields when the API answers with an error body', async () => {
    const body = {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid',
        fields: { email: 'Enter a valid email address' },
      },
    };
    const result = await callApi(
      '/api/auth/signup',
      { method: 'POST', body: {} },
      respond(400, body),
    );
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'api',
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Invalid',
        fields: body.error.fields,
      },
    });
  });

  it('should take the wait from Retry-After when a 429 body has none', async () => {
    const body = { error: { code: 'RATE_LIMITED', message: 'Slow down' } };
    const result = await callApi(
      '/api/auth/login',
      { method: 'POST', body: {} },
      respond(429, body, { 'retry-after': '42' }),
    );
    expect(result.ok === false && result.error).toMatchObject({
      kind: 'api',
      retryAfterSeconds: 42,
    });
  });

  it('should report unexpected when an error response is not JSON', async () => {
    const result = await callApi(
      '/api/me',
      { method: 'GET' },
      async () => new Response('<html>502</html>', { status: 502 }),
    );
    expect(result).toEqual({ ok: false, error: { kind: 'unexpected', status: 502 } });
  });

  it('should report a network failure when fetch rejects', async () => {
    const result = await callApi('/api/me', { method: 'GET' }, async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(result).toEqual({ ok: false, error: { kind: 'network' } });
  });
});
