import { z } from 'zod';
import { corpCodeSchema } from './headers';

/**
 * WeCom's callback (接收消息服务器, ADR 0019), as WeCom speaks it: a signed query string and an XML body whose `Encrypt`
 * holds the AES-encrypted event. Success answers plain text; a failure our envelope with a 0930xx code naming the check.
 */
export const WECOM_CALLBACK_PATH = '/api/wecom/callback/:corpCode';

export const wecomCallbackParamsSchema = z.strictObject({ corpCode: corpCodeSchema });

/** How far WeCom's `timestamp` and `CreateTime` may be from our clock: WeCom retries within seconds, a replay comes later (093004). */
export const CALLBACK_REPLAY_WINDOW_S = 300;

/** Seconds since the epoch as WeCom writes them: digits only (not 1e3, 1.0, -5 or " 12"). */
const epochSecondsText = z.string().regex(/^\d{1,16}$/, 'must be whole seconds since the epoch, written in digits');

/** Why a WeCom time is not now, or null when it is within the replay window of `nowMs`. */
export function callbackTimeProblem(seconds: number, nowMs: number): string | null {
  const skew = Math.abs(Math.floor(nowMs / 1000) - seconds);
  return skew > CALLBACK_REPLAY_WINDOW_S
    ? `${skew} s away from this server's clock (at most ${CALLBACK_REPLAY_WINDOW_S} s); a replayed callback, or a clock to fix`
    : null;
}

/** Query of both the URL check (GET, with echostr) and every event (POST). */
export const wecomCallbackQuerySchema = z.object({
  msg_signature: z.string().regex(/^[0-9a-fA-F]{40}$/, 'must be 40 hex digits'),
  /** Seconds since the epoch, as WeCom signed it. */
  timestamp: epochSecondsText,
  nonce: z.string().min(1).max(64),
  /** GET only: the encrypted string whose plaintext proves we hold the EncodingAESKey. */
  echostr: z.string().min(1).max(4096).optional(),
});

/** The outer XML of a POST: `<xml><ToUserName/><AgentID/><Encrypt/></xml>`. */
export const wecomCallbackEnvelopeSchema = z.object({
  ToUserName: z.string().optional(),
  AgentID: z.union([z.string(), z.number()]).optional(),
  Encrypt: z.string().min(1).max(65_536),
});

/** The decrypted event (客户联系 › 变更回调 › 事件格式), fields as WeCom names them. */
export const wecomCallbackEventSchema = z.object({
  /** The corp's CorpID. */
  ToUserName: z.string(),
  /** `sys` for system events. */
  FromUserName: z.string().optional(),
  CreateTime: epochSecondsText.transform(Number),
  MsgType: z.string(),
  Event: z.string().optional(),
  ChangeType: z.string().optional(),
  /** The member (client manager) whose contact changed. */
  UserID: z.string().max(64).optional(),
  ExternalUserID: z.string().max(64).optional(),
  /** add_external_contact: the `state` of the 「联系我」 QR code the customer scanned. */
  State: z.string().max(64).optional(),
  WelcomeCode: z.string().optional(),
  /** del_external_contact: `DELETE_BY_TRANSFER` when WeCom moved the contact to another member. */
  Source: z.string().optional(),
});
export type WecomCallbackEvent = z.infer<typeof wecomCallbackEventSchema>;

/** The 「联系我」 `state` that binds a new contact to a customer: `kyc:` and the customer number (WeCom allows 30 characters). */
export const CONTACT_ME_STATE_PREFIX = 'kyc:';
export const contactMeState = (customerNo: string) => `${CONTACT_ME_STATE_PREFIX}${customerNo}`;
export function customerNoOfState(state: string | undefined): string | null {
  if (!state?.startsWith(CONTACT_ME_STATE_PREFIX)) return null;
  const customerNo = state.slice(CONTACT_ME_STATE_PREFIX.length);
  return /^[A-Za-z0-9_-]{1,26}$/.test(customerNo) ? customerNo : null;
}
