import type * as WeComSdk from '@wecom/jssdk';
import { endpoints, type ResponseOf } from '../api/contract';
import { loadCorpConfig } from '../api/corp-config';
import { request } from '../api/request';
import { ENTRIES, getAppSettings, type Entry } from '../session/app-settings-store';

type Ww = typeof WeComSdk;
type JsSdkSign = ResponseOf<typeof endpoints.getJsSdkSign>;

/** The JS-API the app registers for (ADR 0039); WeCom refuses any call not listed. */
export const JS_API_LIST = ['getContext', 'getCurExternalContact', 'openEnterpriseChat', 'sendChatMessage'];
/** The agent the sidebar app runs as; getJsSdkSign signs with this agent's ticket. */
const SIDEBAR_AGENT = 'khzl';
const EMULATOR_BRIDGE_SRC = '/wecom/jsbridge.js';

export type WeComStep = 'bridge' | 'register' | 'context' | 'contact' | 'chat' | 'send';

/** Something the WeCom client (or its emulator) refused; `detail` is WeCom's own errMsg. */
export class WeComError extends Error {
  override readonly name = 'WeComError';
  constructor(
    readonly step: WeComStep,
    readonly detail: string,
  ) {
    super(`${step}: ${detail}`);
  }
}

/** WeCom's in-app browser says so in its user agent (`wxwork/<version>`); so does the JS-SDK. */
export const isWeComBrowser = (userAgent: string = navigator.userAgent) => /wxwork\/[\d.]+/i.test(userAgent);

const errMsgOf = (error: unknown): string => {
  if (error && typeof error === 'object') {
    const { errMsg, message } = error as { errMsg?: unknown; message?: unknown };
    if (typeof errMsg === 'string' && errMsg) return errMsg;
    if (typeof message === 'string' && message) return message;
  }
  return String(error);
};

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new WeComError('bridge', `could not load ${src}`));
    document.head.append(script);
  });
}

/** Signs a page URL; `refresh`: the last signature was refused, sign with fresh tickets (ADR 0018). */
export type PageSigner = (url: string, refresh: boolean) => Promise<JsSdkSign>;

/** Signatures for the latest page URL (it changes with each navigation), config and agentConfig from one call; `refreshNext` re-signs. */
function createSigner(sign: PageSigner) {
  let last: { url: string; result: Promise<JsSdkSign> } | null = null;
  let refresh = false;
  const signer = (url: string) => {
    if (refresh || last?.url !== url) {
      const result = sign(url, refresh);
      refresh = false;
      last = { url, result };
      result.catch(() => {
        if (last?.result === result) last = null;
      });
    }
    return last.result;
  };
  signer.refreshNext = () => {
    refresh = true;
  };
  return signer;
}

const signWithServer: PageSigner = (url, refresh) =>
  request(endpoints.getJsSdkSign, refresh ? { url, refresh } : { url }, { silent: true });

let connection: Promise<Ww> | null = null;
let signer: ReturnType<typeof createSigner> | null = null;
let healing: Promise<void> | null = null;
let quietRegisterFailures = false;

/** Rejections `ww.register` drops: a refused signature (reported by the awaiting call) or "Aborted" by an SPA navigation. */
export function isDroppedRegisterRejection(reason: unknown): boolean {
  if (reason instanceof Error && reason.message === 'SDK Error: Aborted') return true;
  const errMsg = reason && typeof reason === 'object' ? (reason as { errMsg?: unknown }).errMsg : undefined;
  return typeof errMsg === 'string' && /^(agentConfig|config|preVerifyJSAPI):/.test(errMsg);
}

function silenceRegisterRejections() {
  if (quietRegisterFailures) return;
  quietRegisterFailures = true;
  window.addEventListener('unhandledrejection', (event) => {
    if (isDroppedRegisterRejection(event.reason)) event.preventDefault();
  });
}

