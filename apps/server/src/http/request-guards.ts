import type { FastifyRequest } from 'fastify';
import { ErrorCode, type PayloadKind } from '@broker/contract';
import { ApiError } from './api-error';
import { boundaryProblem, FORM_MAX_BYTES } from './form-body';
import { printable } from './validation-message';

/** Deeper is refused by every schema anyway: the walk stops instead of following a deep body down the stack. */
const MAX_DEPTH = 16;

/** Code units, hence no `u` flag. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function unstorableTextRule(text: string): string | null {
  // Else the insert fails (a 500) instead of a 400 naming the field.
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  // Else stored as U+FFFD: the client would read back other text than it sent.
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode text (it contains half of a surrogate pair)';
  return null;
}

function findUnstorable(value: unknown, path: string, depth: number): ApiError | null {
  if (typeof value === 'string') {
    const rule = unstorableTextRule(value);
    return rule ? ApiError.validation(path, rule) : null;
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const found =
      unstorableTextRule(key) !== null
        ? ApiError.validation(`${path}.${printable(key)}`, `field name ${unstorableTextRule(key)!}`)
        : findUnstorable(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** preValidation for every contract endpoint: 090400 naming the field, before any handler or query sees it. */
export async function refuseUnstorableText(request: FastifyRequest) {
  const error = findUnstorable(request.query, 'query', 0) ?? findUnstorable(request.body, 'body', 0);
  if (error) throw error;
}

const MEDIA_TYPE_OF: Partial<Record<PayloadKind, string>> = { json: 'application/json', form: 'multipart/form-data' };

/** preParsing: only the contract's content type; a JSON endpoint took a multipart form and failed in the parser. */
export function requireContentType(payload: PayloadKind) {
  const expected = MEDIA_TYPE_OF[payload];
  return async (request: FastifyRequest) => {
    const header = request.headers['content-type'];
    if (!expected || header === undefined) return;
    const mediaType = header.split(';')[0]!.trim().toLowerCase();
    if (mediaType !== expected) {
      throw new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `content-type: must be ${expected} here, not "${mediaType.slice(0, 64)}"`);
    }
    // Busboy throws on a boundary longer than its search allows: refuse first.
    if (payload !== 'form') return;
    const problem = boundaryProblem(header);
    if (problem) throw new ApiError(ErrorCode.FORM_MALFORMED, problem);
    if (Number(request.headers['content-length']) > FORM_MAX_BYTES) {
      throw new ApiError(ErrorCode.FORM_TOO_LARGE, `body: a form here is at most ${FORM_MAX_BYTES / 1024} KiB`);
    }
  };
}
