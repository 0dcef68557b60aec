import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  agentCodeSchema,
  agentsAccepted,
  endpoints,
  ErrorCode,
  errorEnvelopeSchema,
  HEADER_AGENT,
  HEADER_TOKEN,
  httpStatusOf,
} from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp, type SignedIn } from '../testing';
import {
  endpointEntries,
  foreignInputs,
  seedEndpointFixture,
  sweepCaller,
  takesOwnedResource,
  validInputs,
  type EndpointFixture,
  type EndpointName,
} from '../testing/endpoint-fixture';
import { createTableDigest } from '../testing/table-digest';
import { defaultCorps, type CorpConfigEntry } from '../corps';
import { hashSessionToken } from '../modules/auth/session-token';
import type { DatabaseHandle } from '../db/client';

/**
 * Every endpoint × {no token, expired, forged, another corp's token, another corp's staff reaching
 * this corp's data, another staff member's client, valid} → the expected code. The endpoint list
 * comes from the routes the running app registered, so a route added without a row here fails.
 */

/** Public on purpose, each with the reason; anything else without a token must answer 080001. */
const DELIBERATELY_PUBLIC: Partial<Record<EndpointName, string>> = {
  loginQywx: 'exchanges the WeCom OAuth code for a token: the caller has none yet',
  getCorpConfig: "tells the sign-in page the corp's WeCom ids before anyone is signed in; holds no secret",
  startSignIn: 'begins a sign-in (the caller has no token yet): records it and sets the sign-in cookie',
  resumeSession: "re-issues a token to the browser holding a live session's binding cookie (the Mac sidebar loses its token on every load)",
};

/** /api routes that are not contract endpoints, each with the reason it may exist. */
const NON_CONTRACT_API_ROUTES: { prefix: string; reason: string }[] = [
  { prefix: '/api/docs', reason: 'the OpenAPI description of the contract and its viewer: no data, no secrets' },
  {
    prefix: '/api/wecom/callback/',
    reason: "WeCom's callback: signed with the corp's callback Token and encrypted with its EncodingAESKey, not a session (ADR 0019)",
  },
];

/** A second tenant, served by the same emulator: same staff userids, different corp. */
const OTHER_CORP: CorpConfigEntry = {
  code: 'otherbroker',
  name: 'Other Broker Ltd',
  corpId: 'ww00000000otherbroker',
  agents: {
    khzl: { agentId: '2000002', secret: 'other-khzl-secret' },
    khgl: { agentId: '2000003', secret: 'other-khgl-secret' },
    mot: { agentId: '2000004', secret: 'other-mot-secret' },
  },
};

type Code = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * What each endpoint answers when the caller reaches for data that is not theirs.
 * `otherStaff`: chanwaiman asks for leekaying's client / event / contact (same corp).
 * `otherCorp`: the other corp's chanwaiman sends the valid request (this corp's ids) with their own
 * corp and token. Ids of another corp are unknown there: 090404 exactly like a made-up id, so the
 * answer says nothing about whether the client exists. Within a corp the product answers 090403
 * for a colleague's client (contract: customer.ts, mot.ts), naming nothing of the client.
 */
