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
 * Every page's failed load. A missing or another manager's client, event or record offers a way out (`leave`); any other failure
 * a retry, with the server's msg (docs/spec.md §8), "check your network" only without an answer. `description` may replace it.
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
