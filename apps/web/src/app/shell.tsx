import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../shared/i18n/use-translation';
import { HOME_PATH, startRelogin } from '../features/auth';
import { useAppSettings } from '../shared/session/app-settings-store';
import { hasUsableToken, useUser } from '../shared/session/user-store';
import { isMobileDevice } from '../shared/device/device';
import { ErrorState, WaitingState } from '../shared/ui/states';
import { KeepAlivePages, useNavigationRecord } from './keep-alive';
import { routeByName } from './route-table';
import { matchRoute } from './route-match';
import { NotFoundPage } from './not-found-page';
import { TopBar } from './top-bar';

/** The in-app history position React Router keeps in history.state; 0 is where this visit began. */
const historyIndex = () => (window.history.state as { idx?: number } | null)?.idx ?? 0;

/** Renders nothing; tells the router the page above it has rendered (its lazy chunk is in). */
function SettledSignal({ locationKey, onSettled }: { locationKey: string; onSettled: (key: string) => void }) {
  useEffect(() => onSettled(locationKey), [locationKey, onSettled]);
  return null;
}

export function Shell({ onSettled }: { onSettled: (locationKey: string) => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const matched = matchRoute(location.pathname);
  // `/`, `/client`, … keep the query (the sidebar link's `?entry=…`) on their way to the real page.
  const redirectTo = matched.kind === 'redirect' ? `${matched.route.redirectTo}${location.search}` : null;
  const page = matched.kind === 'page' ? matched : null;
  const Page = page?.Page ?? NotFoundPage;
  const name = page?.route.name ?? 'notFound';
  const outlet = (
    <>
      <Page />
      <SettledSignal locationKey={location.key} onSettled={onSettled} />
    </>
  );
  // A redirect is not a page the user was on: the alive pages and "previous" stay as they were.
  const record = useNavigationRecord(location.key, name, outlet, redirectTo !== null);

  const title = t(page ? (page.route.titleKey ?? 'app.name') : 'title.notFound');
  useEffect(() => {
    document.title = title;
  }, [title, location.key]);

  const entry = useAppSettings((settings) => settings.entry);
  const showBack = entry === 'single_chat_tools' && !isMobileDevice();
  const onBack = () => (historyIndex() > 0 ? navigate(-1) : navigate(HOME_PATH, { replace: true }));

  const token = useUser((user) => user.token);
  // After a sign-out the app waits for the user to ask: on a shared PC the next person signs in as themselves.
  const signedOut = useUser((user) => user.signedOut);
  const needsSignIn = name !== 'wxEntry' && !hasUsableToken();
  const [signInFailed, setSignInFailed] = useState(false);
  useEffect(() => {
    if (!needsSignIn || signedOut) return;
    startRelogin().catch(() => setSignInFailed(true));
  }, [needsSignIn, signedOut, token]);

  if (redirectTo !== null) return <Navigate to={redirectTo} replace />;
  const guard = routeByName.get(name)?.enterOnlyFrom;
  if (guard && record.previous !== guard) return <Navigate to={HOME_PATH} replace />;

  return (
    <div className="ba-stack ba-shell">
      <TopBar title={title} showBack={showBack} onBack={onBack} />
      <main className="ba-shell__main">
        {needsSignIn ? (
          signedOut ? (
            <ErrorState
              title={t('signIn.signedOutTitle')}
              description={t('signIn.signedOutDescription')}
              retryLabel={t('signIn.retry')}
              onRetry={() => useUser.getState().leaveSignedOut()}
            />
          ) : signInFailed ? (
            <ErrorState title={t('signIn.failed')} retryLabel={t('signIn.retry')} onRetry={() => window.location.reload()} />
          ) : (
            <WaitingState label={t('signIn.redirecting')} />
          )
        ) : (
          <KeepAlivePages record={record} outlet={outlet} />
        )}
      </main>
    </div>
  );
}
