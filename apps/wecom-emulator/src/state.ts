import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EmulatorCorp, EmulatorExternalContact, EmulatorStaff } from './directory';
import { AgentPolicies, domainOf } from './agent-policy';
import { PER_MEMBER_PER_HOUR, PER_MEMBER_PER_MINUTE, type InboxMessage } from './message-send';

const CODE_TTL_MS = 5 * 60 * 1000;
const ACCESS_TOKEN_TTL_S = 7200;
const TICKET_TTL_S = 7200;
const USER_TICKET_TTL_S = 1800;
/** Issuing sweeps expired entries at most this often, so abandoned sign-ins cannot pile up. */
const SWEEP_EVERY_MS = 60 * 1000;

interface IssuedCode {
  corpId: string;
  userid: string;
  agentId: string;
  expiresAt: number;
  /** host[:port] of the redirect_uri the code went to: only an app trusting that domain may exchange it. */
  redirectDomain?: string | null;
}

export interface EmulatorOptions {
  corps: EmulatorCorp[];
  staff: EmulatorStaff[];
  externalContacts: EmulatorExternalContact[];
  now?: () => number;
  /** Where WeCom delivers a corp's callbacks (its admin console's 接收事件服务器 URL); none: not delivered. */
  callbackUrl?: (corp: EmulatorCorp) => string;
}

const randomToken = (bytes: number) => randomBytes(bytes).toString('base64url');

/** A chat the emulated client opened, or a message it sent into the current chat (js-bridge.ts): what browser tests assert. */
export interface EmulatedChatEntry {
  /** The JS-SDK call: openEnterpriseChat | openExistedChatWithMsg | sendChatMessage; or `tel`, the sandbox's phone call. */
  api: string;
  corpId: string;
  /** The WeCom member signed in to the client (who opened the chat, or sent the message). */
  userid: string;
  /** The external contacts the chat is with (sendChatMessage: the current chat's contact). */
  externalUserIds: string[];
  /** sendChatMessage: how the page opened (getContext's entry). */
  entry?: string;
  /** What was sent, as the page passed it (sendChatMessage's msgtype and body; openExistedChatWithMsg's msg). */
  message?: Record<string, unknown>;
  at: number;
}

/** In-memory WeCom: codes, access tokens, tickets. Lost on restart, as a sandbox should be. */
export class EmulatorState {
  readonly corps: EmulatorCorp[];
  readonly staff: EmulatorStaff[];
  readonly externalContacts: EmulatorExternalContact[];
  readonly now: () => number;
  readonly callbackUrl: ((corp: EmulatorCorp) => string) | undefined;
  /** Each agent's admin-console settings (visible range, trusted domain and IPs, rights, limits). */
  readonly policies: AgentPolicies;
  /** Calls by API; callbacks delivered; messages sent, of which dropped as repeats (enable_duplicate_check) or past the per-member limit. */
  readonly stats = {
    gettoken: 0,
    getuserinfo: 0,
    getuserdetail: 0,
    jsapiTicket: 0,
    agentTicket: 0,
    externalContactGet: 0,
    callbacks: 0,
    messageSend: 0,
    messagesDeduplicated: 0,
    messagesDropped: 0,
  };
  /** Application messages (message/send) per member, oldest first: each member's inbox. */
  readonly inbox: InboxMessage[] = [];
  /** errcodes the next message/send calls answer (test control). */
  readonly messageFailures: number[] = [];
  /** Request bodies sent with enable_duplicate_check, and until when a repeat is dropped. */
  private readonly recentMessages = new Map<string, number>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, { corpId: string; agentId: string; expiresAt: number }>();
  /** Every JS-SDK ticket issued, by kind, so the emulated client can verify page signatures. */
  private readonly tickets: { kind: 'jsapi' | 'agent'; corpId: string; agentId: string; ticket: string; expiresAt: number }[] = [];
  private readonly userTickets = new Map<string, { userid: string; corpId: string; expiresAt: number }>();
  private lastSweepAt = Number.NEGATIVE_INFINITY;
  /** Chats opened and messages sent through the emulated client, oldest first. */
  readonly chatLog: EmulatedChatEntry[] = [];
  /** Signs the cookie naming who is signed in to the emulated WeCom client, so a page cannot claim another member. */
  private readonly clientKey = randomBytes(32);

