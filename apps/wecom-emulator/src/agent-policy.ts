import { randomInt } from 'node:crypto';
import type { EmulatorCorp } from './directory';

/**
 * What a WeCom admin sets per app in the admin console, and gets wrong, enforced as WeCom does so an admin's mistake can
 * be reproduced (ADR 0016). Sources: 构造网页授权链接 (91022), 获取客户详情 (92114), 客户联系 可调用接口的应用 (48002),
 * 企业可信IP (60020), 全局错误码 (45009, -1).
 */
export const DEFAULT_AGENT_POLICY = {
  /** WeCom userids in the app's visible range (可见范围); null: the whole corp (its root department). */
  visibleUserIds: null as string[] | null,
  /** 可信域名, `host[:port]` matched exactly; null: loopback hosts or the host the browser reached the emulator at. */
  trustedDomain: null as string | null,
  /** 企业可信IP: addresses allowed to call the API with this app's token; null: not restricted. */
  trustedIps: null as string[] | null,
  /** Listed under 客户联系 → 可调用接口的应用 (may call externalcontact/*). */
  customerContact: true,
  /** API calls per minute before WeCom answers 45009; null: no limit. */
  callsPerMinute: null as number | null,
  /** The next this many API calls of the app answer -1 (system busy). */
  busyCalls: 0,
};
export type AgentPolicy = typeof DEFAULT_AGENT_POLICY;

/** A WeCom error whose errmsg carries a hint (a trace id) and the caller's address; the server's log keeps both. */
export function wecomError(errcode: number, text: string, fromIp: string) {
  const hint = `${Date.now()}${randomInt(1_000_000_000, 9_999_999_999)}`;
  const errmsg = `${text}, hint: [${hint}], from ip: ${normalizeIp(fromIp)}, more info at https://open.work.weixin.qq.com/devtool/query?e=${errcode}`;
  return { errcode, errmsg };
}

/** `host[:port]` of an absolute URL as WeCom compares it with a trusted domain (scheme and path ignored). */
export function domainOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/** The per-agent settings of every emulated corp, switchable at run time (control endpoint, tests). */
export class AgentPolicies {
  /** WeCom pages externalcontact/get's follow_user past 500 followers; tests lower it to see paging. */
  followUserPageSize = 500;
  private readonly policies = new Map<string, AgentPolicy>();
  private readonly calls = new Map<string, number[]>();

  constructor(
    private readonly corps: EmulatorCorp[],
    private readonly now: () => number,
  ) {
    this.reset();
  }

  /** Back to what the directory says (each agent's `policy`, else the defaults). */
  reset() {
    this.policies.clear();
    this.calls.clear();
    this.followUserPageSize = 500;
    for (const corp of this.corps) {
      for (const agent of Object.values(corp.agents)) {
        this.policies.set(key(corp.corpId, agent.agentId), { ...DEFAULT_AGENT_POLICY, ...agent.policy });
      }
    }
  }

  of(corpId: string, agentId: string): AgentPolicy {
    return this.policies.get(key(corpId, agentId)) ?? { ...DEFAULT_AGENT_POLICY };
  }

  update(corpId: string, agentId: string, change: Partial<AgentPolicy>): AgentPolicy | undefined {
    const current = this.policies.get(key(corpId, agentId));
    if (!current) return undefined;
    const next = { ...current, ...change };
    this.policies.set(key(corpId, agentId), next);
    return next;
  }

  all() {
    return this.corps.flatMap((corp) =>
      Object.entries(corp.agents).map(([code, agent]) => ({
        corpId: corp.corpId,
        agentCode: code,
        agentId: agent.agentId,
        ...this.of(corp.corpId, agent.agentId),
      })),
    );
  }

  isVisible(corpId: string, agentId: string, userid: string) {
    const visible = this.of(corpId, agentId).visibleUserIds;
    return visible === null || visible.includes(userid);
  }

  /** Whether a redirect_uri may carry this app's codes; `reachedAt`: the Host the browser used for the emulator. */
  redirectAllowed(corpId: string, agentId: string, redirectUri: string, reachedAt: string | undefined) {
    const domain = domainOf(redirectUri);
    if (!domain) return false;
    const trusted = this.of(corpId, agentId).trustedDomain;
    if (trusted === null) return LOOPBACK_HOST.test(domain) || domain === reachedAt?.toLowerCase();
    return domain === trusted.toLowerCase();
  }

  /** WeCom's refusal of an API call of this app, in its gateway's order: busy, address, frequency, permission. */
  refusal(corpId: string, agentId: string, call: { path: string; ip: string }): { errcode: number; errmsg: string } | undefined {
    const policy = this.of(corpId, agentId);
    if (policy.busyCalls > 0) {
      this.update(corpId, agentId, { busyCalls: policy.busyCalls - 1 });
      return { errcode: -1, errmsg: 'system busy' };
    }
    const gettoken = call.path.endsWith('/cgi-bin/gettoken');
    // 企业可信IP governs calls made with the app's token; gettoken itself is answered from anywhere.
    if (!gettoken && policy.trustedIps !== null && !policy.trustedIps.includes(normalizeIp(call.ip))) {
      return wecomError(60020, 'not allow to access from your ip', call.ip);
    }
    if (policy.callsPerMinute !== null && !this.countCall(corpId, agentId, policy.callsPerMinute)) {
      return wecomError(45009, 'api freq out of limit', call.ip);
    }
    if (call.path.includes('/cgi-bin/externalcontact/') && !policy.customerContact) {
      return wecomError(48002, 'api forbidden', call.ip);
    }
    return undefined;
  }

  /** Records a call in this minute's window; false when the window is already full. */
  private countCall(corpId: string, agentId: string, perMinute: number) {
    const now = this.now();
    const recent = (this.calls.get(key(corpId, agentId)) ?? []).filter((at) => at > now - 60_000);
    const allowed = recent.length < perMinute;
    if (allowed) recent.push(now);
    this.calls.set(key(corpId, agentId), recent);
    return allowed;
  }
}

const key = (corpId: string, agentId: string) => `${corpId}/${agentId}`;

/** `::ffff:127.0.0.1` is how Node reports an IPv4 caller on a dual-stack socket; WeCom shows 127.0.0.1. */
const normalizeIp = (ip: string) => ip.replace(/^::ffff:/, '');
