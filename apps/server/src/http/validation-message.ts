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
      const params = issue.params as { issue?: { code?: string; keys?: string[]; expected?: string; input?: unknown } } | undefined;
      const zodIssue = params?.issue;
      if (zodIssue?.code === 'unrecognized_keys' && zodIssue.keys) {
        return `${field}: unknown field${zodIssue.keys.length > 1 ? 's' : ''} ${zodIssue.keys.map((key) => `"${key}"`).join(', ')}`;
      }
      if (zodIssue?.code === 'invalid_type' && zodIssue.input === undefined) {
        return `${field}: is required`;
      }
      return `${field}: ${issue.message ?? 'is invalid'}`;
    })
    .join('; ');
}