const SCOPE: Record<EndpointName, { otherStaff?: Code; otherCorp: Code }> = {
  // Without this browser's sign-in cookie no code is exchanged.
  loginQywx: { otherCorp: ErrorCode.LOGIN_STATE_INVALID },
  getCorpConfig: { otherCorp: ErrorCode.OK },
  getJsSdkSign: { otherCorp: ErrorCode.OK },
  getDefaultCcy: { otherCorp: ErrorCode.OK },
  configureDefaultCcy: { otherCorp: ErrorCode.OK },
  getCurrencyExchangeRate: { otherCorp: ErrorCode.OK },
  isFold: { otherCorp: ErrorCode.OK },
  kycSearch: { otherCorp: ErrorCode.OK },
  kycBind: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  // The follow check comes first, so unbind tells a non-follower nothing of the binding (ADR 0015).
  kycUnbind: { otherStaff: ErrorCode.KYC_NOT_FOLLOWING, otherCorp: ErrorCode.KYC_NOT_FOLLOWING },
  // A contact bound to a colleague's client, which the caller does not follow, and another corp's view of
  // this corp's contact: one answer, as for a contact that exists nowhere (issue 17.7, ADR 0015).
  hasKyc: { otherStaff: ErrorCode.KYC_NOT_FOLLOWING, otherCorp: ErrorCode.KYC_NOT_FOLLOWING },
  getProfile: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getBaseInfo: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getDynamic: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getTimeline: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getAsset: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getHolding: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getTrade: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getWithdrawalDeposit: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getTransfer: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  updateProfile: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getReach: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  revealPhone: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getChannel: { otherCorp: ErrorCode.OK },
  searchCustomers: { otherCorp: ErrorCode.OK },
  statCustomers: { otherCorp: ErrorCode.OK },
  // Pins, recents and saved filters are the caller's own; a colleague's client or saved filter is refused.
  getShortcuts: { otherCorp: ErrorCode.OK },
  setClientPin: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  recordClientOpened: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  forgetRecentSearches: { otherCorp: ErrorCode.OK },
  saveFilter: { otherStaff: ErrorCode.NOT_FOUND, otherCorp: ErrorCode.NOT_FOUND },
  deleteSavedFilter: { otherStaff: ErrorCode.NOT_FOUND, otherCorp: ErrorCode.NOT_FOUND },
  getTodoDates: { otherCorp: ErrorCode.OK },
  getTodoClients: { otherCorp: ErrorCode.OK },
  markEventsSeen: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  handleEvent: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getTodoTaskCount: { otherCorp: ErrorCode.OK },
  getTodoTaskDetail: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getMinCashIO: { otherCorp: ErrorCode.OK },
  setMinCashIO: { otherCorp: ErrorCode.OK },
  searchServiceHistory: { otherCorp: ErrorCode.OK },
  getClientHistory: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  setFold: { otherCorp: ErrorCode.OK },
  getRankedToday: { otherCorp: ErrorCode.OK },
  getEventRank: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  snoozeEvent: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getMotPushSetting: { otherCorp: ErrorCode.OK },
  setMotPushSetting: { otherCorp: ErrorCode.OK },
  // One's own trail: another corp's session sees its own (empty) trail, never this one.
  getMyAuditTrail: { otherCorp: ErrorCode.OK },
  addContactRecord: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  reviseContactRecord: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  getContactRecord: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  listContactRecords: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  exportContactRecords: { otherStaff: ErrorCode.FORBIDDEN, otherCorp: ErrorCode.NOT_FOUND },
  startSignIn: { otherCorp: ErrorCode.OK },
  // Resumes the other corp's own session (its cookie, its corp): nothing of this corp.
  resumeSession: { otherCorp: ErrorCode.OK },
  // Ends the caller's own sessions only.
  signOut: { otherCorp: ErrorCode.OK },
  signOutEverywhere: { otherCorp: ErrorCode.OK },
};

/**
 * The routes Fastify registered, read from `printRoutes({ commonPrefix: false })`: each line is a
 * path fragment under its parent, with its methods. Checked back with `hasRoute`, so a change in
 * the print format fails here instead of silently listing nothing.
 */
function registeredRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([\s│├└─]*?)([^\s│├└─].*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const path = `${stack[stack.length - 1]?.path ?? ''}${match[2]}`;
    stack.push({ depth, path });
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, url: path });
    }
  }
  // hasRoute cannot look up a wildcard by its pattern; those are checked by the prefix list instead.
  for (const route of routes.filter((entry) => !entry.url.includes('*'))) {
    if (!app.hasRoute({ method: route.method, url: route.url })) throw new Error(`route table misread: ${route.method} ${route.url}`);
  }
  return routes;
}

