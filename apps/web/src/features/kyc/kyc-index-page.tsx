import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../../shared/ui/coming-soon-page';

/** KYC search, bind and unbind: arrive with the KYC feature. */
export default function KycIndexPage() {
  const { t } = useTranslation();
  return <ComingSoonPage feature={t('feature.kyc')} />;
}
