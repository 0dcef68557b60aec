import { useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import Button from 'antd-mobile/es/components/button';
import { EmptyState } from '../../shared/ui/states';

/** A client page opened without `?customerId=`: say so and offer the list. */
export function NoCustomer() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <EmptyState title={t('client.noCustomer')} description={t('client.noCustomerDesc')}>
      <Button color="primary" fill="outline" size="small" onClick={() => navigate('/client/manage/list')}>
        {t('client.backToList')}
      </Button>
    </EmptyState>
  );
}
