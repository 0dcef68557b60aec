import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, ErrorCode, agentCodeSchema } from '@broker/contract';
import { BUILT_IN_CORP } from '../../corps';
import {
  apiClient,
  authorizeAs,
  BrowserJar,
  exchangeCode,
  signInAs,
  startSignInAt,
  startTestApp,
  testDatabases,
  type RunningTestApp,
  type SignedIn,
} from '../../testing';
import type { DatabaseHandle } from '../../db/client';

/**
 * Issue 17.1 (login CSRF) and issue 19.1 (the agent that started a sign-in exchanges its code),
 * over HTTP against the real app and its emulated WeCom. ADR 0011.
 */
for (const engine of testDatabases()) {
  describe(`sign-in state and agent (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;

    beforeAll(async () => {
      database = await engine.create();
      server = await startTestApp(database);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const whoAmI = async (signedIn: SignedIn) => {
      const { body } = await apiClient(server.baseUrl, signedIn).getMyAuditTrail();
      if (body.code !== '0') return body.code;
      const [session] = await database.query<{ wecom_user_id: string }>(
        `select st.wecom_user_id from auth_session s join staff st on st.id = s.staff_id where s.token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [signedIn.token],
      );
      return session?.wecom_user_id;
    };

    /** The attacker's half of a login CSRF: a real sign-in of leekaying, stopped before the code is exchanged. */
    const attackerLink = async () => {
      const attacker = new BrowserJar();
      const started = await startSignInAt(server.baseUrl, { jar: attacker });
      const { code, state } = await authorizeAs(started.body.data!.authorizeUrl, 'leekaying');
      return { attacker, code, state };
    };

    it("a code from someone else's sign-in never signs this browser in, signed in or not, and stays unused", async () => {
      const { attacker, code, state } = await attackerLink();

      // The victim, signed in as chanwaiman, opens /wxEntry?code=…&state=… from the attacker.
      const victim = await signInAs(server.baseUrl, 'chanwaiman');
      const opened = await exchangeCode(server.baseUrl, { jar: victim.jar, code, state });
      expect(opened.status).toBe(401);
      expect(opened.body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
      expect(opened.body.msg).toMatch(/^query\.state: /);
      // A stays A: the victim's cookie and session are untouched.
      expect(victim.jar.header()).toBe(victim.headers.cookie);
      expect(await whoAmI(victim)).toBe('chanwaiman');

      // A browser signed in as nobody, and one in the middle of its own sign-in.
      const nobody = new BrowserJar();
      expect((await exchangeCode(server.baseUrl, { jar: nobody, code, state })).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);
      expect(nobody.header()).toBeNull();
      const midway = new BrowserJar();
      await startSignInAt(server.baseUrl, { jar: midway });
      expect((await exchangeCode(server.baseUrl, { jar: midway, code, state })).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);

      // None of that reached WeCom: the code is still good for the browser that started it.
      const own = await exchangeCode(server.baseUrl, { jar: attacker, code, state });
      expect(own.body.code).toBe('0');
      expect(own.body.data).toMatchObject({ userId: 'leekaying' });
    });

    it('a state works once, for ten minutes, in the corp it started in', async () => {
      const jar = new BrowserJar();
      const started = await startSignInAt(server.baseUrl, { jar });
      const { state, authorizeUrl } = started.body.data!;
      const cookie = jar.get('broker_signin')!;
      expect(cookie).toBe(state);
      const first = await authorizeAs(authorizeUrl, 'chanwaiman');
      expect((await exchangeCode(server.baseUrl, { jar, code: first.code, state })).body.code).toBe('0');

      // The same state again, cookie put back by hand, with a fresh code: used up.
      const second = await authorizeAs(authorizeUrl, 'chanwaiman');
      jar.set('broker_signin', cookie);
      expect((await exchangeCode(server.baseUrl, { jar, code: second.code, state })).body.code).toBe(ErrorCode.LOGIN_STATE_INVALID);

      // Expired.
      const late = new BrowserJar();
      const lateStart = (await startSignInAt(server.baseUrl, { jar: late })).body.data!;
      await database.query(`update sign_in_attempt set expires_at = now() - interval '1 second'`);
      const lateCode = await authorizeAs(lateStart.authorizeUrl, 'chanwaiman');
      expect((await exchangeCode(server.baseUrl, { jar: late, code: lateCode.code, state: lateStart.state })).body.code).toBe(
        ErrorCode.LOGIN_STATE_INVALID,
      );

      // Started for fxhl, finished with another corp's header.
      const elsewhere = new BrowserJar();
      const fxhl = (await startSignInAt(server.baseUrl, { jar: elsewhere })).body.data!;
      const fxhlCode = await authorizeAs(fxhl.authorizeUrl, 'chanwaiman');
      const response = await exchangeCode(server.baseUrl, {
        jar: elsewhere,
        code: fxhlCode.code,
        state: fxhl.state,
        corpCode: 'nosuchcorp',
      });
      expect(response.body.code).toBe(ErrorCode.VALIDATION);
    });

    it('names the field when the state is missing or malformed, and writes nothing', async () => {
      const [before] = await database.query<{ n: number }>('select count(*)::int as n from auth_session');
      for (const query of ['code=abc', 'code=abc&state=', 'code=abc&state=has-dash', `code=abc&state=${'a'.repeat(129)}`]) {
        const { body } = await apiClient(server.baseUrl, { agent: null }).raw(endpoints.loginQywx, { query });
        const { code, msg } = body as { code: string; msg: string };
        expect(code, query).toBe(ErrorCode.VALIDATION);
        expect(msg, query).toMatch(/^query\.state: /);
      }
      const [after] = await database.query<{ n: number }>('select count(*)::int as n from auth_session');
      expect(after!.n).toBe(before!.n);
    });

    it('names the field when the code holds a control, format or space character or a backslash, and writes nothing', async () => {
      const sessions = async () => (await database.query<{ n: number }>('select count(*)::int as n from auth_session'))[0]!.n;
      const before = await sessions();
      // Inside the code: a code's ends are trimmed. A WeCom code is URL-safe ASCII, so none of these is one.
      for (const code of ['ab\u0001cd', 'ab\ncd', 'ab\u007fcd', 'ab\tcd', 'ab cd', 'ab\u200bcd', 'ab\u2028cd', 'ab\\cd']) {
        const query = `code=${encodeURIComponent(code)}&state=abc123`;
        const { body } = await apiClient(server.baseUrl, { agent: null }).raw(endpoints.loginQywx, { query });
        const { code: answer, msg } = body as { code: string; msg: string };
        expect(answer, JSON.stringify(code)).toBe(ErrorCode.VALIDATION);
        expect(msg, JSON.stringify(code)).toMatch(/^query\.code: must not contain/);
      }
      expect(await sessions()).toBe(before);
    });

    it('start refuses a return page that leaves the app, and an agent the corp does not have', async () => {
      const attempts = async () => (await database.query<{ n: number }>('select count(*)::int as n from sign_in_attempt'))[0]!.n;
      const before = await attempts();
      for (const redirectPage of [
        '//evil.example/x',
        '/\\evil.example',
        'https://evil.example/',
        'javascript:alert(1)',
        '/a b',
        '/ok\u0000',
      ]) {
        const response = await startSignInAt(server.baseUrl, { jar: new BrowserJar(), redirectPage });
        expect(response.body.code, redirectPage).toBe(ErrorCode.VALIDATION);
        expect(response.body.msg, redirectPage).toMatch(/^body\.redirectPage: /);
      }
      const unknownAgent = await startSignInAt(server.baseUrl, { jar: new BrowserJar(), agentCode: 'hr' });
      expect(unknownAgent.body.msg).toMatch(/^body\.agentCode: /);
      expect(await attempts()).toBe(before);
    });

    it('carries relauchType back (SPEC.md §4) and builds the return address on the origin the browser used', async () => {
      const browser = apiClient(server.baseUrl, { agent: null, headers: { origin: 'https://broker.example.com' } });
      const { authorizeUrl } = await browser.ok.startSignIn({
        agentCode: 'mot',
        redirectPage: '/mot/eventDetail?eventId=7',
        relauchType: 'pushPage',
      });
      const back = new URL(new URL(authorizeUrl).searchParams.get('redirect_uri')!);
      expect(`${back.origin}${back.pathname}`).toBe('https://broker.example.com/wxEntry');
      expect(Object.fromEntries(back.searchParams)).toMatchObject({
        redirectPage: '/mot/eventDetail?eventId=7',
        agentCode: 'mot',
        agentId: BUILT_IN_CORP.agents.mot.agentId,
        relauchType: 'pushPage',
      });
    });

    for (const agentCode of agentCodeSchema.options) {
      it(`a sign-in started from the ${agentCode} home page is exchanged with ${agentCode}'s access token (issue 19.1)`, async () => {
        const emulator = server.app.wecomEmulator!;
        // Every cached access token gone, so the exchange has to fetch the one it uses.
        await database.query('delete from wecom_credential');
        const before = { gettoken: emulator.stats.gettoken, getuserinfo: emulator.stats.getuserinfo };

        const jar = new BrowserJar();
        const started = (await startSignInAt(server.baseUrl, { jar, agentCode })).body.data!;
        const authorize = new URL(started.authorizeUrl);
        const agentId = BUILT_IN_CORP.agents[agentCode].agentId;
        expect(authorize.searchParams.get('agentid')).toBe(agentId);
        expect(new URL(authorize.searchParams.get('redirect_uri')!).searchParams.get('agentCode')).toBe(agentCode);
        const { code, state } = await authorizeAs(started.authorizeUrl, 'wongchishing');
        // The page sends `agent-code: khzl` with every sign-in call, whatever started it.
        const login = await exchangeCode(server.baseUrl, { jar, code, state });
        expect(login.body.code).toBe('0');

        // WeCom was asked once, with a token fetched for this agent's secret, and no other.
        expect(emulator.stats.getuserinfo - before.getuserinfo).toBe(1);
        expect(emulator.stats.gettoken - before.gettoken).toBe(1);
        const tokens = await database.query<{ agent_code: string }>(`select agent_code from wecom_credential where kind = 'access_token'`);
        expect(tokens.map((row) => row.agent_code)).toEqual([agentCode]);
        const [session] = await database.query<{ agent_code: string }>(
          `select agent_code from auth_session where token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
          [login.body.data!.token],
        );
        expect(session!.agent_code).toBe(agentCode);
      });
    }
  });
}
