import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorState } from './state';
import { DEFAULT_AGENT_POLICY, type AgentPolicy } from './agent-policy';
import { WecomErr } from './errors';

export type Query = Record<string, string | undefined>;

/** The app (corp and agent) an API call speaks for: by secret at gettoken, by access token elsewhere. */
function callerAgent(state: EmulatorState, request: FastifyRequest): { corpId: string; agentId: string } | undefined {
  const query = request.query as Query;
  if (request.url.split('?')[0]!.endsWith('/cgi-bin/gettoken')) {
    const corp = query.corpid ? state.corpById(query.corpid) : undefined;
    const agent = corp && query.corpsecret ? state.agentBySecret(corp, query.corpsecret) : undefined;
    return corp && agent ? { corpId: corp.corpId, agentId: agent.agentId } : undefined;
  }
  const token = state.checkAccessToken(query.access_token);
  return typeof token === 'object' ? token : undefined;
}

const POLICY_CHECKS: Record<keyof AgentPolicy, (value: unknown) => boolean> = {
  visibleUserIds: (value) => value === null || (Array.isArray(value) && value.every((entry) => typeof entry === 'string')),
  trustedDomain: (value) => value === null || (typeof value === 'string' && /^[a-z0-9.-]+(:\d{1,5})?$/i.test(value)),
  trustedIps: (value) => value === null || (Array.isArray(value) && value.every((entry) => typeof entry === 'string')),
  customerContact: (value) => typeof value === 'boolean',
  callsPerMinute: (value) => value === null || (Number.isInteger(value) && (value as number) >= 0),
  busyCalls: (value) => Number.isInteger(value) && (value as number) >= 0,
};

/** A policy change from a control request, or the reason it is refused (names the field). */
function parsePolicyChange(body: unknown): { change: Partial<AgentPolicy> } | { problem: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problem: 'body: must be a JSON object' };
  for (const [field, value] of Object.entries(body)) {
    if (!(field in DEFAULT_AGENT_POLICY))
      return { problem: `${field}: unknown setting (known: ${Object.keys(DEFAULT_AGENT_POLICY).join(', ')})` };
    if (!POLICY_CHECKS[field as keyof AgentPolicy](value)) return { problem: `${field}: invalid value ${JSON.stringify(value)}` };
  }
  return { change: body };
}

/**
 * The emulated admin console (ADR 0016; docs/deployment.md, 'Reproducing an admin's mistake with the emulator'): per-agent
 * settings enforced by a gateway in front of /cgi-bin, the calls a start-up probe makes, and controls for tests.
 */
