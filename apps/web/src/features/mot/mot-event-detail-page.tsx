import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** MOT event details: arrive with the MOT feature. */
export default function MotEventDetailPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.motEvent')} />;
}
