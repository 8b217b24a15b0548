import { PASSWORD_MIN_LENGTH } from '@kubejourney/contracts';
import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TApiFailure } from './api-client.util';

// Turns an API failure into what a form shows: one sentence for the error summary and one
// message per field. The API states rules in English (libs/contracts); we show them in the
// page's language. A message we have no translation for is shown as the API wrote it.

type TValidationKey = keyof TMessages['validation'];

const CONTRACT_MESSAGES: Readonly<Record<string, TValidationKey>> = {
  'Enter a valid email address': 'emailInvalid',
  'Email must be at most 254 characters long': 'emailTooLong',
  [`Password must be at least ${PASSWORD_MIN_LENGTH} characters long`]: 'passwordTooShort',
  'Password must be at most 200 characters long': 'passwordTooLong',
  'Password must contain at least one letter': 'passwordNeedsLetter',
  'Password must contain at least one digit': 'passwordNeedsDigit',
  'Password is required': 'passwordRequired',
  'Display name is required': 'displayNameRequired',
  'Display name must be at most 80 characters long': 'displayNameTooLong',
};

/** When a field was left empty, "required" says more than whichever rule the API hit first. */
const REQUIRED_KEYS: Readonly<Record<string, TValidationKey>> = {
  email: 'emailRequired',
  password: 'passwordRequired',
  displayName: 'displayNameRequired',
};

export type TFormErrors = { summary: string; fields: Record<string, string> };

export function localizeFieldMessage(
  field: string,
  apiMessage: string,
  value: string,
  messages: TMessages,
): string {
  const requiredKey = REQUIRED_KEYS[field];
  if (requiredKey && value.trim() === '') return messages.validation[requiredKey];
  const key = CONTRACT_MESSAGES[apiMessage];
  return key ? formatMessage(messages.validation[key], { min: PASSWORD_MIN_LENGTH }) : apiMessage;
}

export function describeFailure(
  failure: TApiFailure,
  values: Readonly<Record<string, string>>,
  messages: TMessages,
): TFormErrors {
  const { errors } = messages;
  if (failure.kind === 'network') return { summary: errors.NETWORK, fields: {} };
  if (failure.kind === 'unexpected') return { summary: errors.UNEXPECTED, fields: {} };

  switch (failure.code) {
    case 'VALIDATION_FAILED': {
      const fields = Object.fromEntries(
        Object.entries(failure.fields ?? {}).map(([field, message]) => [
          field,
          localizeFieldMessage(field, message, values[field] ?? '', messages),
        ]),
      );
      return { summary: errors.VALIDATION_FAILED, fields };
    }
    case 'INVALID_CREDENTIALS':
      return { summary: errors.INVALID_CREDENTIALS, fields: {} };
    case 'EMAIL_TAKEN':
      return { summary: errors.EMAIL_TAKEN, fields: { email: messages.validation.emailTaken } };
    case 'RATE_LIMITED':
    case 'LIMIT_REACHED':
      return {
        summary:
          failure.retryAfterSeconds === undefined
            ? errors.RATE_LIMITED_SOON
            : formatMessage(errors.RATE_LIMITED, {
                seconds: Math.ceil(failure.retryAfterSeconds),
              }),
        fields: {},
      };
    default:
      return { summary: errors.UNEXPECTED, fields: {} };
  }
}
