import { ErrorCode } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { WeComError } from '../../shared/wecom/wecom-sdk';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The KYC rules and ownership each get their own message; anything else keeps the server's words. */
const KYC_CODES: readonly string[] = [
  ErrorCode.KYC_CONTACT_ALREADY_BOUND,
  ErrorCode.KYC_CUSTOMER_ALREADY_BOUND,
  ErrorCode.KYC_NOT_FOLLOWING,
  ErrorCode.KYC_CONTACT_UNKNOWN,
  ErrorCode.KYC_NOT_BOUND,
  ErrorCode.FORBIDDEN,
];

/** A message a client manager can act on, in the current language. */
export function kycErrorMessage(error: unknown, t: Translate): string {
  if (error instanceof WeComError) return t(`kyc.wecomFailed.${error.step}`, { detail: error.detail });
  if (error instanceof ApiError) return KYC_CODES.includes(error.code) ? t(`kyc.errors.${error.code}`) : error.message;
  return t('errors.unknown');
}
