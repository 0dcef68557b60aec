import type { AgentCode } from '@broker/contract';
import type { CredentialStore } from './credential-store';
import { STALE_TOKEN_ERRCODES, WecomApiError, WecomBackoffError } from './wecom-errors';

export interface WecomCorp {
  id: number;
  corpId: string;
  agents: Partial<Record<AgentCode, { agentId: string; secret: string }>>;
}

/** A refused JS-SDK signature evicts the agent's tickets at most this often (ADR 0018). */
export const TICKET_REFRESH_MIN_INTERVAL_MS = 60_000;

/** With jittered exponential delays (ADR 0017). */
const BUSY_RETRIES = 3;
const BUSY_BASE_DELAY_MS = 150;
/** Instead of deepening WeCom's limit. */
const FREQUENCY_BACKOFF_MS = 60_000;
/** 500 followers a page: 50,000 is more than any corp. */
const MAX_FOLLOW_USER_PAGES = 100;

interface WecomReply {
  errcode?: number;
  errmsg?: string;
  [key: string]: unknown;
}

export interface WecomClientOptions {
  /** Resolved per call. */
  apiBase: () => string;
  credentials: CredentialStore;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The health record behind /readyz. */
  onOutcome?: (outcome: { corpId: number; agentCode: AgentCode; error: WecomApiError | null }) => void;
}

