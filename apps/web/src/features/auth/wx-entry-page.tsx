import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { PageFrame } from '../../shared/ui/page-frame';
import { ErrorState, WaitingState } from '../../shared/ui/states';
import { safeAppTarget } from '@broker/contract/app-routes';
import { startRelogin } from './session-recovery';
import { hasUsableToken, useUser } from '../../shared/session/user-store';
import { isForeignSignIn, signInWithCode } from './sign-in';

type Failure = 'missing' | 'login' | 'foreign';

/**
 * Return point of WeCom's OAuth redirect: `code` and `state` from WeCom, plus what the server put in
 * the return address — redirectPage, needBack, relauchType, corpCode, agentCode, agentId, wxAppId
 * (the last four are taken into the session settings at start-up). Signs in, then replaces itself
 * with redirectPage, so going back never lands on a used code. A return this browser did not start
 * (someone else's code: login CSRF) signs nobody in; whoever was signed in stays signed in.
 */
export default function WxEntryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  // Anyone can craft this link: only the app's own routes, never /wxEntry itself (ADR 0013).
  const redirectPage = safeAppTarget(params.get('redirectPage'));
  const [failed, setFailed] = useState<Failure | null>(code ? null : 'missing');
  const staffName = useUser((user) => user.staffName);

  useEffect(() => {
    if (!code) return;
    let active = true;
    signInWithCode(code, state).then(
      () => active && navigate(redirectPage, { replace: true }),
      (error: unknown) => active && setFailed(isForeignSignIn(error) ? 'foreign' : 'login'),
    );
    return () => {
      active = false;
    };
  }, [code, state, redirectPage, navigate]);

  if (failed === 'foreign' && hasUsableToken()) {
    return (
      <PageFrame>
        <ErrorState
          title={t('signIn.foreignTitle')}
          description={t('signIn.foreignStillSignedIn', { name: staffName || t('signIn.you') })}
          retryLabel={t('signIn.continue')}
          onRetry={() => void navigate(redirectPage, { replace: true })}
        />
      </PageFrame>
    );
  }

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