  constructor(options: EmulatorOptions) {
    this.corps = options.corps;
    this.staff = options.staff;
    // A copy: the controls add and remove followers, and the directory constants serve many emulators.
    this.externalContacts = options.externalContacts.map((contact) => ({ ...contact, followedBy: [...contact.followedBy] }));
    this.now = options.now ?? Date.now;
    this.callbackUrl = options.callbackUrl;
    this.policies = new AgentPolicies(this.corps, this.now);
  }

  corpById(corpId: string) {
    return this.corps.find((corp) => corp.corpId === corpId);
  }

  agentBySecret(corp: EmulatorCorp, secret: string) {
    return Object.values(corp.agents).find((agent) => agent.secret === secret);
  }

  staffById(userid: string) {
    return this.staff.find((member) => member.userid === userid);
  }

  /** Drops every code, access token and ticket past its life (WeCom forgets them too). */
  sweepExpired() {
    const now = this.now();
    this.lastSweepAt = now;
    for (const map of [this.codes, this.accessTokens, this.userTickets] as Map<string, { expiresAt: number }>[]) {
      for (const [key, entry] of map) if (entry.expiresAt <= now) map.delete(key);
    }
    const live = this.tickets.filter((entry) => entry.expiresAt > now);
    this.tickets.splice(0, this.tickets.length, ...live);
  }

  /** How many credentials the emulator holds, by kind (tests watch memory with it). */
  heldCredentials() {
    return {
      codes: this.codes.size,
      accessTokens: this.accessTokens.size,
      userTickets: this.userTickets.size,
      tickets: this.tickets.length,
    };
  }

  private sweepIfDue() {
    if (this.now() - this.lastSweepAt >= SWEEP_EVERY_MS) this.sweepExpired();
  }

  issueCode(corpId: string, agentId: string, userid: string, redirectUri?: string): string {
    this.sweepIfDue();
    const code = randomToken(24);
    const redirectDomain = redirectUri === undefined ? null : domainOf(redirectUri);
    this.codes.set(code, { corpId, agentId, userid, expiresAt: this.now() + CODE_TTL_MS, redirectDomain });
    return code;
  }

  /** A code works once and for five minutes, as in WeCom. */
  redeemCode(code: string, corpId: string): IssuedCode | undefined {
    const issued = this.codes.get(code);
    this.codes.delete(code);
    if (!issued || issued.corpId !== corpId || issued.expiresAt <= this.now()) return undefined;
    return issued;
  }

  issueAccessToken(corpId: string, agentId: string) {
    this.sweepIfDue();
    const token = randomToken(48);
    this.accessTokens.set(token, { corpId, agentId, expiresAt: this.now() + ACCESS_TOKEN_TTL_S * 1000 });
    return { access_token: token, expires_in: ACCESS_TOKEN_TTL_S };
  }

  checkAccessToken(token: string | undefined) {
    if (!token) return 'missing';
    const issued = this.accessTokens.get(token);
    if (!issued) return 'invalid';
    if (issued.expiresAt <= this.now()) return 'expired';
    return issued;
  }

  /** Test hook: every issued access token expires now, to exercise the client's refresh path. */
  expireAllAccessTokens() {
    for (const token of this.accessTokens.values()) token.expiresAt = this.now() - 1;
  }

  issueUserTicket(corpId: string, userid: string) {
    this.sweepIfDue();
    const ticket = randomToken(32);
    this.userTickets.set(ticket, { corpId, userid, expiresAt: this.now() + USER_TICKET_TTL_S * 1000 });
    return { user_ticket: ticket, expires_in: USER_TICKET_TTL_S };
  }

  redeemUserTicket(ticket: string, corpId: string) {
    const issued = this.userTickets.get(ticket);
    if (!issued || issued.corpId !== corpId || issued.expiresAt <= this.now()) return undefined;
    return issued;
  }

