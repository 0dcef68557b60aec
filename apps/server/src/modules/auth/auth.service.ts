import { ErrorCode, type AgentCode, type LoginResult } from '@broker/contract';
import { ApiError } from '../../http/api-error';
import type { Corp } from '../../plugins/corps.plugin';
import { WecomApiError, type WecomClient } from '../../wecom/wecom-client';
import { wecomFailure } from '../../wecom/wecom-errors';
import type { AuthRepository } from './auth.repository';
import { hashSessionToken, newSessionToken } from './session-token';

export function createAuthService(deps: { repository: AuthRepository; wecom: WecomClient; tokenTtlSeconds: number }) {
  return {
    /** OAuth code → WeCom identity → staff record → a fresh session token. */
    async loginWithCode(corp: Corp, agentCode: AgentCode, code: string): Promise<LoginResult> {
      let identity: { userid: string; userTicket: string | null };
      try {
        identity = await deps.wecom.getUserInfo(corp, agentCode, code);
      } catch (error) {
        // 40029/40163 (code wrong or used) → 080002, 50001, 60020 … each named (wecom-errors.ts).
        throw wecomFailure(error);
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