/** Loads the JS-SDK (the emulator's bridge first, locally) and registers with both signature callbacks; once per page, retryable. */
export function connectWeCom(sign: PageSigner = signWithServer): Promise<Ww> {
  connection ??= (async () => {
    const settings = getAppSettings();
    const corpConfig = await loadCorpConfig(settings.corpCode);
    if (corpConfig.emulator && !('WeixinJSBridge' in window)) await loadScript(EMULATOR_BRIDGE_SRC);
    const ww = await import('@wecom/jssdk');
    const agentId = corpConfig.agents.find((agent) => agent.agentCode === SIDEBAR_AGENT)?.agentId ?? settings.agentId;
    const pageSigner = createSigner(sign);
    signer = pageSigner;
    silenceRegisterRejections();
    ww.register({
      corpId: corpConfig.corpId,
      agentId,
      jsApiList: JS_API_LIST,
      getConfigSignature: async (url) => (await pageSigner(url)).config,
      getAgentConfigSignature: async (url) => (await pageSigner(url)).agentConfig,
    });
    return ww;
  })();
  connection.catch(() => {
    connection = null;
  });
  return connection;
}

async function step<T>(name: WeComStep, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WeComError) throw error;
    throw new WeComError(name, errMsgOf(error));
  }
}

/** WeCom's answer when a page signature does not match a ticket it still accepts. */
export const isRefusedSignature = (error: unknown) => /invalid signature/i.test(errMsgOf(error));

/** Registers (if needed) and awaits agentConfig; a refused signature is tried once more from fresh tickets (ADR 0018). */
async function ready(): Promise<Ww> {
  const ww = await step('bridge', () => connectWeCom());
  try {
    await ww.ensureAgentConfigReady();
  } catch (error) {
    const pageSigner = signer;
    if (!isRefusedSignature(error) || !pageSigner) throw new WeComError('register', errMsgOf(error));
    // Callers that met the same refusal share one refreshed attempt.
    healing ??= (async () => {
      pageSigner.refreshNext();
      await ww.ensureAgentConfigReady();
    })().finally(() => {
      healing = null;
    });
    await step('register', () => healing!);
  }
  return ww;
}

/** How WeCom opened the page (`single_chat_tools`, `contact_profile` … ENTRIES); an entry not known here is `normal`. */
export async function getWeComEntry(): Promise<Entry> {
  const ww = await ready();
  const context = await step('context', () => ww.getContext());
  const entry: string = context.entry;
  return ENTRIES.find((known) => known === entry) ?? 'normal';
}

/** The external userId of the customer WeCom opened the page for (single chat toolbar or contact card). */
export async function getCurrentExternalUserId(): Promise<string> {
  const ww = await ready();
  const contact = await step('contact', () => ww.getCurExternalContact());
  if (!contact.userId) throw new WeComError('contact', 'getCurExternalContact: no userId');
  return contact.userId;
}

/** WeCom's word for a call the user cancelled (`…:cancel`): not a failure to report. */
export const isCancelled = (error: unknown) => error instanceof WeComError && /:cancel$/.test(error.detail);

/** Opens WeCom's one-to-one chat with a client's external contact (only the signed-in member's own contacts). */
export async function openChatWith(externalUserId: string): Promise<void> {
  const ww = await ready();
  await step('chat', () => ww.openEnterpriseChat({ externalUserIds: [externalUserId], groupName: '' }));
}

/** A message for the chat the page was opened from: text, or an H5 card (WeCom's `news`). */
export type ChatMessage =
  { msgtype: 'text'; text: { content: string } } | { msgtype: 'news'; news: { link: string; title: string; desc: string; imgUrl: string } };

/** Sends into the current chat, only from a chat's toolbar; the user confirms in WeCom, and may cancel (`isCancelled`). */
export async function sendToCurrentChat(message: ChatMessage): Promise<void> {
  const ww = await ready();
  await step('send', () => ww.sendChatMessage(message));
}

/** Dials a number (tel:); in the emulator the call is recorded instead, as a desktop browser has no phone and would prompt. */
export function dial(number: string): void {
  const emulator = (window as { wecomEmulator?: { dial?: (number: string) => unknown } }).wecomEmulator;
  if (typeof emulator?.dial === 'function') {
    void emulator.dial(number);
    return;
  }
  window.location.href = `tel:${number}`;
}

/** For tests: forget the registration. */
export function resetWeCom() {
  connection = null;
  signer = null;
}
