import { useNavigate } from 'react-router';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/use-translation';
import SearchBar from 'antd-mobile/es/components/search-bar';
import DeleteOutline from 'antd-mobile-icons/es/DeleteOutline';
import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import ClockCircleOutline from 'antd-mobile-icons/es/ClockCircleOutline';
import { PageFrame } from '../../shared/ui/page-frame';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { customerListQuery, shortcutsQuery } from './manage-queries';
import { ClientRows } from './client-row';
import { useSearchAsYouType } from './client-search';
import { searchQueryOf } from './client-filters';
import { useForgetSearches } from './shortcuts-mutations';
import './manage-locales';
import './shortcuts-locales';
import './client-manage.css';
import './shortcuts.css';

/** As-you-type search, as the list's box does it (one hook); recent searches are kept by the server when a result is opened (ADR 0049). */
export default function ClientManageSearchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { input, setInput, keyword } = useSearchAsYouType();
  const shortcuts = useQuery(shortcutsQuery());
  const recentSearches = shortcuts.data?.recentSearches ?? [];
  const forget = useForgetSearches();
  const results = useInfiniteQuery({
    ...customerListQuery(searchQueryOf(keyword)),
    enabled: keyword.length > 0,
    placeholderData: keepPreviousData,
  });
  // Until the first pause there is no keyword: the list's unfiltered rows (cached under the same key) are not results.
  const searched = keyword.length > 0;
  const clients = (searched && results.data?.pages.flatMap((page) => page.list)) || [];
  const total = results.data?.pages[0]?.total ?? 0;
  const showing = input.trim().length > 0;

  return (
    <PageFrame>
      <div className="ba-row ba-search-head ba-manage__search">
        <SearchBar placeholder={t('manage.search.placeholder')} value={input} onChange={setInput} autoFocus />
        <button type="button" className="ba-bare ba-manage__cancel ba-hit" onClick={() => navigate(-1)}>
          {t('nav.cancel')}
        </button>
      </div>
      {!showing ? (
        <div className="ba-recent" data-testid="recent-searches">
          {recentSearches.length > 0 ? (
            <>
              <header className="ba-recent__head">
                <h2>{t('manage.search.recent')}</h2>
                <button
                  type="button"
                  onClick={() => forget.mutate({})}
                  aria-label={t('manage.search.clearRecent')}
                  data-testid="clear-recent-searches"
                >
                  <DeleteOutline />
                </button>
              </header>
              <div className="ba-wrap ba-recent__items">
                {recentSearches.map((item) => (
                  <span className="ba-inline-row ba-recent__entry" key={item}>
                    <button type="button" className="ba-bare ba-recent__item ba-ellipsis" onClick={() => setInput(item)}>
                      {item}
                    </button>
                    <button
                      type="button"
                      className="ba-bare ba-recent__remove"
                      aria-label={t('manage.search.removeRecent', { keyword: item })}
                      onClick={() => forget.mutate({ search: item })}
                    >
                      <CloseOutline />
                    </button>
                  </span>
                ))}
              </div>
            </>
          ) : (
            <p className="ba-recent__hint">
              <ClockCircleOutline /> {t('manage.search.hint')}
            </p>
          )}
        </div>
      ) : !searched || results.isPending || (results.isPlaceholderData && clients.length === 0) ? (
        <LoadingState rows={2} />
      ) : results.isError && clients.length === 0 ? (
        <LoadFailedState error={results.error} subject="content" onRetry={() => void results.refetch()} />
      ) : clients.length === 0 ? (
        <EmptyState title={t('manage.search.none')} description={t('manage.search.noneDesc')} />
      ) : (
        <section className="ba-surface ba-client-list" data-testid="search-results">
          <header className="ba-client-list__head">
            <h2>{t('manage.search.results', { count: total })}</h2>
          </header>
          <ClientRows clients={clients} keyword={keyword} hasMore={results.hasNextPage} fetchNextPage={results.fetchNextPage} />
        </section>
      )}
    </PageFrame>
  );
}
