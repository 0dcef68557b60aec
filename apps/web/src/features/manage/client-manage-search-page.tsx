import { useState } from 'react';
import { useNavigate } from 'react-router';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/use-translation';
import SearchBar from 'antd-mobile/es/components/search-bar';
import DeleteOutline from 'antd-mobile-icons/es/DeleteOutline';
import ClockCircleOutline from 'antd-mobile-icons/es/ClockCircleOutline';
import { PageFrame } from '../../shared/ui/page-frame';
import { LongList } from '../../shared/ui/long-list';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { useRecentSearches } from './client-filters';
import { customerListQuery } from './manage-queries';
import { CLIENT_ROW_HEIGHT, ClientRow } from './client-row';
import { ClientListFooter } from './list-footer';
import { useDebouncedValue } from '../../shared/ui/use-debounced-value';
import './manage-locales';
import './client-manage.css';

export const SEARCH_DEBOUNCE_MS = 300;

/** As-you-type search over names, phone, account and ID tail. Kept alive while a client profile is open. */
export default function ClientManageSearchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const keyword = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const recent = useRecentSearches();
  const results = useInfiniteQuery({
    ...customerListQuery({ keyword, sortBy: 'totalAssets', sortOrder: 'desc' }),
    enabled: keyword.length > 0,
    placeholderData: keepPreviousData,
  });
  const clients = results.data?.pages.flatMap((page) => page.list) ?? [];
  const total = results.data?.pages[0]?.total ?? 0;
  const showing = input.trim().length > 0;

  return (
    <PageFrame>
      <div className="ba-search-head ba-manage__search">
        <SearchBar
          placeholder={t('manage.search.placeholder')}
          value={input}
          onChange={setInput}
          onSearch={(value) => recent.remember(value)}
          autoFocus
        />
        <button type="button" className="ba-manage__cancel" onClick={() => navigate(-1)}>
          {t('manage.search.cancel')}
        </button>
      </div>
      {!showing ? (
        <div className="ba-recent" data-testid="recent-searches">
          {recent.keywords.length > 0 ? (
            <>
              <header className="ba-recent__head">
                <h2>{t('manage.search.recent')}</h2>
                <button type="button" onClick={recent.clear} aria-label={t('manage.search.clearRecent')}>
                  <DeleteOutline />
                </button>
              </header>
              <div className="ba-recent__items">
                {recent.keywords.map((item) => (
                  <button type="button" className="ba-recent__item" key={item} onClick={() => setInput(item)}>
                    {item}
                  </button>
                ))}
              </div>
            </>
          ) : (
            <p className="ba-recent__hint">
              <ClockCircleOutline /> {t('manage.search.hint')}
            </p>
          )}
        </div>
      ) : results.isPending || (results.isPlaceholderData && clients.length === 0) ? (
        <LoadingState rows={2} />
      ) : results.isError && clients.length === 0 ? (
        <LoadFailedState error={results.error} subject="content" onRetry={() => void results.refetch()} />
      ) : clients.length === 0 ? (
        <EmptyState title={t('manage.search.none')} description={t('manage.search.noneDesc')} />
      ) : (
        <section className="ba-client-list" data-testid="search-results">
          <header className="ba-client-list__head">
            <h2>{t('manage.search.results', { count: total })}</h2>
          </header>
          <LongList
            items={clients}
            itemKey={(client) => client.customerId}
            estimateSize={CLIENT_ROW_HEIGHT}
            renderItem={(client) => <ClientRow client={client} keyword={keyword} onOpen={() => recent.remember(keyword)} />}
          />
          <ClientListFooter hasMore={results.hasNextPage} fetchNextPage={results.fetchNextPage} />
        </section>
      )}
    </PageFrame>
  );
}
