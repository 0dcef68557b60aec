import type { AgentCode } from '@broker/contract';
import type { CredentialStore } from './credential-store';

export interface WecomCorp {
  id: number;
  corpId: string;
  agents: Partial<Record<AgentCode, { agentId: string; secret: string }>>;
}

/** A WeCom answer with a non-zero errcode. */
export class WecomApiError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
    readonly path: string,
  ) {
    super(`WeCom ${path} answered errcode ${errcode}: ${errmsg}`);
    this.name = 'WecomApiError';
  }
}

/** A page's report of a refused JS-SDK signature evicts the agent's tickets at most this often (ADR 0018). */
export const TICKET_REFRESH_MIN_INTERVAL_MS = 60_000;

/** errcodes meaning the access token went bad: drop it, fetch a new one, retry once. */
const STALE_TOKEN_ERRCODES = new Set([40001, 40014, 42001]);

interface WecomReply {
  errcode?: number;
  errmsg?: string;
  [key: string]: unknown;
}

export interface WecomClientOptions {
  /** Base of WeCom's server API, e.g. https://qyapi.weixin.qq.com (resolved per call). */
  apiBase: () => string;
  credentials: CredentialStore;
  timeoutMs?: number;
}

export interface WecomUserDetail {
  userid: string;
  email: string | null;
  mobile: string | null;
}

export interface WecomExternalContact {
  externalUserId: string;
  name: string;
  followUserIds: string[];
}

/** The server's only door to WeCom. Access tokens never leave it. */
export function createWecomClient(options: WecomClientOptions) {
  const timeoutMs = options.timeoutMs ?? 8000;

  async function request(path: string, query: Record<string, string>, body?: unknown): Promise<WecomReply> {
    const url = new URL(`${options.apiBase().replace(/\/$/, '')}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new WecomApiError(-1, `HTTP ${response.status}`, path);
    return (await response.json()) as WecomReply;
  }

  function agentOf(corp: WecomCorp, agentCode: AgentCode) {
    const agent = corp.agents[agentCode];
    if (!agent) throw new WecomApiError(40056, `agent ${agentCode} is not configured for corp ${corp.corpId}`, 'config');
    return agent;
  }

  async function fetchAccessToken(corp: WecomCorp, agentCode: AgentCode) {
    const reply = await request('/cgi-bin/gettoken', { corpid: corp.corpId, corpsecret: agentOf(corp, agentCode).secret });
    if (reply.errcode || typeof reply.access_token !== 'string') {
      throw new WecomApiError(reply.errcode ?? -1, reply.errmsg ?? 'no access_token', '/cgi-bin/gettoken');
    }
    return { value: reply.access_token, expiresIn: Number(reply.expires_in ?? 7200) };
  }

  const accessToken = (corp: WecomCorp, agentCode: AgentCode) =>
    options.credentials.get(corp.id, agentCode, 'access_token', () => fetchAccessToken(corp, agentCode));

  /** One request with a given access token; errcode ≠ 0 becomes WecomApiError. */
  async function callWith(token: string, path: string, query: Record<string, string>, body?: unknown) {
    const reply = await request(path, { ...query, access_token: token }, body);
    const errcode = reply.errcode ?? 0;
    if (errcode !== 0) throw new WecomApiError(errcode, reply.errmsg ?? '', path);
    return reply;
  }

  /**
   * Runs `work` with a cached access token; if WeCom says the token went bad, drops it and
   * retries once with a fresh one. The token is resolved before `work` starts so `work` may run
   * inside a credential transaction without asking the store again (PGlite has one connection).
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
    withAccessToken(corp, agentCode, (token) => callWith(token, path, query, body));

  async function ticket(corp: WecomCorp, agentCode: AgentCode, kind: 'jsapi_ticket' | 'agent_ticket') {
    return withAccessToken(corp, agentCode, (token) =>
      options.credentials.get(corp.id, agentCode, kind, async () => {
        const reply =
          kind === 'jsapi_ticket'
            ? await callWith(token, '/cgi-bin/get_jsapi_ticket', {})
            : await callWith(token, '/cgi-bin/ticket/get', { type: 'agent_config' });
        return { value: String(reply.ticket), expiresIn: Number(reply.expires_in ?? 7200) };
      }),
    );
  }

  return {
    agentOf,
    /** OAuth code → WeCom userid (and user_ticket when the scope allows). */
    async getUserInfo(corp: WecomCorp, agentCode: AgentCode, code: string) {
      const reply = await call(corp, agentCode, '/cgi-bin/auth/getuserinfo', { code });
      if (typeof reply.userid !== 'string') throw new WecomApiError(-1, 'not a member of the corp', '/cgi-bin/auth/getuserinfo');
      return { userid: reply.userid, userTicket: typeof reply.user_ticket === 'string' ? reply.user_ticket : null };
    },
    async getUserDetail(corp: WecomCorp, agentCode: AgentCode, userTicket: string): Promise<WecomUserDetail> {
      const reply = await call(corp, agentCode, '/cgi-bin/auth/getuserdetail', {}, { user_ticket: userTicket });
      const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
      return { userid: String(reply.userid), email: text(reply.biz_mail) ?? text(reply.email), mobile: text(reply.mobile) };
    },
    jsapiTicket: (corp: WecomCorp, agentCode: AgentCode) => ticket(corp, agentCode, 'jsapi_ticket'),
    /**
     * A page says WeCom refused a signature made with the cached tickets: drop them so the next
     * signature uses fresh ones — unless some replica fetched them within the last minute (then
     * they are as fresh as WeCom gives, and asking again would only spend WeCom's ticket quota).
     */
    evictTickets: (corp: WecomCorp, agentCode: AgentCode) =>
      options.credentials.evictOlderThan(corp.id, agentCode, ['jsapi_ticket', 'agent_ticket'], TICKET_REFRESH_MIN_INTERVAL_MS),
    agentTicket: (corp: WecomCorp, agentCode: AgentCode) => ticket(corp, agentCode, 'agent_ticket'),
    async getExternalContact(corp: WecomCorp, agentCode: AgentCode, externalUserId: string): Promise<WecomExternalContact> {
      const reply = await call(corp, agentCode, '/cgi-bin/externalcontact/get', { external_userid: externalUserId });
      const contact = reply.external_contact as { external_userid: string; name: string };
      const follow = (reply.follow_user as { userid: string }[] | undefined) ?? [];
      return { externalUserId: contact.external_userid, name: contact.name, followUserIds: follow.map((entry) => entry.userid) };
    },
  };
}

export type WecomClient = ReturnType<typeof createWecomClient>;
