import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** MOT to-do list: arrives with the MOT feature. */
export default function MotHomePage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.motHome')} />;
}
