import type { FastifySchemaValidationError } from 'fastify';

const MAX_ISSUES = 3;
/** A path into deep input can be long. */
const MAX_ISSUE_LENGTH = 160;
/** The error handler holds every msg to the same bound. */
export const MAX_MESSAGE_LENGTH = 300;

export const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A client's own text quoted in a msg: printable ASCII (anything else as `?`), at most `max` characters. */
export const printable = (text: string, max?: number) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, max);

/** Names each field and rule (`query.code: must not be empty`); past three, "and N more problems". */
export function describeValidationErrors(context: string | undefined, issues: FastifySchemaValidationError[]): string {
  const where = context === 'querystring' ? 'query' : (context ?? 'request');
  // A misspelt field also shows as a missing one, and its name explains both.
  const ordered = [...issues].sort((a, b) => Number(b.keyword === 'unrecognized_keys') - Number(a.keyword === 'unrecognized_keys'));
  const named = ordered.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = path ? `${where}.${path}` : where;
    return bounded(`${field}: ${issue.message ?? 'is invalid'}`, MAX_ISSUE_LENGTH);
  });
  const more = issues.length - named.length;
  const suffix = more > 0 ? `; and ${more} more problem${more > 1 ? 's' : ''}` : '';
  return bounded(named.join('; '), MAX_MESSAGE_LENGTH - suffix.length) + suffix;
}
