import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import { ERROR_HTTP_STATUS, type TErrorBody, type TErrorCode } from '@kubejourney/contracts';
import type { Response } from 'express';
import { DomainError } from './domain-error';

// Statuses Nest or Express raise themselves (unknown route, wrong method, ...), by code.
const CODE_BY_STATUS: Partial<Record<number, TErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The one place errors become HTTP responses, always as {error: {code, message, fields?}}.
 * Domain errors carry their code; framework HTTP errors keep their status; anything else is a
 * bug: logged with its stack, answered as a bare 500 so no internals leak.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(HttpExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body } = this.toResponse(exception);
    const retryAfter = body.error.retryAfterSeconds;
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    response.status(status).json(body);
  }

  private toResponse(exception: unknown): { status: number; body: TErrorBody } {
    if (exception instanceof DomainError) {
      const { fields, retryAfterSeconds } = exception.details;
      return {
        status: ERROR_HTTP_STATUS[exception.code],
        body: {
          error: { code: exception.code, message: exception.message, fields, retryAfterSeconds },
        },
      };
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      const code = CODE_BY_STATUS[status] ?? 'VALIDATION_FAILED';
      return { status, body: { error: { code, message: exception.message } } };
    }
    this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { error: { code: 'INTERNAL', message: 'Something went wrong on our side' } },
    };
  }
}
