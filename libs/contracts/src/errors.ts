import { z } from 'zod';

// One table of domain error codes. The API's exception filter maps each to its HTTP status;
// the web app maps each to a message. Every error body has the same shape.

export const ERROR_HTTP_STATUS = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  LIMIT_REACHED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type TErrorCode = keyof typeof ERROR_HTTP_STATUS;

export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** field path -> message, for VALIDATION_FAILED */
    fields: z.record(z.string(), z.string()).optional(),
    retryAfterSeconds: z.number().optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;
