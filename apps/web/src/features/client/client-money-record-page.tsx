import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Deposit and withdrawal records: arrive with the client feature. */
export default function ClientMoneyRecordPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.moneyRecords')} />;
}
