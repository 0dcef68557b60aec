import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, errorEnvelopeSchema, startSignIn, ErrorCode, httpStatusOf, type ErrorCodeValue } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, type RunningTestApp } from '../testing';
import { rawHttp, requestHead, type RawExchange } from '../testing/raw-http';
import type { DatabaseHandle } from '../db/client';

/** Short limits so a stalled client is seen being closed within a test's time. */
const HEADERS_MS = 600;
const REQUEST_MS = 1200;
const IDLE_MS = 1500;
/** Node looks for expired requests every quarter of the shorter limit here (≤ 1 s by default). */
const SLACK_MS = 700;

/** The answer is our envelope with `code`, at the status the code travels with, and the connection is closed. */
function expectEnvelopeAndClose(answer: RawExchange, code: ErrorCodeValue, msg: RegExp) {
  const context = answer.text.slice(0, 4000);
  expect(answer.status, context).toBe(httpStatusOf[code]);
  const envelope = errorEnvelopeSchema.parse(answer.body);
  expect(envelope.code, context).toBe(code);
  expect(envelope.msg, context).toMatch(msg);
  expect(answer.headers['content-type'], context).toMatch(/^application\/json/);
  expect(answer.headers.connection, context).toBe('close');
  expect(answer.closedAfterMs, `still open: ${context}`).not.toBeNull();
}

