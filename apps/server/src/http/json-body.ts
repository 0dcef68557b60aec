import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '@broker/contract';
import { ApiError } from './api-error';
import { printable } from './validation-message';

/**
 * The first byte not in a well-formed UTF-8 sequence (RFC 3629; a cut-off sequence included); -1 when none. The
 * lenient decoder writes U+FFFD where a sequence fails, and the text before it is the bytes before it.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let offset = 0;
  let from = 0;
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', from)) {
    offset += Buffer.byteLength(text.slice(from, at));
    // A U+FFFD the sender wrote (EF BF BD) is text.
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
    offset += 3;
    from = at + 1;
  }
  return -1;
}

const MAX_PATH_STEPS = 8;

type Frame = { kind: 'object'; key: string | null; expectingKey: boolean } | { kind: 'array'; index: number };

const keyText = (bytes: Uint8Array) => printable(Buffer.from(bytes).toString('latin1'), 40);

/** `body.remark`, `body.tags.1`, or `body` outside any string; JSON's structure is ASCII, so raw bytes do. */
export function jsonFieldAt(bytes: Uint8Array, offset: number): string {
  const stack: Frame[] = [];
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  let stringIsKey = false;
  for (let index = 0; index < offset; index += 1) {
    const byte = bytes[index]!;
    const top = stack.at(-1);
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === 0x5c) escaped = true;
      else if (byte === 0x22) {
        inString = false;
        if (stringIsKey && top?.kind === 'object') top.key = keyText(bytes.subarray(stringStart + 1, index));
      }
      continue;
    }
    if (byte === 0x22) {
      inString = true;
      stringStart = index;
      stringIsKey = top?.kind === 'object' && top.expectingKey;
    } else if (byte === 0x7b) stack.push({ kind: 'object', key: null, expectingKey: true });
    else if (byte === 0x5b) stack.push({ kind: 'array', index: 0 });
    else if (byte === 0x7d || byte === 0x5d) stack.pop();
    else if (byte === 0x3a && top?.kind === 'object') top.expectingKey = false;
    else if (byte === 0x2c && top?.kind === 'object') Object.assign(top, { key: null, expectingKey: true });
    else if (byte === 0x2c && top?.kind === 'array') top.index += 1;
  }
  // Outside a string only a number names its field or item.
  const byte = bytes[offset];
  const atNumber = byte !== undefined && (byte === 0x2d || (byte >= 0x30 && byte <= 0x39));
  if (!inString && !atNumber) return 'body';
  if (!inString) stringIsKey = false;
  const frames = stringIsKey ? stack.slice(0, -1) : stack;
  const steps = frames.map((frame) => (frame.kind === 'object' ? (frame.key ?? '?') : String(frame.index)));
  const path = ['body', ...steps.slice(0, MAX_PATH_STEPS), ...(steps.length > MAX_PATH_STEPS ? ['…'] : [])].join('.');
  return stringIsKey ? `${path} (a field name)` : path;
}

/** A number is never matched inside a string. */
const JSON_SCALARS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** `1e3`, `12.0`: JSON.parse reads 1000 and 12, so an id would name another row than written. */
export function wholeNumberNotInDigits(text: string): { offset: number; token: string } | null {
  for (const match of text.matchAll(JSON_SCALARS)) {
    const token = match[0];
    if (token.startsWith('"') || !/[.eE]/.test(token) || !Number.isInteger(Number(token))) continue;
    return { offset: match.index, token };
  }
  return null;
}

const hex = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** Names the field and the byte, so the client can find it. */
export function notUtf8Error(bytes: Uint8Array, offset: number): ApiError {
  return new ApiError(
    ErrorCode.TEXT_NOT_UTF8,
    `${jsonFieldAt(bytes, offset)}: is not valid UTF-8 (byte ${hex(bytes[offset]!)} at offset ${offset}); send text as UTF-8`,
  );
}

const isPlainJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Fastify's parser decoded leniently: an invalid byte was stored as U+FFFD and read back as other text. Strict
 * decoding first; the parse and its prototype-poisoning guard stay Fastify's.
 */
export function registerStrictJsonParser(app: FastifyInstance) {
  // The callback form: its type also allows a promise, which would read as a floating one.
  const parse = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  ) as (request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `content-type: JSON must be sent as UTF-8, not "${printable(charset, 32)}"`),
        undefined,
      );
      return;
    }
    let text: string;
    try {
      text = strictUtf8.decode(body);
    } catch {
      done(notUtf8Error(body, firstInvalidUtf8(body)), undefined);
      return;
    }
    parse(request, text, (error, value) => {
      if (error && (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && isPlainJson(text)) {
        // The prototype-poisoning guard refused it: a field rule, not a syntax error.
        done(ApiError.validation('body', 'a field must not be named __proto__, nor constructor with a prototype'), undefined);
        return;
      }
      const loose = error ? null : wholeNumberNotInDigits(text);
      if (loose) {
        const field = jsonFieldAt(body, Buffer.byteLength(text.slice(0, loose.offset)));
        done(
          ApiError.validation(field, `a whole number must be written in digits (${Number(loose.token)}, not ${loose.token.slice(0, 40)})`),
          undefined,
        );
        return;
      }
      done(error, value);
    });
  });
}
