import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Holding details: arrives with the client feature. */
export default function ClientHoldingStockPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.holdings')} />;
}
