import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Stock transfer records: arrive with the client feature. */
export default function ClientTransferStockPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.transfers')} />;
}
