import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, errorEnvelopeSchema } from '@broker/contract';
import {
  apiClient,
  authorizeAs,
  BrowserJar,
  testDatabases,
  startTestApp,
  signInAs,
  startSignInAt,
  type ApiCaller,
  type RunningTestApp,
  type SignedIn,
} from '../testing';
import type { DatabaseHandle } from '../db/client';
import { createRateLimiter } from './rate-limit.plugin';

const LIMIT = 3;
/**
 * A day: the windows are aligned on the clock, and a test whose requests straddled a window's end would
 * see the count restart. With a day-long window that can only happen at 00:00 UTC; the window ending is
 * tested by moving the stored window back, not by waiting.
 */
const WINDOW_SECONDS = 86_400;
/** For the direct limiter checks: a window that does not end during a test run. */
const DECADE_SECONDS = 10 * 365 * 86_400;

for (const engine of testDatabases()) {
  describe(`rate limits (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    /**
     * Two replicas on one database, as in production; the second sits behind one proxy (hop count 1).
     * Two more for issue 17.7: one trusting a proxy list that holds the test's real peer (127.0.0.1),
     * one trusting a list that does not.
     */
    let replica: RunningTestApp;
    let proxied: RunningTestApp;
    let listedProxy: RunningTestApp;
    let otherProxies: RunningTestApp;
    let chan: SignedIn;
    let lee: SignedIn;

    beforeAll(async () => {
      database = await engine.create();
      const limits = { LOGIN_RATE_LIMIT: String(LIMIT), KYC_SEARCH_RATE_LIMIT: String(LIMIT) };
      const windows = { tuning: { loginRateWindowSeconds: WINDOW_SECONDS, kycSearchRateWindowSeconds: WINDOW_SECONDS } };
      replica = await startTestApp(database, limits, windows);
      proxied = await startTestApp(database, { ...limits, TRUST_PROXY: '1' }, windows);
      listedProxy = await startTestApp(database, { ...limits, TRUST_PROXY: '10.9.0.0/16,127.0.0.1,::1' }, windows);
      otherProxies = await startTestApp(database, { ...limits, TRUST_PROXY: '10.0.0.0/8,fd00::/8' }, windows);
      chan = await signInAs(replica.baseUrl, 'chanwaiman');
      lee = await signInAs(replica.baseUrl, 'leekaying');
    });
    afterAll(async () => {
      await replica?.close();
      await proxied?.close();
      await listedProxy?.close();
      await otherProxies?.close();
      await database?.drop();
    });

    const resetCounters = () => database.query('delete from rate_limit_counter');
    /** Ends every current window, as the clock passing the window's end would. */
    const endWindows = () => database.query(`update rate_limit_counter set window_start = window_start - interval '1 day'`);

    /** A sign-in attempt with a code and state this browser never started: answered 080004 unless rate-limited. */
    const login = async (baseUrl: string, headers: Record<string, string> = {}) => {
      const answer = await apiClient(baseUrl, { headers }).loginQywx({ code: 'made-up-code', state: 'madeUpState' });
      return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: answer.body };
    };
    const search = async (caller: SignedIn | ApiCaller, baseUrl = replica.baseUrl) => {
      const answer = await apiClient(baseUrl, caller).kycSearch({ keyword: '+852 9123 4567' });
      return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: answer.body };
    };

    describe('sign-in failures, per client address (they lock nobody out)', () => {
      beforeAll(resetCounters);

      it('answers the forged attempt after the limit with 080429, HTTP 429 and Retry-After; the earlier ones are not limited', async () => {
        // The budget is shared: attempts on one replica count on the other.
        const allowed = [await login(replica.baseUrl), await login(proxied.baseUrl), await login(replica.baseUrl)];
        for (const attempt of allowed) {
          expect(attempt.body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
          expect(attempt.retryAfter).toBeNull();
        }
        const limited = await login(replica.baseUrl);
        expect(limited.status).toBe(429);
        expect(limited.body.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
        expect(errorEnvelopeSchema.safeParse(limited.body).success).toBe(true);
        expect(limited.body.msg).toMatch(
          /^sign-in: too many returns without a sign-in of this browser from this address \(at most 3 per 86400 s\); retry in \d+ s$/,
        );
        const retryAfter = Number(limited.retryAfter);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
        expect(limited.body.msg).toContain(`retry in ${retryAfter} s`);
        // A genuine sign-in from the same address, with its own state cookie, is not refused.
        await expect(signInAs(replica.baseUrl, 'chanwaiman')).resolves.toMatchObject({ token: expect.any(String) });
      });

      it('opens again when the window has passed', async () => {
        expect((await login(replica.baseUrl)).body.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
        await endWindows();
        expect((await login(replica.baseUrl)).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
        await expect(signInAs(replica.baseUrl, 'wongchishing')).resolves.toMatchObject({ token: expect.any(String) });
      });

      it('two browsers behind one address, one forging codes: the other still signs in (an office NAT, or an untrusted proxy)', async () => {
        await resetCounters();
        const started = await startSignInAt(proxied.baseUrl, { jar: new BrowserJar() });
        const state = started.body.data!.state;
        /** The forger's browser, sending back its own sign-in cookie each time. */
        const forger = () => new BrowserJar().set('broker_signin', state);
        const forge = async (jar: BrowserJar | null, code: string, forgedState = state) => {
          const answer = await apiClient(proxied.baseUrl, { cookies: jar, headers: { 'x-forwarded-for': '203.0.113.77' } }).loginQywx({
            code,
            state: forgedState,
          });
          return answer.body.code;
        };
        // Its own state with a made-up code (WeCom refuses it), then the same state again (used), then no state of its own.
        const codes = [await forge(forger(), 'forged-code-1'), await forge(forger(), 'forged-code-2')];
        for (let attempt = 0; attempt < 10 * LIMIT; attempt += 1)
          codes.push(await forge(null, `forged-${attempt}`, `madeUpState${attempt}`));
        expect(codes.slice(0, 2)).toEqual([ErrorCode.LOGIN_CODE_INVALID, ErrorCode.LOGIN_STATE_INVALID]);
        expect(codes.slice(2 + LIMIT)).toEqual(Array<string>(10 * LIMIT - LIMIT).fill(ErrorCode.LOGIN_RATE_LIMITED));
        // Meanwhile a colleague behind the same address signs in: own browser, own state cookie, a real code.
        const colleague = new BrowserJar();
        const office = { 'x-forwarded-for': '203.0.113.77' };
        const begun = await apiClient(proxied.baseUrl, { cookies: colleague, headers: office }).startSignIn({
          agentCode: 'khzl',
          redirectPage: '/client/manage/list',
        });
        expect(begun.body.code, begun.body.msg).toBe(ErrorCode.OK);
        const { code } = await authorizeAs(begun.body.data!.authorizeUrl, 'leekaying');
        const login = await apiClient(proxied.baseUrl, { cookies: colleague, headers: office }).loginQywx({
          code,
          state: begun.body.data!.state,
        });
        expect(login.body.code, login.body.msg).toBe(ErrorCode.OK);
        expect(login.body.data).toMatchObject({ userId: 'leekaying' });
        // A return with the browser's own state is never refused by the limit (it is used once, and each costs a start).
        expect(await forge(forger(), 'forged-code-3')).toBe(ErrorCode.LOGIN_STATE_INVALID);
      });

      it('keys by the forwarded address only behind a trusted proxy', async () => {
        await resetCounters();
        const from = (address: string) => ({ 'x-forwarded-for': address });
        for (let attempt = 0; attempt < LIMIT; attempt += 1) {
          expect((await login(proxied.baseUrl, from('203.0.113.7'))).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
        }
        expect((await login(proxied.baseUrl, from('203.0.113.7'))).body.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
        // Another client behind the same proxy has its own budget.
        expect((await login(proxied.baseUrl, from('198.51.100.23'))).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
        // Without TRUST_PROXY a forged header buys nothing: all of these are 127.0.0.1.
        const direct = [];
        for (let attempt = 0; attempt <= LIMIT; attempt += 1) direct.push(await login(replica.baseUrl, from(`192.0.2.${attempt}`)));
        expect(direct.map((attempt) => attempt.body.code)).toEqual([
          ...Array<string>(LIMIT).fill(ErrorCode.LOGIN_STATE_INVALID),
          ErrorCode.LOGIN_RATE_LIMITED,
        ]);
      });
    });

    /**
     * Issue 17.7, ADR 0015: X-Forwarded-For is the client's word except for the entries our own proxies
     * appended. A client that makes up entries must still be counted by its real address.
     */
    describe('spoofed X-Forwarded-For does not dodge the sign-in limit', () => {
      beforeEach(resetCounters);
      const spoofed = (attempt: number, real?: string) => ({
        'x-forwarded-for': [`192.0.2.${attempt}`, `198.51.100.${attempt}`, ...(real ? [real] : [])].join(', '),
      });
      const codesOf = async (baseUrl: string, headersOf: (attempt: number) => Record<string, string>) => {
        const codes = [];
        for (let attempt = 0; attempt <= LIMIT; attempt += 1) codes.push((await login(baseUrl, headersOf(attempt))).body.code);
        return codes;
      };
      const limitedAtTheEnd = [...Array<string>(LIMIT).fill(ErrorCode.LOGIN_STATE_INVALID), ErrorCode.LOGIN_RATE_LIMITED];

      it('from a peer that is not a trusted proxy, every made-up chain counts against the peer itself', async () => {
        expect(await codesOf(otherProxies.baseUrl, (attempt) => spoofed(attempt))).toEqual(limitedAtTheEnd);
        const [counter] = await database.query<{ subject: string }>('select subject from rate_limit_counter');
        expect(counter!.subject).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
        // The real client of that peer stays limited whatever it claims next.
        expect((await login(otherProxies.baseUrl, { 'x-forwarded-for': '203.0.113.50' })).body.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
      });

      it('with a hop count of 1, only the last entry (what our proxy saw) counts; made-up entries before it are ignored', async () => {
        expect(await codesOf(proxied.baseUrl, (attempt) => spoofed(attempt, '203.0.113.7'))).toEqual(limitedAtTheEnd);
        // Another real client behind the proxy has its own budget.
        expect((await login(proxied.baseUrl, spoofed(9, '203.0.113.8'))).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
      });

      it('with a list of proxies, only the listed ones are believed', async () => {
        // 127.0.0.1 is listed: the entry it appended is the client; what the client wrote before it is not believed.
        expect(await codesOf(listedProxy.baseUrl, (attempt) => spoofed(attempt, '203.0.113.9'))).toEqual(limitedAtTheEnd);
        // A chain through a listed inner proxy (10.9.1.1) reaches the client before it.
        await resetCounters();
        const viaInner = (attempt: number) => ({ 'x-forwarded-for': `192.0.2.${attempt}, 203.0.113.10, 10.9.1.1` });
        expect(await codesOf(listedProxy.baseUrl, viaInner)).toEqual(limitedAtTheEnd);
        const subjects = await database.query<{ subject: string }>('select subject from rate_limit_counter');
        expect(subjects.map((row) => row.subject)).toEqual(['203.0.113.10']);
      });
    });

    describe('starting a sign-in, per client address', () => {
      it('has a ceiling of its own (each start writes a row), ten times the failure limit, so an office behind one address fits', async () => {
        await resetCounters();
        const start = () => startSignInAt(replica.baseUrl, { jar: new BrowserJar() });
        for (let attempt = 0; attempt < 10 * LIMIT; attempt += 1) expect((await start()).body.code).toBe(ErrorCode.OK);
        const [before] = await database.query<{ n: number }>('select count(*)::int as n from sign_in_attempt');
        const limited = await start();
        expect(limited.status).toBe(429);
        expect(limited.body.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
        const [after] = await database.query<{ n: number }>('select count(*)::int as n from sign_in_attempt');
        expect(after!.n).toBe(before!.n);
        expect((await login(replica.baseUrl)).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
      });
    });

    describe('KYC search, per staff member', () => {
      beforeAll(resetCounters);

      it('answers the search after the limit with 091429; another staff member is not affected', async () => {
        const allowed = [await search(chan), await search(chan, proxied.baseUrl), await search(chan)];
        for (const result of allowed) expect(result.body.code, result.body.msg).toBe('0');
        const limited = await search(chan);
        expect(limited.status).toBe(429);
        expect(limited.body.code).toBe(ErrorCode.KYC_SEARCH_RATE_LIMITED);
        expect(limited.body.msg).toMatch(/^KYC search: too many searches \(at most 3 per 86400 s for each staff member\); retry in \d+ s$/);
        expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(limited.body.msg).toContain(`retry in ${limited.retryAfter} s`);

        for (let attempt = 0; attempt < LIMIT; attempt += 1) expect((await search(lee)).body.code).toBe('0');
        expect((await search(lee)).body.code).toBe(ErrorCode.KYC_SEARCH_RATE_LIMITED);
      });

      it('opens again when the window has passed', async () => {
        expect((await search(chan)).body.code).toBe(ErrorCode.KYC_SEARCH_RATE_LIMITED);
        await endWindows();
        expect((await search(chan)).body.code).toBe('0');
      });

      it('does not count what it does not limit: other endpoints and unauthenticated calls', async () => {
        await resetCounters();
        const anonymous = await search({});
        expect(anonymous.body.code).toBe(ErrorCode.LOGIN_INVALID);
        const response = await apiClient(replica.baseUrl, chan).getDefaultCcy();
        expect(response.body.code).toBe('0');
        expect(await database.query('select bucket, subject from rate_limit_counter')).toEqual([]);
      });
    });

    it('counts concurrent hits exactly once each (one atomic upsert)', async () => {
      await resetCounters();
      const limiter = createRateLimiter(database);
      const rule = { bucket: 'probe', limit: 1000, windowSeconds: DECADE_SECONDS };
      const verdicts = await Promise.all(Array.from({ length: 40 }, () => limiter.hit(rule, 'one-subject')));
      expect(verdicts.map((verdict) => verdict.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    });

    it('sweeps only the counters whose own window has ended, whatever its length', async () => {
      await resetCounters();
      const limiter = createRateLimiter(database);
      const decade = { bucket: 'long-window', limit: 100, windowSeconds: DECADE_SECONDS };
      const minute = { bucket: 'short-window', limit: 100, windowSeconds: 60 };
      for (let hit = 0; hit < 3; hit += 1) await limiter.hit(decade, 'kept');
      await limiter.hit(minute, 'ended');
      await limiter.hit(minute, 'current');
      await database.query(`update rate_limit_counter set window_start = window_start - interval '2 minutes' where subject = 'ended'`);
      await limiter.sweepEnded(decade);
      await limiter.sweepEnded(minute);
      const rows = await database.query<{ subject: string; hits: number }>('select subject, hits from rate_limit_counter order by subject');
      // A decade's window began years ago and is still running: its count must survive.
      expect(rows).toEqual([
        { subject: 'current', hits: 1 },
        { subject: 'kept', hits: 3 },
      ]);
      // A new limiter sweeps as it starts; the live count goes on from 3.
      expect((await createRateLimiter(database).hit(decade, 'kept')).hits).toBe(4);
    });

    it('measures what a hit costs (figures printed; the ADR records them)', async () => {
      const limiter = createRateLimiter(database);
      const rule = { bucket: 'benchmark', limit: 1_000_000, windowSeconds: DECADE_SECONDS };
      for (let warm = 0; warm < 50; warm += 1) await limiter.hit(rule, `warm-${warm % 5}`);
      const samples: number[] = [];
      for (let index = 0; index < 1000; index += 1) {
        const started = process.hrtime.bigint();
        await limiter.hit(rule, `subject-${index % 50}`);
        samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      samples.sort((a, b) => a - b);
      const at = (quantile: number) => samples[Math.floor(quantile * (samples.length - 1))]!.toFixed(3);
      console.log(
        `rate-limit upsert on ${engine.kind}: median ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms (1000 hits, 50 subjects)`,
      );
      const [row] = await database.query<{ hits: number }>(
        `select sum(hits)::int as hits from rate_limit_counter where bucket = 'benchmark'`,
      );
      expect(row!.hits).toBe(1050);
    });
  });
}
