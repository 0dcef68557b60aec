import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildEmulatorApp } from './emulator-app';
import type { EmulatorState } from './state';
import { BUILT_IN_CORP } from '../../server/src/corps';

/** ADR 0016: each setting a WeCom admin can get wrong, reproduced per agent as WeCom answers it. */
const CORP = BUILT_IN_CORP;
const KHZL = CORP.agents.khzl;
const KHGL = CORP.agents.khgl;
// 谢美仪 is followed by chanwaiman and leekaying; 刘志强 by leekaying only.
const TSE = 'wmEmu0002TseMeiYee';
const LAU = 'wmEmu0003LauChiKeung';

type Json = Record<string, unknown> & { errcode: number; errmsg: string };

let app: FastifyInstance;
let state: EmulatorState;
const clock = { now: Date.parse('2026-11-20T02:00:00Z') };

beforeAll(async () => {
  ({ app, state } = await buildEmulatorApp({ now: () => clock.now }));
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.inject({ method: 'POST', url: '/wecom/__emulator/agents/reset' });
});

async function setPolicy(agentId: string, policy: Record<string, unknown>) {
  const response = await app.inject({ method: 'PUT', url: `/wecom/__emulator/agents/${agentId}/policy`, payload: policy });
  expect(response.statusCode, response.body).toBe(200);
}

const get = async (url: string, headers: Record<string, string> = {}) => (await app.inject({ method: 'GET', url, headers })).json<Json>();

async function tokenOf(agent: { secret: string }) {
  const reply = await get(`/wecom/cgi-bin/gettoken?corpid=${CORP.corpId}&corpsecret=${agent.secret}`);
  expect(reply.errcode, reply.errmsg).toBe(0);
  return reply.access_token as string;
}

const authorizeQuery = (agentId: string, redirectUri: string, userid?: string) =>
  new URLSearchParams({
    appid: CORP.corpId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'snsapi_privateinfo',
    state: 's',
    agentid: agentId,
    ...(userid ? { userid } : {}),
  }).toString();

async function codeFor(agentId: string, userid: string, redirectUri = 'http://127.0.0.1:3000/wxEntry') {
  const response = await app.inject({
    method: 'GET',
    url: `/wecom/connect/oauth2/authorize/confirm?${authorizeQuery(agentId, redirectUri, userid)}`,
  });
  expect(response.statusCode, response.body).toBe(302);
  return new URL(response.headers.location as string).searchParams.get('code')!;
}

describe('visible range (可见范围)', () => {
  it('a staff member outside it gets WeCom’s error page at authorise, not a code', async () => {
    await setPolicy(KHZL.agentId, { visibleUserIds: ['chanwaiman'] });
    const outside = await app.inject({
      method: 'GET',
      url: `/wecom/connect/oauth2/authorize/confirm?${authorizeQuery(KHZL.agentId, 'http://127.0.0.1:3000/wxEntry', 'leekaying')}`,
    });
    expect(outside.statusCode).toBe(403);
    expect(outside.headers['content-type']).toContain('text/html');
    expect(outside.body).toContain('60011');
    expect(outside.body).toContain('可见范围');
    expect(outside.headers.location).toBeUndefined();
    // Another agent whose range includes them still signs them in.
    expect(await codeFor(KHGL.agentId, 'leekaying')).toBeTruthy();
    expect(await codeFor(KHZL.agentId, 'chanwaiman')).toBeTruthy();
  });

  it('externalcontact/get lists only the followers inside the calling agent’s range', async () => {
    await setPolicy(KHZL.agentId, { visibleUserIds: ['chanwaiman'] });
    const token = await tokenOf(KHZL);
    const both = await get(`/wecom/cgi-bin/externalcontact/get?access_token=${token}&external_userid=${TSE}`);
    expect((both.follow_user as { userid: string }[]).map((entry) => entry.userid)).toEqual(['chanwaiman']);
    const none = await get(`/wecom/cgi-bin/externalcontact/get?access_token=${token}&external_userid=${LAU}`);
    expect(none.errcode).toBe(84061);
  });

  it('agent/get reports the range the admin set', async () => {
    await setPolicy(KHZL.agentId, { visibleUserIds: ['chanwaiman', 'zhangmin'] });
    const token = await tokenOf(KHZL);
    const agent = await get(`/wecom/cgi-bin/agent/get?access_token=${token}&agentid=${KHZL.agentId}`);
    expect(agent).toMatchObject({ errcode: 0, agentid: Number(KHZL.agentId), close: 0 });
    expect(agent.allow_userinfos).toEqual({ user: [{ userid: 'chanwaiman' }, { userid: 'zhangmin' }] });
    // Only the token's own app: WeCom's 301002.
    const other = await get(`/wecom/cgi-bin/agent/get?access_token=${token}&agentid=${KHGL.agentId}`);
    expect(other.errcode).toBe(301002);
  });
});

