import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError } from './domain-error';

export const MAX_BODY_BYTES = 1024 * 1024;

const parseJson = express.json({ limit: MAX_BODY_BYTES });
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

type TBodyParserError = Error & { type?: string };

/** body-parser's errors, as domain errors the exception filter already knows how to answer. */
export function toBodyError(error: TBodyParserError): DomainError {
  switch (error.type) {
    case 'entity.too.large':
      return new DomainError('PAYLOAD_TOO_LARGE', 'Request body must be at most 1 MB');
    case 'entity.parse.failed':
      return new DomainError('VALIDATION_FAILED', 'Request body is not valid JSON');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be UTF-8 JSON');
    default:
      return new DomainError('VALIDATION_FAILED', 'Request body could not be read');
  }
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

/**
 * The API speaks JSON only: a body in any other media type is refused with 415 (rather than
 * silently ignored), and body-parser's own errors (too large, malformed) become domain errors.
 */
export function jsonBodyMiddleware(request: Request, response: Response, next: NextFunction): void {
  if (
    METHODS_WITH_BODY.has(request.method) &&
    hasBody(request) &&
    !request.is('application/json')
  ) {
    next(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (application/json)'));
    return;
  }
  parseJson(request, response, (error?: unknown) =>
    next(error === undefined ? undefined : toBodyError(error as TBodyParserError)),
  );
}
