import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import Skeleton from 'antd-mobile/es/components/skeleton';
import Button from 'antd-mobile/es/components/button';
import './states.css';

export function EmptyState({ title, description, children }: { title?: ReactNode; description?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="ba-state" data-testid="empty-state">
      <ErrorBlock status="empty" title={title ?? t('state.emptyTitle')} description={description ?? ''}>
        {children}
      </ErrorBlock>
    </div>
  );
}

export function LoadingState({ rows = 3 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <div className="ba-skeleton" role="status" aria-label={t('state.loading')} data-testid="loading-state">
      {Array.from({ length: rows }, (_, index) => (
        <div className="ba-skeleton__card" key={index}>
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={3} animated />
        </div>
      ))}
    </div>
  );
}

export function ErrorState({
  title,
  description,
  onRetry,
  retryLabel,
}: {
  title?: ReactNode;
  description?: ReactNode;
  onRetry?: () => void;
  retryLabel?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="ba-state" data-testid="error-state">
      <ErrorBlock status="default" title={title ?? t('state.errorTitle')} description={description ?? t('state.errorDescription')}>
        {onRetry && (
          <Button color="primary" fill="outline" size="small" onClick={onRetry}>
            {retryLabel ?? t('state.retry')}
          </Button>
        )}
      </ErrorBlock>
    </div>
  );
}
