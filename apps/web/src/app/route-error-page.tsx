import { useTranslation } from '../shared/i18n/use-translation';
import { ErrorState } from '../shared/ui/states';

/** A page that failed to load (for instance a chunk lost after a deploy): reload fetches the new build. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  return (
    <div className="ba-stack ba-shell">
      <main className="ba-shell__main">
        <ErrorState title={t('state.errorTitle')} onRetry={() => window.location.reload()} />
      </main>
    </div>
  );
}
