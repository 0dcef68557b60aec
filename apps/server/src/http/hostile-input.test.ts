import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  endpoints,
  envelopeSchema,
  errorEnvelopeSchema,
  ErrorCode,
  httpStatusOf,
  type Endpoint,
  type ErrorCodeValue,
} from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RawRequest, type RunningTestApp } from '../testing';
import { describeSchema, HOSTILE_TEXTS, isStorableText } from '../testing/contract-arbitraries';
import { endpointEntries, seedEndpointFixture, validInputs, type EndpointFixture, type EndpointName } from '../testing/endpoint-fixture';
import { createTableDigest } from '../testing/table-digest';
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
    let api: ApiClient;

    beforeAll(async () => {
      database = await engine.create();
      server = await startTestApp(database, {}, { tuning: { bodyLimitBytes: BODY_LIMIT } });
      api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const expectClientError = (result: { status: number; body: unknown }, msgPattern?: RegExp) => {
      expect(result.status, JSON.stringify(result.body)).toBeGreaterThanOrEqual(400);
      expect(result.status, JSON.stringify(result.body)).toBeLessThan(500);
      const envelope = errorEnvelopeSchema.parse(result.body);
      if (msgPattern) expect(envelope.msg).toMatch(msgPattern);
    };

    for (const [name, endpoint] of Object.entries(endpoints) as [string, Endpoint][]) {
      describe(`${name}: ${endpoint.method} ${endpoint.path}`, () => {
        it('is served, and refuses a call without a token when it needs one', async () => {
          const response = await apiClient(server.baseUrl).raw(endpoint);
          const body = errorEnvelopeSchema.or(z.object({ code: z.literal('0') }).loose()).parse(response.body);
          expect(response.status, `${endpoint.path} must be implemented`).not.toBe(404);
          if (endpoint.auth) expect(body.code).toBe('080001');
        });
        if (endpoint.payload === 'json') {
          it('rejects malformed JSON', async () => {
            expectClientError(await api.raw(endpoint, { body: '{"broken": ', contentType: 'application/json' }), /body: is not valid JSON/);
          });
          it('rejects a body of the wrong type', async () => {
            expectClientError(await api.raw(endpoint, { body: '[1,2,3]', contentType: 'application/json' }), /^body/);
            expectClientError(await api.raw(endpoint, { body: '"text"', contentType: 'application/json' }), /^body/);
          });
          it('rejects unknown fields, naming them', async () => {
            expectClientError(
              await api.raw(endpoint, { body: JSON.stringify({ __unknown: 1 }), contentType: 'application/json' }),
              /unknown field "__unknown"/,
            );
          });
          it('rejects an oversized body with 413', async () => {
            const result = await api.raw(endpoint, {
              body: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT * 2) }),
              contentType: 'application/json',
            });
            expect(result.status).toBe(413);
            expectClientError(result, /larger than the allowed size/);
          });
          it('rejects a body that is not JSON', async () => {
            expectClientError(await api.raw(endpoint, { body: 'a=1', contentType: 'text/plain' }));
          });
        }
        if (endpoint.payload === 'query') {
          it('rejects unknown query parameters, naming them', async () => {
            expectClientError(await api.raw(endpoint, { query: '__unknown=1' }), /unknown field "__unknown"/);
          });
          const keys = Object.keys((endpoint.request as unknown as { shape?: Record<string, unknown> }).shape ?? {});
          if (keys.length > 0) {
            it.each(keys)('rejects a repeated and an absurdly long %s', async (key) => {
              expectClientError(await api.raw(endpoint, { query: `${key}=1&${key}=2` }), new RegExp(`query\\.${key}`));
              expectClientError(await api.raw(endpoint, { query: `${key}=${'9'.repeat(5000)}` }));
            });
          }
        }
      });
    }

    it('answers an unknown API path with a 404 envelope of its own code (not a missing record’s 090404)', async () => {
      const response = await fetch(`${server.baseUrl}/api/nothing/here`);
      expect(response.status).toBe(404);
      const envelope = errorEnvelopeSchema.parse(await response.json());
      expect(envelope.code).toBe(ErrorCode.NO_SUCH_ENDPOINT);
      expect(envelope.msg).toMatch(/no such endpoint/);
    });
  });
}

