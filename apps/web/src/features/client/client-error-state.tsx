import { useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import Button from 'antd-mobile/es/components/button';
import { ErrorCode } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { EmptyState, ErrorState } from '../../shared/ui/states';

const FINAL_CODES: readonly string[] = [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND];

/**
 * Another manager's client or an unknown id will not load by trying again: say why (the request layer
 * already localized the message) and offer the list. Anything else may pass, so offer a retry.
 */
export function ClientErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (error instanceof ApiError && FINAL_CODES.includes(error.code))
    return (
      <div data-testid="client-unavailable">
        <EmptyState title={error.message} description={t('client.noCustomerDesc')}>
          <Button color="primary" fill="outline" size="small" onClick={() => navigate('/client/manage/list')}>
            {t('client.backToList')}
          </Button>
        </EmptyState>
      </div>
    );
  return <ErrorState onRetry={onRetry} />;
}
