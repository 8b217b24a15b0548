import { type ArgumentsHost, BadRequestException, Logger, NotFoundException } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import { DomainError } from './domain-error';
import { HttpExceptionFilter } from './http-exception.filter';

function respond(exception: unknown) {
  const response = {
    statusCode: 0,
    headers: {} as Record<string, string>,
    body: undefined as unknown,
    setHeader(name: string, value: string) {
      this.headers[name] = value;
    },
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      this.body = body;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => response }) } as ArgumentsHost;
  new HttpExceptionFilter().catch(exception, host);
  return response;
}

describe('HttpExceptionFilter', () => {
  it.each([
    ['EMAIL_TAKEN', 409],
    ['INVALID_CREDENTIALS', 401],
    ['PAYLOAD_TOO_LARGE', 413],
    ['FORBIDDEN', 403],
  ] as const)('should answer %s with HTTP %s when a domain error is thrown', (code, status) => {
    const response = respond(new DomainError(code, 'msg'));
    expect(response.statusCode).toBe(status);
    expect(response.body).toEqual({ error: { code, message: 'msg' } });
  });

  it('should include fields when a validation error has them', () => {
    const error = new DomainError('VALIDATION_FAILED', 'bad', { fields: { password: 'bad' } });
    expect(respond(error).body).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'bad', fields: { password: 'bad' } },
    });
  });

  it('should send Retry-After when the error is rate limiting', () => {
    const response = respond(new DomainError('RATE_LIMITED', 'slow', { retryAfterSeconds: 42 }));
    expect(response.statusCode).toBe(429);
    expect(response.headers['Retry-After']).toBe('42');
    expect(response.body).toEqual({
      error: { code: 'RATE_LIMITED', message: 'slow', retryAfterSeconds: 42 },
    });
  });

  it.each([
    [new NotFoundException('Cannot GET /api/x'), 404, 'NOT_FOUND'],
    [new BadRequestException('nope'), 400, 'VALIDATION_FAILED'],
  ])('should keep the status when Nest raises %s', (exception, status, code) => {
    const response = respond(exception);
    expect(response.statusCode).toBe(status);
    expect(response.body).toMatchObject({ error: { code } });
  });

  it('should log the error and hide internals behind a 500 when the error is unknown', () => {
    const log = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const response = respond(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2'));
    expect(log).toHaveBeenCalledWith(expect.stringContaining('ECONNREFUSED'));
    log.mockRestore();
    expect(response.statusCode).toBe(500);
    expect(JSON.stringify(response.body)).not.toMatch(/ECONNREFUSED|hunter2/);
    expect(response.body).toMatchObject({ error: { code: 'INTERNAL' } });
  });
});
