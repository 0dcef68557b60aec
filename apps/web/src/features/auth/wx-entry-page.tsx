import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { PageFrame } from '../../shared/ui/page-frame';
import { ErrorState, WaitingState } from '../../shared/ui/states';
import { safeAppTarget, signInCodeOf } from '@broker/contract/app-routes';
import { startRelogin } from './session-recovery';
import { hasUsableToken, useUser } from '../../shared/session/user-store';
import { isForeignSignIn, signInWithCode } from './sign-in';
import { dropSetAsideToken, restoreSetAsideToken } from './fresh-code';

type Failure = 'missing' | 'login' | 'foreign';

/**
 * Return point of WeCom's OAuth redirect: signs in with `code` and `state`, then replaces itself with redirectPage, so going
 * back never lands on a used code. A return this browser did not start signs nobody in (ADR 0047).
 */
export default function WxEntryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  // The one check of a sign-in return; a code it refuses is not sent anywhere.
  const code = signInCodeOf(location.pathname, location.search);
  const state = params.get('state');
  // Anyone can craft this link: only the app's own routes, never /wxEntry itself (ADR 0013).
  const redirectPage = safeAppTarget(params.get('redirectPage'));
  const [failed, setFailed] = useState<Failure | null>(code ? null : 'missing');
  const staffName = useUser((user) => user.staffName);
  // Re-render once the set-aside token is back (a foreign return): the page then offers to go on with it.
  useUser((user) => user.token);

  useEffect(() => {
    if (!code) return;
    let active = true;
    signInWithCode(code, state).then(
      () => {
        dropSetAsideToken();
        if (active) void navigate(redirectPage, { replace: true });
      },
      (error: unknown) => {
        const foreign = isForeignSignIn(error);
        if (foreign) restoreSetAsideToken();
        else dropSetAsideToken();
        if (active) setFailed(foreign ? 'foreign' : 'login');
      },
    );
    return () => {
      active = false;
    };
  }, [code, state, redirectPage, navigate]);

  // Nothing was exchanged (someone else's code, or no usable code): whoever was signed in goes on if they choose.
  if ((failed === 'foreign' || failed === 'missing') && hasUsableToken())
    return (
      <PageFrame>
        <ErrorState
          title={t('signIn.foreignTitle')}
          description={t(failed === 'foreign' ? 'signIn.foreignStillSignedIn' : 'signIn.missingStillSignedIn', {
            name: staffName || t('signIn.you'),
          })}
          retryLabel={t('signIn.continue')}
          onRetry={() => void navigate(redirectPage, { replace: true })}
        />
      </PageFrame>
    );

  return (
    <PageFrame>
      {failed ? (
        <ErrorState
          title={failed === 'foreign' ? t('signIn.foreignTitle') : t('signIn.failed')}
          description={
            failed === 'missing'
              ? t('signIn.missingCode')
              : failed === 'foreign'
                ? t('signIn.foreignSignedOut')
                : t('signIn.failedDescription')
          }
          retryLabel={t('signIn.retry')}
          onRetry={() => void startRelogin()}
        />
      ) : (
        <WaitingState label={t('signIn.signingIn')} />
      )}
    </PageFrame>
  );
}
