import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Service record search: arrives with the MOT feature. */
export default function MotHistorySearchPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.motHistory')} />;
}
