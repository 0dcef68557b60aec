import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, httpStatusOf, type ErrorCodeValue } from '@broker/contract';

/** The time limits a connection lives under (env.ts, ADR 0014). */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/**
 * How often Node looks for requests past their time limit. Its default, 30 s, would let a stalled
 * request live up to 30 s beyond its limit; one second (or a quarter of a shorter limit) keeps the
 * answer within the limit plus a second.
 */
export const checkingIntervalMs = (limits: ConnectionLimits) =>
  Math.max(25, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** Printable ASCII only and bounded: llhttp's reason is about the client's own bytes, but stays short. */
const plain = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);

interface Answer {
  code: ErrorCodeValue;
  msg: string;
}

/** What Node's parser refused, in the envelope's words. */
export function answerFor(error: NodeJS.ErrnoException & { reason?: string }, limits: ConnectionLimits): Answer {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      code: ErrorCode.REQUEST_TIMEOUT,
      msg: `request: not received in full within ${seconds(limits.requestTimeoutMs)} (headers within ${seconds(limits.headersTimeoutMs)}); the connection is closed`,
    };
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { code: ErrorCode.HEADERS_TOO_LARGE, msg: `headers: larger than ${http.maxHeaderSize / 1024} KiB in total` };
  }
  const reason = error.reason ? plain(error.reason) : 'the request line, a header or the chunked body is malformed';
  return { code: ErrorCode.HTTP_MALFORMED, msg: `request: not valid HTTP/1.1 (${reason})` };
}

/** A complete HTTP/1.1 response carrying the error envelope; the connection closes after it. */
export function rawEnvelopeResponse({ code, msg }: Answer): string {
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

/** Remembers each connection's latest request and response, so an error knows whether it was already answered. */
export function trackExchanges(server: http.Server) {
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    exchanges.set(request.socket, { request, response });
  });
}

/**
 * May an answer still be written? Not when the current request was already answered (a route may
 * refuse before the body has arrived, and then the body stalls): a second response would be read as
 * the answer to a request never sent.
 */
function unanswered(socket: Socket) {
  const exchange = exchanges.get(socket);
  if (!exchange) return true;
  // The last request was read in full and answered: the error is about the next one.
  if (exchange.request.complete && exchange.response.writableEnded) return true;
  return !exchange.response.headersSent;
}

/**
 * Fastify's `clientErrorHandler`: Node calls it when it gives up on a connection before (or while)
 * a request reaches Fastify — a timeout, oversized headers, bytes that are not HTTP. Fastify's own
 * writes a non-envelope JSON; this writes the envelope, only when the request was not answered yet
 * (`trackExchanges`), then closes the connection.
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
 * An onRequest hook that runs only while its request's connection is open. Node's parser may refuse
 * a connection (a broken chunked body, a lying content-length) while an earlier hook still waits on
 * the database: the socket is gone, `request.ip` is undefined, and no answer can reach anyone. The
 * request ends there, silently: no later hook, no handler, nothing counted, nothing logged as an error.
 */
export function whileConnected(hook: (request: FastifyRequest, reply: FastifyReply) => Promise<void>) {
  return async function connectedOnly(request: FastifyRequest, reply: FastifyReply) {
    if (request.raw.socket?.destroyed) return void reply.hijack();
    await hook(request, reply);
  };
}
