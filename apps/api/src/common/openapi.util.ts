import type { ApiBody } from '@nestjs/swagger';
import { z } from 'zod';

type SchemaObject = NonNullable<
  Extract<Parameters<typeof ApiBody>[0], { schema?: unknown }>['schema']
>;

/** A contract schema as an OpenAPI schema object, so /api/docs shows the real zod rules. */
export function toOpenApiSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): SchemaObject {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema, {
    io,
    target: 'openapi-3.0',
    unrepresentable: 'any',
  });
  return jsonSchema as SchemaObject;
}