/** The server's only door to WeCom; access tokens never leave it. */
export function createWecomClient(options: WecomClientOptions) {
  const timeoutMs = options.timeoutMs ?? 8000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  /** Per app: when calls may resume after a 45009. */
  const backoffUntil = new Map<string, number>();

  async function fetchOnce(path: string, query: Record<string, string>, body?: unknown): Promise<WecomReply> {
    const url = new URL(`${options.apiBase().replace(/\/$/, '')}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new WecomApiError(-1, error instanceof Error ? error.message : 'no answer', path, true);
    }
    if (!response.ok) throw new WecomApiError(-1, `HTTP ${response.status}`, path, true);
    return (await response.json()) as WecomReply;
  }

  /** During a 45009 back-off this app's calls fail without reaching WeCom, which counts refused calls too. */
  async function request(corp: WecomCorp, agentCode: AgentCode, path: string, query: Record<string, string>, body?: unknown) {
    const app = `${corp.id}:${agentCode}`;
    const resumeAt = backoffUntil.get(app) ?? 0;
    if (resumeAt > now()) {
      const seconds = Math.ceil((resumeAt - now()) / 1000);
      throw new WecomBackoffError(`api freq out of limit (backing off for ${seconds} s more)`, path, seconds);
    }
    for (let attempt = 0; ; attempt += 1) {
      let reply: WecomReply;
      try {
        reply = await fetchOnce(path, query, body);
      } catch (error) {
        options.onOutcome?.({ corpId: corp.id, agentCode, error: error as WecomApiError });
        throw error;
      }
      const errcode = reply.errcode ?? 0;
      if (errcode === -1 && attempt < BUSY_RETRIES) {
        await sleep(BUSY_BASE_DELAY_MS * 2 ** attempt * (0.5 + Math.random()));
        continue;
      }
      if (errcode === 45009) backoffUntil.set(app, now() + FREQUENCY_BACKOFF_MS);
      const error = errcode === 0 ? null : new WecomApiError(errcode, reply.errmsg ?? '', path);
      options.onOutcome?.({ corpId: corp.id, agentCode, error });
      if (error) throw error;
      return reply;
    }
  }

  function agentOf(corp: WecomCorp, agentCode: AgentCode) {
    const agent = corp.agents[agentCode];
    if (!agent) throw new WecomApiError(40056, `agent ${agentCode} is not configured for corp ${corp.corpId}`, 'config');
    return agent;
  }

  async function fetchAccessToken(corp: WecomCorp, agentCode: AgentCode) {
    const reply = await request(corp, agentCode, '/cgi-bin/gettoken', { corpid: corp.corpId, corpsecret: agentOf(corp, agentCode).secret });
    if (typeof reply.access_token !== 'string') throw new WecomApiError(-1, 'no access_token', '/cgi-bin/gettoken');
    return { value: reply.access_token, expiresIn: Number(reply.expires_in ?? 7200) };
  }

  const accessToken = (corp: WecomCorp, agentCode: AgentCode) =>
    options.credentials.get(corp.id, agentCode, 'access_token', () => fetchAccessToken(corp, agentCode));

  const callWith = (corp: WecomCorp, agentCode: AgentCode, token: string, path: string, query: Record<string, string>, body?: unknown) =>
    request(corp, agentCode, path, { ...query, access_token: token }, body);

  /**
   * A token WeCom says went bad is dropped and the call retried once. Resolved before `work`, which may run in a
   * credential transaction (PGlite has one connection).
   */
  async function withAccessToken<T>(corp: WecomCorp, agentCode: AgentCode, work: (token: string) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await accessToken(corp, agentCode);
      try {
        return await work(token);
      } catch (error) {
        if (attempt > 0 || !(error instanceof WecomApiError) || !STALE_TOKEN_ERRCODES.has(error.errcode)) throw error;
        await options.credentials.invalidate(corp.id, agentCode, 'access_token', token);
      }
    }
  }

  const call = (corp: WecomCorp, agentCode: AgentCode, path: string, query: Record<string, string> = {}, body?: unknown) =>
    withAccessToken(corp, agentCode, (token) => callWith(corp, agentCode, token, path, query, body));

  async function ticket(corp: WecomCorp, agentCode: AgentCode, kind: 'jsapi_ticket' | 'agent_ticket') {
    return withAccessToken(corp, agentCode, (token) =>
      options.credentials.get(corp.id, agentCode, kind, async () => {
        const reply =
          kind === 'jsapi_ticket'
            ? await callWith(corp, agentCode, token, '/cgi-bin/get_jsapi_ticket', {})
            : await callWith(corp, agentCode, token, '/cgi-bin/ticket/get', { type: 'agent_config' });
        return { value: String(reply.ticket), expiresIn: Number(reply.expires_in ?? 7200) };
      }),
    );
  }

  return {
    agentOf,
    /** OAuth code → userid (and user_ticket when the scope allows). */
    async getUserInfo(corp: WecomCorp, agentCode: AgentCode, code: string) {
      const reply = await call(corp, agentCode, '/cgi-bin/auth/getuserinfo', { code });
      // A WeChat user outside the corp gets an openid (document/path/91023).
      if (typeof reply.userid !== 'string') throw new WecomApiError(60111, 'not a member of the corp', '/cgi-bin/auth/getuserinfo');
      return { userid: reply.userid, userTicket: typeof reply.user_ticket === 'string' ? reply.user_ticket : null };
    },
    async getUserDetail(corp: WecomCorp, agentCode: AgentCode, userTicket: string) {
      const reply = await call(corp, agentCode, '/cgi-bin/auth/getuserdetail', {}, { user_ticket: userTicket });
      const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
      return { userid: String(reply.userid), email: text(reply.biz_mail) ?? text(reply.email), mobile: text(reply.mobile) };
    },
    jsapiTicket: (corp: WecomCorp, agentCode: AgentCode) => ticket(corp, agentCode, 'jsapi_ticket'),
    /** Unless a replica fetched them within the last minute: asking again would only spend the ticket quota. */
    evictTickets: (corp: WecomCorp, agentCode: AgentCode) =>
      options.credentials.evictOlderThan(corp.id, agentCode, ['jsapi_ticket', 'agent_ticket'], TICKET_REFRESH_MIN_INTERVAL_MS),
    agentTicket: (corp: WecomCorp, agentCode: AgentCode) => ticket(corp, agentCode, 'agent_ticket'),
    /** 获取客户详情 (document/path/92114), every follower. */
    async getExternalContact(corp: WecomCorp, agentCode: AgentCode, externalUserId: string) {
      const followUserIds: string[] = [];
      let contact: { external_userid: string; name: string } | undefined;
      let cursor = '';
      const seen = new Set<string>();
      for (let page = 0; page < MAX_FOLLOW_USER_PAGES; page += 1) {
        const reply = await call(corp, agentCode, '/cgi-bin/externalcontact/get', {
          external_userid: externalUserId,
          ...(cursor ? { cursor } : {}),
        });
        contact ??= reply.external_contact as { external_userid: string; name: string };
        for (const entry of (reply.follow_user as { userid: string }[] | undefined) ?? []) followUserIds.push(entry.userid);
        cursor = typeof reply.next_cursor === 'string' ? reply.next_cursor : '';
        // A repeated cursor would loop for ever.
        if (!cursor || seen.has(cursor)) break;
        seen.add(cursor);
      }
      return { externalUserId: contact!.external_userid, name: contact!.name, followUserIds };
    },
    /** Start-up probe: gettoken with the configured secret, uncached (a cached token would hide a reset secret). */
    async checkCredentials(corp: WecomCorp, agentCode: AgentCode): Promise<void> {
      await fetchAccessToken(corp, agentCode);
    },
    /** 获取指定的应用详情 (document/path/90227). */
    async getAgent(corp: WecomCorp, agentCode: AgentCode) {
      const reply = await call(corp, agentCode, '/cgi-bin/agent/get', { agentid: agentOf(corp, agentCode).agentId });
      const list = (value: unknown, key: string) => ((value as Record<string, unknown[]> | undefined)?.[key] ?? []).length;
      return {
        agentId: String(reply.agentid),
        closed: reply.close === 1,
        redirectDomain: typeof reply.redirect_domain === 'string' ? reply.redirect_domain : '',
        visibleUsers: list(reply.allow_userinfos, 'user'),
        visibleParties: list(reply.allow_partys, 'partyid'),
        visibleTags: list(reply.allow_tags, 'tagid'),
      };
    },
    /**
     * 发送应用消息 (document/path/90236): WeCom sends to the valid recipients and names the rest (invalid: not in the
     * app's visible range, or unknown; lower-cased); none valid is 81013.
     */
    async sendMessage(corp: WecomCorp, agentCode: AgentCode, body: Record<string, unknown>) {
      const agentid = Number(agentOf(corp, agentCode).agentId);
      const reply = await call(corp, agentCode, '/cgi-bin/message/send', {}, { ...body, agentid });
      const ids = (value: unknown) => (typeof value === 'string' && value !== '' ? value.split('|') : []);
      return {
        msgid: typeof reply.msgid === 'string' ? reply.msgid : null,
        invalidUsers: ids(reply.invaliduser),
        unlicensedUsers: ids(reply.unlicenseduser),
      };
    },
    /** 获取配置了客户联系功能的成员列表 (document/path/92571): 48002 without 客户联系 rights. */
    async getFollowUserList(corp: WecomCorp, agentCode: AgentCode): Promise<string[]> {
      const reply = await call(corp, agentCode, '/cgi-bin/externalcontact/get_follow_user_list');
      return (reply.follow_user as string[] | undefined) ?? [];
    },
  };
}

export type WecomClient = ReturnType<typeof createWecomClient>;
export type WecomSendResult = Awaited<ReturnType<WecomClient['sendMessage']>>;