  issueTicket(kind: 'jsapi' | 'agent', corpId: string, agentId: string) {
    this.sweepIfDue();
    const ticket = randomToken(64);
    this.tickets.push({ kind, corpId, agentId, ticket, expiresAt: this.now() + TICKET_TTL_S * 1000 });
    return { ticket, expires_in: TICKET_TTL_S };
  }

  /** Test hook: WeCom no longer accepts the JS-SDK tickets issued so far (the page's signatures fail). */
  invalidateTickets(corpId?: string, agentId?: string) {
    const live = this.liveTickets(undefined, corpId, agentId);
    for (const entry of live) entry.expiresAt = this.now() - 1;
    return live.length;
  }

  /** The tickets still valid, of the kind, corp and agent given (each when given). */
  liveTickets(kind?: 'jsapi' | 'agent', corpId?: string, agentId?: string) {
    return this.tickets.filter(
      (entry) =>
        (kind === undefined || entry.kind === kind) &&
        (corpId === undefined || entry.corpId === corpId) &&
        (agentId === undefined || entry.agentId === agentId) &&
        entry.expiresAt > this.now(),
    );
  }

  /** A signed cookie naming the member who confirmed the authorise page: the one using the client (its JS-SDK calls act as them). */
  clientSession(corpId: string, userid: string) {
    const body = `${corpId}.${userid}`;
    return `${body}.${createHmac('sha256', this.clientKey).update(body).digest('base64url')}`;
  }

  /** Who a client-session cookie names, if this emulator signed it. */
  clientUser(cookie: string | undefined): { corpId: string; userid: string } | undefined {
    const [corpId, userid, mac, extra] = (cookie ?? '').split('.');
    if (!corpId || !userid || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(createHmac('sha256', this.clientKey).update(`${corpId}.${userid}`).digest('base64url'));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { corpId, userid };
  }

  /** Is the contact one of this member's own external contacts (WeCom opens chats with those only)? */
  follows(userid: string, externalUserId: string) {
    return this.externalContacts.some((contact) => contact.externalUserId === externalUserId && contact.followedBy.includes(userid));
  }

  recordChat(entry: Omit<EmulatedChatEntry, 'at'>) {
    // A sandbox runs for a test session; the oldest entries go first should one run for days.
    if (this.chatLog.length >= 1000) this.chatLog.shift();
    this.chatLog.push({ ...entry, at: this.now() });
  }

  /** True when the same request JSON of this app was sent within `windowMs` (enable_duplicate_check); remembers it otherwise. */
  isDuplicateMessage(corpId: string, agentId: string, json: string, windowMs: number) {
    const key = `${corpId}:${agentId}:${json}`;
    const until = this.recentMessages.get(key);
    if (until !== undefined && until > this.now()) return true;
    if (this.recentMessages.size >= 10_000) {
      for (const [entry, expiry] of this.recentMessages) if (expiry <= this.now()) this.recentMessages.delete(entry);
    }
    this.recentMessages.set(key, this.now() + windowMs);
    return false;
  }

  /** Puts a message in a member's inbox, or drops it past WeCom's per-member limit (kept, marked undelivered). */
  deliverMessage(message: Omit<InboxMessage, 'at' | 'delivered'>) {
    const now = this.now();
    const sent = this.inbox.filter(
      (entry) => entry.delivered && entry.userid === message.userid && entry.agentId === message.agentId && entry.corpId === message.corpId,
    );
    const lastMinute = sent.filter((entry) => entry.at > now - 60_000).length;
    const lastHour = sent.filter((entry) => entry.at > now - 3_600_000).length;
    const delivered = lastMinute < PER_MEMBER_PER_MINUTE && lastHour < PER_MEMBER_PER_HOUR;
    if (!delivered) this.stats.messagesDropped += 1;
    if (this.inbox.length >= 5000) this.inbox.shift();
    this.inbox.push({ ...message, at: now, delivered });
  }
}

export type EmulatorStats = EmulatorState['stats'];
