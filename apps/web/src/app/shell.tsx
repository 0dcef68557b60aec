import { useEffect, useState } from 'react';
import { Navigate, useLocation, useMatches, useNavigate, useOutlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { HOME_PATH, startRelogin } from '../shared/api/relogin';
import { useAppSettings } from '../shared/session/app-settings-store';
import { hasUsableToken, useUser } from '../shared/session/user-store';
import { isMobileDevice } from '../shared/device/device';
import { ErrorState } from '../shared/ui/states';
import { KeepAlivePages, useNavigationRecord } from './keep-alive';
import { routeByName, type RouteName, type TitleKey } from './route-table';
import { TopBar } from './top-bar';

export interface RouteHandle {
  name: RouteName;
  titleKey?: TitleKey;
}

/** The in-app history position React Router keeps in history.state; 0 is where this visit began. */
const historyIndex = () => (window.history.state as { idx?: number } | null)?.idx ?? 0;

export function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const name: RouteName = handle?.name ?? 'notFound';
  const outlet = useOutlet();
  const record = useNavigationRecord(location.key, name, outlet);

  const title = handle?.titleKey ? t(handle.titleKey) : t('app.name');
  useEffect(() => {
    document.title = title;
  }, [title, location.key]);

  const entry = useAppSettings((settings) => settings.entry);
  const showBack = entry === 'single_chat_tools' && !isMobileDevice();
  const onBack = () => (historyIndex() > 0 ? navigate(-1) : navigate(HOME_PATH, { replace: true }));

  const token = useUser((user) => user.token);
  const needsSignIn = name !== 'wxEntry' && !hasUsableToken();
  const [signInFailed, setSignInFailed] = useState(false);
  useEffect(() => {
    if (!needsSignIn) return;
    startRelogin().catch(() => setSignInFailed(true));
  }, [needsSignIn, token]);

  const guard = routeByName.get(name)?.enterOnlyFrom;
  if (guard && record.previous !== guard) return <Navigate to={HOME_PATH} replace />;

  return (
    <div className="ba-shell">
      <TopBar title={title} showBack={showBack} onBack={onBack} />
      <main className="ba-shell__main">
        {needsSignIn ? (
          signInFailed ? (
            <ErrorState title={t('signIn.failed')} retryLabel={t('signIn.retry')} onRetry={() => window.location.reload()} />
          ) : (
            <div className="ba-shell__redirecting" role="status">
              <DotLoading color="primary" />
              <span>{t('signIn.redirecting')}</span>
            </div>
          )
        ) : (
          <KeepAlivePages record={record} outlet={outlet} />
        )}
      </main>
    </div>
  );
}
