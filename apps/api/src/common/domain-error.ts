import type { TErrorCode } from '@kubejourney/contracts';

export type TDomainErrorDetails = {
  /** field path -> message, for VALIDATION_FAILED */
  fields?: Record<string, string>;
  retryAfterSeconds?: number;
};

/**
 * An error the user is meant to see: its code picks the HTTP status (ERROR_HTTP_STATUS, applied
 * in one place: http-exception.filter.ts) and its message is shown as is.
 */
export class DomainError extends Error {
  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly details: TDomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
