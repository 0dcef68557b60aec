import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import SearchBar from 'antd-mobile/es/components/search-bar';
import SearchOutline from 'antd-mobile-icons/es/SearchOutline';
import FilterOutline from 'antd-mobile-icons/es/FilterOutline';
import BellOutline from 'antd-mobile-icons/es/BellOutline';
import UserContactOutline from 'antd-mobile-icons/es/UserContactOutline';
import { PageFrame } from '../../shared/ui/page-frame';
import { Card } from '../../shared/ui/card';
import { EmptyState } from '../../shared/ui/states';
import { formatNumber } from '../../shared/format/number-format';
import { useAppSettings } from '../../shared/session/app-settings-store';
import './client-manage.css';

/**
 * The client list frame. Figures and the list itself arrive with the manage feature; until then the
 * overview shows '-' (no data) and the list says so. Kept alive whenever the user leaves it.
 */
export default function ClientManageListPage() {
  const { t } = useTranslation();
  const currency = useAppSettings((settings) => settings.currency);
  const [keyword, setKeyword] = useState('');

  const shortcuts = [
    { to: '/client/manage/search', label: t('manage.searchClients'), icon: <SearchOutline />, tone: 'blue' },
    { to: '/client/manage/filter', label: t('manage.filterClients'), icon: <FilterOutline />, tone: 'violet' },
    { to: '/mot/home', label: t('manage.motTodo'), icon: <BellOutline />, tone: 'orange' },
    { to: '/kyc/index', label: t('manage.kycBind'), icon: <UserContactOutline />, tone: 'green' },
  ];

  return (
    <PageFrame>
      <div className="ba-manage__search">
        <SearchBar placeholder={t('manage.searchPlaceholder')} value={keyword} onChange={setKeyword} />
        <Link className="ba-manage__filter" to="/client/manage/filter" aria-label={t('manage.filter')}>
          <FilterOutline />
          <span>{t('manage.filter')}</span>
        </Link>
      </div>
      <Card
        className="ba-card--hero"
        title={t('manage.overview')}
        titleDesc={t('manage.overviewDesc')}
        rows={[
          { label: t('manage.totalClients'), value: formatNumber(null) },
          { label: t('manage.newThisMonth'), value: formatNumber(null) },
          { label: t('manage.totalAssets', { ccy: currency }), value: formatNumber(null, 2) },
          { label: t('manage.netInflow', { ccy: currency }), value: formatNumber(null, 2) },
        ]}
      />
      <Card title={t('manage.shortcuts')}>
        <nav className="ba-shortcuts">
          {shortcuts.map((shortcut) => (
            <Link key={shortcut.to} to={shortcut.to} className="ba-shortcut">
              <span className={`ba-shortcut__icon ba-shortcut__icon--${shortcut.tone}`}>{shortcut.icon}</span>
              <span className="ba-shortcut__label">{shortcut.label}</span>
            </Link>
          ))}
        </nav>
      </Card>
      <Card title={t('manage.listTitle')}>
        <EmptyState title={t('comingSoon.title')} description={t('comingSoon.description', { feature: t('feature.clientList') })} />
      </Card>
    </PageFrame>
  );
}
