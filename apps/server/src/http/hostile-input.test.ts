import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints, errorEnvelopeSchema, type Endpoint } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, type RunningTestApp } from '../testing';
import type { DatabaseHandle } from '../db/client';

const BODY_LIMIT = 16 * 1024;

/**
 * Every endpoint of the contract, fed malformed JSON, wrong types, unknown fields and oversized
 * bodies: each must answer a 4xx envelope whose msg says what is wrong, never a 5xx.
 */
for (const engine of testDatabases()) {
  describe(`hostile input on every endpoint (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let headers: Record<string, string>;

    beforeAll(async () => {
      database = await engine.create();
      server = await startTestApp(database, { BODY_LIMIT_BYTES: String(BODY_LIMIT) });
      headers = (await signInAs(server.baseUrl)).headers;
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const send = async (endpoint: Endpoint, init: { query?: string; body?: string | Buffer; contentType?: string }) => {
      const url = `${server.baseUrl}${endpoint.path}${init.query ? `?${init.query}` : ''}`;
      const response = await fetch(url, {
        method: endpoint.method,
        headers: { ...headers, 'agent-code': endpoint.agent, ...(init.contentType ? { 'content-type': init.contentType } : {}) },
        ...(init.body !== undefined ? { body: init.body } : {}),
      });
      const body: unknown = await response.json();
      return { status: response.status, body };
    };

    const expectClientError = (result: { status: number; body: unknown }, msgPattern?: RegExp) => {
      expect(result.status, JSON.stringify(result.body)).toBeGreaterThanOrEqual(400);
      expect(result.status, JSON.stringify(result.body)).toBeLessThan(500);
      const envelope = errorEnvelopeSchema.parse(result.body);
      if (msgPattern) expect(envelope.msg).toMatch(msgPattern);
    };

    for (const [name, endpoint] of Object.entries(endpoints) as [string, Endpoint][]) {
      describe(`${name}: ${endpoint.method} ${endpoint.path}`, () => {
        it('is served, and refuses a call without a token when it needs one', async () => {
          const response = await fetch(`${server.baseUrl}${endpoint.path}`, {
            method: endpoint.method,
            headers: { 'corp-code': 'fxhl', 'agent-code': endpoint.agent },
          });
          const body = errorEnvelopeSchema.or(z.object({ code: z.literal('0') }).loose()).parse(await response.json());
          expect(response.status, `${endpoint.path} must be implemented`).not.toBe(404);
          if (endpoint.auth) expect(body.code).toBe('080001');
        });
        if (endpoint.payload === 'json') {
          it('rejects malformed JSON', async () => {
            expectClientError(await send(endpoint, { body: '{"broken": ', contentType: 'application/json' }), /body: is not valid JSON/);
          });
          it('rejects a body of the wrong type', async () => {
            expectClientError(await send(endpoint, { body: '[1,2,3]', contentType: 'application/json' }), /^body/);
            expectClientError(await send(endpoint, { body: '"text"', contentType: 'application/json' }), /^body/);
          });
          it('rejects unknown fields, naming them', async () => {
            expectClientError(
              await send(endpoint, { body: JSON.stringify({ __unknown: 1 }), contentType: 'application/json' }),
              /unknown field "__unknown"/,
            );
          });
          it('rejects an oversized body with 413', async () => {
            const result = await send(endpoint, {
              body: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT * 2) }),
              contentType: 'application/json',
            });
            expect(result.status).toBe(413);
            expectClientError(result, /larger than the allowed size/);
          });
          it('rejects a body that is not JSON', async () => {
            expectClientError(await send(endpoint, { body: 'a=1', contentType: 'text/plain' }));
          });
        }
        if (endpoint.payload === 'query') {
          it('rejects unknown query parameters, naming them', async () => {
            expectClientError(await send(endpoint, { query: '__unknown=1' }), /unknown field "__unknown"/);
          });
          const keys = Object.keys((endpoint.request as unknown as { shape?: Record<string, unknown> }).shape ?? {});
          if (keys.length > 0) {
            it.each(keys)('rejects a repeated and an absurdly long %s', async (key) => {
              expectClientError(await send(endpoint, { query: `${key}=1&${key}=2` }), new RegExp(`query\\.${key}`));
              expectClientError(await send(endpoint, { query: `${key}=${'9'.repeat(5000)}` }));
            });
          }
        }
      });
    }

    it('answers an unknown API path with a 404 envelope', async () => {
      const response = await fetch(`${server.baseUrl}/api/nothing/here`);
      expect(response.status).toBe(404);
      expect(errorEnvelopeSchema.parse(await response.json()).msg).toMatch(/no such endpoint/);
    });
  });
}