describe('trusted domain (可信域名)', () => {
  it('by default (the demo) accepts loopback hosts and the host the browser reached the emulator at', async () => {
    const page = (redirect: string, host: string) =>
      app.inject({ method: 'GET', url: `/wecom/connect/oauth2/authorize?${authorizeQuery(KHZL.agentId, redirect)}`, headers: { host } });
    expect((await page('http://127.0.0.1:3000/wxEntry', '127.0.0.1:3000')).statusCode).toBe(200);
    expect((await page('http://localhost:5173/wxEntry', '127.0.0.1:3000')).statusCode).toBe(200);
    expect((await page('http://192.168.1.20:3000/wxEntry', '192.168.1.20:3000')).statusCode).toBe(200);
    const elsewhere = await page('https://evil.example/wxEntry', '127.0.0.1:3000');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).toContain('50001');
  });

  it('when set, the redirect_uri’s host and port must match exactly (scheme and path do not matter)', async () => {
    await setPolicy(KHZL.agentId, { trustedDomain: 'broker.fxhl.example:8443' });
    const status = async (redirect: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/wecom/connect/oauth2/authorize/confirm?${authorizeQuery(KHZL.agentId, redirect, 'chanwaiman')}`,
        })
      ).statusCode;
    expect(await status('https://broker.fxhl.example:8443/wxEntry?x=1')).toBe(302);
    expect(await status('http://broker.fxhl.example:8443/other')).toBe(302);
    expect(await status('https://broker.fxhl.example/wxEntry')).toBe(400);
    expect(await status('https://broker.fxhl.example:9443/wxEntry')).toBe(400);
    expect(await status('https://www.broker.fxhl.example:8443/wxEntry')).toBe(400);
    expect(await status('http://127.0.0.1:3000/wxEntry')).toBe(400);
  });

  it('a code is exchanged only by an app whose trusted domain its redirect went to: 50001 otherwise', async () => {
    await setPolicy(KHZL.agentId, { trustedDomain: 'khzl.fxhl.example' });
    await setPolicy(KHGL.agentId, { trustedDomain: 'khgl.fxhl.example' });
    const code = await codeFor(KHGL.agentId, 'chanwaiman', 'https://khgl.fxhl.example/wxEntry');
    const wrongApp = await get(`/wecom/cgi-bin/auth/getuserinfo?access_token=${await tokenOf(KHZL)}&code=${code}`);
    expect(wrongApp.errcode).toBe(50001);
    expect(wrongApp.errmsg).toMatch(/^redirect_uri unauthorized, hint: \[\d+\], from ip: /);
    const rightApp = await get(
      `/wecom/cgi-bin/auth/getuserinfo?access_token=${await tokenOf(KHGL)}&code=${await codeFor(KHGL.agentId, 'chanwaiman', 'https://khgl.fxhl.example/wxEntry')}`,
    );
    expect(rightApp).toMatchObject({ errcode: 0, userid: 'chanwaiman' });
  });
});

describe('trusted IPs, 客户联系 rights, frequency, system busy', () => {
  it('an address not in 企业可信IP gets 60020 naming the address WeCom saw; gettoken still answers', async () => {
    await setPolicy(KHZL.agentId, { trustedIps: ['203.0.113.7'] });
    const token = await tokenOf(KHZL);
    const refused = await get(`/wecom/cgi-bin/get_jsapi_ticket?access_token=${token}`);
    expect(refused.errcode).toBe(60020);
    expect(refused.errmsg).toMatch(
      /^not allow to access from your ip, hint: \[\d+\], from ip: 127\.0\.0\.1, more info at https:\/\/open\.work\.weixin\.qq\.com\/devtool\/query\?e=60020$/,
    );
    // Other agents are unaffected; adding the address fixes it.
    expect((await get(`/wecom/cgi-bin/get_jsapi_ticket?access_token=${await tokenOf(KHGL)}`)).errcode).toBe(0);
    await setPolicy(KHZL.agentId, { trustedIps: ['203.0.113.7', '127.0.0.1'] });
    expect((await get(`/wecom/cgi-bin/get_jsapi_ticket?access_token=${token}`)).errcode).toBe(0);
  });

  it('an agent not allowed to call 客户联系 gets 48002 on externalcontact, and nowhere else', async () => {
    await setPolicy(KHZL.agentId, { customerContact: false });
    const token = await tokenOf(KHZL);
    expect((await get(`/wecom/cgi-bin/externalcontact/get?access_token=${token}&external_userid=${TSE}`)).errcode).toBe(48002);
    expect((await get(`/wecom/cgi-bin/externalcontact/get_follow_user_list?access_token=${token}`)).errcode).toBe(48002);
    expect((await get(`/wecom/cgi-bin/agent/get?access_token=${token}&agentid=${KHZL.agentId}`)).errcode).toBe(0);
  });

  it('past the frequency limit: 45009 until the minute has passed', async () => {
    await setPolicy(KHZL.agentId, { callsPerMinute: 3 });
    const token = await tokenOf(KHZL); // call 1
    const ticket = () => get(`/wecom/cgi-bin/get_jsapi_ticket?access_token=${token}`);
    expect((await ticket()).errcode).toBe(0);
    expect((await ticket()).errcode).toBe(0);
    const limited = await ticket();
    expect(limited.errcode).toBe(45009);
    expect(limited.errmsg).toMatch(/^api freq out of limit, hint: /);
    clock.now += 61_000;
    expect((await ticket()).errcode).toBe(0);
  });

  it('system busy: the next N calls answer -1, then it recovers', async () => {
    const token = await tokenOf(KHZL);
    await setPolicy(KHZL.agentId, { busyCalls: 2 });
    const ticket = () => get(`/wecom/cgi-bin/get_jsapi_ticket?access_token=${token}`);
    expect(await ticket()).toMatchObject({ errcode: -1, errmsg: 'system busy' });
    expect((await ticket()).errcode).toBe(-1);
    expect((await ticket()).errcode).toBe(0);
  });
});

describe('externalcontact/get pages follow_user by cursor', () => {
  it('returns next_cursor while followers remain, and an empty one at the end', async () => {
    await app.inject({ method: 'PUT', url: '/wecom/__emulator/config', payload: { followUserPageSize: 1 } });
    const token = await tokenOf(KHZL);
    const first = await get(`/wecom/cgi-bin/externalcontact/get?access_token=${token}&external_userid=${TSE}`);
    expect((first.follow_user as unknown[]).length).toBe(1);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(first.next_cursor).not.toBe('');
    const second = await get(
      `/wecom/cgi-bin/externalcontact/get?access_token=${token}&external_userid=${TSE}&cursor=${encodeURIComponent(first.next_cursor as string)}`,
    );
    expect((second.follow_user as unknown[]).length).toBe(1);
    expect(second.next_cursor).toBe('');
    const followers = [...(first.follow_user as { userid: string }[]), ...(second.follow_user as { userid: string }[])].map(
      (entry) => entry.userid,
    );
    expect(followers.sort()).toEqual(['chanwaiman', 'leekaying']);
  });
});

describe('the emulated admin console', () => {
  it('lists every agent’s settings and refuses unknown fields or agents', async () => {
    const listed = (await app.inject({ method: 'GET', url: '/wecom/__emulator/agents' })).json<
      { agentCode: string; customerContact: boolean }[]
    >();
    expect(listed.map((agent) => agent.agentCode)).toEqual(['khzl', 'khgl', 'mot']);
    const unknownField = await app.inject({
      method: 'PUT',
      url: `/wecom/__emulator/agents/${KHZL.agentId}/policy`,
      payload: { trustedIP: ['x'] },
    });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.body).toContain('trustedIP');
    const unknownAgent = await app.inject({ method: 'PUT', url: '/wecom/__emulator/agents/999/policy', payload: {} });
    expect(unknownAgent.statusCode).toBe(404);
  });

  it('the directory’s own settings are where reset returns to', () => {
    expect(state.policies.of(CORP.corpId, KHZL.agentId).customerContact).toBe(true);
  });
});
