import type { FastifyInstance } from 'fastify';
import { agentCodeSchema, DEFAULT_AGENT_CODE, getCorpConfig, HEADER_AGENT, loginQywx } from '@broker/contract';
import { routeEndpoint } from '../../http/endpoint-route';
import { ApiError } from '../../http/api-error';
import { requireCorp } from '../../plugins/auth.plugin';
import { createAuthRepository } from './auth.repository';
import { createAuthService } from './auth.service';

export interface AuthRoutesOptions {
  tokenTtlSeconds: number;
  /** Base of the OAuth page as the browser reaches it. */
  oauthBase: string;
  emulator: boolean;
}

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions) {
  const service = createAuthService({
    repository: createAuthRepository(app.database.db),
    wecom: app.wecom,
    tokenTtlSeconds: options.tokenTtlSeconds,
  });

  routeEndpoint(app, loginQywx, async (input, request) => {
    const corp = requireCorp(app, request);
    const agent = agentCodeSchema.safeParse(request.headers[HEADER_AGENT] ?? DEFAULT_AGENT_CODE);
    if (!agent.success || !corp.agents[agent.data]) throw ApiError.validation(`header ${HEADER_AGENT}`, `must be an agent of ${corp.code}`);
    return service.loginWithCode(corp, agent.data, input.code);
  });

  routeEndpoint(app, getCorpConfig, async (input) => {
    const corp = app.corps.byCode(input.corpCode);
    if (!corp) throw ApiError.notFound(`query.corpCode: unknown corp "${input.corpCode}"`);
    return {
      corpCode: corp.code,
      corpId: corp.corpId,
      corpName: corp.name,
      agents: Object.entries(corp.agents).map(([agentCode, agent]) => ({ agentCode: agentCode as 'khzl', agentId: agent.agentId })),
      oauthBase: options.oauthBase,
      emulator: options.emulator,
    };
  });
}
