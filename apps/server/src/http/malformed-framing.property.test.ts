import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { endpoints, WECOM_CALLBACK_PATH, type Endpoint } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type RunningTestApp } from '../testing';
import { rawHttp } from '../testing/raw-http';
import type { DatabaseHandle } from '../db/client';

/**
 * Property: no client can make the server write an error-level log line. Broken HTTP framing —
 * a chunked body that breaks off, a content-length that lies or repeats, a truncated body, a
 * garbage request line or header, a connection closed early — is sent at every route, with a
 * signed-in browser's headers so that every hook runs (authentication, rate limits). The parser
 * refuses such a connection while the route's hooks are still under way; each later hook must cope
 * (`request.ip` is undefined once the socket is gone), and nothing may be logged at level ≥ 50:
 * an error line is an alert, and a client must not be able to raise one on demand.
 */
const RUNS_PER_ROUTE = 10;
const SEED = 20_261_201;
const ERROR_LEVEL = 50;

interface Route {
  name: string;
  method: string;
  path: string;
  agent?: string;
  auth?: boolean;
}

const routes: Route[] = [
  ...Object.entries(endpoints).map(([name, endpoint]: [string, Endpoint]) => ({
    name,
    method: endpoint.method,
    path: endpoint.path,
    agent: endpoint.agent,
    auth: endpoint.auth,
  })),
  { name: 'wecomCallback (POST)', method: 'POST', path: WECOM_CALLBACK_PATH.replace(':corpCode', 'fxhl') },
  { name: 'wecomCallback (GET)', method: 'GET', path: WECOM_CALLBACK_PATH.replace(':corpCode', 'fxhl') },
  { name: 'readyz', method: 'GET', path: '/readyz' },
];

const head = (method: string, path: string, headers: Record<string, string | number>, extra: string[] = []) =>
  `${method} ${path} HTTP/1.1\r\n${[...Object.entries({ host: 'localhost', ...headers }).map(([k, v]) => `${k}: ${v}`), ...extra].join('\r\n')}\r\n\r\n`;

type Framing = (method: string, path: string, headers: Record<string, string>, body: string) => string[];

/** Each a way HTTP/1.1 framing goes wrong; the body is a small valid-looking payload. */
const FRAMINGS: Record<string, Framing> = {
  'chunk size not hex': (m, p, h, b) => [head(m, p, { ...h, 'transfer-encoding': 'chunked' }) + `zz\r\n${b}\r\n0\r\n\r\n`],
  'chunk longer than its size': (m, p, h, b) => [head(m, p, { ...h, 'transfer-encoding': 'chunked' }) + `1\r\n${b}\r\n0\r\n\r\n`],
  'chunked body cut off': (m, p, h, b) => [head(m, p, { ...h, 'transfer-encoding': 'chunked' }) + `40\r\n${b}`],
  'chunked without the last chunk': (m, p, h, b) => [
    head(m, p, { ...h, 'transfer-encoding': 'chunked' }) + `${b.length.toString(16)}\r\n${b}\r\n`,
  ],
  'content-length not a number': (m, p, h, b) => [head(m, p, { ...h, 'content-length': 'abc' }) + b],
  'content-length negative': (m, p, h, b) => [head(m, p, { ...h, 'content-length': '-1' }) + b],
  'two different content-lengths': (m, p, h, b) => [head(m, p, h, [`content-length: ${b.length}`, `content-length: ${b.length + 5}`]) + b],
  'content-length and chunked': (m, p, h, b) => [
    head(m, p, { ...h, 'content-length': b.length, 'transfer-encoding': 'chunked' }) + `${b.length.toString(16)}\r\n${b}\r\n0\r\n\r\n`,
  ],
  'body shorter than content-length, then close': (m, p, h, b) => [head(m, p, { ...h, 'content-length': b.length + 100 }) + b],
  'head only, then close': (m, p, h, b) => [head(m, p, { ...h, 'content-length': b.length + 1 })],
  'half a head, then close': (m, p, h) => [head(m, p, h).slice(0, 40)],
  'garbage request line': (_m, p, h) => [head('G\u0000T', p, h)],
  'unknown HTTP version': (m, p, h) => [head(m, p, h).replace('HTTP/1.1', 'HTTP/7.3')],
  'space in the path': (m, p, h) => [head(m, `${p} x`, h)],
  'header without a colon': (m, p, h, b) => [head(m, p, { ...h, 'content-length': b.length }, ['no colon here']) + b],
  'NUL in a header value': (m, p, h, b) => [head(m, p, { ...h, 'content-length': b.length, 'x-bad': 'a\u0000b' }) + b],
  'bare LF line endings': (m, p, h, b) => [head(m, p, { ...h, 'content-length': b.length }).replaceAll('\r\n', '\n') + b],
  'folded header': (m, p, h, b) => [head(m, p, { ...h, 'content-length': b.length }, [' folded-continuation']) + b],
  'valid request then garbage on the same connection': (m, p, h, b) => [
    head(m, p, { ...h, 'content-length': b.length }) + b + 'xx\r\n\r\n',
  ],
};

for (const engine of testDatabases()) {
  describe(`malformed framing at every route never logs an error (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    const logged: { level: number; line: string }[] = [];
    let headersFor: (route: Route) => Record<string, string>;

    beforeAll(async () => {
      database = await engine.create();
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) {
            logged.push({ level: (JSON.parse(line) as { level: number }).level, line });
          }
          done();
        },
      });
      // Limits left on (high) so that their hooks run on every guarded route.
      server = await startTestApp(database, { LOG_LEVEL: 'info' }, { logStream });
      const api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
      headersFor = (route) => api.headersFor({ ...(route.agent ? { agent: route.agent } : {}), auth: route.auth ?? false });
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    /** Waits until the server has written nothing for a moment: hooks left running finish and log. */
    const settled = async () => {
      let seen = -1;
      while (seen !== logged.length) {
        seen = logged.length;
        await sleep(150);
      }
    };

    for (const route of routes) {
      it(`${route.name}: nothing at error level`, async () => {
        const from = logged.length;
        const sent: string[] = [];
        const bodies = ['{}', '{"agentCode":"khzl","redirectPage":"/"}', 'code=x&state=y', '<xml><Encrypt>x</Encrypt></xml>'];
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...Object.keys(FRAMINGS)),
            fc.constantFrom(...bodies),
            // Where the bytes are split into two writes: the parser refuses them now or a moment later.
            fc.nat({ max: 400 }),
            async (framing, body, split) => {
              sent.push(framing);
              const bytes = FRAMINGS[framing]!(route.method, route.path, headersFor(route), body).join('');
              const steps = split > 0 && split < bytes.length ? [bytes.slice(0, split), { pauseMs: 5 }, bytes.slice(split)] : [bytes];
              const answer = await rawHttp(server.baseUrl, steps, 40);
              if (answer.status !== null) expect(answer.status, `${framing}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
            },
          ),
          // Every framing once in a single write, then random ones split anywhere.
          {
            numRuns: Object.keys(FRAMINGS).length + RUNS_PER_ROUTE,
            seed: SEED + routes.indexOf(route),
            examples: Object.keys(FRAMINGS).map((framing) => [framing, bodies[0]!, 0]),
          },
        );
        await settled();
        const errors = logged.slice(from).filter((entry) => entry.level >= ERROR_LEVEL);
        expect(
          errors.map((entry) => entry.line.slice(0, 600)),
          `after ${sent.join(', ')}`,
        ).toEqual([]);
      });
    }
  });
}
