import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';
import Skeleton from 'antd-mobile/es/components/skeleton';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { lazyPart, WhenLoaded } from './lazy-part';
import './states.css';

/** ErrorBlock's illustrations (ADR 0029) load with the first empty or error state; until then the same block shows without one. */
const errorBlock = lazyPart(() => import('antd-mobile/es/components/error-block').then((module) => module.default));

interface BlockProps {
  status: 'empty' | 'default';
  title: ReactNode;
  description: ReactNode;
  children?: ReactNode;
}

function PlainBlock({ title, description, children }: BlockProps) {
  return (
    <div className="adm-error-block">
      <div className="adm-error-block-image" />
      <div className="adm-error-block-description">
        <div className="adm-error-block-description-title">{title}</div>
        {description && <div className="adm-error-block-description-subtitle">{description}</div>}
      </div>
      {children && <div className="adm-error-block-content">{children}</div>}
    </div>
  );
}

export function StateBlock(props: BlockProps) {
  return (
    <WhenLoaded part={errorBlock} fallback={<PlainBlock {...props} />}>
      {(ErrorBlock) => (
        <ErrorBlock status={props.status} title={props.title} description={props.description}>
          {props.children}
        </ErrorBlock>
      )}
    </WhenLoaded>
  );
}

export function EmptyState({ title, description, children }: { title?: ReactNode; description?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="ba-state" data-testid="empty-state">
      <StateBlock status="empty" title={title ?? t('state.emptyTitle')} description={description ?? ''}>
        {children}
      </StateBlock>
    </div>
  );
}

export function LoadingState({ rows = 3 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <div className="ba-skeleton" role="status" aria-label={t('state.loading')} data-testid="loading-state">
      {Array.from({ length: rows }, (_, index) => (
        <div className="ba-surface ba-skeleton__card" key={index}>
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
      <StateBlock status="default" title={title ?? t('state.errorTitle')} description={description ?? t('state.errorDescription')}>
        {onRetry && (
          <Button color="primary" fill="outline" size="small" onClick={onRetry}>
            {retryLabel ?? t('state.retry')}
          </Button>
        )}
      </StateBlock>
    </div>
  );
}

/** A whole page waiting on the sign-in: a spinner and what is happening. */
export function WaitingState({ label }: { label: string }) {
  return (
    <div className="ba-waiting" role="status">
      <DotLoading color="primary" />
      <span>{label}</span>
    </div>
  );
}
