import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/use-translation';
import SearchOutline from 'antd-mobile-icons/es/SearchOutline';
import FilterOutline from 'antd-mobile-icons/es/FilterOutline';
import BellOutline from 'antd-mobile-icons/es/BellOutline';
import UserContactOutline from 'antd-mobile-icons/es/UserContactOutline';
import { PageFrame } from '../../shared/ui/page-frame';
import { SearchInput } from '../../shared/ui/search-input';
import { IconLinks, type IconLink } from '../../shared/ui/icon-links';
import { PullToRefresh } from '../../shared/ui/pull-to-refresh';
import { lazyPart, WhenLoaded } from '../../shared/ui/lazy-part';
import { Card } from '../../shared/ui/card';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { formatNumber } from '../../shared/format/number-format';
import { useMoney } from '../../shared/format/use-money';
import { CurrencySwitcher } from '../staff';
import { activeFilterCount, toFilterPayload, toSearchPayload, useClientFilters } from './client-filters';
import { customerListQuery, customerStatQuery, shortcutsQuery } from './manage-queries';
import { ClientRows } from './client-row';
import { ActiveFilterChips } from './active-filter-chips';
import { useSearchAsYouType } from './client-search';
import { ChannelStrip } from './channel-strip';
import './manage-locales';
import './client-manage.css';

// Pins, recents and saved filters (ADR 0049) load once the manager has some: not first-screen JavaScript for everyone.
const listShortcuts = lazyPart(() => import('./client-shortcuts').then((module) => module.ListShortcuts));

