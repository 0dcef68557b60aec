import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { defineEndpoint, ErrorCode, errorCodesOf, HEADER_AGENT, HEADER_CORP, HEADER_TOKEN, type ErrorCodeValue } from '@broker/contract';
import errorHandlerPlugin from '../plugins/error-handler.plugin';
import { testDatabases, startTestApp, signInAs, apiClient, type RunningTestApp, type SignedIn } from '../testing';
import {
  endpointEntries,
  foreignInputs,
  seedEndpointFixture,
  sweepCaller,
  validInputs,
  type EndpointFixture,
  type EndpointName,
} from '../testing/endpoint-fixture';
import type { DatabaseHandle } from '../db/client';
import { ApiError } from './api-error';
import { routeEndpoint } from './endpoint-route';

/**
 * ADR 0022: each endpoint declares the codes it answers. The route refuses, in tests, to answer
 * one it does not declare; this file proves that guard, then walks every endpoint with valid,
 * foreign, anonymous, wrong-app and malformed calls and checks every code answered is declared.
 */

const UNDECLARED = /a code its contract does not declare/;

describe('an undeclared error code', () => {
  const forbidding = (errors: readonly ErrorCodeValue[]) =>
    defineEndpoint({
      method: 'GET',
      path: '/api/test/forbidding',
      agent: 'khzl',
      auth: false,
      payload: 'query',
      request: z.strictObject({}),
      response: z.object({}),
      summary: 'test',
      tag: 'test',
      errors,
    });

  const appWith = async (errors: readonly ErrorCodeValue[], refuse: boolean) => {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorate('refuseUndeclaredErrorCodes', refuse);
    await app.register(errorHandlerPlugin);
    routeEndpoint(app, forbidding(errors), () => {
      throw ApiError.forbidden('not yours');
    });
    await app.ready();
    return app;
  };
  const call = (app: FastifyInstance) =>
    app.inject({ method: 'GET', url: '/api/test/forbidding', headers: { [HEADER_CORP]: 'fxhl', [HEADER_AGENT]: 'khzl' } });

  it('is answered 090500 naming the code and the endpoint when the app refuses them (tests)', async () => {
    const app = await appWith([], true);
    const answer = await call(app);
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({
      code: ErrorCode.INTERNAL,
      msg: 'GET /api/test/forbidding answered 090403, a code its contract does not declare (errors)',
      data: null,
    });
    await app.close();
  });

  it('goes through unchanged once declared, and unchanged (only logged) where the app does not refuse them', async () => {
    for (const app of [await appWith([ErrorCode.FORBIDDEN], true), await appWith([], false)]) {
      const answer = await call(app);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: ErrorCode.FORBIDDEN, msg: 'not yours' });
      await app.close();
    }
  });
});

for (const engine of testDatabases()) {
  describe(`every code an endpoint answers is declared (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let fixture: EndpointFixture;
    let chan: SignedIn;

    beforeAll(async () => {
      database = await engine.create();
      fixture = await seedEndpointFixture(database);
      server = await startTestApp(database, { LOGIN_RATE_LIMIT: '0', KYC_SEARCH_RATE_LIMIT: '0' });
      chan = await signInAs(server.baseUrl, 'chanwaiman');
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const callerFor = async (name: EndpointName) => (await sweepCaller(server.baseUrl, name, chan)).headers;

    it("OpenAPI lists each operation's codes in x-error-codes and names its own in the 4xx/5xx descriptions", async () => {
      type Operation = { 'x-error-codes'?: string[]; responses: Record<string, { description: string }> };
      const doc = (await server.app.inject('/api/docs/json')).json<{ paths: Record<string, Record<string, Operation>> }>();
      for (const [name, endpoint] of endpointEntries()) {
        const operation = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
        expect(operation?.['x-error-codes'], name).toEqual(errorCodesOf(endpoint));
        const described = `${operation!.responses['4XX']!.description} ${operation!.responses['5XX']!.description}`;
        for (const code of endpoint.errors) expect(described, name).toContain(code);
      }
    });

    for (const [name, endpoint] of endpointEntries()) {
      it(`${name}: valid, foreign, anonymous, wrong-app and malformed calls answer only declared codes`, async () => {
        const declared = errorCodesOf(endpoint);
        const calls: { label: string; input: Record<string, unknown>; headers: Record<string, string>; agent?: string }[] = [
          { label: 'valid', input: await validInputs[name](fixture), headers: await callerFor(name) },
          { label: 'anonymous', input: await validInputs[name](fixture), headers: {} },
          { label: 'wrong app', input: await validInputs[name](fixture), headers: await callerFor(name), agent: 'hr' },
          { label: 'malformed', input: { notAField: 'x' }, headers: await callerFor(name) },
        ];
        const foreign = foreignInputs[name];
        if (foreign) calls.push({ label: 'foreign', input: await foreign(fixture), headers: chan.headers });
        for (const { label, input, headers, agent } of calls) {
          // The caller's token and cookie, sent as the endpoint's own app unless the case names another.
          const caller = { corp: 'fxhl', token: headers[HEADER_TOKEN] ?? null, cookies: headers.cookie ?? null };
          const answer = await apiClient(server.baseUrl, caller).call(endpoint, input, agent ? { agent } : {});
          expect(answer.body.msg, `${name} (${label})`).not.toMatch(UNDECLARED);
          if (answer.body.code !== ErrorCode.OK) expect(declared, `${name} (${label}): ${answer.text}`).toContain(answer.body.code);
        }
      });
    }
  });
}
