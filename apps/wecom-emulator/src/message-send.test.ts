import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildEmulatorApp } from './emulator-app';
import type { EmulatorState } from './state';
import { BUILT_IN_CORP } from '../../server/src/corps';

/** 发送应用消息 (document/path/90236) as strictly as WeCom answers it, and the inbox page (ADR 0042). */
const CORP = BUILT_IN_CORP;
const MOT = CORP.agents.mot;
const KHZL = CORP.agents.khzl;

type Json = Record<string, unknown> & { errcode: number; errmsg: string };

let app: FastifyInstance;
let state: EmulatorState;
const clock = { now: Date.parse('2026-11-20T02:00:00Z') };
let motToken: string;

const card = (overrides: Record<string, unknown> = {}, textcard: Record<string, unknown> = {}) => ({
  touser: 'chanwaiman',
  msgtype: 'textcard',
  agentid: Number(MOT.agentId),
  textcard: {
    title: 'MOT：2 个新事件待跟进',
    description: '<div class="gray">2026-11-20</div><div class="normal">证件到期 · 陈** · 11-23</div>',
    url: 'https://broker.example.com/mot/home?agentCode=mot',
    btntxt: '查看',
    ...textcard,
  },
  ...overrides,
});

async function send(body: unknown, token = motToken) {
  return (
    await app.inject({ method: 'POST', url: `/wecom/cgi-bin/message/send?access_token=${token}`, payload: body as object })
  ).json<Json>();
}

beforeAll(async () => {
  ({ app, state } = await buildEmulatorApp({ now: () => clock.now }));
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.inject({ method: 'POST', url: '/wecom/__emulator/agents/reset' });
  state.inbox.splice(0);
  // An hour on: the per-member limits start afresh; a token of this hour.
  clock.now += 3_600_000;
  const reply = (
    await app.inject({ method: 'GET', url: `/wecom/cgi-bin/gettoken?corpid=${CORP.corpId}&corpsecret=${MOT.secret}` })
  ).json<Json>();
  motToken = reply.access_token as string;
});

