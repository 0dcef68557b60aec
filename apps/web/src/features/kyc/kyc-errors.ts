import { ErrorCode } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { WeComError } from '../../shared/wecom/wecom-sdk';
import type { KeysUnder, TFunction } from '../../shared/i18n/translator';

/** The KYC rules and ownership each get their own message; anything else keeps the server's words. */
const KYC_CODES: readonly KeysUnder<'kyc.errors'>[] = [
  ErrorCode.KYC_CONTACT_ALREADY_BOUND,
  ErrorCode.KYC_CUSTOMER_ALREADY_BOUND,
  ErrorCode.KYC_NOT_FOLLOWING,
  ErrorCode.KYC_CONTACT_UNKNOWN,
  ErrorCode.KYC_NOT_BOUND,
  ErrorCode.FORBIDDEN,
];

const isKycCode = (code: string): code is (typeof KYC_CODES)[number] => (KYC_CODES as readonly string[]).includes(code);

/** A message a client manager can act on, in the current language. */
export function kycErrorMessage(error: unknown, t: TFunction): string {
  // The sidebar meets its own steps; a chat or send step (the reach actions') has no words here.
  if (error instanceof WeComError) return t(`kyc.wecomFailed.${error.step}`, { detail: error.detail, defaultValue: t('errors.unknown') });
  if (error instanceof ApiError) return isKycCode(error.code) ? t(`kyc.errors.${error.code}`) : error.message;
  return t('errors.unknown');
}
