import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Client profile: arrives with the client feature. */
export default function ClientInformationPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.clientProfile')} />;
}
