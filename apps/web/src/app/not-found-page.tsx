import { useNavigate } from 'react-router';
import { useTranslation } from '../shared/i18n/use-translation';
import Button from 'antd-mobile/es/components/button';
import { PageFrame } from '../shared/ui/page-frame';
import { StateBlock } from '../shared/ui/states';
import { HOME_PATH } from '../features/auth';

export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PageFrame>
      <div className="ba-surface ba-panel ba-state" data-testid="not-found">
        <StateBlock status="empty" title={t('title.notFound')} description={t('notFound.description')}>
          <Button
            color="primary"
            shape="rounded"
            size="middle"
            className="ba-not-found__home"
            onClick={() => navigate(HOME_PATH, { replace: true })}
          >
            {t('notFound.home')}
          </Button>
        </StateBlock>
      </div>
    </PageFrame>
  );
}