for (const engine of testDatabases()) {
  describe(`authorisation matrix (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let fixture: EndpointFixture;
    let digest: () => Promise<string>;
    const signed = {} as Record<'chan' | 'expired' | 'otherCorp', SignedIn>;

    beforeAll(async () => {
      database = await engine.create();
      fixture = await seedEndpointFixture(database);
      // Sign-in and KYC-search rate limits have their own tests; here they would only add noise.
      server = await startTestApp(
        database,
        { LOGIN_RATE_LIMIT: '0', KYC_SEARCH_RATE_LIMIT: '0' },
        { corps: [...defaultCorps, OTHER_CORP] },
      );
      signed.chan = await signInAs(server.baseUrl, 'chanwaiman');
      signed.expired = await signInAs(server.baseUrl, 'chanwaiman');
      signed.otherCorp = await signInAs(server.baseUrl, 'chanwaiman', { corpCode: OTHER_CORP.code });
      // Expiry is the database's word: move this session's end into the past.
      await database.query(`update auth_session set expires_at = now() - interval '1 minute' where token_hash = $1`, [
        hashSessionToken(signed.expired.token),
      ]);
      digest = createTableDigest(database);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    /**
     * A token in its own browser (with its binding cookie), or a bare token string (sent to public
     * endpoints too), or nothing; each call as the endpoint's own app unless the cell says otherwise.
     */
    const as = (caller: SignedIn | string | null, corpCode = 'fxhl'): ApiClient => {
      if (caller === null) return apiClient(server.baseUrl, { corp: corpCode });
      if (typeof caller === 'string') return apiClient(server.baseUrl, { corp: corpCode, headers: { [HEADER_TOKEN]: caller } });
      return apiClient(server.baseUrl, caller).with({ corp: corpCode });
    };
    /** The caller of a cell that succeeds (an endpoint that ends sessions gets a session of its own). */
    const callerFor = (name: EndpointName, kind: 'chan' | 'otherCorp'): Promise<SignedIn> =>
      sweepCaller(server.baseUrl, name, signed[kind], kind === 'otherCorp' ? OTHER_CORP.code : undefined);

    it('every /api route is a contract endpoint or a listed exception, and every endpoint is served', () => {
      const api = registeredRoutes(server.app).filter((route) => route.url.startsWith('/api'));
      expect(api.length).toBeGreaterThanOrEqual(Object.keys(endpoints).length);
      const contract = new Set(endpointEntries().map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`));
      const unexplained = api.filter(
        (route) =>
          !contract.has(`${route.method} ${route.url}`) && !NON_CONTRACT_API_ROUTES.some((entry) => route.url.startsWith(entry.prefix)),
      );
      expect(unexplained, 'routes outside the contract escape the matrix: add them to the contract').toEqual([]);
      const served = new Set(api.map((route) => `${route.method} ${route.url}`));
      expect([...contract].filter((key) => !served.has(key))).toEqual([]);
    });

    it('has a row for every endpoint, and only endpoints listed as deliberately public answer without a token', () => {
      expect(Object.keys(SCOPE).sort()).toEqual(Object.keys(endpoints).sort());
      const publicOnes = endpointEntries()
        .filter(([, endpoint]) => !endpoint.auth)
        .map(([name]) => name);
      expect(publicOnes.sort()).toEqual(Object.keys(DELIBERATELY_PUBLIC).sort());
      for (const [name, endpoint] of endpointEntries()) {
        expect(SCOPE[name].otherStaff !== undefined, `${name}: a row for another staff member's data`).toBe(takesOwnedResource(endpoint));
      }
    });

    for (const [name, endpoint] of endpointEntries()) {
      describe(`${name}: ${endpoint.method} ${endpoint.path}`, () => {
        /** A refused call must leave every table as it was. */
        const refused = async (caller: ApiClient, input: Record<string, unknown>, code: Code, options: { agent?: string | null } = {}) => {
          const before = await digest();
          const answer = await caller.call(endpoint, input, options);
          expect(answer.body.code, answer.text).toBe(code);
          expect(answer.status).toBe(httpStatusOf[code]);
          errorEnvelopeSchema.parse(answer.body);
          expect(await digest(), `${name}: a refused call wrote`).toBe(before);
          return answer;
        };

        if (endpoint.auth) {
          it('no token → 080001', async () => {
            await refused(as(null), await validInputs[name](fixture), ErrorCode.LOGIN_INVALID);
          });
          it('expired token → 080000', async () => {
            await refused(as(signed.expired), await validInputs[name](fixture), ErrorCode.LOGIN_EXPIRED);
          });
          it('forged tokens (right shape, unknown; a real one altered; absurdly long) → 080001', async () => {
            const input = await validInputs[name](fixture);
            const token = signed.chan.token;
            const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
            for (const forged of [randomBytes(32).toString('base64url'), flipped, token.repeat(10), ' ', hashSessionToken(token)]) {
              // In the browser the real token belongs to: only the token is forged.
              await refused(as(signed.chan).with({ headers: { [HEADER_TOKEN]: forged } }), input, ErrorCode.LOGIN_INVALID);
            }
          });
          it("a real token outside its browser (no cookie, or another session's cookie) → 080001", async () => {
            const input = await validInputs[name](fixture);
            await refused(as(signed.chan.token), input, ErrorCode.LOGIN_INVALID);
            await refused(as(signed.chan).with({ cookies: signed.expired.headers.cookie! }), input, ErrorCode.LOGIN_INVALID);
          });
          it("another corp's token sent to this corp → 080001", async () => {
            await refused(as(signed.otherCorp), await validInputs[name](fixture), ErrorCode.LOGIN_INVALID);
          });
        } else {
          it(`is deliberately public: ${DELIBERATELY_PUBLIC[name]}`, async () => {
            const input = await validInputs[name](fixture);
            const anonymous = await as(null).call(endpoint, input);
            expect(anonymous.body.code).not.toBe(ErrorCode.LOGIN_INVALID);
            // A token, good or bad, changes nothing on a public endpoint.
            for (const token of [signed.expired.token, randomBytes(32).toString('base64url')]) {
              expect((await as(token).call(endpoint, input)).body.code).toBe(anonymous.body.code);
            }
          });
        }

        it(`another corp's staff reaching this corp's data → ${SCOPE[name].otherCorp}`, async () => {
          const input = await validInputs[name](fixture);
          const expected = SCOPE[name].otherCorp;
          if (expected !== ErrorCode.OK) {
            const answer = await refused(as(signed.otherCorp, OTHER_CORP.code), input, expected);
            if (expected === ErrorCode.NOT_FOUND) {
              // Indistinguishable from an id that exists nowhere.
              const madeUp = Object.fromEntries(
                Object.entries(input).map(([key, value]) => [
                  key,
                  key === 'eventIds'
                    ? [987_654_321]
                    : key === 'customerId' || key === 'eventId' || key === 'recordId' || key === 'filterId'
                      ? 987_654_321
                      : value,
                ]),
              );
              const unknown = await as(signed.chan).call(endpoint, madeUp);
              expect(unknown.body.code).toBe(ErrorCode.NOT_FOUND);
              const shape = (msg: string) => msg.replace(/\d+/g, '#');
              expect(shape(answer.body.msg)).toBe(shape(unknown.body.msg));
            }
            return;
          }
          const answer = await as(await callerFor(name, 'otherCorp'), OTHER_CORP.code).call(endpoint, input);
          expect(answer.body.code, answer.text).toBe(ErrorCode.OK);
          // Whatever it lists, nothing of this corp's clients.
          for (const customerId of fixture.ownCustomerIds) expect(answer.text).not.toMatch(new RegExp(`"customerId":${customerId}\\b`));
          if (name === 'hasKyc') expect(answer.body.data).toMatchObject({ bound: false, binding: null });
        });

        const foreign = foreignInputs[name];
        if (SCOPE[name].otherStaff !== undefined && foreign) {
          it(`another staff member's client → ${SCOPE[name].otherStaff}`, async () => {
            const expected = SCOPE[name].otherStaff!;
            const input = await foreign(fixture);
            const [names] = await database.query<{ name_cn: string; name_en: string }>(
              'select name_cn, name_en from customer where id = $1',
              [fixture.foreignCustomerId],
            );
            if (expected === ErrorCode.OK) {
              const answer = await as(signed.chan).call(endpoint, input);
              expect(answer.body.code).toBe(ErrorCode.OK);
              expect(answer.body.data).toMatchObject({ bound: true, ownCustomer: false, binding: null });
              expect(answer.text).not.toContain(names!.name_en);
              return;
            }
            const answer = await refused(as(signed.chan), input, expected);
            expect(answer.text).not.toContain(names!.name_cn);
            expect(answer.text).not.toContain(names!.name_en);
          });
        }

        // Issue 17.7, ADR 0015: the call belongs to its app (SPEC.md §7); a shared one to any app of the corp.
        const accepted: readonly string[] = agentsAccepted(endpoint);
        const wrongAgents = [
          ...agentCodeSchema.options.filter((agent) => !accepted.includes(agent)),
          'hr',
          endpoint.agent.toUpperCase(),
          '',
          ...(endpoint.shared ? [] : [null]),
        ];
        it(`a wrong agent-code (${wrongAgents.map((agent) => JSON.stringify(agent)).join(', ')}) → 090701, naming the header and the app`, async () => {
          const input = await validInputs[name](fixture);
          for (const agent of wrongAgents) {
            const caller = endpoint.auth ? as(await callerFor(name, 'chan')) : as(null);
            const answer = await refused(caller, input, ErrorCode.AGENT_MISMATCH, { agent });
            expect(answer.body.msg).toBe(
              `header ${HEADER_AGENT}: must be ${endpoint.shared ? `one of ${accepted.join(', ')}` : endpoint.agent}; ` +
                `${endpoint.method} ${endpoint.path} belongs to ${endpoint.shared ? "any of the corp's WeCom apps" : `the ${endpoint.agent} app`}`,
            );
          }
        });
        it(`the app${accepted.length > 1 ? 's' : ''} it belongs to (${accepted.join(', ')}) ${accepted.length > 1 ? 'are' : 'is'} accepted`, async () => {
          const input = await validInputs[name](fixture);
          for (const agent of [...accepted, ...(endpoint.shared ? [null] : [])]) {
            const caller = endpoint.auth ? as(await callerFor(name, 'chan')) : as(null);
            const answer = await caller.call(endpoint, input, { agent });
            expect(answer.body.code, `${String(agent)}: ${answer.text}`).not.toBe(ErrorCode.AGENT_MISMATCH);
            expect(answer.body.code, `${String(agent)}: ${answer.text}`).not.toBe(ErrorCode.VALIDATION);
          }
        });

        it('valid → the endpoint answers', async () => {
          const answer = await as(await callerFor(name, 'chan')).call(endpoint, await validInputs[name](fixture));
          // loginQywx cannot be given a real code and its browser's state here (that is signInAs's job): its valid-shaped call is refused as such.
          expect(answer.body.code, answer.text).toBe(name === 'loginQywx' ? ErrorCode.LOGIN_STATE_INVALID : ErrorCode.OK);
        });
      });
    }
  });
}
