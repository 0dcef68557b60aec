import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { safeAppTarget } from '@broker/contract/app-routes';
import type { EmulatorState } from './state';
import { escapeHtml } from './authorize-page';

/** WeCom's JS-SDK signature, computed independently of the server, as WeCom's client would check it. */
const sha1Signature = (ticket: string, nonceStr: string, timestamp: string, url: string) =>
  createHash('sha1')
    .update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url.split('#')[0]}`)
    .digest('hex');

const CONTEXT_KEY = 'wecom-emulator:context';
/** Names the member signed in to the emulated WeCom client (set when they confirm the authorise page). */
export const CLIENT_SESSION_COOKIE = 'wecom_emulator_client';

/** The entries `getContext` answers (WeCom's JS-SDK, ww.getContext › entry). */
export const EMULATED_ENTRIES = [
  'normal',
  'single_chat_tools',
  'contact_profile',
  'group_chat_tools',
  'chat_attachment',
  'single_kf_tools',
  'chain_single_chat_tools',
  'chain_group_chat_tools',
  'internal_group_chat_board',
] as const;
/** Where WeCom names the customer on the other side: `getCurExternalContact` works only there. */
const CONTACT_ENTRIES = ['single_chat_tools', 'contact_profile'];
/** Where `sendChatMessage` may send into the current chat (WeCom's 分享消息到当前会话, "不同入口所需的权限说明"). */
export const SEND_CHAT_ENTRIES = ['single_chat_tools', 'group_chat_tools', 'chat_attachment', 'single_kf_tools'];
/** sendChatMessage's message types (the same page: text, image, video, file, news = H5 card, miniprogram). */
const SEND_CHAT_MSGTYPES = ['text', 'image', 'video', 'file', 'news', 'miniprogram'];

/**
 * `window.WeixinJSBridge` as `@wecom/jssdk` uses it, as strict as WeCom: config and agentConfig only with signatures of
 * this emulator's tickets, calls only within their jsApiList, chats (ADR 0039) only with the member's own contacts and
 * from the entries WeCom allows. What passes is recorded (GET /__emulator/chat-log) for tests to read.
 */
const bridgeScript = (base: string) => `(() => {
  if (window.WeixinJSBridge) return;
  const read = () => { try { return JSON.parse(localStorage.getItem(${JSON.stringify(CONTEXT_KEY)}) || '{}'); } catch { return {}; } };
  let corpVerified = false, agentVerified = false, corpApis = [], agentApis = [];
  const post = (path, body) => fetch(${JSON.stringify(base)} + path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  const verify = (body) => post('/verify', body).then((r) => r.ok === true).catch(() => false);
  const list = (value) => Array.isArray(value) ? value.filter((name) => typeof name === 'string') : [];
  const ids = (value) => (typeof value === 'string' ? value.split(';') : Array.isArray(value) ? value : []).filter((id) => typeof id === 'string' && id !== '');
  // What WeCom's client answers before it looks at the parameters: the page's identity and its jsApiList.
  const refused = (name, needsAgent) => {
    if (needsAgent && !agentVerified) return name + ':fail no permission';
    if (!corpVerified && !agentVerified) return name + ':fail no permission';
    if (!corpApis.includes(name) && !agentApis.includes(name)) return name + ':permission denied';
    return null;
  };
  const isHttp = (url) => typeof url === 'string' && /^https?:\\/\\//i.test(url);
  const chat = (body) => post('/chat', body).catch(() => ({ err_msg: body.api + ':fail' }));
  const handlers = {
    async preVerifyJSAPI(p) {
      corpVerified = await verify({ kind: 'jsapi', corpId: p.verifyAppId || p.appId, url: location.href, timestamp: String(p.verifyTimestamp), nonceStr: p.verifyNonceStr, signature: p.verifySignature });
      corpApis = corpVerified ? list(p.verifyJsApiList) : [];
      return corpVerified ? { err_msg: 'config:ok' } : { err_msg: 'config:invalid signature' };
    },
    async agentConfig(p) {
      agentVerified = await verify({ kind: 'agent', corpId: p.corpid, agentId: String(p.agentid), url: location.href, timestamp: String(p.timestamp), nonceStr: p.nonceStr, signature: p.signature });
      agentApis = agentVerified ? list(p.jsApiList) : [];
      return agentVerified ? { err_msg: 'agentConfig:ok' } : { err_msg: 'agentConfig:invalid signature' };
    },
    async getContext() {
      return { err_msg: 'getContext:ok', entry: read().entry || 'normal', shareTicket: '' };
    },
    async getCurExternalContact() {
      if (!agentVerified) return { err_msg: 'getCurExternalContact:fail no permission' };
      const context = read();
      if (!${JSON.stringify(CONTACT_ENTRIES)}.includes(context.entry) || !context.externalUserId) return { err_msg: 'getCurExternalContact:fail without context of external contact' };
      return { err_msg: 'getCurExternalContact:ok', userId: context.externalUserId };
    },
    async openEnterpriseChat(p) {
      const denied = refused('openEnterpriseChat', false);
      if (denied) return { err_msg: denied };
      // An existing chat by chatId: WeCom opens customer groups only ("unsupported chat"); the emulator has none.
      if (typeof p.chatId === 'string' && p.chatId !== '') return { err_msg: 'openEnterpriseChat:fail unsupported chat' };
      const externalUserIds = ids(p.externalUserIds), userIds = ids(p.userIds);
      return chat({ api: 'openEnterpriseChat', externalUserIds, userIds, groupName: typeof p.groupName === 'string' ? p.groupName : '' });
    },
    async openExistedChatWithMsg(p) {
      const denied = refused('openExistedChatWithMsg', true);
      if (denied) return { err_msg: denied };
      const msg = p.msg;
      if (msg !== undefined && msg !== null) {
        if (typeof msg !== 'object' || msg.msgtype !== 'link') return { err_msg: 'openExistedChatWithMsg:fail_unsupported_msgtype' };
        if (!msg.link || typeof msg.link.url !== 'string' || msg.link.url === '') return { err_msg: 'openExistedChatWithMsg:fail_msg_link_missing_url' };
      }
      return chat({ api: 'openExistedChatWithMsg', chatId: typeof p.chatId === 'string' ? p.chatId : '', message: msg ?? undefined });
    },
    async sendChatMessage(p) {
      const denied = refused('sendChatMessage', true);
      if (denied) return { err_msg: denied };
      const context = read();
      if (!${JSON.stringify(SEND_CHAT_ENTRIES)}.includes(context.entry)) return { err_msg: 'sendChatMessage:fail without context of external contact' };
      const type = p.msgtype;
      if (!${JSON.stringify(SEND_CHAT_MSGTYPES)}.includes(type) || !p[type] || typeof p[type] !== 'object') return { err_msg: 'sendChatMessage:fail invalid msgtype' };
      const body = p[type];
      if (type === 'text' && (typeof body.content !== 'string' || body.content === '')) return { err_msg: 'sendChatMessage:fail invalid text content' };
      if (type === 'news' && !isHttp(body.link)) return { err_msg: 'sendChatMessage:fail invalid news link' };
      if (type === 'miniprogram' && !isHttp(body.imgUrl)) return { err_msg: 'sendChatMessage:fail invalid imgUrl' };
      if (type === 'image' && !(typeof body.mediaid === 'string' && body.mediaid !== '') && !isHttp(body.imgUrl)) return { err_msg: 'sendChatMessage:fail invalid mediaid' };
      if (['video', 'file'].includes(type) && (typeof body.mediaid !== 'string' || body.mediaid === '')) return { err_msg: 'sendChatMessage:fail invalid mediaid' };
      return chat({ api: 'sendChatMessage', entry: context.entry, externalUserIds: context.externalUserId ? [context.externalUserId] : [], message: { msgtype: type, [type]: body } });
    },
  };
  window.WeixinJSBridge = {
    invoke(name, params, callback) {
      const handler = handlers[name];
      Promise.resolve(handler ? handler(params || {}) : { err_msg: name + ':fail not supported by the emulator' }).then(callback);
    },
    on() {},
  };
  // Desktop WeCom shows one sidebar page for chat after chat: hidden when the user leaves a chat,
  // visible again, for another chat, when they open the toolbar there. Tests play that with switchChat.
  let visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => visibility === 'hidden' });
  window.wecomEmulator = {
    // No dialler here: the call is recorded (chat-log, api "tel"); a tel: navigation would wait on the browser's prompt.
    dial(number) {
      return chat({ api: 'tel', number: String(number) });
    },
    switchChat(context) {
      visibility = 'hidden';
      document.dispatchEvent(new Event('visibilitychange'));
      localStorage.setItem(${JSON.stringify(CONTEXT_KEY)}, JSON.stringify({ entry: context.entry || 'single_chat_tools', externalUserId: context.externalUserId || '' }));
      visibility = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    },
  };
  document.dispatchEvent(new Event('WeixinJSBridgeReady'));
})();
`;

/** Keeps the chat context for the page's origin, as the WeCom client would, then opens the page. */
const sidebarOpenerScript = `(() => {
  const opener = document.currentScript;
  localStorage.setItem(${JSON.stringify(CONTEXT_KEY)}, opener.dataset.context);
  location.replace(opener.dataset.target);
})();
`;

/** One cookie's value from a Cookie header (the emulator reads only its own). */
const cookieOf = (header: string | undefined, name: string) =>
  (header ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];

export async function registerJsBridgeRoutes(app: FastifyInstance, state: EmulatorState) {
  app.get('/jsbridge.js', async (request, reply) => {
    const base = `${request.url.split('/jsbridge.js')[0]}/__emulator/jsapi`;
    return reply.type('application/javascript').header('cache-control', 'no-cache').send(bridgeScript(base));
  });

  app.get('/__emulator/sidebar.js', async (_request, reply) =>
    reply.type('application/javascript').header('cache-control', 'no-cache').send(sidebarOpenerScript),
  );

  app.post('/__emulator/jsapi/verify', async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const kind = body.kind === 'agent' ? 'agent' : 'jsapi';
    const candidates = state.liveTickets(kind, text(body.corpId), kind === 'agent' ? text(body.agentId) : undefined);
    const ok = candidates.some(
      ({ ticket }) => sha1Signature(ticket, text(body.nonceStr), text(body.timestamp), text(body.url)) === text(body.signature),
    );
    return { ok };
  });

  /** A chat opened or a message sent, as the member signed in to the client, with their own contacts only; answers err_msg. */
  app.post('/__emulator/jsapi/chat', async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const api = typeof body.api === 'string' ? body.api : '';
    if (!['openEnterpriseChat', 'openExistedChatWithMsg', 'sendChatMessage', 'tel'].includes(api))
      return { err_msg: `${api || 'chat'}:fail` };
    const user = state.clientUser(cookieOf(request.headers.cookie, CLIENT_SESSION_COOKIE));
    // No member signed in to the client: nobody to act as.
    if (!user) return { err_msg: `${api}:fail no permission` };
    if (api === 'tel') {
      // The sandbox's phone call (the bridge's wecomEmulator.dial): a number of digits, +, spaces or dashes.
      const number = typeof body.number === 'string' ? body.number : '';
      if (!/^\+?[0-9][0-9 -]{2,30}$/.test(number)) return { err_msg: 'tel:fail invalid number' };
      state.recordChat({ api, corpId: user.corpId, userid: user.userid, externalUserIds: [], message: { number } });
      return { err_msg: 'tel:ok' };
    }
    const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
    const externalUserIds = strings(body.externalUserIds);
    const userIds = strings(body.userIds);
    if (api === 'openEnterpriseChat') {
      if (externalUserIds.length === 0 && userIds.length === 0)
        return { err_msg: 'openEnterpriseChat:fail invalid userIds and externalUserIds' };
      // WeCom's limits (打开会话): at most 40 members once a WeChat contact is in it (every emulated contact is one).
      if (externalUserIds.length + userIds.length > 40) return { err_msg: 'openEnterpriseChat:fail too many members' };
      if (externalUserIds.some((id) => !state.follows(user.userid, id)))
        return { err_msg: 'openEnterpriseChat:fail invalid externalUserIds' };
      if (userIds.some((id) => !state.staffById(id))) return { err_msg: 'openEnterpriseChat:fail invalid userIds' };
      state.recordChat({ api, corpId: user.corpId, userid: user.userid, externalUserIds });
      return { err_msg: 'openEnterpriseChat:ok' };
    }
    if (api === 'openExistedChatWithMsg') {
      // The emulator keeps no group chats: every chatId is unknown to it.
      return { err_msg: 'openExistedChatWithMsg:fail invalid chatId' };
    }
    // sendChatMessage: into the chat the page was opened from; a single chat's contact must be the member's own.
    if (body.entry === 'single_chat_tools' && (externalUserIds.length !== 1 || !state.follows(user.userid, externalUserIds[0]!)))
      return { err_msg: 'sendChatMessage:fail without context of external contact' };
    const message = body.message && typeof body.message === 'object' ? (body.message as Record<string, unknown>) : {};
    state.recordChat({ api, corpId: user.corpId, userid: user.userid, externalUserIds, entry: String(body.entry), message });
    return { err_msg: 'sendChatMessage:ok' };
  });

  /** What the emulated client opened and sent, oldest first; `?since=<epoch ms>` keeps what came at or after it. */
  app.get('/__emulator/chat-log', async (request) => {
    const since = Number((request.query as Record<string, string | undefined>).since ?? 0);
    return { list: state.chatLog.filter((entry) => entry.at >= (Number.isFinite(since) ? since : 0)) };
  });

  /**
   * Opens a page as WeCom opens an app from an entry (the chat toolbar with its contact, a contact card, …), the context
   * kept for the page's origin. `url` opens only one of the app's own routes (safeAppTarget, ADR 0013); none: `/`.
   */
  app.get('/__emulator/sidebar', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const entry = EMULATED_ENTRIES.find((known) => known === query.entry) ?? 'normal';
    const context = { entry, externalUserId: CONTACT_ENTRIES.includes(entry) ? (query.externalUserId ?? '') : '' };
    const target = query.url ? safeAppTarget(query.url) : '/';
    // No inline script: the page lives under the app's CSP. The opener script reads its data attributes.
    return reply
      .type('text/html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>WeCom</title><script src="${escapeHtml(`${app.prefix}/__emulator/sidebar.js`)}" data-context="${escapeHtml(JSON.stringify(context))}" data-target="${escapeHtml(target)}"></script><a href="${escapeHtml(target)}">continue</a>`,
      );
  });
}
