import type { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { DomainError } from './domain-error';

/**
 * Validates a request part against a contract schema at the edge. The 400 message is the first
 * rule that failed (so "Password must contain at least one digit" reaches the user), and
 * `fields` maps each failing field to its first message.
 */
export class ZodValidationPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(private readonly schema: T) {}

  transform(value: unknown): z.output<T> {
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const fields: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      if (path && !(path in fields)) fields[path] = issue.message;
    }
    const first = result.error.issues[0];
    const message =
      first === undefined || first.path.length === 0
        ? 'Request body must be a JSON object'
        : first.message;
    const hasFields = Object.keys(fields).length > 0;
    throw new DomainError('VALIDATION_FAILED', message, hasFields ? { fields } : {});
  }
}
