import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@broker/contract';
import { ApiError } from './api-error';
import { printable } from './validation-message';

/** Forms (today only setFold) hold a few short scalars: anything beyond is refused (090607), never silently cut. */
export const FORM_LIMITS = {
  fields: 8,
  parts: 8,
  files: 0,
  fieldNameSize: 64,
  fieldSize: 1024,
  headerPairs: 16,
} as const;

/** Fastify's bodyLimit does not reach a body busboy reads; a declared larger one is refused before a byte is read. */
export const FORM_MAX_BYTES = 32 * 1024;

/** RFC 2046 §5.1.1. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** Null when busboy can read it safely. */
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

/** Any other failure's text is not the client's business. */
function brokenFormReason(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/unexpected end of multipart data/i.test(message)) return 'it ends before its closing boundary';
  if (/boundary not found/i.test(message)) return 'the boundary is missing';
  return 'it cannot be read';
}

/** preValidation for form endpoints: every problem is a 4xx naming it, never a 500. */
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
      const name = part.fieldname;
      // Busboy bounds names only in urlencoded forms.
      if (Buffer.byteLength(name) > FORM_LIMITS.fieldNameSize) {
        throw new ApiError(ErrorCode.FORM_TOO_LARGE, `body: a field name is longer than ${FORM_LIMITS.fieldNameSize} bytes`);
      }
      if (part.valueTruncated) {
        throw new ApiError(ErrorCode.FORM_TOO_LARGE, `body.${printable(name, 40)}: longer than ${FORM_LIMITS.fieldSize} bytes`);
      }
      const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      const existing = fields.get(name);
      fields.set(name, existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]);
    }
  } catch (error) {
    if (error instanceof ApiError || (error as { statusCode?: number }).statusCode !== undefined) throw error;
    throw new ApiError(ErrorCode.FORM_MALFORMED, `body: is not valid multipart/form-data (${brokenFormReason(error)})`);
  }
  // A Map first: a field named like an Object.prototype member must not find the prototype's.
  request.body = Object.fromEntries(fields);
}
