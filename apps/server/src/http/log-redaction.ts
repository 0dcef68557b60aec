import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are safe in a log line: ids, paging, dates and enums. Every other
 * value is replaced — the OAuth `code`, a chat contact's id, a search keyword that may be a phone or
 * ID number, and, on the emulator's mount, WeCom's `corpsecret` and `access_token`. An allowlist, so
 * a parameter added later is hidden until someone decides it is harmless.
 */
const LOGGABLE_QUERY_KEYS = new Set([
  'corpCode',
  'ccy',
  'currency',
  'customerId',
  'eventId',
  'before',
  'limit',
  'market',
  'pageNum',
  'pageSize',
  'dateFrom',
  'dateTo',
  'date',
  'side',
  'status',
  'direction',
  'rule',
]);

export const REDACTED = '[redacted]';

/** The request URL as it may be logged: the path, and the query with only allowlisted values. */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  const shown = [...params].map(([key, value]) => `${key}=${LOGGABLE_QUERY_KEYS.has(key) ? encodeURIComponent(value) : REDACTED}`);
  return `${url.slice(0, queryAt)}?${shown.join('&')}`;
}

/**
 * Replaces Fastify's request serializer: the same fields, with the URL redacted. Headers and bodies
 * are never logged (the token header is additionally covered by pino's `redact`).
 */
export function serializeRequestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Header paths pino blanks should a header object ever reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers["broker-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["broker-token"]',
  'headers.authorization',
];

/**
 * One access line per request, written when it completes and naming the request (serialised as
 * above), instead of Fastify's "incoming request" and "request completed" pair: on two cores
 * every log line is CPU the requests themselves need (pino's share: ADR 0029, docs/benchmarks.md round four).
 */
export class AccessLogController extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
