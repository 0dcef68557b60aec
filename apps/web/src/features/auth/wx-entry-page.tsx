import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { PageFrame } from '../../shared/ui/page-frame';
import { ErrorState } from '../../shared/ui/states';
import { safeAppTarget } from '@broker/contract/app-routes';
import { startRelogin } from '../../shared/api/relogin';
import { signInWithCode } from './sign-in';
import './wx-entry-page.css';

/**
 * Return point of WeCom's OAuth redirect: `code` (and `state`) from WeCom, plus what the app put in
 * the return address — redirectPage, needBack, relauchType, corpCode, agentCode, agentId, wxAppId
 * (the last four are taken into the session settings at start-up). Signs in, then replaces itself
 * with redirectPage, so going back never lands on a used code.
 */
export default function WxEntryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  // Anyone can craft this link: only the app's own routes, never /wxEntry itself (ADR 0013).
  const redirectPage = safeAppTarget(params.get('redirectPage'));
  const [failed, setFailed] = useState<'missing' | 'login' | null>(code ? null : 'missing');

  useEffect(() => {
    if (!code) return;
    let active = true;
    signInWithCode(code).then(
      () => active && navigate(redirectPage, { replace: true }),
      () => active && setFailed('login'),
    );
    return () => {
      active = false;
    };
  }, [code, redirectPage, navigate]);

  return (
    <PageFrame>
      {failed ? (
        <ErrorState
          title={t('signIn.failed')}
          description={failed === 'missing' ? t('signIn.missingCode') : t('signIn.failedDescription')}
          retryLabel={t('signIn.retry')}
          onRetry={() => void startRelogin()}
        />
      ) : (
        <div className="ba-signing-in" role="status">
          <DotLoading color="primary" />
          <span>{t('signIn.signingIn')}</span>
        </div>
      )}
    </PageFrame>
  );
}
