import { useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { LoadFailedState } from '../../shared/ui/load-failed-state';

/** A client page's failed load (LoadFailedState): an unknown or another manager's client offers the list. */
export function ClientErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <LoadFailedState
      error={error}
      subject="client"
      onRetry={onRetry}
      leave={{ label: t('client.backToList'), onLeave: () => void navigate('/client/manage/list') }}
      testId="client-unavailable"
    />
  );
}
