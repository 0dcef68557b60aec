import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, ErrorCode, type Endpoint } from '@broker/contract';
import { apiClient, BrowserJar, signInAs, startTestApp, testDatabases, type RunningTestApp, type SignedIn } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { RESUME_LIMITS } from './auth.routes';

/**
 * Issue 17.4: sessions bound to the browser they were issued to, resumed without WeCom by that
 * browser, ended on this device or everywhere — and every replica refuses an ended session as
 * soon as the database announces it. Two app instances on one database, each caching sessions
 * (ADR 0010, ADR 0012).
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const engine of testDatabases()) {
  describe(`sessions: browser binding, resume, sign-out (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let replicaA: RunningTestApp;
    let replicaB: RunningTestApp;

    beforeAll(async () => {
      database = await engine.create();
      replicaA = await startTestApp(database);
      replicaB = await startTestApp(database);
    });
    afterAll(async () => {
      await replicaA?.close();
      await replicaB?.close();
      await database?.drop();
    });

    /** Exactly these headers, as a browser that holds them sends them. */
    const call = (replica: RunningTestApp, endpoint: Endpoint, headers: Record<string, string>) =>
      apiClient(replica.baseUrl, { corp: null, agent: null, headers }).call(endpoint);
    const codeOf = async (replica: RunningTestApp, headers: Record<string, string>) =>
      (await call(replica, endpoints.getDefaultCcy, headers)).body.code;
    /**
     * The code a replica answers once the change has had its chance to arrive. A notification is
     * delivered at commit, so this normally returns at the first call; it gives up after a generous
     * bound rather than hang, and the caller's expectation then fails.
     */
    const settled = async (replica: RunningTestApp, headers: Record<string, string>, expected: string) => {
      let code = await codeOf(replica, headers);
      for (let attempt = 0; attempt < 200 && code !== expected; attempt += 1) {
        await sleep(25);
        code = await codeOf(replica, headers);
      }
      return code;
    };
    /** Both replicas have read the session (so it sits in both caches) and accept it. */
    const warm = async (signedIn: SignedIn) => {
      for (const replica of [replicaA, replicaB, replicaA, replicaB]) expect(await codeOf(replica, signedIn.headers)).toBe(ErrorCode.OK);
    };
    const withoutCookie = (headers: Record<string, string>) =>
      Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'cookie'));

    it('a token works only with the cookie of the browser it was issued to', async () => {
      const chan = await signInAs(replicaA.baseUrl, 'chanwaiman');
      const other = await signInAs(replicaA.baseUrl, 'chanwaiman');
      await warm(chan);
      for (const replica of [replicaA, replicaB]) {
        const bare = await call(replica, endpoints.getDefaultCcy, withoutCookie(chan.headers));
        expect(bare.status).toBe(401);
        expect(bare.body.code).toBe(ErrorCode.LOGIN_INVALID);
        expect(await codeOf(replica, { ...chan.headers, cookie: other.headers.cookie! })).toBe(ErrorCode.LOGIN_INVALID);
        expect(await codeOf(replica, { ...chan.headers, cookie: 'broker_binding=forged' })).toBe(ErrorCode.LOGIN_INVALID);
        expect(await codeOf(replica, chan.headers)).toBe(ErrorCode.OK);
      }
    });

    it("a shared PC: after WeCom's account switch clears the cookies, the previous staff member's token opens nothing", async () => {
      const pc = new BrowserJar();
      const chan = await signInAs(replicaA.baseUrl, 'chanwaiman', { jar: pc });
      // localStorage still holds chan's token; the cookies are gone.
      pc.clear();
      expect(await codeOf(replicaA, { ...chan.headers, ...pc.headers(), cookie: '' })).toBe(ErrorCode.LOGIN_INVALID);
      expect((await call(replicaA, endpoints.resumeSession, { 'corp-code': 'fxhl', ...pc.headers() })).body.code).toBe(
        ErrorCode.SESSION_NOT_RESUMABLE,
      );
      // The next person signs in on the same PC and is themselves.
      const lee = await signInAs(replicaA.baseUrl, 'leekaying', { jar: pc });
      expect(lee.login.userId).toBe('leekaying');
      expect(await codeOf(replicaB, { ...chan.headers, cookie: lee.headers.cookie! })).toBe(ErrorCode.LOGIN_INVALID);
    });

    it('a new sign-in in the same browser ends the sessions bound to its previous cookie', async () => {
      const desk = new BrowserJar();
      const chan = await signInAs(replicaA.baseUrl, 'chanwaiman', { jar: desk });
      await warm(chan);
      await signInAs(replicaA.baseUrl, 'leekaying', { jar: desk });
      // Even with the old cookie put back, chan's session is over, on both replicas.
      expect(await settled(replicaA, chan.headers, ErrorCode.LOGIN_INVALID)).toBe(ErrorCode.LOGIN_INVALID);
      expect(await settled(replicaB, chan.headers, ErrorCode.LOGIN_INVALID)).toBe(ErrorCode.LOGIN_INVALID);
    });

    /** The live sessions bound to a browser's cookie. */
    const liveSessionsOf = async (signedIn: SignedIn) => {
      const [row] = await database.query<{ n: number }>(
        `select count(*)::int as n from auth_session
          where binding_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex') and revoked_at is null and expires_at > now()`,
        [signedIn.jar.get('broker_binding')],
      );
      return row!.n;
    };

    it('resume: the browser holding the cookie gets its live session back, without WeCom, never longer-lived', async () => {
      const chan = await signInAs(replicaA.baseUrl, 'chanwaiman');
      const emulator = replicaA.app.wecomEmulator!;
      const userinfoCalls = emulator.stats.getuserinfo;
      // The Mac sidebar: localStorage emptied, cookies kept.
      const resumed = await call(replicaB, endpoints.resumeSession, { 'corp-code': 'fxhl', cookie: chan.headers.cookie! });
      expect(resumed.body.code).toBe(ErrorCode.OK);
      const login = resumed.body.data as SignedIn['login'];
      expect(login).toMatchObject({ userId: 'chanwaiman', staffName: '陈伟文', tokenExpireTime: chan.login.tokenExpireTime });
      // The same session, not another one: its token again, so every tab of the browser holds one token.
      expect(login.token).toBe(chan.token);
      expect(emulator.stats.getuserinfo).toBe(userinfoCalls);
      // No new cookie: the browser keeps the one it has.
      expect(resumed.headers.getSetCookie()).toEqual([]);
      expect(await codeOf(replicaA, chan.headers)).toBe(ErrorCode.OK);
      // However often it resumes, the browser holds one live session (one binding cookie minted 5,454 in 30 s).
      for (let resume = 0; resume < 20; resume += 1)
        await call(replicaA, endpoints.resumeSession, { 'corp-code': 'fxhl', cookie: chan.headers.cookie! });
      expect(await liveSessionsOf(chan)).toBe(1);

      // Refused: no cookie, a forged one, another corp, an expired session.
      const refused = async (headers: Record<string, string>) => (await call(replicaA, endpoints.resumeSession, headers)).body.code;
      expect(await refused({ 'corp-code': 'fxhl' })).toBe(ErrorCode.SESSION_NOT_RESUMABLE);
      expect(await refused({ 'corp-code': 'fxhl', cookie: 'broker_binding=forged' })).toBe(ErrorCode.SESSION_NOT_RESUMABLE);
      const wong = await signInAs(replicaA.baseUrl, 'wongchishing');
      await database.query(
        `update auth_session set expires_at = now() - interval '1 second' where binding_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [wong.jar.get('broker_binding')],
      );
      expect(await refused({ 'corp-code': 'fxhl', cookie: wong.headers.cookie! })).toBe(ErrorCode.SESSION_NOT_RESUMABLE);
    });

    it('resumes are limited per browser and per staff member; another staff member is not affected', async () => {
      const resume = async (signedIn: SignedIn) => {
        const answer = await call(replicaA, endpoints.resumeSession, { 'corp-code': 'fxhl', cookie: signedIn.headers.cookie! });
        return { code: answer.body.code, msg: answer.body.msg, retryAfter: answer.headers.get('retry-after') };
      };
      const [first, second, third] = [
        await signInAs(replicaA.baseUrl, 'leekaying'),
        await signInAs(replicaA.baseUrl, 'leekaying'),
        await signInAs(replicaA.baseUrl, 'leekaying'),
      ];
      const { browser, staff } = RESUME_LIMITS;
      for (let attempt = 0; attempt < browser.limit; attempt += 1) expect((await resume(first)).code).toBe(ErrorCode.OK);
      const perBrowser = await resume(first);
      expect(perBrowser.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
      expect(perBrowser.msg).toMatch(
        new RegExp(
          `^session resume: too many for this browser \\(at most ${browser.limit} per ${browser.windowSeconds} s\\); retry in \\d+ s$`,
        ),
      );
      expect(Number(perBrowser.retryAfter)).toBeGreaterThanOrEqual(1);
      // Another browser of the same staff member resumes, until the staff member's own limit.
      for (let attempt = browser.limit; attempt < staff.limit; attempt += 1) expect((await resume(second)).code).toBe(ErrorCode.OK);
      const perStaff = await resume(third);
      expect(perStaff.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
      expect(perStaff.msg).toMatch(/^session resume: too many for this staff member \(at most \d+ per \d+ s\); retry in \d+ s$/);
      expect((await resume(await signInAs(replicaA.baseUrl, 'zhangmin'))).code).toBe(ErrorCode.OK);
      // A cookie that opens no session is refused as before, and counts against nobody.
      const [before] = await database.query<{ n: number }>('select count(*)::int as n from rate_limit_counter');
      expect((await call(replicaA, endpoints.resumeSession, { 'corp-code': 'fxhl', cookie: 'broker_binding=forged' })).body.code).toBe(
        ErrorCode.SESSION_NOT_RESUMABLE,
      );
      const [after] = await database.query<{ n: number }>('select count(*)::int as n from rate_limit_counter');
      expect(after!.n).toBe(before!.n);
    });

    it('sign out (this device) ends every session of this browser on every replica, and only those', async () => {
      const phone = await signInAs(replicaA.baseUrl, 'zhangmin');
      const desktop = await signInAs(replicaA.baseUrl, 'zhangmin');
      // The phone's browser resumed its session (the Mac sidebar): still its one session.
      const resumed = (await call(replicaA, endpoints.resumeSession, { 'corp-code': 'fxhl', cookie: phone.headers.cookie! })).body
        .data as SignedIn['login'];
      const phoneAgain = { ...phone.headers, 'broker-token': resumed.token };
      await warm(phone);
      await warm(desktop);
      for (const replica of [replicaA, replicaB]) expect(await codeOf(replica, phoneAgain)).toBe(ErrorCode.OK);

      const out = await call(replicaB, endpoints.signOut, phone.headers);
      expect(out.body).toMatchObject({ code: ErrorCode.OK, data: { endedSessions: 1 } });
      // The browser's cookie is cleared.
      expect(out.headers.getSetCookie()).toEqual([
        expect.stringMatching(/^broker_binding=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/),
      ]);

      for (const replica of [replicaA, replicaB]) {
        expect(await settled(replica, phone.headers, ErrorCode.LOGIN_INVALID)).toBe(ErrorCode.LOGIN_INVALID);
        expect(await settled(replica, phoneAgain, ErrorCode.LOGIN_INVALID)).toBe(ErrorCode.LOGIN_INVALID);
        expect(await codeOf(replica, desktop.headers)).toBe(ErrorCode.OK);
      }
      // Nothing to resume, and the ended token cannot sign out again.
      expect((await call(replicaA, endpoints.resumeSession, { 'corp-code': 'fxhl', cookie: phone.headers.cookie! })).body.code).toBe(
        ErrorCode.SESSION_NOT_RESUMABLE,
      );
      expect((await call(replicaA, endpoints.signOut, phone.headers)).body.code).toBe(ErrorCode.LOGIN_INVALID);
    });

    it("sign out everywhere ends all of the caller's sessions on every replica, and nobody else's", async () => {
      const devices = [await signInAs(replicaA.baseUrl, 'wongchishing'), await signInAs(replicaB.baseUrl, 'wongchishing')];
      const colleague = await signInAs(replicaA.baseUrl, 'leekaying');
      for (const device of [...devices, colleague]) await warm(device);
      const [before] = await database.query<{ n: number }>(
        `select count(*)::int as n from auth_session s join staff st on st.id = s.staff_id
          where st.wecom_user_id = 'wongchishing' and s.revoked_at is null`,
      );

      const out = await call(replicaA, endpoints.signOutEverywhere, devices[0]!.headers);
      expect(out.body).toMatchObject({ code: ErrorCode.OK, data: { endedSessions: before!.n } });
      for (const replica of [replicaA, replicaB]) {
        for (const device of devices) expect(await settled(replica, device.headers, ErrorCode.LOGIN_INVALID)).toBe(ErrorCode.LOGIN_INVALID);
        expect(await codeOf(replica, colleague.headers)).toBe(ErrorCode.OK);
      }
      for (const device of devices) {
        expect((await call(replicaB, endpoints.resumeSession, { 'corp-code': 'fxhl', cookie: device.headers.cookie! })).body.code).toBe(
          ErrorCode.SESSION_NOT_RESUMABLE,
        );
      }
      // Signing in again works as before.
      expect(await codeOf(replicaB, (await signInAs(replicaB.baseUrl, 'wongchishing')).headers)).toBe(ErrorCode.OK);
    });
  });
}
