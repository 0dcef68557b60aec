import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { APP_HOME_PATH } from '@broker/contract/app-routes';
import { hostileNavigationTargets } from '@broker/contract/testing';
import { buildEmulatorApp } from './emulator-app';
import { BUILT_IN_CORP } from '../../server/src/corps';
import type { EmulatorState } from './state';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await buildEmulatorApp({ corps: [] }));
});

afterAll(() => app.close());

/** Where the sidebar opener sends the page: the target its script replaces the page with, and its fallback link. */
async function sidebarTarget(url: string) {
  const response = await app.inject({ method: 'GET', url: '/wecom/__emulator/sidebar', query: { entry: 'single_chat_tools', url } });
  expect(response.statusCode).toBe(200);
  const replaced = / data-target="([^"]*)"/.exec(response.body);
  const link = /<a href="([^"]*)">/.exec(response.body);
  expect(replaced).not.toBeNull();
  const unescape = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  return { replaced: unescape(replaced![1]!), link: unescape(link![1]!) };
}

describe('the emulated sidebar opens only app routes (the safe-navigation rule, ADR 0013)', () => {
  test('a hostile url lands on the client list; an own route is kept', async () => {
    // An empty url is no url: the app's entry URL `/`, as WeCom opens an app.
    for (const { target, lands } of hostileNavigationTargets().filter(({ target }) => target !== '')) {
      const opened = await sidebarTarget(target);
      expect(opened.replaced, JSON.stringify(target)).toBe(lands);
      expect(opened.link, JSON.stringify(target)).toBe(lands);
    }
  });

  test('no url opens the entry URL `/`, as WeCom opens an app; `/` with its query is kept', async () => {
    expect((await sidebarTarget('')).replaced).toBe('/');
    expect((await sidebarTarget('/?entry=single_chat_tools')).replaced).toBe('/?entry=single_chat_tools');
    expect((await sidebarTarget('/wxEntry?code=x')).replaced).toBe(APP_HOME_PATH);
  });
});

describe('chats the emulated client opens and messages it sends (ADR 0039)', () => {
  let chats: FastifyInstance;
  let state: EmulatorState;
  beforeAll(async () => {
    ({ app: chats, state } = await buildEmulatorApp());
  });
  afterAll(() => chats.close());

  /** Signs in to the emulated client as `userid` through the authorise page; the cookie it sets. */
  async function clientCookie(userid: string) {
    const corp = BUILT_IN_CORP;
    const response = await chats.inject({
      method: 'GET',
      url: '/wecom/connect/oauth2/authorize/confirm',
      query: { appid: corp.corpId, agentid: corp.agents.khzl.agentId, redirect_uri: 'http://127.0.0.1:3000/wxEntry', state: 's', userid },
    });
    expect(response.statusCode).toBe(302);
    const cookie = String(response.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toMatch(/^wecom_emulator_client=/);
    return cookie;
  }
  const chat = (cookie: string | undefined, body: Record<string, unknown>) =>
    chats
      .inject({ method: 'POST', url: '/wecom/__emulator/jsapi/chat', headers: cookie ? { cookie } : {}, payload: body })
      .then((response) => response.json<{ err_msg: string }>().err_msg);

  test("opens a chat with the member's own external contact only, and records it", async () => {
    const cookie = await clientCookie('chanwaiman');
    const before = state.chatLog.length;
    expect(await chat(cookie, { api: 'openEnterpriseChat', externalUserIds: ['wmEmu0001HoKwokLeung'] })).toBe('openEnterpriseChat:ok');
    // 刘志强 is leekaying's contact, not chanwaiman's: WeCom opens no chat with someone else's customer.
    expect(await chat(cookie, { api: 'openEnterpriseChat', externalUserIds: ['wmEmu0003LauChiKeung'] })).toBe(
      'openEnterpriseChat:fail invalid externalUserIds',
    );
    expect(await chat(cookie, { api: 'openEnterpriseChat', externalUserIds: [] })).toBe(
      'openEnterpriseChat:fail invalid userIds and externalUserIds',
    );
    expect(state.chatLog.slice(before)).toEqual([
      expect.objectContaining({ api: 'openEnterpriseChat', userid: 'chanwaiman', externalUserIds: ['wmEmu0001HoKwokLeung'] }),
    ]);
  });

  test('acts for nobody without a signed-in client, and refuses a forged cookie', async () => {
    expect(await chat(undefined, { api: 'openEnterpriseChat', externalUserIds: ['wmEmu0001HoKwokLeung'] })).toBe(
      'openEnterpriseChat:fail no permission',
    );
    const cookie = await clientCookie('leekaying');
    const forged = cookie.replace('.leekaying.', '.chanwaiman.');
    expect(await chat(forged, { api: 'openEnterpriseChat', externalUserIds: ['wmEmu0001HoKwokLeung'] })).toBe(
      'openEnterpriseChat:fail no permission',
    );
  });

  test('sends into a single chat only when its contact is the member’s own; the log says what and to whom', async () => {
    const cookie = await clientCookie('chanwaiman');
    const text = { msgtype: 'text', text: { content: '生日快乐' } };
    expect(
      await chat(cookie, { api: 'sendChatMessage', entry: 'single_chat_tools', externalUserIds: ['wmEmu0003LauChiKeung'], message: text }),
    ).toBe('sendChatMessage:fail without context of external contact');
    const since = Date.now();
    expect(
      await chat(cookie, { api: 'sendChatMessage', entry: 'single_chat_tools', externalUserIds: ['wmEmu0002TseMeiYee'], message: text }),
    ).toBe('sendChatMessage:ok');
    const log = await chats.inject({ method: 'GET', url: '/wecom/__emulator/chat-log', query: { since: String(since) } });
    expect(log.json<{ list: unknown[] }>().list).toEqual([
      expect.objectContaining({ api: 'sendChatMessage', userid: 'chanwaiman', externalUserIds: ['wmEmu0002TseMeiYee'], message: text }),
    ]);
  });

  test('openExistedChatWithMsg: the emulator knows no group chat', async () => {
    const cookie = await clientCookie('chanwaiman');
    expect(await chat(cookie, { api: 'openExistedChatWithMsg', chatId: 'wrAnything' })).toBe('openExistedChatWithMsg:fail invalid chatId');
  });
});

test('the bridge script the emulator serves is valid JavaScript (it is written inside a template string)', async () => {
  const response = await app.inject({ method: 'GET', url: '/wecom/jsbridge.js' });
  expect(response.statusCode).toBe(200);
  // Parsed, not run: a lost backslash in a regular expression would be a syntax error here.
  expect(() => new Script(response.body)).not.toThrow();
  expect(response.body).toContain('/^https?:\\/\\//i');
});
