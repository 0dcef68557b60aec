import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** Client editing: arrives with the client feature. */
export default function ClientEditPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.clientEdit')} />;
}
