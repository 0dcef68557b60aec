import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { safeAppTarget } from '@broker/contract/app-routes';
import type { EmulatorState } from './state';

/** WeCom's JS-SDK signature, computed independently of the server, as WeCom's client would check it. */
const sha1Signature = (ticket: string, nonceStr: string, timestamp: string, url: string) =>
  createHash('sha1')
    .update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url.split('#')[0]}`)
    .digest('hex');

interface VerifyBody {
  kind?: unknown;
  corpId?: unknown;
  agentId?: unknown;
  url?: unknown;
  timestamp?: unknown;
  nonceStr?: unknown;
  signature?: unknown;
}

const CONTEXT_KEY = 'wecom-emulator:context';

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

/**
 * The part of the WeCom client a page talks to: `window.WeixinJSBridge`, as `@wecom/jssdk` uses it.
 * `preVerifyJSAPI` and `agentConfig` succeed only with signatures made from tickets this emulator
 * issued for the page's URL; `getContext` and `getCurExternalContact` answer from the context the
 * emulator opened the page with (see /__emulator/sidebar).
 */
const bridgeScript = (verifyUrl: string) => `(() => {
  if (window.WeixinJSBridge) return;
  const read = () => { try { return JSON.parse(localStorage.getItem(${JSON.stringify(CONTEXT_KEY)}) || '{}'); } catch { return {}; } };
  let corpVerified = false, agentVerified = false;
  const verify = (body) => fetch(${JSON.stringify(verifyUrl)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json()).then((r) => r.ok === true).catch(() => false);
  const handlers = {
    async preVerifyJSAPI(p) {
      corpVerified = await verify({ kind: 'jsapi', corpId: p.verifyAppId || p.appId, url: location.href, timestamp: String(p.verifyTimestamp), nonceStr: p.verifyNonceStr, signature: p.verifySignature });
      return corpVerified ? { err_msg: 'config:ok' } : { err_msg: 'config:invalid signature' };
    },
    async agentConfig(p) {
      agentVerified = await verify({ kind: 'agent', corpId: p.corpid, agentId: String(p.agentid), url: location.href, timestamp: String(p.timestamp), nonceStr: p.nonceStr, signature: p.signature });
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

const escapeAttr = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export async function registerJsBridgeRoutes(app: FastifyInstance, state: EmulatorState) {
  app.get('/jsbridge.js', async (request, reply) => {
    const verifyUrl = `${request.url.split('/jsbridge.js')[0]}/__emulator/jsapi/verify`;
    return reply.type('application/javascript').header('cache-control', 'no-cache').send(bridgeScript(verifyUrl));
  });

  app.get('/__emulator/sidebar.js', async (_request, reply) =>
    reply.type('application/javascript').header('cache-control', 'no-cache').send(sidebarOpenerScript),
  );

  app.post('/__emulator/jsapi/verify', async (request) => {
    const body = (request.body ?? {}) as VerifyBody;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const kind = body.kind === 'agent' ? 'agent' : 'jsapi';
    const candidates = state.liveTickets(kind, text(body.corpId), kind === 'agent' ? text(body.agentId) : undefined);
    const ok = candidates.some(
      (ticket) => sha1Signature(ticket, text(body.nonceStr), text(body.timestamp), text(body.url)) === text(body.signature),
    );
    return { ok };
  });

  /**
   * Opens a page the way WeCom opens an app: from the chat toolbar (entry single_chat_tools, with the
   * chat's external contact), a customer's contact card (contact_profile), a group chat's toolbar, … or normally.
   * The context is kept for the page's origin, as the client would. `url` is a link anyone can send: it opens only
   * one of the app's own routes, by the app's own rule (safeAppTarget, ADR 0013); no url is the app's entry URL `/`.
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
        `<!doctype html><meta charset="utf-8"><title>WeCom</title><script src="${escapeAttr(`${app.prefix}/__emulator/sidebar.js`)}" data-context="${escapeAttr(JSON.stringify(context))}" data-target="${escapeAttr(target)}"></script><a href="${escapeAttr(target)}">continue</a>`,
      );
  });
}
