import fastJsonStringify from 'fast-json-stringify';
import { z } from 'zod';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';

/**
 * Responses written by fast-json-stringify compiled once from each response schema (ADR 0033): only the
 * contract's properties, a missing required one refused. Checking every response with zod cost more than
 * writing it; tests keep the check (`checkResponses`).
 */
export function responseSerializerCompiler(options: { checkResponses: boolean }): FastifySerializerCompiler<unknown> {
  return (route) => {
    const schema = zodSchemaOf(route.schema);
    const write = fastJsonStringify(z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) as never);
    if (!options.checkResponses) return write;
    return (data: unknown) => {
      const checked = z.safeEncode(schema, data);
      if (checked.error) throw new ResponseSerializationError(route.method, route.url, { cause: checked.error });
      return write(checked.data);
    };
  };
}

/** Bare or under `properties`, as fastify-type-provider-zod accepts it. */
function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const nested = (schema as { properties?: unknown } | null)?.properties;
  if (nested instanceof z.ZodType) return nested;
  throw new Error('a response schema is not a zod schema: every route takes its schemas from the contract');
}
