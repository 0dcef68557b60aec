import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { endpoints, type CustomerStat, type ErrorCodeValue, type RequestOf, type statCustomers } from '@broker/contract';
import { apiClient, type ApiAnswer, type ApiTarget } from './api-client';
import { BrowserJar } from './browser-jar';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Answers every contract path with what it received, so the wire each payload kind builds can be read back. */
async function echoApp(): Promise<FastifyInstance> {
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.post('/set-cookie', async (_request, reply) => {
    reply.header('set-cookie', ['binding=abc; Path=/; HttpOnly', 'gone=; Max-Age=0']);
    return { code: '0', msg: 'ok', data: null };
  });
  app.get('/not-json', async (_request, reply) => reply.type('text/plain').send('plain words'));
  for (const endpoint of Object.values(endpoints)) {
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      handler: async (request, reply) => {
        if (request.headers['x-fail']) return reply.code(409).send({ code: '090409', msg: 'changed meanwhile', data: null });
        const seen: Seen = { method: request.method, url: request.url, headers: request.headers, body: (request.body as string) ?? '' };
        return { code: '0', msg: 'ok', data: seen };
      },
    });
  }
  await app.ready();
  return app;
}

describe('apiClient: one typed client for every suite', () => {
  let app: FastifyInstance;
  let listening: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    app = await echoApp();
    listening = await echoApp();
    await listening.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(listening.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await listening?.close();
  });

  // The echo answers with what it saw; the client types `data` by the real endpoint's response.
  const seenOf = (answer: ApiAnswer<unknown>) => answer.body.data as Seen;

  for (const kind of ['inject', 'http'] as const) {
    describe(`over ${kind}`, () => {
      const target = (): ApiTarget => (kind === 'inject' ? app : baseUrl);

      it('query: the input as a query string, arrays repeated, empty values left out; the endpoint’s own app', async () => {
        const client = apiClient(target(), { token: 'tok-1' });
        const seen = seenOf(await client.getTodoClients({ date: '2026-11-20', pageSize: 5, rules: ['birthday', 'idExpiry'] } as never));
        expect(seen.method).toBe('GET');
        expect(seen.url).toBe(`${endpoints.getTodoClients.path}?date=2026-11-20&pageSize=5&rules=birthday&rules=idExpiry`);
        expect(seen.headers).toMatchObject({ 'corp-code': 'fxhl', 'agent-code': 'mot', 'broker-token': 'tok-1' });
        expect(seen.headers['content-type']).toBeUndefined();
        expect(seenOf(await client.getDefaultCcy()).url).toBe(endpoints.getDefaultCcy.path);
        expect(seenOf(await client.hasKyc({ externalUserId: 'wm1', note: undefined, other: null } as never)).url).toBe(
          `${endpoints.hasKyc.path}?externalUserId=wm1`,
        );
      });

      it('json: the input as a JSON body', async () => {
        const seen = seenOf(await apiClient(target()).searchCustomers({ keyword: '陳', pageNum: 2 }));
        expect(seen.method).toBe('POST');
        expect(seen.headers['content-type']).toBe('application/json');
        expect(seen.headers['agent-code']).toBe('khgl');
        expect(JSON.parse(seen.body)).toEqual({ keyword: '陳', pageNum: 2 });
      });

      it('form: the input as multipart form-data', async () => {
        const seen = seenOf(await apiClient(target()).setFold({ isFold: 'true' }));
        expect(seen.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
        expect(seen.body).toMatch(/name="isFold"\r\n\r\ntrue\r\n/);
      });

      it('none: no body and no content type', async () => {
        const seen = seenOf(await apiClient(target(), { token: 'tok-2' }).signOut());
        expect(seen.method).toBe('POST');
        expect(seen.body).toBe('');
        expect(seen.headers['content-type']).toBeUndefined();
        expect(seen.headers['broker-token']).toBe('tok-2');
      });

      it('the token only on authenticated calls; corp, agent and extra headers as the caller says', async () => {
        const client = apiClient(target(), { corp: 'other', agent: 'khgl', token: 'tok-3', headers: { 'x-request-id': 'r-1' } });
        const publicCall = seenOf(await client.getCorpConfig({ corpCode: 'fxhl' }));
        expect(publicCall.headers['broker-token']).toBeUndefined();
        expect(publicCall.headers).toMatchObject({ 'corp-code': 'other', 'agent-code': 'khgl', 'x-request-id': 'r-1' });
        const noAgent = seenOf(await client.getDefaultCcy({}, { agent: null }));
        expect(noAgent.headers['agent-code']).toBeUndefined();
        expect(seenOf(await client.with({ corp: null }).getDefaultCcy()).headers['corp-code']).toBeUndefined();
      });

      it('a signed-in browser sends the corp, token and cookie it signed in with, as the endpoint’s own app', async () => {
        const signedIn = {
          jar: new BrowserJar().set('b', '2'),
          headers: { 'corp-code': 'fxhl', 'agent-code': 'khgl', 'broker-token': 't', cookie: 'b=1' },
        };
        const seen = seenOf(await apiClient(target(), signedIn).getTodoTaskCount());
        expect(seen.headers).toMatchObject({ ...signedIn.headers, 'agent-code': 'mot' });
      });

      it('a jar sends its cookies and keeps what answers set or clear', async () => {
        const jar = new BrowserJar().set('gone', 'x').set('kept', 'y');
        const client = apiClient(target(), { cookies: jar });
        await client.raw('/set-cookie', { method: 'POST' });
        expect(jar.header()).toBe('kept=y; binding=abc');
        expect(seenOf(await client.getDefaultCcy()).headers.cookie).toBe('kept=y; binding=abc');
      });

      it('a failure: the code, msg, status and headers; `ok` throws naming them', async () => {
        const client = apiClient(target(), { headers: { 'x-fail': '1' } });
        const answer = await client.updateProfile({ customerId: 1, version: 1 });
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual({ code: '090409', msg: 'changed meanwhile', data: null });
        expect(answer.headers.get('content-type')).toMatch(/application\/json/);
        await expect(client.ok.updateProfile({ customerId: 1, version: 1 })).rejects.toThrow(
          'updateProfile answered 090409 (HTTP 409): changed meanwhile',
        );
      });

      it('call sends any input; raw sends any bytes (a string, a Uint8Array) with the caller’s headers', async () => {
        const client = apiClient(target(), { token: 'tok-4' });
        const wrong = seenOf(await client.call('kycBind', { externalUserId: 7, extra: true }));
        expect(JSON.parse(wrong.body)).toEqual({ externalUserId: 7, extra: true });
        const raw = await client.raw(endpoints.kycBind, { body: '{"broken"', contentType: 'application/json', query: { a: 1 } });
        const seen = (raw.body as { data: Seen }).data;
        expect(seen.method).toBe('POST');
        expect(seen.url).toBe(`${endpoints.kycBind.path}?a=1`);
        expect(seen.body).toBe('{"broken"');
        expect(seen.headers).toMatchObject({ 'agent-code': 'khzl', 'broker-token': 'tok-4', 'content-type': 'application/json' });
        const bytes = await client.raw(endpoints.kycBind, { body: new Uint8Array([0x7b, 0x7d]), contentType: 'application/json' });
        expect((bytes.body as { data: Seen }).data.body).toBe('{}');
        const text = await client.raw('/not-json');
        expect(text.body).toBe('plain words');
      });
    });
  }

  it('types: input from the request schema, data from the response schema once the code is "0"', () => {
    const client = apiClient('http://127.0.0.1:1');
    expectTypeOf(client.statCustomers).parameter(0).toEqualTypeOf<RequestOf<typeof statCustomers> | undefined>();
    expectTypeOf(client.ok.statCustomers).returns.resolves.toEqualTypeOf<CustomerStat>();
    type Answer = Awaited<ReturnType<typeof client.statCustomers>>;
    expectTypeOf<Answer['body']['code']>().toEqualTypeOf<ErrorCodeValue>();
    const narrow = (answer: Answer) => (answer.body.code === '0' ? answer.body.data : null);
    expectTypeOf(narrow).returns.toEqualTypeOf<CustomerStat | null>();
    // @ts-expect-error getProfile needs a customerId
    void (() => client.getProfile({}));
    // @ts-expect-error not a field of the request
    void (() => client.searchCustomers({ keywrod: 'x' }));
  });
});