describe('message/send', () => {
  it('delivers a textcard to the member’s inbox and answers msgid and an empty invaliduser', async () => {
    const reply = await send(card());
    expect(reply).toMatchObject({ errcode: 0, errmsg: 'ok', invaliduser: '' });
    expect(reply.msgid).toEqual(expect.any(String));
    expect(state.inbox).toEqual([expect.objectContaining({ userid: 'chanwaiman', agentId: MOT.agentId, delivered: true, cut: [] })]);
  });

  it('refuses without a live token, and an agentid that is missing, unknown or another app’s', async () => {
    expect((await send(card(), 'nope')).errcode).toBe(40014);
    expect((await send(card({ agentid: undefined }))).errcode).toBe(41011);
    expect((await send(card({ agentid: 999 }))).errcode).toBe(40056);
    expect((await send(card({ agentid: String(MOT.agentId) }))).errcode).toBe(40056);
    expect((await send(card({ agentid: Number(KHZL.agentId) }))).errcode).toBe(301002);
    expect(state.inbox).toEqual([]);
  });

  it('checks msgtype, recipients and every textcard field as WeCom documents them', async () => {
    expect((await send(card({ msgtype: 'news' }))).errcode).toBe(40008);
    expect((await send(card({ touser: '' }))).errmsg).toContain('touser');
    expect((await send(card({ touser: Array.from({ length: 1001 }, (_, index) => `u${index}`).join('|') }))).errmsg).toContain('1000');
    expect((await send(card({}, { title: '' }))).errcode).toBe(41016);
    expect((await send(card({}, { description: undefined }))).errcode).toBe(41033);
    expect((await send(card({}, { url: undefined }))).errmsg).toContain('url');
    expect((await send(card({}, { url: 'javascript:alert(1)' }))).errmsg).toContain('http');
    expect((await send(card({}, { url: `https://x.example/${'a'.repeat(2048)}` }))).errmsg).toContain('2048');
    expect((await send(card({ duplicate_check_interval: 14401, enable_duplicate_check: 1 }))).errmsg).toContain('duplicate_check_interval');
    expect(state.inbox).toEqual([]);
  });

  it('cuts a title over 128 characters, a description over 512 and btntxt over 4, as WeCom does', async () => {
    expect((await send(card({}, { title: '题'.repeat(129), description: '字'.repeat(513), btntxt: '查看详情吧' }))).errcode).toBe(0);
    const [message] = state.inbox;
    expect(message!.cut).toEqual(['title', 'description', 'btntxt']);
    expect([...message!.textcard!.title]).toHaveLength(128);
    expect([...message!.textcard!.description]).toHaveLength(512);
    expect(message!.textcard!.btntxt).toBe('查看详情');
  });

  it('names recipients outside the visible range in invaliduser (lower-cased), and fails with 81013 when none is valid', async () => {
    await app.inject({ method: 'PUT', url: `/wecom/__emulator/agents/${MOT.agentId}/policy`, payload: { visibleUserIds: ['chanwaiman'] } });
    const partly = await send(card({ touser: 'chanwaiman|LeeKaYing|nobody' }));
    expect(partly).toMatchObject({ errcode: 0, invaliduser: 'leekaying|nobody' });
    expect(state.inbox.map((message) => message.userid)).toEqual(['chanwaiman']);
    expect((await send(card({ touser: 'leekaying' }))).errcode).toBe(81013);
  });

  it('drops a repeat of the same JSON within duplicate_check_interval, and sends it again after', async () => {
    const body = card({ enable_duplicate_check: 1, duplicate_check_interval: 600 });
    expect((await send(body)).errcode).toBe(0);
    expect((await send(body)).errcode).toBe(0);
    expect(state.inbox).toHaveLength(1);
    clock.now += 601_000;
    expect((await send(body)).errcode).toBe(0);
    expect(state.inbox).toHaveLength(2);
  });

  it('drops messages to a member beyond 30 a minute (answering ok, as WeCom does)', async () => {
    for (let index = 0; index < 31; index += 1) expect((await send(card({}, { title: `第 ${index} 条` }))).errcode).toBe(0);
    expect(state.inbox.filter((message) => message.delivered)).toHaveLength(30);
    expect(state.inbox.at(-1)!.delivered).toBe(false);
  });

  it('answers the gateway’s frequency limit (45009) and injected failures such as 45033', async () => {
    await app.inject({ method: 'POST', url: '/wecom/__emulator/message/fail-next', payload: { errcodes: [45033] } });
    expect((await send(card())).errcode).toBe(45033);
    await app.inject({ method: 'PUT', url: `/wecom/__emulator/agents/${MOT.agentId}/policy`, payload: { callsPerMinute: 1 } });
    expect((await send(card())).errcode).toBe(0);
    expect((await send(card())).errcode).toBe(45009);
  });
});

describe('the inbox page', () => {
  it('shows a member’s cards newest first, the description’s markup only as WeCom allows, and the link to follow', async () => {
    await send(card({}, { description: '<div class="normal">证件到期 · 陈**</div><script>alert(1)</script>' }));
    const page = await app.inject({ method: 'GET', url: '/wecom/__emulator/inbox?userid=chanwaiman' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div class="card-normal">证件到期 · 陈**</div>');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('href="https://broker.example.com/mot/home?agentCode=mot"');
    const picker = await app.inject({ method: 'GET', url: '/wecom/__emulator/inbox' });
    expect(picker.body).toContain('/wecom/__emulator/inbox?userid=leekaying');
    const json = (await app.inject({ method: 'GET', url: '/wecom/__emulator/inbox.json?userid=chanwaiman' })).json<{ list: unknown[] }>();
    expect(json.list).toHaveLength(1);
  });
});
