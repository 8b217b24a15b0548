import { ZSignupRequest } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from './domain-error';
import { ZodValidationPipe } from './zod-validation.pipe';

const pipe = new ZodValidationPipe(ZSignupRequest);
const valid = { email: ' Ada@Example.com ', password: 'abcdefghi1', displayName: 'Ada' };

function failure(value: unknown): DomainError {
  try {
    pipe.transform(value);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the pipe to reject');
}

describe('ZodValidationPipe', () => {
  it('should return the parsed (normalised) value when the input is valid', () => {
    expect(pipe.transform(valid)).toEqual({ ...valid, email: 'ada@example.com' });
  });

  it.each([
    ['abc1', 'Password must be at least 10 characters long'],
    ['abcdefghijk', 'Password must contain at least one digit'],
    ['1234567890', 'Password must contain at least one letter'],
  ])('should name the failed rule when the password is %s', (password, message) => {
    const error = failure({ ...valid, password });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe(message);
    expect(error.details.fields?.password).toBe(message);
  });

  it('should report a body-level message when the body is not an object', () => {
    const error = failure(undefined);
    expect(error.message).toBe('Request body must be a JSON object');
    expect(error.details.fields).toBeUndefined();
  });
});
