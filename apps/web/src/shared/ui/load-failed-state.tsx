import type { ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from '../i18n/use-translation';
import { ApiError } from '../api/api-error';
import { ErrorCode } from '../api/contract';
import { EmptyState, ErrorState } from './states';

/** What a page failed to load, so that "not found" and "not yours" name it. */
export type LoadSubject = 'client' | 'event' | 'record' | 'content';

const FINAL = {
  [ErrorCode.NOT_FOUND]: 'notFound',
  [ErrorCode.FORBIDDEN]: 'forbidden',
} as const satisfies Partial<Record<string, string>>;

const finalReason = (error: unknown) => (error instanceof ApiError && error.code in FINAL ? FINAL[error.code as keyof typeof FINAL] : null);

/**
 * Every page's failed load, one way. An unknown or another manager's client, event or record will not load by
 * trying again: the page names what is missing and offers a way out (`leave`). Any other failure may pass and
 * offers a retry, explained by the server's msg (docs/spec.md §8; the request layer gives known codes in the reader's
 * language, and a transport failure its own words) — "check your network" only when no answer came at all.
 * `description` replaces that explanation where a feature knows better (KYC's WeCom steps).
 */
export function LoadFailedState({
  error,
  subject,
  onRetry,
  leave,
  description,
  testId = 'load-unavailable',
}: {
  error: unknown;
  subject: LoadSubject;
  onRetry: () => void;
  leave?: { label: string; onLeave: () => void };
  description?: ReactNode;
  /** Marks the "will not load" state (kept per feature for the tests that look for it). */
  testId?: string;
}) {
  const { t } = useTranslation();
  const reason = finalReason(error);
  if (reason)
    return (
      <div data-testid={testId} data-reason={reason}>
        <EmptyState title={t(`state.${reason}.${subject}`)} description={t(`state.${reason}.hint`)}>
          {leave && (
            <Button color="primary" fill="outline" size="small" onClick={leave.onLeave}>
              {leave.label}
            </Button>
          )}
        </EmptyState>
      </div>
    );
  return (
    <ErrorState description={description ?? (error instanceof ApiError ? error.message : t('state.errorDescription'))} onRetry={onRetry} />
  );
}