/** Home of the client manager: the stat header and the list under it, for the same filters; kept alive whenever the user leaves. */
export default function ClientManageListPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const filters = useClientFilters((state) => state.applied);
  const setKeyword = useClientFilters((state) => state.setKeyword);
  // The same search as the search page (ADR 0049): as the manager types, once typing pauses.
  const { input: keyword, setInput: setKeywordInput, keyword: typed } = useSearchAsYouType(filters.keyword);
  useEffect(() => {
    if (typed !== filters.keyword) setKeyword(typed);
    // Only a pause in typing searches; a keyword changed elsewhere (a chip, a reset) is taken up below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);
  useEffect(() => {
    if (filters.keyword !== typed) setKeywordInput(filters.keyword);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters.keyword]);
  const waysBack = useQuery(shortcutsQuery()).data;
  const hasShortcuts = Boolean(waysBack && (waysBack.pinned.length || waysBack.recentClients.length || waysBack.savedFilters.length));
  // Unobserved while the page is hidden, a query was dropped after five minutes and the list came back at the top: keep it for the session.
  const stat = useQuery({ ...customerStatQuery(toFilterPayload(filters)), gcTime: Infinity });
  const list = useInfiniteQuery({ ...customerListQuery(toSearchPayload(filters)), gcTime: Infinity });
  const clients = list.data?.pages.flatMap((page) => page.list) ?? [];
  const total = list.data?.pages[0]?.total;
  const badge = activeFilterCount(filters);
  // New filters start the list from the top; coming back unchanged keeps the place (effects re-run on every reveal).
  const top = useRef<HTMLDivElement>(null);
  const filterKey = JSON.stringify(toSearchPayload(filters));
  const shownKey = useRef(filterKey);
  useEffect(() => {
    if (shownKey.current === filterKey) return;
    shownKey.current = filterKey;
    top.current?.closest('.ba-page__scroll')?.scrollTo({ top: 0 });
  }, [filterKey]);
  const filtered = badge > 0 || Boolean(filters.keyword);

  const shortcuts: IconLink[] = [
    { to: '/client/manage/search', label: t('manage.searchClients'), icon: <SearchOutline />, tone: 'blue' },
    { to: '/client/manage/filter', label: t('manage.filterClients'), icon: <FilterOutline />, tone: 'violet' },
    { to: '/mot/home', label: t('manage.motTodo'), icon: <BellOutline />, tone: 'orange' },
    { to: '/kyc/index', label: t('manage.kycBind'), icon: <UserContactOutline />, tone: 'green' },
  ];

  return (
    <PageFrame>
      <div className="ba-row ba-search-head ba-manage__search" ref={top}>
        <SearchInput
          placeholder={t('manage.searchPlaceholder')}
          label={t('search.label')}
          clearLabel={t('search.clear')}
          value={keyword}
          onChange={setKeywordInput}
          onSearch={(value) => setKeyword(value.trim())}
          onClear={() => setKeyword('')}
        />
        <Link className="ba-manage__filter ba-hit" to="/client/manage/filter" aria-label={t('manage.filter')} data-testid="filter-entry">
          <FilterOutline />
          <span>{t('manage.filter')}</span>
          {badge > 0 && <span className="ba-manage__badge">{badge}</span>}
        </Link>
      </div>
      <ActiveFilterChips
        onClearKeyword={() => {
          setKeywordInput('');
          setKeyword('');
        }}
        onReset={() => setKeywordInput('')}
      />
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([stat.refetch(), list.refetch()]);
        }}
        pullingText={t('manage.pullToRefresh')}
        canReleaseText={t('manage.releaseToRefresh')}
        refreshingText={t('manage.refreshing')}
        completeText={t('manage.refreshed')}
      >
        <section className="ba-stat" data-testid="client-stat">
          <div className="ba-stat__head">
            <div>
              <h2 className="ba-stat__title">{t('manage.overview')}</h2>
              <p className="ba-stat__desc">{filtered ? t('manage.overviewFiltered') : t('manage.overviewAll')}</p>
            </div>
            <CurrencySwitcher tone="hero" />
          </div>
          <p className="ba-stat__label">{t('manage.totalAssets', { ccy: money.currency })}</p>
          <p className="ba-total ba-stat__total" data-testid="stat-total-assets">
            {stat.data ? money.format(stat.data.totalAssetsHkd) : formatNumber(null)}
          </p>
          <dl className="ba-stat__figures">
            <div>
              <dt>{t('manage.totalClients')}</dt>
              <dd data-testid="stat-clients">{formatNumber(stat.data?.clients)}</dd>
            </div>
            <div>
              <dt>{t('manage.activeClients')}</dt>
              <dd>{formatNumber(stat.data?.active)}</dd>
            </div>
            <div>
              <dt>{t('manage.newThisMonth')}</dt>
              <dd>{formatNumber(stat.data?.newThisMonth)}</dd>
            </div>
          </dl>
          <ChannelStrip byChannel={stat.data?.byChannel} />
        </section>
        {hasShortcuts && <WhenLoaded part={listShortcuts}>{(ListShortcuts) => <ListShortcuts filtered={filtered} />}</WhenLoaded>}
        {!filtered && (
          <Card title={t('manage.shortcuts')} className="ba-card--shortcuts">
            <IconLinks links={shortcuts} className="ba-shortcuts" />
          </Card>
        )}
        <section className="ba-surface ba-client-list" data-testid="client-list">
          <header className="ba-client-list__head">
            <h2>{t('manage.listTitle')}</h2>
            <span className="ba-caption">
              {total !== undefined && t('manage.listCount', { count: total })}
              {total !== undefined && ' · '}
              {t(`manage.filters.sortOptions.${filters.sort}`)}
            </span>
          </header>
          {list.isPending ? (
            <LoadingState rows={3} />
          ) : list.isError && clients.length === 0 ? (
            <LoadFailedState error={list.error} subject="content" onRetry={() => void list.refetch()} />
          ) : clients.length === 0 ? (
            <EmptyState title={t('manage.noClients')} description={t('manage.noClientsDesc')} />
          ) : (
            <ClientRows clients={clients} keyword={filters.keyword} hasMore={list.hasNextPage} fetchNextPage={list.fetchNextPage} />
          )}
        </section>
      </PullToRefresh>
    </PageFrame>
  );
}
