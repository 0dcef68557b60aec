import type { FastifySchemaValidationError } from 'fastify';

/**
 * Turns schema issues into one message that names each field and the rule it broke,
 * e.g. `query.code: must not be empty; body: unrecognized key "extra"`.
 */
export function describeValidationErrors(context: string | undefined, issues: FastifySchemaValidationError[]): string {
  const where = context === 'querystring' ? 'query' : (context ?? 'request');
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const field = path ? `${where}.${path}` : where;
      return `${field}: ${issue.message ?? 'is invalid'}`;
    })
    .join('; ');
}