// Raw sockets throughout, not the typed client: these requests stall, trickle or break HTTP itself.
for (const engine of testDatabases()) {
  describe(`slow and malformed connections (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let headers: Record<string, string>;

    beforeAll(async () => {
      database = await engine.create();
      server = await startTestApp(
        database,
        {},
        { tuning: { httpHeadersTimeoutMs: HEADERS_MS, httpRequestTimeoutMs: REQUEST_MS, httpIdleTimeoutMs: IDLE_MS } },
      );
      headers = (await signInAs(server.baseUrl)).headers;
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const halfBody = (path: string, extra: Record<string, string> = {}) =>
      requestHead('POST', path, { ...extra, 'content-type': 'application/json', 'content-length': 200 }) + '{"agentCode": "khzl", "redi';
    const publicHeaders = { 'corp-code': 'fxhl', 'agent-code': startSignIn.agent };

    it('a client that sends headers and half a body, then stops, is answered 090601 and closed (anonymous)', async () => {
      const answer = await rawHttp(server.baseUrl, [halfBody(startSignIn.path, publicHeaders), { pauseMs: 10_000 }]);
      expectEnvelopeAndClose(answer, ErrorCode.REQUEST_TIMEOUT, /^request: not received in full within 1\.2 s/);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 50);
      expect(answer.closedAfterMs).toBeLessThan(REQUEST_MS + SLACK_MS);
    });

    it('a stall after the route already refused (no token) is closed without a second answer', async () => {
      const answer = await rawHttp(server.baseUrl, [
        halfBody(endpoints.updateProfile.path, { 'corp-code': 'fxhl', 'agent-code': endpoints.updateProfile.agent }),
        { pauseMs: 10_000 },
      ]);
      expect(answer.status, answer.text).toBe(401);
      expect(answer.text.match(/HTTP\/1\.1 /g), answer.text).toHaveLength(1);
      expect(answer.closedAfterMs, answer.text).not.toBeNull();
      expect(answer.closedAfterMs).toBeLessThan(REQUEST_MS + SLACK_MS);
    });

    it('the same stall from a signed-in client is closed the same way', async () => {
      const answer = await rawHttp(server.baseUrl, [
        halfBody(endpoints.updateProfile.path, { ...headers, 'agent-code': endpoints.updateProfile.agent }),
        { pauseMs: 10_000 },
      ]);
      expectEnvelopeAndClose(answer, ErrorCode.REQUEST_TIMEOUT, /^request: not received/);
      expect(answer.closedAfterMs).toBeLessThan(REQUEST_MS + SLACK_MS);
    });

    it('a body trickled a byte at a time (never idle) is still cut off at the request limit', async () => {
      const trickle = Array.from({ length: 60 }, () => [{ pauseMs: 100 }, 'x']).flat();
      const answer = await rawHttp(server.baseUrl, [halfBody(startSignIn.path, publicHeaders), ...trickle]);
      expectEnvelopeAndClose(answer, ErrorCode.REQUEST_TIMEOUT, /^request: not received/);
      expect(answer.closedAfterMs).toBeLessThan(REQUEST_MS + SLACK_MS);
    });

    it('headers trickled slowly (slowloris) are cut off at the headers limit', async () => {
      const lines = Array.from({ length: 40 }, (_, index) => [{ pauseMs: 100 }, `x-slow-${index}: 1\r\n`]).flat();
      const answer = await rawHttp(server.baseUrl, ['GET /healthz HTTP/1.1\r\nhost: localhost\r\n', ...lines]);
      expectEnvelopeAndClose(answer, ErrorCode.REQUEST_TIMEOUT, /^request: not received/);
      expect(answer.closedAfterMs).toBeLessThan(HEADERS_MS + SLACK_MS);
    });

    it('a connection that never sends a byte is closed', async () => {
      const answer = await rawHttp(server.baseUrl, [{ pauseMs: 10_000 }]);
      expect(answer.closedAfterMs, answer.text).not.toBeNull();
      expect(answer.closedAfterMs).toBeLessThan(IDLE_MS + SLACK_MS);
    });

    it('a slow request that completes within the limits is served (the limits do not cut honest clients)', async () => {
      const body = JSON.stringify({ agentCode: 'khzl', redirectPage: '/client/manage/list' });
      const answer = await rawHttp(server.baseUrl, [
        requestHead('GET', '/healthz', {}).slice(0, 10),
        { pauseMs: HEADERS_MS / 3 },
        requestHead('GET', '/healthz', { connection: 'close' }).slice(10),
      ]);
      expect(answer.status, answer.text).toBe(200);
      const posted = await rawHttp(server.baseUrl, [
        requestHead('POST', startSignIn.path, {
          ...publicHeaders,
          'content-type': 'application/json',
          'content-length': body.length,
          connection: 'close',
        }),
        { pauseMs: REQUEST_MS / 3 },
        body.slice(0, 10),
        { pauseMs: REQUEST_MS / 3 },
        body.slice(10),
      ]);
      expect((posted.body as { code: string }).code, posted.text).toBe(ErrorCode.OK);
    });

    it('headers beyond Node’s limit are 090602, a malformed header or request line 090603, each as our envelope', async () => {
      expectEnvelopeAndClose(
        await rawHttp(server.baseUrl, [requestHead('GET', '/healthz', { 'x-big': 'a'.repeat(20_000) })]),
        ErrorCode.HEADERS_TOO_LARGE,
        /^headers: larger than 16 KiB/,
      );
      expectEnvelopeAndClose(
        await rawHttp(server.baseUrl, ['GET /healthz HTTP/1.1\r\nhost: x\r\nbad header: 1\r\n\r\n']),
        ErrorCode.HTTP_MALFORMED,
        /^request: not valid HTTP\/1\.1 \(.+\)/,
      );
      expectEnvelopeAndClose(
        await rawHttp(server.baseUrl, ['NOT HTTP AT ALL\r\n\r\n']),
        ErrorCode.HTTP_MALFORMED,
        /^request: not valid HTTP/,
      );
      expectEnvelopeAndClose(
        await rawHttp(server.baseUrl, [
          requestHead('POST', '/api/auth/login/start', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
          'zz\r\n{}\r\n0\r\n\r\n',
        ]),
        ErrorCode.HTTP_MALFORMED,
        /^request: not valid HTTP/,
      );
      // The server is fine afterwards.
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    });
  });
}

describe('connection limits by default', () => {
  it('close a stalled request within 30 s: headers ≤ request < 30 s, idle ≤ 30 s', async () => {
    const database = await testDatabases()[0]!.create();
    const server = await startTestApp(database);
    try {
      const node = server.app.server;
      expect(node.headersTimeout).toBe(10_000);
      expect(node.requestTimeout).toBe(20_000);
      expect(node.timeout).toBe(30_000);
      expect(node.keepAliveTimeout).toBe(72_000);
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
