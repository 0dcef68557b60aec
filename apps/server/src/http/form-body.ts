import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@broker/contract';
import { ApiError } from './api-error';

/**
 * What a form (`payload: 'form'`, today only setFold) may carry. The contract's forms hold a few short
 * scalar fields and never a file; anything beyond is refused with 090607 rather than parsed, and a
 * field value longer than the limit is refused, not silently cut (busboy's default).
 */
export const FORM_LIMITS = {
  fields: 8,
  parts: 8,
  files: 0,
  fieldNameSize: 64,
  fieldSize: 1024,
  headerPairs: 16,
} as const;

/** RFC 2046 §5.1.1: 1–70 characters from `bchars`, the last not a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** What is wrong with a multipart content-type's boundary, or null when busboy can read it safely. */
export function boundaryProblem(contentType: string): string | null {
  const boundaries = contentType
    .split(';')
    .slice(1)
    .map((parameter) => parameter.trim())
    .filter((parameter) => parameter.slice(0, 9).toLowerCase() === 'boundary=')
    .map((parameter) => parameter.slice(9).replace(/^"(.*)"$/, '$1'));
  if (boundaries.length === 0) return 'content-type: multipart/form-data needs a boundary parameter';
  if (boundaries.length > 1) return 'content-type: the boundary parameter is given more than once';
  const boundary = boundaries[0]!;
  if (boundary.length < 1 || boundary.length > 70) {
    return `content-type: the multipart boundary must be 1–70 characters (RFC 2046), not ${boundary.length}`;
  }
  if (!BOUNDARY.test(boundary)) return 'content-type: the multipart boundary has characters RFC 2046 does not allow';
  return null;
}

/** Busboy's words for a broken form, said plainly; any other failure is named generically (its text is not the client's business). */
const BROKEN_FORM: Record<string, string> = {
  'Unexpected end of multipart data': 'it ends before its closing boundary',
  'Malformed part header': 'a part header is malformed',
  'Multipart: Boundary not found': 'the boundary is missing',
};

const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);

/**
 * preValidation for form endpoints: reads the multipart body into `{field: value | value[]}` within
 * FORM_LIMITS. A truncated name or value, a file, or a form busboy cannot read is a 4xx naming the
 * problem; no parse failure reaches the error handler as an unexplained error (a 500).
 */
export async function readFormBody(request: FastifyRequest) {
  if (!request.isMultipart()) return;
  const fields = new Map<string, string | string[]>();
  try {
    for await (const part of request.parts({ limits: FORM_LIMITS })) {
      if (part.type === 'file') {
        // files: 0 makes busboy report the limit; drain the stream so that report arrives.
        part.file.resume();
        continue;
      }
      if (part.fieldnameTruncated) {
        throw new ApiError(ErrorCode.FORM_TOO_LARGE, `body: a field name is longer than ${FORM_LIMITS.fieldNameSize} bytes`);
      }
      const name = part.fieldname;
      if (part.valueTruncated) {
        throw new ApiError(ErrorCode.FORM_TOO_LARGE, `body.${printable(name)}: longer than ${FORM_LIMITS.fieldSize} bytes`);
      }
      const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      const existing = fields.get(name);
      fields.set(name, existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]);
    }
  } catch (error) {
    if (error instanceof ApiError || (error as { statusCode?: number }).statusCode !== undefined) throw error;
    const reason = BROKEN_FORM[(error as Error).message] ?? 'it cannot be read';
    throw new ApiError(ErrorCode.FORM_MALFORMED, `body: is not valid multipart/form-data (${reason})`);
  }
  // A Map first: a field named like an Object.prototype member must not find the prototype's.
  request.body = Object.fromEntries(fields);
}
