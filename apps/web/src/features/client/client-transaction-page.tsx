import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Trading data: arrives with the client feature. */
export default function ClientTransactionPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.trades')} />;
}
