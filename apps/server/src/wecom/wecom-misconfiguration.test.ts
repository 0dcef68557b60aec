import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@broker/contract';
import type { AgentPolicy } from '@broker/wecom-emulator';
import { BUILT_IN_CORP } from '../corps';
import { buildApp } from '../app';
import { makeEnv } from '../env';
import {
  apiClient,
  authorizeAs,
  BrowserJar,
  exchangeCode,
  healthDetailHeaders,
  startSignInAt,
  testDatabases,
  signInAs,
  TEST_HEALTH_DETAIL_TOKEN,
  type ApiClient,
} from '../testing';
import type { DatabaseHandle } from '../db/client';
import { seedDemoData } from '../db/seed';
import { customers, staff, wecomCredentials } from '../db/schema';

const CORP = BUILT_IN_CORP;
// 王磊 is followed by zhangmin first, then chanwaiman.
const WANG = 'wmEmu0005WangLei';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  wecom?: { errcode: number; errmsg: string; problem: string; fromIp: string | null; hint: string | null; adminFix: string };
}

/**
 * Issue 19.3: when a WeCom admin gets a setting wrong, the server says which one — to the client as its
 * own envelope code with no internals, to the operator as a log line with WeCom's errmsg — retries -1,
 * backs off after 45009, follows next_cursor, and reports WeCom in /readyz.
 */
