import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  endpoints,
  envelopeSchema,
  errorEnvelopeSchema,
  ErrorCode,
  httpStatusOf,
  type Endpoint,
  type ErrorCodeValue,
} from '@broker/contract';
import { encrypt, getSignature } from '@wecom/crypto';
import { DEMO_EXTERNAL_CONTACTS } from '../db/seed/reference-data';
import { BUILT_IN_CORP } from '../corps';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../testing';
import { acceptedBySchema, HOSTILE_TEXTS, requestArbitrary, type Hints, type WireRequest } from '../testing/contract-arbitraries';
import { createTableDigest, referenceWriteGuard } from '../testing/table-digest';
import type { DatabaseHandle } from '../db/client';
import { seedDemoData } from '../db/seed';
import { runMotRules } from '../modules/mot';
import { hongKongDay } from '@broker/domain';

/**
 * Property: whatever arrives at an endpoint — valid, on the edge of a rule, or broken — the answer
 * is never a 5xx, always a well-formed envelope (a success's data matching the contract), a request
 * the schema refuses is a 090400, and a refused request of any kind writes nothing.
 *
 * Runs are sequential against one signed-in staff member with seeded clients, so the database
 * digest taken after one request is the "before" of the next.
 */
const RUNS_PER_ENDPOINT = 30;
/** Fixed so a failure replays; fast-check prints the seed and the shrunk counterexample. */
const SEED = 20_261_121;
const TODAY = hongKongDay();

/**
 * The decrypted fields of a WeCom change_external_contact callback, each valid, on an edge or broken:
 * what a corp whose callback key leaked (or a WeCom bug) could make the server read.
 */
function callbackEventArbitrary(names: { staff: string[]; contacts: string[]; customerNos: string[] }) {
  const hostile = fc.constantFrom(...HOSTILE_TEXTS.map((entry) => entry.text));
  // Mostly valid, so that most events reach the rules that act on them (and on their CreateTime).
  const text = (valid: fc.Arbitrary<string>) =>
    fc.option(fc.oneof({ arbitrary: valid, weight: 10 }, hostile, fc.string({ maxLength: 80 })), { freq: 12 });
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const createTime = fc.oneof(
    { arbitrary: fc.integer({ min: -300, max: 300 }).map((offset) => String(nowSeconds() + offset)), weight: 3 },
    fc.integer({ min: -400_000_000, max: 400_000_000 }).map((offset) => String(nowSeconds() + offset)),
    // Beyond any date a clock can show, and not written in digits.
    { arbitrary: fc.bigInt({ min: 10n ** 12n, max: 10n ** 20n }).map(String), weight: 2 },
    fc.constantFrom('0', '1e3', '-5', '', ' 12', '1.5', 'NaN'),
    fc.string({ maxLength: 20 }),
  );
  return fc.record(
    {
      CreateTime: createTime,
      MsgType: text(fc.constant('event')),
      Event: text(fc.constantFrom('change_external_contact', 'change_external_chat')),
      ChangeType: text(fc.constantFrom('add_external_contact', 'del_external_contact', 'del_follow_user', 'edit_external_contact')),
      UserID: text(fc.constantFrom(...names.staff)),
      ExternalUserID: text(fc.constantFrom(...names.contacts)),
      State: text(fc.constantFrom(...names.customerNos.map((customerNo) => `kyc:${customerNo}`), 'kyc:', 'kyc:../x')),
      Source: text(fc.constant('DELETE_BY_TRANSFER')),
    },
    { requiredKeys: ['CreateTime'] },
  );
}

/** The event as WeCom seals it: XML, encrypted with the corp's EncodingAESKey and signed with its Token. */
function sealedCallback(fields: Record<string, string | null | undefined>) {
  const xml = `<xml><ToUserName><![CDATA[${BUILT_IN_CORP.corpId}]]></ToUserName>${Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `<${name}><![CDATA[${value}]]></${name}>`)
    .join('')}</xml>`;
  const { token, encodingAesKey } = BUILT_IN_CORP.callback;
  const ciphertext = encrypt(encodingAesKey, xml, BUILT_IN_CORP.corpId);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const query = new URLSearchParams({ msg_signature: getSignature(token, timestamp, 'n0nce', ciphertext), timestamp, nonce: 'n0nce' });
  return { query: query.toString(), body: `<xml><Encrypt><![CDATA[${ciphertext}]]></Encrypt></xml>` };
}

