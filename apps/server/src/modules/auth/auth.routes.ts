import { contract, ErrorCode } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { ApiError } from '../../http/api-error';
import { createRateLimiter, enforceLimit, type Limit, type RateLimitRule } from '../../plugins/rate-limit.plugin';
import { requireCorp } from './auth.plugin';
import { createAuthRepository } from './auth.repository';
import { createAuthService } from './auth.service';
import { requestOrigin } from './authorize-url';
import { clearCookie, readCookie, setCookie, SIGN_IN_COOKIE_SECONDS } from './session-cookies';

/**
 * Counted once the cookie opened a live session (a made-up one counts against nobody): per browser and per
 * staff member. A sidebar resumes once per load (ADR 0058).
 */
export const RESUME_LIMITS = {
  browser: { bucket: 'resume-browser', limit: 30, windowSeconds: 600 },
  staff: { bucket: 'resume-staff', limit: 60, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;

const resumeLimit = (rule: RateLimitRule, whose: string): Limit => ({
  rule,
  code: ErrorCode.LOGIN_RATE_LIMITED,
  message: ({ limit, windowSeconds }, retry) =>
    `session resume: too many for this ${whose} (at most ${limit} per ${windowSeconds} s); retry in ${retry} s`,
});
const resumeLimits = { browser: resumeLimit(RESUME_LIMITS.browser, 'browser'), staff: resumeLimit(RESUME_LIMITS.staff, 'staff member') };

export interface AuthRoutesOptions {
  tokenTtlSeconds: number;
  oauthBase: string;
  emulator: boolean;
}

export const authRoutes = implementArea(contract.auth, (app, options: AuthRoutesOptions) => {
  const service = createAuthService({
    repository: createAuthRepository(app.database.db),
    wecom: app.wecom,
    tokenTtlSeconds: options.tokenTtlSeconds,
    oauthBase: options.oauthBase,
  });
  const limiter = createRateLimiter(app.database);

  return {
    startSignIn: async ({ input, request, reply }) => {
      const corp = requireCorp(app, request);
      const started = await service.startSignIn(corp, { ...input, origin: requestOrigin(request) });
      setCookie(request, reply, 'signIn', started.state, SIGN_IN_COOKIE_SECONDS);
      return started;
    },

    // The agent recorded when the sign-in started, not this call's `agent-code` (ADR 0011).
    loginQywx: async ({ input, request, reply }) => {
      const corp = requireCorp(app, request);
      const cookieState = readCookie(request, 'signIn');
      // Whatever the outcome, this browser's sign-in is over once it comes back.
      if (cookieState) clearCookie(request, reply, 'signIn');
      const issued = await service.loginWithCode(corp, {
        code: input.code,
        state: input.state,
        cookieState,
        previousBindingSecret: readCookie(request, 'binding'),
        language: input.language,
      });
      setCookie(request, reply, 'binding', issued.bindingSecret, options.tokenTtlSeconds);
      return issued.result;
    },

    resumeSession: async ({ request, reply }) => {
      const resumed = await service.resume(requireCorp(app, request), readCookie(request, 'binding'));
      await enforceLimit(limiter, resumeLimits.browser, `session:${resumed.sessionId}`, reply);
      await enforceLimit(limiter, resumeLimits.staff, `staff:${resumed.staffId}`, reply);
      return resumed.result;
    },

    signOut: async ({ caller, request, reply }) => {
      const endedSessions = await service.signOut({ sessionId: caller.sessionId, bindingSecret: readCookie(request, 'binding') });
      clearCookie(request, reply, 'binding');
      return { endedSessions };
    },

    signOutEverywhere: async ({ caller, request, reply }) => {
      const endedSessions = await service.signOutEverywhere({ staffId: caller.staffId, corpId: caller.corp.id });
      clearCookie(request, reply, 'binding');
      return { endedSessions };
    },

    getCorpConfig: ({ input }) => {
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
    },
  };
});
