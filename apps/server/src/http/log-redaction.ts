import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * An allowlist: ids, paging, dates and enums. The OAuth `code`, a contact's id, a keyword that may be a phone,
 * the emulator's `corpsecret` are replaced, and so is anything added later until someone decides.
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

export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  const shown = [...params].map(([key, value]) => `${key}=${LOGGABLE_QUERY_KEYS.has(key) ? encodeURIComponent(value) : REDACTED}`);
  return `${url.slice(0, queryAt)}?${shown.join('&')}`;
}

/** Fastify's fields, the URL redacted; headers and bodies are never logged. */
export function serializeRequestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Should a header object ever reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers["broker-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["broker-token"]',
  'headers.authorization',
];

/** One access line per completed request instead of Fastify's pair: each line is CPU (ADR 0029). */
export class AccessLogController extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
