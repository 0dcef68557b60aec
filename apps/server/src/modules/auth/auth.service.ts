import { ErrorCode, type AgentCode, type AppLanguage, type LoginResult, type SignInStart } from '@broker/contract';
import { ApiError } from '../../http/api-error';
import type { Corp } from '../../corps';
import type { WecomClient } from '../../wecom/wecom-client';
import { WecomApiError, wecomFailure } from '../../wecom/wecom-errors';
import type { AuthRepository, StaffRow } from './auth.repository';
import { buildAuthorizeUrl } from './authorize-url';
import { SIGN_IN_COOKIE_SECONDS } from './session-cookies';
import { hashSessionToken, newBindingSecret, newSignInState, sameSecret, sessionTokenOf } from './session-token';

/** One message for every way a state fails, so a prober learns nothing from which check refused. */
const stateInvalid = () =>
  new ApiError(
    ErrorCode.LOGIN_STATE_INVALID,
    'query.state: is not the sign-in this browser started, or that sign-in expired or was used; please sign in again',
  );

export interface AuthServiceDeps {
  repository: AuthRepository;
  wecom: WecomClient;
  tokenTtlSeconds: number;
  /** Absolute, or a path on this origin. */
  oauthBase: string;
  now?: () => number;
}

export function createAuthService(deps: AuthServiceDeps) {
  const now = deps.now ?? Date.now;

  const loginResultOf = (member: StaffRow, token: string, expiresAt: Date): LoginResult => ({
    token,
    onlineStaff: member.onlineStaff,
    tokenExpireTime: expiresAt.getTime(),
    bd: member.bd,
    heco: member.heco,
    staffEmail: { email: member.email },
    userId: member.wecomUserId,
    staffName: member.name,
  });

  return {
    /** The caller puts the returned state in this browser's sign-in cookie. */
    async startSignIn(
      corp: Corp,
      input: { agentCode: AgentCode; redirectPage: string; relauchType?: string | undefined; origin: string },
    ): Promise<SignInStart> {
      const agent = corp.agents[input.agentCode];
      if (!agent) throw ApiError.validation('body.agentCode', `must be an agent of ${corp.code} (${Object.keys(corp.agents).join(', ')})`);
      const state = newSignInState();
      const expiresAt = new Date(now() + SIGN_IN_COOKIE_SECONDS * 1000);
      await deps.repository.createSignInAttempt({
        stateHash: hashSessionToken(state),
        corpId: corp.id,
        agentCode: input.agentCode,
        expiresAt,
      });
      const authorizeUrl = buildAuthorizeUrl({
        origin: input.origin,
        oauthBase: deps.oauthBase,
        corpCode: corp.code,
        corpId: corp.corpId,
        agentCode: input.agentCode,
        agentId: agent.agentId,
        redirectPage: input.redirectPage,
        relauchType: input.relauchType,
        state,
      });
      return { authorizeUrl, state, expiresAt: expiresAt.getTime() };
    },

    /**
     * `state` must be this browser's live sign-in of this corp; it is used up before the code goes to WeCom, whose
     * exchange uses the starting agent's token. The session is bound to a fresh browser secret; the previous
     * secret's sessions end (one staff member per browser).
     */
    async loginWithCode(
      corp: Corp,
      input: {
        code: string;
        state: string;
        cookieState: string | null;
        previousBindingSecret: string | null;
        /** Kept for the MOT cards (ADR 0042). */
        language?: AppLanguage | undefined;
      },
    ) {
      if (!input.cookieState || !sameSecret(input.cookieState, input.state)) throw stateInvalid();
      const attempt = await deps.repository.consumeSignInAttempt(hashSessionToken(input.state));
      if (!attempt || attempt.corpId !== corp.id || attempt.expiresAt.getTime() <= now()) throw stateInvalid();
      const agentCode = attempt.agentCode as AgentCode;
      if (!corp.agents[agentCode]) throw stateInvalid();

      let identity: { userid: string; userTicket: string | null };
      try {
        identity = await deps.wecom.getUserInfo(corp, agentCode, input.code);
      } catch (error) {
        // Each errcode named (wecom-errors.ts).
        throw wecomFailure(error);
      }
      const member = await deps.repository.findStaffByWecomUser(corp.id, identity.userid);
      if (!member || !member.active) {
        throw new ApiError(ErrorCode.LOGIN_STAFF_UNKNOWN, `WeCom user ${identity.userid} is not registered as staff of ${corp.name}`);
      }
      if (identity.userTicket) {
        try {
          const detail = await deps.wecom.getUserDetail(corp, agentCode, identity.userTicket);
          const contact = { email: detail.email ?? member.email, mobile: detail.mobile ?? member.mobile };
          await deps.repository.refreshStaffContact(member.id, contact);
          member.email = contact.email;
        } catch (error) {
          // Private details are a courtesy.
          if (!(error instanceof WecomApiError)) throw error;
        }
      }
      if (input.language && input.language !== member.language) await deps.repository.keepStaffLanguage(member.id, input.language);
      if (input.previousBindingSecret) {
        await deps.repository.revokeBrowserSessions({ bindingHash: hashSessionToken(input.previousBindingSecret) });
      }
      const bindingSecret = newBindingSecret();
      const token = sessionTokenOf(bindingSecret);
      const expiresAt = new Date(now() + deps.tokenTtlSeconds * 1000);
      await deps.repository.createSession({
        tokenHash: hashSessionToken(token),
        staffId: member.id,
        corpId: corp.id,
        agentCode,
        expiresAt,
        bindingHash: hashSessionToken(bindingSecret),
      });
      return { result: loginResultOf(member, token, expiresAt), bindingSecret };
    },

    /** The browser's live session again, by its binding cookie; nothing written, so a resume lengthens nothing. */
    async resume(corp: Corp, bindingSecret: string | null): Promise<{ result: LoginResult; sessionId: number; staffId: number }> {
      const notResumable = () =>
        new ApiError(ErrorCode.SESSION_NOT_RESUMABLE, 'cookie: no live session is bound to this browser; please sign in through WeCom');
      if (!bindingSecret) throw notResumable();
      const token = sessionTokenOf(bindingSecret);
      const session = await deps.repository.findSession(hashSessionToken(token));
      const live =
        session &&
        !session.revoked &&
        session.corpId === corp.id &&
        session.staffActive &&
        session.expiresAtMs > now() &&
        session.bindingHash !== null &&
        sameSecret(session.bindingHash, hashSessionToken(bindingSecret));
      const member = live ? await deps.repository.findStaff(session.staffId) : undefined;
      if (!live || !member) throw notResumable();
      return { result: loginResultOf(member, token, new Date(session.expiresAtMs)), sessionId: session.sessionId, staffId: member.id };
    },

    /** Every session of this browser, and the calling one. */
    signOut: (input: { sessionId: number; bindingSecret: string | null }) =>
      deps.repository.revokeBrowserSessions({
        bindingHash: input.bindingSecret ? hashSessionToken(input.bindingSecret) : null,
        sessionId: input.sessionId,
      }),

    signOutEverywhere: (input: { staffId: number; corpId: number }) => deps.repository.revokeStaffSessions(input.staffId, input.corpId),
  };
}
