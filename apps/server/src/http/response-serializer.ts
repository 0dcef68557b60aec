import fastJsonStringify from 'fast-json-stringify';
import { z } from 'zod';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';

/**
 * Responses are written by a serializer compiled from each route's response schema (ADR 0033):
 * the contract's zod schema turned into JSON Schema once, at registration, and compiled by
 * fast-json-stringify, Fastify's own serializer. It writes only the properties the contract names,
 * so nothing outside the contract leaks, and it refuses a missing required property.
 *
 * Checking every response against the zod schema before writing it (`checked`) cost more than
 * writing it: 90 µs of a 20-row trade page against 14 µs (measured in ADR 0033),
 * on every request, for shapes TypeScript already checks at compile time (handlers return
 * `z.output` of the response). Tests keep the check (`checkResponses`), so a handler whose values
 * stray from the contract at run time (a null where a number is promised) still fails a suite.
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

/** The route schema's zod schema (fastify-type-provider-zod accepts it bare or under `properties`). */
function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const nested = (schema as { properties?: unknown } | null)?.properties;
  if (nested instanceof z.ZodType) return nested;
  throw new Error('a response schema is not a zod schema: every route takes its schemas from the contract');
}
