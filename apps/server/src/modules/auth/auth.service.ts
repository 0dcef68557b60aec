import { ErrorCode, type AgentCode, type LoginResult } from '@broker/contract';
import { ApiError } from '../../http/api-error';
import type { Corp } from '../../plugins/corps.plugin';
import { WecomApiError, type WecomClient } from '../../wecom/wecom-client';
import type { AuthRepository } from './auth.repository';
import { hashSessionToken, newSessionToken } from './session-token';

/** WeCom's "invalid code" answers: unknown, expired or already used. */
const BAD_CODE_ERRCODES = new Set([40029, 41008]);

export function createAuthService(deps: { repository: AuthRepository; wecom: WecomClient; tokenTtlSeconds: number }) {
  return {
    /** OAuth code → WeCom identity → staff record → a fresh session token. */
    async loginWithCode(corp: Corp, agentCode: AgentCode, code: string): Promise<LoginResult> {
      let identity: { userid: string; userTicket: string | null };
      try {
        identity = await deps.wecom.getUserInfo(corp, agentCode, code);
      } catch (error) {
        if (error instanceof WecomApiError && BAD_CODE_ERRCODES.has(error.errcode)) {
          throw new ApiError(
            ErrorCode.LOGIN_CODE_INVALID,
            'query.code: the sign-in code is invalid, expired or already used; please sign in again',
          );
        }
        throw wecomUnavailable(error);
      }
      const member = await deps.repository.findStaffByWecomUser(corp.id, identity.userid);
      if (!member || !member.active) {
        throw new ApiError(ErrorCode.LOGIN_STAFF_UNKNOWN, `WeCom user ${identity.userid} is not registered as staff of ${corp.name}`);
      }
      if (identity.userTicket) {
        try {
          const detail = await deps.wecom.getUserDetail(corp, agentCode, identity.userTicket);
          await deps.repository.refreshStaffContact(member.id, {
            email: detail.email ?? member.email,
            mobile: detail.mobile ?? member.mobile,
          });
          member.email = detail.email ?? member.email;
        } catch (error) {
          // Private details are a courtesy; sign-in proceeds with what we already know.
          if (!(error instanceof WecomApiError)) throw error;
        }
      }
      const token = newSessionToken();
      const expiresAt = new Date(Date.now() + deps.tokenTtlSeconds * 1000);
      await deps.repository.createSession({
        tokenHash: hashSessionToken(token),
        staffId: member.id,
        corpId: corp.id,
        agentCode,
        expiresAt,
      });
      return {
        token,
        onlineStaff: member.onlineStaff,
        tokenExpireTime: expiresAt.getTime(),
        bd: member.bd,
        heco: member.heco,
        staffEmail: { email: member.email },
        userId: member.wecomUserId,
        staffName: member.name,
      };
    },
  };
}

export function wecomUnavailable(error: unknown): ApiError {
  const detail = error instanceof WecomApiError ? `errcode ${error.errcode}` : 'no answer';
  return new ApiError(ErrorCode.UPSTREAM_WECOM, `WeCom could not be reached or refused the request (${detail}); try again shortly`);
}
