import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '@broker/contract';
import { healthDetailHeaders, signInAs, startServerProcess, startTestApp, testDatabases, type ServerProcess } from '../testing';

/**
 * A reverse proxy as docs/deployment.md's nginx block configures one (`proxy_pass http://127.0.0.1:<port>` with
 * `X-Forwarded-For $proxy_add_x_forwarded_for` and `X-Forwarded-Proto $scheme`): Host becomes the upstream's
 * own `127.0.0.1:<port>` (nginx's `$proxy_host`) unless `host` names the public one (`proxy_set_header Host $host`).
 */
async function startReverseProxy(upstream: string, options: { host?: string } = {}) {
  const target = new URL(upstream);
  const proxy = http.createServer((request, response) => {
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
    const headers = { ...request.headers, host: options.host ?? target.host, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http' };
    const onward = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    onward.on('error', () => response.destroy());
    request.pipe(onward);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return { base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, close: () => new Promise((done) => proxy.close(done)) };
}

/** GET with headers fetch will not send as given (Host). */
function get(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

const AUTHORIZE = '/wecom/connect/oauth2/authorize?appid=ww7a1f3c9e5b2d4f60&redirect_uri=http%3A%2F%2F127.0.0.1%2FwxEntry&agentid=1000002';

/**
 * Issue 36.1 (ADR 0016): started as a fresh clone starts, without WECOM_MODE, behind that reverse proxy,
 * the server must not let whoever reaches the proxy sign in as any staff member through its emulator.
 */
describe('the WeCom emulator implied by default, behind a reverse proxy', () => {
  let server: ServerProcess;
  const proxies: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    server = await startServerProcess({ env: { HOST: '127.0.0.1', PGLITE_DIR: 'memory://' }, startTimeoutMs: 120_000 });
  }, 150_000);
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await server?.stop();
  });

  it('says at start and in /readyz details that it is a development set-up', async () => {
    expect(server.output()).toMatch(/WeCom: emulator, implied: a development set-up/);
    const details = (await (await fetch(`${server.baseUrl}/readyz`, { headers: healthDetailHeaders })).json()) as Record<string, unknown>;
    expect(details.development).toMatch(/WECOM_MODE is unset.*only requests made on this machine/);
    // The load balancer's view stays ready-or-not (ADR 0054).
    expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it('signs nobody in through the proxy, whichever Host it forwards', async () => {
    for (const host of [undefined, 'broker.example.test']) {
      const proxy = await startReverseProxy(server.baseUrl, host ? { host } : {});
      proxies.push(proxy);
      await expect(
        signInAs(proxy.base, 'chanwaiman', { wecomBaseUrl: `${proxy.base}/wecom` }),
        `Host ${host ?? '$proxy_host'}`,
      ).rejects.toThrow(/emulator gave no code \(HTTP 403\)/);
      const page = await fetch(`${proxy.base}${AUTHORIZE}`);
      expect(page.status).toBe(403);
      const refusal = (await page.json()) as { code: string; msg: string };
      expect(refusal.code).toBe(ErrorCode.FORBIDDEN);
      expect(refusal.msg).toMatch(/x-forwarded-for.*WECOM_MODE=emulator/);
    }
  });

  it.each([
    ['Forwarded', { forwarded: 'for=203.0.113.7;proto=https' }],
    ['Via', { via: '1.1 proxy.internal' }],
    ['X-Real-IP', { 'x-real-ip': '203.0.113.7' }],
    ['X-Forwarded-Host', { 'x-forwarded-host': 'broker.example.test' }],
    ['a public Host (a bare TCP forwarder, or a rebound DNS name)', { host: 'broker.example.test' }],
  ])('refuses a request that carries %s', async (_what, headers) => {
    const answer = await get(`${server.baseUrl}${AUTHORIZE}`, headers);
    expect(answer.status).toBe(403);
    expect((JSON.parse(answer.body) as { code: string }).code).toBe(ErrorCode.FORBIDDEN);
  });

  it('still signs in a developer on this machine, directly', async () => {
    const signedIn = await signInAs(server.baseUrl, 'chanwaiman');
    expect(signedIn.login.userId).toBe('chanwaiman');
  });
});

describe('the WeCom emulator chosen explicitly (WECOM_MODE=emulator), behind a reverse proxy', () => {
  const [engine] = testDatabases();

  it('serves whoever the operator exposed it to: a LAN demo is a choice', async () => {
    const database = await engine!.create();
    const app = await startTestApp(database, { WECOM_MODE: 'emulator' });
    const proxy = await startReverseProxy(app.baseUrl, { host: 'broker.example.test' });
    try {
      const signedIn = await signInAs(proxy.base, 'chanwaiman', { wecomBaseUrl: `${proxy.base}/wecom` });
      expect(signedIn.login.userId).toBe('chanwaiman');
    } finally {
      await proxy.close();
      await app.close();
      await database.drop();
    }
  });
});
