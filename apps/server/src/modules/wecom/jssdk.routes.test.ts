import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { getJsSdkSign, ResponseOf } from '@broker/contract';
import {
  testDatabases,
  startTestApp,
  signInAs,
  startSignInAt,
  apiClient,
  BrowserJar,
  type RunningTestApp,
  type SignedIn,
} from '../../testing';
import { isOk } from '../../testing/api-client';
import type { DatabaseHandle } from '../../db/client';
import { signJsSdk } from './jssdk-signature';
import { wecomCredentials } from '../../db/schema';

type SignData = ResponseOf<typeof getJsSdkSign>;

for (const engine of testDatabases()) {
  describe(`getJsSdkSign and the shared WeCom credential cache (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let primary: RunningTestApp;
    let replica: RunningTestApp;

    beforeAll(async () => {
      database = await engine.create();
      primary = await startTestApp(database);
      // A second replica on the same database, talking to the first one's emulator: one WeCom for both.
      replica = await startTestApp(database, { WECOM_API_BASE: `${primary.baseUrl}/wecom` });
    });
    afterAll(async () => {
      await replica?.close();
      await primary?.close();
      await database?.drop();
    });

    /** `data` typed as a success's: the tests read it only where the code is "0". */
    const sign = async (baseUrl: string, staff: SignedIn, url: string, refresh?: boolean) =>
      (await apiClient(baseUrl, staff).getJsSdkSign(refresh === undefined ? { url } : { url, refresh })).body as {
        code: string;
        msg: string;
        data: SignData;
      };

    it('signs config and agentConfig with the tickets WeCom issued, and both replicas share one access token', async () => {
      const emulator = primary.app.wecomEmulator!;
      const before = { ...emulator.stats };
      const one = await signInAs(primary.baseUrl);
      const two = await signInAs(replica.baseUrl, 'leekaying', { wecomBaseUrl: `${primary.baseUrl}/wecom` });
      const pageUrl = 'https://broker.example.com/client/manage/list?corpCode=fxhl#top';
      const [a, b] = await Promise.all([sign(primary.baseUrl, one, pageUrl), sign(replica.baseUrl, two, pageUrl)]);
      expect(a.code).toBe('0');
      expect(b.code).toBe('0');
      expect(a.data.agentId).toBe('1000002');

      const tickets = await database.db.select().from(wecomCredentials);
      const jsapi = tickets.find((row) => row.kind === 'jsapi_ticket')!.value;
      const agent = tickets.find((row) => row.kind === 'agent_ticket')!.value;
      for (const data of [a.data, b.data]) {
        expect(data.config.signature).toBe(
          signJsSdk({ ticket: jsapi, nonceStr: data.config.nonceStr, timestamp: data.config.timestamp, url: pageUrl }),
        );
        expect(data.agentConfig.signature).toBe(
          signJsSdk({ ticket: agent, nonceStr: data.agentConfig.nonceStr, timestamp: data.agentConfig.timestamp, url: pageUrl }),
        );
      }
      // Two sign-ins and two signatures from two replicas: one gettoken, one ticket of each kind.
      expect(emulator.stats.gettoken - before.gettoken).toBe(1);
      expect(emulator.stats.jsapiTicket - before.jsapiTicket).toBe(1);
      expect(emulator.stats.agentTicket - before.agentTicket).toBe(1);
    });

    it('produces signatures the emulated WeCom client accepts for that page, and only for that page', async () => {
      const staff = await signInAs(primary.baseUrl);
      const pageUrl = `${primary.baseUrl}/kyc/index?from=sidebar`;
      const signed = (await sign(primary.baseUrl, staff, pageUrl)).data;
      const verify = async (body: Record<string, string>) =>
        (
          (await (
            await fetch(`${primary.baseUrl}/wecom/__emulator/jsapi/verify`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            })
          ).json()) as { ok: boolean }
        ).ok;
      const corp = {
        kind: 'jsapi',
        corpId: signed.corpId,
        url: pageUrl,
        timestamp: String(signed.config.timestamp),
        nonceStr: signed.config.nonceStr,
        signature: signed.config.signature,
      };
      const agent = {
        kind: 'agent',
        corpId: signed.corpId,
        agentId: signed.agentId,
        url: `${pageUrl}#/x`,
        timestamp: String(signed.agentConfig.timestamp),
        nonceStr: signed.agentConfig.nonceStr,
        signature: signed.agentConfig.signature,
      };
      expect(await verify(corp)).toBe(true);
      expect(await verify(agent)).toBe(true);
      expect(await verify({ ...corp, url: `${primary.baseUrl}/client/manage/list` })).toBe(false);
      expect(await verify({ ...agent, signature: signed.config.signature })).toBe(false);
      const script = await (await fetch(`${primary.baseUrl}/wecom/jsbridge.js`)).text();
      expect(script).toContain('window.WeixinJSBridge');
    });

    it('refreshes a stale access token once and carries on', async () => {
      const emulator = primary.app.wecomEmulator!;
      await signInAs(primary.baseUrl);
      const before = emulator.stats.gettoken;
      emulator.expireAllAccessTokens();
      const again = await signInAs(primary.baseUrl, 'zhangmin');
      expect(again.token).toBeTruthy();
      expect(emulator.stats.gettoken - before).toBe(1);
    });

    it('tickets heal: a refresh after WeCom dropped them signs with fresh ones, at most once a minute across replicas', async () => {
      const emulator = primary.app.wecomEmulator!;
      const one = await signInAs(primary.baseUrl);
      const two = await signInAs(replica.baseUrl, 'leekaying', { wecomBaseUrl: `${primary.baseUrl}/wecom` });
      const pageUrl = `${primary.baseUrl}/kyc/index`;
      const verifies = async (signed: SignData) =>
        (
          (await (
            await fetch(`${primary.baseUrl}/wecom/__emulator/jsapi/verify`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                kind: 'agent',
                corpId: signed.corpId,
                agentId: signed.agentId,
                url: pageUrl,
                timestamp: String(signed.agentConfig.timestamp),
                nonceStr: signed.agentConfig.nonceStr,
                signature: signed.agentConfig.signature,
              }),
            })
          ).json()) as { ok: boolean }
        ).ok;
      expect(await verifies((await sign(primary.baseUrl, one, pageUrl)).data)).toBe(true);
      // The cached tickets were fetched over a minute ago; then WeCom stops accepting them.
      await database.query(`update wecom_credential set fetched_at = fetched_at - interval '2 minutes' where kind like '%ticket'`);
      emulator.invalidateTickets();
      expect(await verifies((await sign(primary.baseUrl, one, pageUrl)).data)).toBe(false);

      const before = { ...emulator.stats };
      const healed = await sign(primary.baseUrl, one, pageUrl, true);
      expect(healed.code).toBe('0');
      expect(await verifies(healed.data)).toBe(true);
      expect(emulator.stats.agentTicket - before.agentTicket).toBe(1);
      expect(emulator.stats.jsapiTicket - before.jsapiTicket).toBe(1);

      // Pages on the other replica report too, within the minute: the fresh tickets stay, WeCom is not asked again.
      const again = await Promise.all([1, 2, 3].map(() => sign(replica.baseUrl, two, pageUrl, true)));
      for (const answer of again) expect(await verifies(answer.data)).toBe(true);
      expect(emulator.stats.agentTicket - before.agentTicket).toBe(1);
      expect(emulator.stats.jsapiTicket - before.jsapiTicket).toBe(1);
    });

    it('rejects a URL that is not http(s), naming the field', async () => {
      const response = await sign(primary.baseUrl, await signInAs(primary.baseUrl), 'javascript:alert(1)');
      expect(response.code).toBe('090400');
      expect(response.msg).toMatch(/^body\.url: /);
    });

    it("a replica on the other's emulator (WECOM_API_BASE) sends the browser to that emulator's sign-in page", async () => {
      // Without WECOM_OAUTH_BASE (ADR 0059): the page that issues the code is the one the replica exchanges it with.
      const jar = new BrowserJar();
      const started = await startSignInAt(replica.baseUrl, { jar });
      expect(isOk(started) && started.body.data.authorizeUrl).toMatch(new RegExp(`^${primary.baseUrl}/wecom/connect/oauth2/authorize\\?`));
      expect((await signInAs(replica.baseUrl, 'wongchishing')).token).toMatch(/\S{20,}/);
    });
  });
}