export async function registerAdminConsole(app: FastifyInstance, state: EmulatorState) {
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    if (!path.startsWith(`${app.prefix}/cgi-bin/`)) return;
    const agent = callerAgent(state, request);
    // Unknown secret or token: the route answers WeCom's own error for it.
    if (!agent) return;
    const refusal = state.policies.refusal(agent.corpId, agent.agentId, { path, ip: request.ip });
    if (refusal) return reply.send(refusal);
  });

  /** 获取指定的应用详情 (document/path/90227): only the token's own app. */
  app.get('/cgi-bin/agent/get', async (request, reply) => {
    const query = request.query as Query;
    const token = state.checkAccessToken(query.access_token);
    if (typeof token !== 'object') return reply.send({ ...WecomErr.INVALID_ACCESS_TOKEN });
    if (query.agentid !== token.agentId) return reply.send({ ...WecomErr.ANOTHER_AGENT });
    const corp = state.corpById(token.corpId)!;
    const [code] = Object.entries(corp.agents).find(([, agent]) => agent.agentId === token.agentId)!;
    const policy = state.policies.of(token.corpId, token.agentId);
    return {
      ...WecomErr.OK,
      agentid: Number(token.agentId),
      name: `${corp.name} ${code}`,
      square_logo_url: '',
      description: '',
      allow_userinfos: { user: (policy.visibleUserIds ?? []).map((userid) => ({ userid })) },
      // The whole corp is its root department, as WeCom lists it.
      allow_partys: { partyid: policy.visibleUserIds === null ? [1] : [] },
      allow_tags: { tagid: [] },
      close: 0,
      redirect_domain: policy.trustedDomain ?? request.headers.host ?? '',
      report_location_flag: 0,
      isreportenter: 0,
      home_url: '',
    };
  });

  /** 获取配置了客户联系功能的成员列表 (document/path/92571): within the app's visible range. */
  app.get('/cgi-bin/externalcontact/get_follow_user_list', async (request, reply) => {
    const token = state.checkAccessToken((request.query as Query).access_token);
    if (typeof token !== 'object') return reply.send({ ...WecomErr.INVALID_ACCESS_TOKEN });
    const followers = state.staff.filter((member) => state.policies.isVisible(token.corpId, token.agentId, member.userid));
    return { ...WecomErr.OK, follow_user: followers.map((member) => member.userid) };
  });

  app.get('/__emulator/agents', async () => state.policies.all());

  app.put('/__emulator/agents/:agentId/policy', async (request, reply) => {
    const { agentId } = request.params as { agentId: string };
    const corpId =
      (request.query as Query).corpid ??
      state.corps.find((corp) => Object.values(corp.agents).some((agent) => agent.agentId === agentId))?.corpId;
    const parsed = parsePolicyChange(request.body ?? {});
    if ('problem' in parsed) return reply.code(400).send({ error: parsed.problem });
    const updated = corpId ? state.policies.update(corpId, agentId, parsed.change) : undefined;
    if (!updated) return reply.code(404).send({ error: `agentId: no agent ${agentId} in the emulated corps` });
    return updated;
  });

  app.post('/__emulator/agents/reset', async () => {
    state.policies.reset();
    return { ok: true };
  });

  app.put('/__emulator/config', async (request, reply) => {
    const body = (request.body ?? {}) as { followUserPageSize?: unknown };
    const size = body.followUserPageSize;
    if (!Number.isInteger(size) || (size as number) < 1)
      return reply.code(400).send({ error: 'followUserPageSize: must be a positive integer' });
    state.policies.followUserPageSize = size as number;
    return { followUserPageSize: size };
  });
}

/** Why WeCom's authorise step would refuse (91022): a redirect outside the app's (any app's) trusted domain, a member out of range. */
export function oauthRefusal(
  state: EmulatorState,
  request: {
    corpId: string;
    agentId: string | undefined;
    scope: string | undefined;
    redirectUri: string;
    reachedAt: string | undefined;
    userid?: string;
  },
): { status: number; errcode: number; errmsg: string } | undefined {
  const corp = state.corpById(request.corpId);
  if (!corp) return { status: 400, ...WecomErr.INVALID_CORPID };
  const agents = Object.values(corp.agents).filter(
    (agent) => request.agentId === undefined || request.agentId === '' || agent.agentId === request.agentId,
  );
  if (!agents.some((agent) => state.policies.redirectAllowed(corp.corpId, agent.agentId, request.redirectUri, request.reachedAt))) {
    return {
      status: 400,
      errcode: WecomErr.INVALID_REDIRECT.errcode,
      errmsg: `${WecomErr.INVALID_REDIRECT.errmsg} (redirect_uri 与应用可信域名不一致)`,
    };
  }
  const privateInfo = request.scope === 'snsapi_privateinfo';
  if (privateInfo && request.userid && request.agentId && !state.policies.isVisible(corp.corpId, request.agentId, request.userid)) {
    return {
      status: 403,
      errcode: WecomErr.NOT_IN_VISIBLE_RANGE.errcode,
      errmsg: `${WecomErr.NOT_IN_VISIBLE_RANGE.errmsg} (成员不在应用可见范围 / not in the app's visible range)`,
    };
  }
  return undefined;
}
