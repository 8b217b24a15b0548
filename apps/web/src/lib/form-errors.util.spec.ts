import { MESSAGES_EN, MESSAGES_ZH_TW } from '@kubejourney/content';
import { describe, expect, it } from 'vitest';
import { describeFailure, localizeFieldMessage } from './form-errors.util';

describe('localizeFieldMessage', () => {
  it.each([
    ['email', 'Enter a valid email address', 'nope', '請輸入有效的 Email，例如 name@example.com。'],
    [
      'password',
      'Password must be at least 10 characters long',
      'short1',
      '密碼至少需要 10 個字元。',
    ],
    [
      'password',
      'Password must contain at least one digit',
      'longpassword',
      '密碼需要包含至少一個數字。',
    ],
    ['email', 'Enter a valid email address', '   ', '請輸入 Email。'],
    ['displayName', 'Display name is required', '', '請輸入顯示名稱。'],
    ['email', 'Some rule we never heard of', 'x@y', 'Some rule we never heard of'],
  ])(
    'should show %s error "%s" in Chinese when the value is %o',
    (field, message, value, expected) => {
      expect(localizeFieldMessage(field, message, value, MESSAGES_ZH_TW)).toBe(expected);
    },
  );
});

describe('describeFailure', () => {
  const values = { email: 'taken@example.com', password: 'x', displayName: '' };

  it('should map every field of a validation failure when the API lists fields', () => {
    const errors = describeFailure(
      {
        kind: 'api',
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Validation failed',
        fields: {
          password: 'Password must be at least 10 characters long',
          displayName: 'Display name is required',
        },
      },
      values,
      MESSAGES_EN,
    );
    expect(errors).toEqual({
      summary: MESSAGES_EN.errors.VALIDATION_FAILED,
      fields: {
        password: 'Password must be at least 10 characters long.',
        displayName: 'Enter a display name.',
      },
    });
  });

  it.each([
    [
      { kind: 'api', status: 409, code: 'EMAIL_TAKEN', message: 'x' },
      MESSAGES_EN.errors.EMAIL_TAKEN,
      ['email'],
    ],
    [
      { kind: 'api', status: 401, code: 'INVALID_CREDENTIALS', message: 'x' },
      MESSAGES_EN.errors.INVALID_CREDENTIALS,
      [],
    ],
    [
      { kind: 'api', status: 429, code: 'RATE_LIMITED', message: 'x', retryAfterSeconds: 29.2 },
      'Too many attempts. Wait 30 seconds, then try again.',
      [],
    ],
    [
      { kind: 'api', status: 429, code: 'RATE_LIMITED', message: 'x' },
      MESSAGES_EN.errors.RATE_LIMITED_SOON,
      [],
    ],
    [
      { kind: 'api', status: 500, code: 'INTERNAL', message: 'x' },
      MESSAGES_EN.errors.UNEXPECTED,
      [],
    ],
    [{ kind: 'network' }, MESSAGES_EN.errors.NETWORK, []],
    [{ kind: 'unexpected', status: 502 }, MESSAGES_EN.errors.UNEXPECTED, []],
  ] as const)('should explain %o in the summary', (failure, summary, fields) => {
    const errors = describeFailure(failure, values, MESSAGES_EN);
    expect(errors.summary).toBe(summary);
    expect(Object.keys(errors.fields)).toEqual(fields);
  });
});
