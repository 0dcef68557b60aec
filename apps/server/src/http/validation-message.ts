import type { FastifySchemaValidationError } from 'fastify';

/** At most this many issues are spelled out; the rest are counted. */
const MAX_ISSUES = 3;
/** Each spelled-out issue is cut to this many characters (a path into deep input can be long). */
const MAX_ISSUE_LENGTH = 160;
/** No validation message is longer (the error handler holds every msg to the same bound). */
export const MAX_MESSAGE_LENGTH = 300;

/** `text`, cut to `max` characters with an ellipsis when longer. */
export const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Turns schema issues into one message that names each field and the rule it broke,
 * e.g. `query.code: must not be empty; body: unrecognized key "extra"`; past three issues it adds
 * "and N more problems", so the message stays short however broken the input. Unknown fields come
 * first.
 */
export function describeValidationErrors(context: string | undefined, issues: FastifySchemaValidationError[]): string {
  const where = context === 'querystring' ? 'query' : (context ?? 'request');
  // Unknown fields first: a misspelt field also shows as a missing one, and its name explains both.
  const ordered = [...issues].sort((a, b) => Number(b.keyword === 'unrecognized_keys') - Number(a.keyword === 'unrecognized_keys'));
  const named = ordered.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = path ? `${where}.${path}` : where;
    return bounded(`${field}: ${issue.message ?? 'is invalid'}`, MAX_ISSUE_LENGTH);
  });
  const more = issues.length - named.length;
  // The count survives the cut: it says how much more there is to fix.
  const suffix = more > 0 ? `; and ${more} more problem${more > 1 ? 's' : ''}` : '';
  return bounded(named.join('; '), MAX_MESSAGE_LENGTH - suffix.length) + suffix;
}
