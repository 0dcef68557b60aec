import { WeComError } from '../../shared/wecom/wecom-sdk';
import type { TFunction } from '../../shared/i18n/translator';
import { kycErrorMessage } from './kyc-errors';
import './kyc-error-content.css';

/** The message for a person, and for a refused WeCom call WeCom's own words below it (for support). */
export function KycErrorContent({ error, t }: { error: unknown; t: TFunction }) {
  return (
    <>
      <span className="ba-kyc__error-message">{kycErrorMessage(error, t)}</span>
      {error instanceof WeComError && <small className="ba-kyc__error-detail">{error.detail}</small>}
    </>
  );
}
