import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import SearchBar from 'antd-mobile/es/components/search-bar';
import { PageFrame } from '../../shared/ui/page-frame';
import { EmptyState } from '../../shared/ui/states';
import './client-manage.css';

/** Client search frame; results arrive with the manage feature. Kept alive while a client profile is open. */
export default function ClientManageSearchPage() {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  return (
    <PageFrame>
      <div className="ba-manage__search">
        <SearchBar placeholder={t('manage.searchPlaceholder')} value={keyword} onChange={setKeyword} autoFocus />
      </div>
      <div className="ba-panel">
        <EmptyState title={t('comingSoon.title')} description={t('comingSoon.description', { feature: t('feature.clientSearch') })} />
      </div>
    </PageFrame>
  );
}
