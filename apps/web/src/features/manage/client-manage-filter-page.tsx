import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Client filters: arrive with the manage feature. Entered only from the client list (guard in the app router). */
export default function ClientManageFilterPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.clientFilter')} />;
}