/** Field → where its stored value reads back, for the text fields that are kept. */
const STORED_TEXT: Partial<Record<EndpointName, Record<string, (data: Record<string, unknown>) => unknown>>> = {
  updateProfile: { remark: (data) => data.remark, tags: (data) => (data.tags as string[])[0] },
  handleEvent: { note: (data) => data.note, outcome: (data) => data.outcome },
  addContactRecord: {
    note: (data) => data.note,
    outcome: (data) => data.outcome,
    nextStep: (data) => data.nextStep,
    suitability: (data) => data.suitability,
  },
  reviseContactRecord: {
    note: (data) => data.note,
    outcome: (data) => data.outcome,
    nextStep: (data) => data.nextStep,
    suitability: (data) => data.suitability,
  },
};

/** The string fields of an endpoint's request, and whether each is a list of strings. */
function textFieldsOf(endpoint: Endpoint): { field: string; inArray: boolean }[] {
  const node = describeSchema(endpoint.request);
  if (node.kind !== 'object') return [];
  return Object.entries(node.fields).flatMap(([field, child]): { field: string; inArray: boolean }[] =>
    child.kind === 'string'
      ? [{ field, inArray: false }]
      : child.kind === 'array' && child.element.kind === 'string'
        ? [{ field, inArray: true }]
        : [],
  );
}

/** What the server's parser hands the schema: strings for query and form, JSON's own types for a body. */
const asDecoded = (endpoint: Endpoint, input: Record<string, unknown>) =>
  endpoint.payload === 'json'
    ? (JSON.parse(JSON.stringify(input)) as unknown)
    : Object.fromEntries(Object.entries(input).map(([key, value]) => [key, Array.isArray(value) ? value.map(String) : String(value)]));

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * Named hostile cases on every text field, deep and oversized bodies, wrong transports: with the
 * default body limit and seeded clients, so text that is accepted is also read back.
 */
