import { ApiError } from '../../shared/api/api-error';
import { WeComError } from '../../shared/wecom/wecom-sdk';
import type { TFunction } from '../../shared/i18n/translator';

/** A message a client manager can act on, in the current language. */
export function kycErrorMessage(error: unknown, t: TFunction): string {
  // The sidebar meets its own steps; a chat or send step (the reach actions') has no words here.
  if (error instanceof WeComError) return t(`kyc.wecomFailed.${error.step}`, { detail: error.detail, defaultValue: t('errors.unknown') });
  // The KYC rules and ownership each have their own message (kyc.errors); anything else keeps the server's words.
  if (error instanceof ApiError) return t(`kyc.errors.${error.code}`, { defaultValue: error.message });
  return t('errors.unknown');
}
