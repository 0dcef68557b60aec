import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, httpStatusOf } from '@broker/contract';
import { printable } from './validation-message';

/** env.ts, ADR 0014. */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** Node's default 30 s check would let a stalled request live 30 s past its limit. */
export const checkingIntervalMs = (limits: ConnectionLimits) =>
  Math.max(25, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** What Node's parser refused, in the envelope's words. */
export function answerFor(error: NodeJS.ErrnoException & { reason?: string }, limits: ConnectionLimits) {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      code: ErrorCode.REQUEST_TIMEOUT,
      msg: `request: not received in full within ${seconds(limits.requestTimeoutMs)} (headers within ${seconds(limits.headersTimeoutMs)}); the connection is closed`,
    };
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { code: ErrorCode.HEADERS_TOO_LARGE, msg: `headers: larger than ${http.maxHeaderSize / 1024} KiB in total` };
  }
  // Printable and short: llhttp's reason is about the client's own bytes.
  const reason = error.reason ? printable(error.reason, 80) : 'the request line, a header or the chunked body is malformed';
  return { code: ErrorCode.HTTP_MALFORMED, msg: `request: not valid HTTP/1.1 (${reason})` };
}

/** The connection closes after it. */
export function rawEnvelopeResponse({ code, msg }: ReturnType<typeof answerFor>): string {
  const status = httpStatusOf[code];
  const body = JSON.stringify({ code, msg, data: null });
  return [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

const exchanges = new WeakMap<Socket, { request: http.IncomingMessage; response: http.ServerResponse }>();

/** So an error knows whether its request was already answered. */
export function trackExchanges(server: http.Server) {
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    exchanges.set(request.socket, { request, response });
  });
}

/** Not after a route answered before the body arrived: a second response would answer a request never sent. */
function unanswered(socket: Socket) {
  const exchange = exchanges.get(socket);
  if (!exchange) return true;
  // The last request was read in full and answered: the error is about the next one.
  if (exchange.request.complete && exchange.response.writableEnded) return true;
  return !exchange.response.headersSent;
}

/**
 * Fastify's `clientErrorHandler`, for a connection Node gives up on (a timeout, oversized headers, not HTTP):
 * the envelope instead of Fastify's JSON, only when the request was not answered yet; then it closes.
 */
export function createClientErrorHandler(limits: ConnectionLimits, log: () => FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = answerFor(error, limits);
    log().info({ code: answer.code, cause: error.code }, 'connection refused before a handler');
    if (socket.writable && unanswered(socket)) socket.write(rawEnvelopeResponse(answer));
    socket.destroy();
  };
}

/**
 * Node's parser may refuse a connection (a broken chunked body) while an earlier hook waits on the database:
 * no answer can reach anyone, so the request ends there, silently.
 */
export function whileConnected(hook: (request: FastifyRequest, reply: FastifyReply) => Promise<void>) {
  return async function connectedOnly(request: FastifyRequest, reply: FastifyReply) {
    if (request.raw.socket?.destroyed) return void reply.hijack();
    await hook(request, reply);
  };
}