for (const engine of testDatabases()) {
  describe(`named WeCom misconfiguration (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let app: FastifyInstance;
    let baseUrl: string;
    let chan: ApiClient;
    let chanCustomerId: number;
    const logged: LogLine[] = [];

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 40, seed: 3, asOf: '2026-11-20' });
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line) as LogLine);
          done();
        },
      });
      app = await buildApp({
        env: makeEnv({
          WECOM_MODE: 'emulator',
          LOG_LEVEL: 'warn',
          HEALTH_DETAIL_TOKEN: TEST_HEALTH_DETAIL_TOKEN,
          WEB_DIST_DIR: '',
          SEED_DEMO: 'false',
          LOGIN_RATE_LIMIT: '0',
        }),
        tuning: { motSweepIntervalMs: 0 },
        database,
        ownsDatabase: false,
        logStream,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      chan = apiClient(baseUrl, await signInAs(baseUrl, 'chanwaiman'));
      const [own] = await database.db
        .select({ id: customers.id })
        .from(customers)
        .innerJoin(staff, eq(staff.id, customers.staffId))
        .where(eq(staff.wecomUserId, 'chanwaiman'))
        .orderBy(customers.id)
        .limit(1);
      chanCustomerId = own!.id;
    });
    afterAll(async () => {
      await app?.close();
      await database?.drop();
    });
    beforeEach(async () => {
      app.wecomEmulator!.policies.reset();
      // A fresh access token and tickets each time, so every test reaches WeCom.
      app.wecomEmulator!.expireAllAccessTokens();
      await database.db.delete(wecomCredentials);
    });

    const policy = (agent: 'khzl' | 'khgl' | 'mot', change: Partial<AgentPolicy>) =>
      app.wecomEmulator!.policies.update(CORP.corpId, CORP.agents[agent].agentId, change);
    const sign = () => chan.getJsSdkSign({ url: `${baseUrl}/kyc/index` });
    const logOf = (requestId: string | null) => logged.find((line) => line.reqId === requestId && line.wecom);

    it('60020: its own code, no internals for the client; WeCom’s errmsg, hint and address in the log', async () => {
      policy('khzl', { trustedIps: ['203.0.113.7'] });
      const answer = await sign();
      expect(answer.status).toBe(502);
      expect(answer.body.code).toBe(ErrorCode.WECOM_IP_NOT_TRUSTED);
      expect(answer.body.msg).toMatch(/trusted IPs/);
      expect(JSON.stringify(answer.body)).not.toMatch(/127\.0\.0\.1|hint|from ip|errcode|60020|access_token/);
      const line = logOf(answer.headers.get('x-request-id'));
      // The corp ticket and the agent ticket are asked for together; whichever WeCom refuses first is named.
      expect(line?.msg).toMatch(
        /^WeCom 60020 ip-not-trusted on \/cgi-bin\/(get_jsapi_ticket|ticket\/get): add the "from ip" to the app’s 企业可信IP/,
      );
      expect(line?.wecom).toMatchObject({ errcode: 60020, problem: 'ip-not-trusted', fromIp: '127.0.0.1' });
      expect(line?.wecom?.errmsg).toMatch(/^not allow to access from your ip, hint: \[\d+\], from ip: 127\.0\.0\.1/);
      expect(line?.wecom?.hint).toMatch(/^\d+$/);
    });

    it('48002: an agent without 客户联系 rights is named when binding a contact', async () => {
      policy('khzl', { customerContact: false });
      const response = await chan.kycBind({ externalUserId: 'wmEmu0001HoKwokLeung', customerId: chanCustomerId });
      expect(response.body.code).toBe(ErrorCode.WECOM_API_FORBIDDEN);
      expect(logOf(response.headers.get('x-request-id'))?.wecom?.problem).toBe('api-forbidden');
    });

    it('-1 is retried (up to three times) and the caller never notices a short busy spell', async () => {
      policy('khzl', { busyCalls: 3 });
      const answer = await sign();
      expect(answer.body.code).toBe(ErrorCode.OK);
    });

    it('-1 that outlasts the retries: 092505 with Retry-After, after exactly four attempts', async () => {
      policy('khzl', { busyCalls: 10 });
      const answer = await sign();
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe(ErrorCode.WECOM_BUSY);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(app.wecomEmulator!.policies.of(CORP.corpId, CORP.agents.khzl.agentId).busyCalls).toBe(10 - 4);
    });

    it('45009: named, Retry-After, and the app stops calling WeCom while it backs off', async () => {
      policy('khgl', { callsPerMinute: 1 });
      const signAs = () => chan.getJsSdkSign({ url: `${baseUrl}/client/manage/list` }, { agent: 'khgl' });
      const limited = await signAs(); // gettoken is the one call allowed; the ticket call is refused
      expect(limited.body.code).toBe(ErrorCode.WECOM_RATE_LIMITED);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const before = { ...app.wecomEmulator!.stats };
      policy('khgl', { callsPerMinute: null });
      const again = await signAs();
      expect(again.body.code).toBe(ErrorCode.WECOM_RATE_LIMITED);
      // Not even a gettoken or a ticket request reached WeCom during the back-off.
      expect(app.wecomEmulator!.stats).toEqual(before);
    });

    it('50001: a code exchanged by an app whose trusted domain its redirect did not go to is named', async () => {
      // The sign-in starts and is authorised while khzl still trusts this host; then the admin points
      // khzl's trusted domain elsewhere, so WeCom refuses the exchange (auth/getuserinfo) with 50001.
      const jar = new BrowserJar();
      const started = await startSignInAt(baseUrl, { jar, agentCode: 'khzl' });
      const { code, state } = await authorizeAs(started.body.data!.authorizeUrl, 'leekaying');
      policy('khzl', { trustedDomain: 'broker.fxhl.example' });
      const login = await exchangeCode(baseUrl, { jar, code, state });
      expect(login.body.code).toBe(ErrorCode.WECOM_REDIRECT_UNTRUSTED);
      expect(login.body.msg).toMatch(/trusted domain/);
      expect(logOf(login.headers.get('x-request-id'))?.wecom).toMatchObject({ errcode: 50001, problem: 'redirect-untrusted' });
    });

    it('externalcontact/get follows next_cursor: a follower on the second page still counts', async () => {
      app.wecomEmulator!.policies.followUserPageSize = 1;
      const { body } = await chan.kycBind({ externalUserId: WANG, customerId: chanCustomerId });
      expect(body.code, body.msg).toBe(ErrorCode.OK);
      expect(body.data?.externalUserId).toBe(WANG);
    });

    it('/readyz reports WeCom beside the database, and a WeCom problem does not make the replica unready', async () => {
      policy('khzl', { trustedIps: ['203.0.113.7'] });
      await sign();
      const ready = await fetch(`${baseUrl}/readyz`, { headers: healthDetailHeaders });
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as {
        status: string;
        database: string;
        wecom: { status: string; agents: { corp: string; agent: string; problem: string | null }[] };
      };
      expect(body.status).toBe('ready');
      expect(body.wecom.status).toBe('degraded');
      expect(body.wecom.agents).toContainEqual(
        expect.objectContaining({ corp: 'fxhl', agent: 'khzl', status: 'problem', problem: 'ip-not-trusted' }),
      );
      // Nothing for an attacker: no address, no errmsg.
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|from ip|hint/);
    });
  });
}
