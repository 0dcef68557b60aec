import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@broker/contract';
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
} from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { authSessions } from '../../db/schema';
import { defaultCorps } from '../../corps';
import { hashSessionToken } from './session-token';

const otherCorp = {
  code: 'hkbk',
  name: '港汇证券',
  corpId: 'ww0other0corp00001',
  agents: {
    khzl: { agentId: '2000002', secret: 'other-khzl' },
    khgl: { agentId: '2000003', secret: 'other-khgl' },
    mot: { agentId: '2000004', secret: 'other-mot' },
  },
};

for (const engine of testDatabases()) {
  describe(`sign-in and token authentication (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;

    beforeAll(async () => {
      database = await engine.create();
      // Two corps, so a token of one can be tried against the other.
      server = await startTestApp(database, {}, { corps: [...defaultCorps, otherCorp] });
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('runs the whole OAuth round trip over HTTP and the token works on a business call', async () => {
      const jar = new BrowserJar();
      const started = await apiClient(server.baseUrl, { cookies: jar }).startSignIn({
        agentCode: 'khzl',
        redirectPage: '/client/manage/list',
      });
      const start = started.body.data!;
      expect(start.state).toMatch(/^[0-9a-f]{64}$/);
      expect(start.expiresAt).toBeGreaterThan(Date.now());
      // The sign-in cookie: the state, HttpOnly, for this host, ten minutes; no Secure over plain HTTP.
      expect(started.headers.getSetCookie()).toEqual([`broker_signin=${start.state}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax`]);

      const authorizeUrl = new URL(start.authorizeUrl);
      expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${server.baseUrl}/wecom/connect/oauth2/authorize`);
      expect(authorizeUrl.hash).toBe('#wechat_redirect');
      expect(Object.fromEntries(authorizeUrl.searchParams)).toEqual({
        appid: BUILT_IN_CORP.corpId,
        redirect_uri: expect.any(String),
        response_type: 'code',
        scope: 'snsapi_privateinfo',
        state: start.state,
        agentid: BUILT_IN_CORP.agents.khzl.agentId,
      });
      // SPEC.md §4: the return address is /wxEntry with redirectPage, corpCode, agentCode, agentId, wxAppId, needBack=1.
      const back = new URL(authorizeUrl.searchParams.get('redirect_uri')!);
      expect(`${back.origin}${back.pathname}`).toBe(`${server.baseUrl}/wxEntry`);
      expect(Object.fromEntries(back.searchParams)).toEqual({
        redirectPage: '/client/manage/list',
        corpCode: 'fxhl',
        agentCode: 'khzl',
        agentId: BUILT_IN_CORP.agents.khzl.agentId,
        wxAppId: BUILT_IN_CORP.corpId,
        needBack: '1',
      });

      const page = await fetch(authorizeUrl);
      const html = await page.text();
      expect(page.headers.get('content-type')).toContain('text/html');
      const confirmHref = /href="([^"]+)"[^>]*>\s*<span class="avatar">/.exec(html.replace(/data-userid="[^"]+" /g, ''))?.[1];
      expect(html).toContain('data-userid="chanwaiman"');
      expect(confirmHref).toBeTruthy();

      const redirect = await fetch(new URL(confirmHref!.replaceAll('&amp;', '&'), server.baseUrl), { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const location = new URL(redirect.headers.get('location')!);
      expect(location.pathname).toBe('/wxEntry');
      expect(location.searchParams.get('redirectPage')).toBe('/client/manage/list');
      expect(location.searchParams.get('state')).toBe(start.state);
      const code = location.searchParams.get('code')!;

      const login = await exchangeCode(server.baseUrl, { jar, code, state: start.state });
      expect(login.status).toBe(200);
      expect(login.body.code).toBe('0');
      const result = login.body.data!;
      expect(result.token.length).toBeGreaterThanOrEqual(40);
      expect(result.tokenExpireTime).toBeGreaterThan(Date.now());
      expect(result).toMatchObject({
        onlineStaff: true,
        bd: true,
        heco: false,
        staffEmail: { email: 'waiman.chan@fxhl.example.com' },
        userId: 'chanwaiman',
        staffName: '陈伟文',
      });
      // The browser's binding cookie replaced the sign-in cookie.
      expect(jar.get('broker_signin')).toBeUndefined();
      const binding = jar.get('broker_binding')!;
      expect(binding.length).toBeGreaterThanOrEqual(40);

      const call = await apiClient(server.baseUrl, { token: result.token, cookies: jar }).getDefaultCcy();
      expect(call.body).toEqual({ code: '0', msg: 'ok', data: { ccy: 'HKD' } });

      // Only digests of the token and of the binding secret are stored.
      const stored = await database.db
        .select()
        .from(authSessions)
        .where(eq(authSessions.tokenHash, hashSessionToken(result.token)));
      expect(stored).toHaveLength(1);
      expect(stored[0]!.bindingHash).toBe(hashSessionToken(binding));
      expect(JSON.stringify(stored)).not.toContain(result.token);
      expect(JSON.stringify(stored)).not.toContain(binding);

      // A code works once, even in a fresh sign-in of the same browser.
      const again = await startSignInAt(server.baseUrl, { jar });
      const reused = await exchangeCode(server.baseUrl, { jar, code, state: again.body.data!.state });
      expect(reused.status).toBe(401);
      expect(reused.body.code).toBe(ErrorCode.LOGIN_CODE_INVALID);
      expect(reused.body.msg).toMatch(/code.*invalid, expired or already used/);
    });

    it('refuses an unknown code with a clear login error', async () => {
      const jar = new BrowserJar();
      const started = await startSignInAt(server.baseUrl, { jar });
      const response = await exchangeCode(server.baseUrl, { jar, code: 'not-a-real-code', state: started.body.data!.state });
      expect(response.body.code).toBe(ErrorCode.LOGIN_CODE_INVALID);
      expect(response.body.data).toBeNull();
    });

    it('answers 080000 for an expired token', async () => {
      const signedIn = await signInAs(server.baseUrl);
      const { token } = signedIn;
      await database.db
        .update(authSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(authSessions.tokenHash, hashSessionToken(token)));
      const response = await apiClient(server.baseUrl, signedIn).getDefaultCcy();
      expect(response.status).toBe(401);
      expect(response.body.code).toBe(ErrorCode.LOGIN_EXPIRED);
    });

    it('answers 080001 for a missing, forged or other-corp token', async () => {
      const signedIn = await signInAs(server.baseUrl, 'leekaying');
      const lee = apiClient(server.baseUrl, signedIn);
      const missing = await apiClient(server.baseUrl).getDefaultCcy();
      const forged = await lee.with({ token: `${signedIn.token.slice(0, -2)}xx` }).getDefaultCcy();
      const otherCorpHeader = await lee.with({ corp: otherCorp.code }).getDefaultCcy();
      for (const response of [missing, forged, otherCorpHeader]) {
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(ErrorCode.LOGIN_INVALID);
      }
      const stillValid = await lee.getDefaultCcy();
      expect(stillValid.body.code).toBe('0');
    });

    it('refuses a WeCom user who is not registered staff of the corp', async () => {
      const state = server.app.wecomEmulator!;
      state.staff.push({ userid: 'intruder', name: '路人', position: '', email: 'x@example.com', mobile: '', gender: '1' });
      try {
        const jar = new BrowserJar();
        const started = await startSignInAt(server.baseUrl, { jar });
        const { code } = await authorizeAs(started.body.data!.authorizeUrl, 'intruder');
        const response = await exchangeCode(server.baseUrl, { jar, code, state: started.body.data!.state });
        expect(response.body.code).toBe(ErrorCode.LOGIN_STAFF_UNKNOWN);
        expect(jar.get('broker_binding')).toBeUndefined();
      } finally {
        state.staff.pop();
      }
    });

    it('persists a staff setting through a business call', async () => {
      const api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'wongchishing'));
      const set = await api.configureDefaultCcy({ ccy: 'USD' });
      expect(set.body).toEqual({ code: '0', msg: 'ok', data: { ccy: 'USD' } });
      expect((await api.getDefaultCcy()).body.data).toEqual({ ccy: 'USD' });
      const bad = await api.call('configureDefaultCcy', { ccy: 'EUR' });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toMatch(/^query\.ccy: /);
      expect((await api.getDefaultCcy()).body.data).toEqual({ ccy: 'USD' });
    });
  });
}