for (const engine of testDatabases()) {
  describe(`hostile input, generated from the contract (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let api: ApiClient;
    let hints: Hints;
    const guard = referenceWriteGuard();
    let digest: Awaited<ReturnType<typeof createTableDigest>>;
    let lastDigest = '';
    const sent = { requests: 0, rejected: 0, ok: 0 };
    let startedAt = 0;

    beforeAll(async () => {
      startedAt = Date.now();
      database = await engine.create({ onQuery: guard.observe });
      await seedDemoData(database, { customers: 60, seed: 21, asOf: TODAY });
      await runMotRules(database, { asOf: TODAY });
      // Rate limits would turn most of the generated traffic into 429s; they have their own tests.
      server = await startTestApp(database, { LOGIN_RATE_LIMIT: '0', KYC_SEARCH_RATE_LIMIT: '0' });
      api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));

      const ids = async (text: string) => (await database.query<{ id: number }>(text)).map((row) => Number(row.id));
      const own = await ids(
        "select c.id::float8 as id from customer c join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman' order by c.id limit 8",
      );
      const foreign = await ids(
        "select c.id::float8 as id from customer c join staff s on s.id = c.staff_id where s.wecom_user_id = 'leekaying' order by c.id limit 2",
      );
      const events = await ids('select e.id::float8 as id from mot_event e order by e.id limit 12');
      await database.query(
        `insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id)
         select c.corp_id, 'wmPropertyBound01', c.id, c.staff_id from customer c where c.id = $1`,
        [own[0]],
      );
      const contacts = [...DEMO_EXTERNAL_CONTACTS.map((contact) => contact.externalUserId), 'wmPropertyBound01', 'wmNobodyKnows'];
      expect(own.length).toBeGreaterThan(2);
      expect(events.length).toBeGreaterThan(0);
      hints = {
        customerId: fc.constantFrom(...own, ...foreign, 987_654_321),
        eventId: fc.constantFrom(...events, 987_654_321),
        eventIds: fc.uniqueArray(fc.constantFrom(...events), { minLength: 1, maxLength: 4 }),
        externalUserId: fc.constantFrom(...contacts),
        version: fc.integer({ min: 1, max: 4 }),
      };
      digest = createTableDigest(database);
      lastDigest = await digest();
      guard.arm();
    });
    afterAll(async () => {
      console.info(
        `[hostile-input property ${engine.kind}] ${sent.requests} requests (${sent.ok} ok, ${sent.rejected} refused) in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
      );
      await server?.close();
      await database?.drop();
    });

    // Raw: the generated requests are bytes already, many of them ones no encoder would produce.
    const send = async (endpoint: Endpoint, request: WireRequest) => {
      const { status, text } = await api.raw(endpoint, { query: request.query, body: request.body, contentType: request.contentType });
      sent.requests += 1;
      return { status, text };
    };

    it('the digest notices a write (so equal digests mean nothing was written)', async () => {
      const before = await digest();
      const answer = await api.configureDefaultCcy({ ccy: 'CNY' });
      expect(answer.body.code).toBe(ErrorCode.OK);
      lastDigest = await digest();
      expect(lastDigest).not.toBe(before);
    });

    /** Signs in again when an earlier endpoint (signOut, signOutEverywhere) ended the session. */
    const keepSignedIn = async () => {
      if ((await api.getDefaultCcy()).body.code === ErrorCode.OK) return;
      api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      lastDigest = await digest();
    };

    it('the WeCom callback: whatever its signed event holds, never 5xx, success or an envelope, refusals write nothing', async () => {
      const column = async (text: string) => (await database.query<{ value: string }>(text)).map((row) => row.value);
      const names = {
        staff: [...(await column('select wecom_user_id as value from staff order by id')), 'nobody'],
        contacts: [...DEMO_EXTERNAL_CONTACTS.map((contact) => contact.externalUserId), 'wmPropertyBound01', 'wmNobodyKnows'],
        customerNos: await column('select customer_no as value from customer order by id limit 6'),
      };
      await fc.assert(
        fc.asyncProperty(callbackEventArbitrary(names), async (fields) => {
          const { query, body } = sealedCallback(fields);
          const { status, text } = await api.raw(`/api/wecom/callback/fxhl?${query}`, { method: 'POST', body, contentType: 'text/xml' });
          sent.requests += 1;
          const context = `${JSON.stringify(fields).slice(0, 400)} → ${status} ${text.slice(0, 300)}`;
          expect(status, context).toBeLessThan(500);
          const after = await digest();
          if (status === 200) {
            expect(text, context).toBe('success');
            sent.ok += 1;
            lastDigest = after;
          } else {
            const envelope = errorEnvelopeSchema.parse(JSON.parse(text));
            expect(status, context).toBe(httpStatusOf[envelope.code as ErrorCodeValue]);
            sent.rejected += 1;
            expect(after, `refused callback changed the database: ${context}`).toBe(lastDigest);
          }
          expect(guard.writes(), context).toEqual([]);
        }),
        { numRuns: 150, seed: SEED },
      );
    });

    for (const [name, endpoint] of Object.entries(endpoints) as [string, Endpoint][]) {
      it(`${name}: never 5xx, always an envelope, refusals write nothing`, async () => {
        await keepSignedIn();
        const successSchema = envelopeSchema(endpoint.response);
        await fc.assert(
          fc.asyncProperty(requestArbitrary(endpoint, hints), async (request) => {
            const { status, text } = await send(endpoint, request);
            const context = `${endpoint.method} ${endpoint.path} [${request.intent}] ${JSON.stringify(request.input)?.slice(0, 300)} → ${status} ${text.slice(0, 300)}`;
            expect(status, context).toBeLessThan(500);
            const body = JSON.parse(text) as { code?: unknown };
            if (body.code === ErrorCode.OK) {
              expect(status, context).toBe(200);
              expect(successSchema.safeParse(body).success, context).toBe(true);
            } else {
              const envelope = errorEnvelopeSchema.parse(body);
              expect(status, context).toBe(httpStatusOf[envelope.code as ErrorCodeValue]);
            }
            if (acceptedBySchema(endpoint, request) === false) {
              expect(body.code, context).toBe(ErrorCode.VALIDATION);
              expect((body as { msg: string }).msg, context).toMatch(/^(query|body)\b/);
            }
            const after = await digest();
            if (body.code === ErrorCode.OK) {
              sent.ok += 1;
              lastDigest = after;
            } else {
              sent.rejected += 1;
              expect(after, `refused request changed the database: ${context}`).toBe(lastDigest);
            }
            expect(guard.writes(), context).toEqual([]);
          }),
          { numRuns: RUNS_PER_ENDPOINT, seed: SEED + Object.keys(endpoints).indexOf(name) },
        );
      });
    }
  });
}
