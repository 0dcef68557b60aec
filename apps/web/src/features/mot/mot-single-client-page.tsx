import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** One client's MOT events: arrive with the MOT feature. */
export default function MotSingleClientPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.motClient')} />;
}