for (const engine of testDatabases()) {
  describe(`hostile text, structures and transports (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let api: ApiClient;
    let fixture: EndpointFixture;
    let digest: () => Promise<string>;
    const jsonEndpoints = endpointEntries().filter(([, endpoint]) => endpoint.payload === 'json');

    beforeAll(async () => {
      database = await engine.create();
      fixture = await seedEndpointFixture(database);
      server = await startTestApp(database, { LOGIN_RATE_LIMIT: '0', KYC_SEARCH_RATE_LIMIT: '0' });
      api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
      digest = createTableDigest(database);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    /** Bytes of the test's choosing, in the signed-in browser, as the endpoint's own app. */
    const raw = async (endpoint: Endpoint, request: RawRequest) => {
      const answer = await api.raw(endpoint, request);
      return { ...answer, body: answer.body as { code: string; msg: string; data: unknown } };
    };
    /** Not a 5xx, and the body is the error envelope with the status its code travels with. */
    const expectRefusal = (answer: { status: number; text: string }, codes: string[], context = '') => {
      expect(answer.status, `${context} ${answer.text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${context} ${answer.text}`).toBeLessThan(500);
      const envelope = errorEnvelopeSchema.parse(JSON.parse(answer.text));
      expect(codes, answer.text).toContain(envelope.code);
      expect(answer.status).toBe(httpStatusOf[envelope.code as ErrorCodeValue]);
      return envelope;
    };

    for (const [name, endpoint] of endpointEntries()) {
      for (const { field, inArray } of textFieldsOf(endpoint)) {
        it(`${name}.${field}: every hostile text is stored literally or refused naming the field`, async () => {
          const where = endpoint.payload === 'query' ? 'query' : 'body';
          for (const { name: label, text } of HOSTILE_TEXTS) {
            // A query string or form cannot carry half a surrogate pair: the client sends U+FFFD in its place.
            const sent = endpoint.payload === 'json' ? text : Buffer.from(text, 'utf8').toString('utf8');
            const input = { ...(await validInputs[name](fixture)), [field]: inArray ? [sent] : sent };
            const before = await digest();
            const answer = await api.call(endpoint, input);
            const context = `${label} → ${answer.status} ${answer.text.slice(0, 300)}`;
            expect(answer.status, context).toBeLessThan(500);
            if (!isStorableText(sent) || !endpoint.request.safeParse(asDecoded(endpoint, input)).success) {
              expect(answer.body.code, context).toBe(ErrorCode.VALIDATION);
              expect(answer.body.msg, context).toContain(`${where}.${field}`);
            }
            if (answer.body.code !== ErrorCode.OK) {
              errorEnvelopeSchema.parse(answer.body);
              expect(await digest(), `refused, yet written: ${context}`).toBe(before);
              continue;
            }
            expect(envelopeSchema(endpoint.response).safeParse(answer.body).success, context).toBe(true);
            const readBack = STORED_TEXT[name]?.[field];
            if (readBack) expect(readBack(answer.body.data as Record<string, unknown>), context).toBe(sent.trim());
          }
        });
      }
    }

    it('stored hostile text reads back unchanged from the read endpoints too', async () => {
      const customerId = fixture.ownCustomerIds[0]!;
      const text = HOSTILE_TEXTS.filter((entry) => isStorableText(entry.text))
        .map((entry) => entry.text)
        .join(' ')
        .slice(0, 480)
        .trim();
      const saved = await api.call(endpoints.updateProfile, {
        customerId,
        version: await fixture.versionOf(customerId),
        remark: text,
      });
      expect(saved.body.code, saved.text).toBe(ErrorCode.OK);
      const read = await api.call(endpoints.getBaseInfo, { customerId });
      expect((read.body.data as { remark: string }).remark).toBe(text);
      const eventId = await fixture.freshEvent();
      const handled = await api.call(endpoints.handleEvent, {
        eventId,
        channel: 'other',
        note: text,
        outcome: text.slice(0, 200).trim(),
      });
      expect(handled.body.code, handled.text).toBe(ErrorCode.OK);
      const detail = await api.call(endpoints.getTodoTaskDetail, { eventId });
      expect((detail.body.data as { event: { serviceRecord: { note: string } } }).event.serviceRecord.note).toBe(text);
    });

    it('LIKE wildcards, backslashes and SQL in a keyword are taken literally by every search', async () => {
      const [{ count: customersBefore }] = (await database.query<{ count: number }>('select count(*)::int as count from customer')) as [
        { count: number },
      ];
      const keywordEndpoints = endpointEntries().filter(([, endpoint]) => textFieldsOf(endpoint).some(({ field }) => field === 'keyword'));
      expect(keywordEndpoints.map(([name]) => name).sort()).toEqual([
        'kycSearch',
        'searchCustomers',
        'searchServiceHistory',
        'statCustomers',
      ]);
      // A control: a real name fragment does match, so the zeros below are not an empty search.
      const [{ name_en: ownName }] = (await database.query<{ name_en: string }>('select name_en from customer where id = $1', [
        fixture.ownCustomerIds[0],
      ])) as [{ name_en: string }];
      const fragment = ownName.split(' ')[0]!;
      for (const [name, endpoint] of keywordEndpoints.filter(([name]) => name !== 'searchServiceHistory')) {
        const found = await api.call(endpoint, { keyword: fragment });
        const total = (found.body.data as { total?: number; clients?: number }).total ?? (found.body.data as { clients: number }).clients;
        expect(total, `${name} finds "${fragment}"`).toBeGreaterThan(0);
      }
      for (const keyword of ['%', '_', '%%', '%_%', '\\', '\\%', '\\\\', "' or 1=1 --", "'; drop table customer; --", '*', '.*']) {
        for (const [name, endpoint] of keywordEndpoints) {
          const answer = await api.call(endpoint, { keyword });
          expect(answer.body.code, `${name} "${keyword}": ${answer.text}`).toBe(ErrorCode.OK);
          const data = answer.body.data as { list?: Record<string, unknown>[]; total?: number; clients?: number };
          if (name === 'searchServiceHistory') {
            // Service notes may hold the very characters (the text sweep stores them): every hit must contain the keyword literally.
            for (const record of data.list!) {
              expect(
                [record.note, record.outcome, record.customerName].some((value) => String(value).includes(keyword)),
                `${keyword}: ${JSON.stringify(record)}`,
              ).toBe(true);
            }
          } else {
            expect(data.total ?? data.clients, `${name} "${keyword}" matched clients: ${answer.text.slice(0, 200)}`).toBe(0);
          }
        }
      }
      const [{ count: customersAfter }] = (await database.query<{ count: number }>('select count(*)::int as count from customer')) as [
        { count: number },
      ];
      expect(customersAfter).toBe(customersBefore);
    });

    it('deep JSON (10,000 and 100,000 levels of arrays and objects) is refused cleanly, as a body and inside a field', async () => {
      for (const [name, endpoint] of jsonEndpoints) {
        const field =
          textFieldsOf(endpoint)[0]?.field ??
          Object.keys(
            describeSchema(endpoint.request).kind === 'object' ? (endpoint.request as unknown as { shape: object }).shape : {},
          )[0] ??
          'x';
        for (const depth of [10_000, 100_000]) {
          for (const deep of [deepArray(depth), deepObject(depth)]) {
            for (const body of [deep, `{"${field}": ${deep}}`]) {
              const before = await digest();
              const answer = await raw(endpoint, { body, contentType: 'application/json' });
              expectRefusal(answer, [ErrorCode.VALIDATION, ErrorCode.JSON_MALFORMED, ErrorCode.PAYLOAD_TOO_LARGE]);
              expect(await digest(), `${name} depth ${depth}`).toBe(before);
            }
          }
        }
      }
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    });

    it('bodies beyond the body limit (1 MiB outside tests) are 090413, with or without a content-length', async () => {
      const endpoint = endpoints.updateProfile;
      const oversized = JSON.stringify({ customerId: fixture.ownCustomerIds[0], version: 1, remark: 'x'.repeat(1024 * 1024) });
      expectRefusal(await raw(endpoint, { body: oversized, contentType: 'application/json' }), [ErrorCode.PAYLOAD_TOO_LARGE]);
      // Chunked: no content-length to refuse up front, so the limit must hold while reading.
      const chunks = (function* () {
        yield new TextEncoder().encode('{"remark": "');
        for (let index = 0; index < 40; index += 1) yield new TextEncoder().encode('y'.repeat(64 * 1024));
        yield new TextEncoder().encode('"}');
      })();
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
      expectRefusal(await raw(endpoint, { body: stream, contentType: 'application/json' }), [ErrorCode.PAYLOAD_TOO_LARGE]);
      // The multipart form endpoint has its own limits.
      const form = new FormData();
      form.append('isFold', 'true'.repeat(512 * 1024));
      expectRefusal(await raw(endpoints.setFold, { body: form }), [ErrorCode.FORM_TOO_LARGE]);
    });

    it('an absurd query string or header is refused with an envelope', async () => {
      const endpoint = endpoints.getProfile;
      expectRefusal(await raw(endpoint, { method: 'GET', query: `customerId=${'1'.repeat(10_000)}` }), [ErrorCode.VALIDATION]);
      expectRefusal(await raw(endpoint, { method: 'GET', query: `customerId=1&${'k=v&'.repeat(3000)}` }), [ErrorCode.VALIDATION]);
    });

    it('wrong content types on JSON endpoints are 090415 (or 090400/090604), never parsed as something else', async () => {
      const contentTypes = [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data; boundary=----x',
        'application/json; charset=utf-16le',
        'application/json-patch+json',
        '',
      ];
      for (const [name, endpoint] of jsonEndpoints) {
        for (const contentType of contentTypes) {
          const json = JSON.stringify(await validInputs[name](fixture));
          const before = await digest();
          // JSON is UTF-8 (RFC 8259): a body really in UTF-16 is not JSON the server can read.
          const body = contentType.includes('utf-16le') ? Buffer.from(json, 'utf16le') : json;
          const answer = await raw(endpoint, { body, contentType });
          expectRefusal(
            answer,
            [ErrorCode.UNSUPPORTED_MEDIA_TYPE, ErrorCode.VALIDATION, ErrorCode.JSON_MALFORMED],
            `${name} as "${contentType}"`,
          );
          expect(await digest(), `${name} as ${contentType}`).toBe(before);
        }
      }
      // The form endpoint: a urlencoded or plain body is not a form.
      for (const contentType of ['application/x-www-form-urlencoded', 'text/plain']) {
        expectRefusal(await raw(endpoints.setFold, { body: 'isFold=true', contentType }), [
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          ErrorCode.VALIDATION,
        ]);
      }
    });

    it('every other method on every endpoint is refused with an envelope', async () => {
      for (const [name, endpoint] of endpointEntries()) {
        for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].filter((method) => method !== endpoint.method)) {
          const answer = await raw(endpoint, {
            method,
            ...(method === 'GET' || method === 'OPTIONS' ? {} : { body: '{}', contentType: 'application/json' }),
          });
          expect(answer.status, `${method} ${name}: ${answer.text}`).toBeGreaterThanOrEqual(400);
          expectRefusal(answer, [ErrorCode.NO_SUCH_ENDPOINT, ErrorCode.METHOD_NOT_ALLOWED]);
        }
      }
    });

    it('bracket and array syntax in a query string does not reach a scalar field', async () => {
      for (const [name, endpoint] of endpointEntries().filter(([, endpoint]) => endpoint.payload === 'query')) {
        for (const field of Object.keys((endpoint.request as unknown as { shape?: Record<string, unknown> }).shape ?? {})) {
          for (const query of [`${field}[]=1`, `${field}[0]=1&${field}[1]=2`, `${field}[a]=1`, `${field}=1&${field}=2&${field}=3`]) {
            const answer = await raw(endpoint, { method: 'GET', query });
            expect(answer.body.code, `${name}?${query}: ${answer.text}`).toBe(ErrorCode.VALIDATION);
          }
        }
      }
    });

    it('duplicate JSON keys take the last value; prototype keys are refused and pollute nothing', async () => {
      const customerId = fixture.ownCustomerIds[2]!;
      const version = await fixture.versionOf(customerId);
      const duplicate = await raw(endpoints.updateProfile, {
        body: `{"customerId": ${customerId}, "version": ${version}, "remark": "first", "remark": "second"}`,
        contentType: 'application/json',
      });
      expect(duplicate.body.code, duplicate.text).toBe(ErrorCode.OK);
      expect((duplicate.body.data as { remark: string }).remark).toBe('second');
      for (const body of [
        `{"__proto__": {"polluted": true}, "customerId": ${customerId}, "version": ${version + 1}}`,
        `{"constructor": {"prototype": {"polluted": true}}, "customerId": ${customerId}, "version": ${version + 1}}`,
      ]) {
        const before = await digest();
        expectRefusal(await raw(endpoints.updateProfile, { body, contentType: 'application/json' }), [ErrorCode.VALIDATION]);
        expect(await digest()).toBe(before);
      }
      const form = new FormData();
      form.append('__proto__', 'x');
      form.append('isFold', 'true');
      expectRefusal(await raw(endpoints.setFold, { body: form }), [ErrorCode.VALIDATION]);
      // The server runs in this process: a polluted prototype would show here.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
}
