import { useTranslation } from '../i18n/use-translation';
import { PageFrame } from './page-frame';
import { EmptyState } from './states';

/** An honest page for a route whose feature has not shipped: the frame is real, the content says so. */
export function ComingSoonPage({ feature }: { feature: string }) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <div className="ba-panel">
        <EmptyState title={t('comingSoon.title')} description={t('comingSoon.description', { feature })} />
      </div>
    </PageFrame>
  );
}
