import { useTranslation } from 'react-i18next';
import { EndOfList } from '../../shared/ui/end-of-list';
import DotLoading from 'antd-mobile/es/components/dot-loading';

/** Loads the next page when the end of the list comes into view; says when there is no more or it failed. */
export function ListFooter({ hasMore, loadMore }: { hasMore: boolean; loadMore: () => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <EndOfList hasMore={hasMore} loadMore={loadMore} threshold={300}>
      {(more, failed, retry) => (
        <span className="ba-list-footer" data-testid="list-footer">
          {failed ? (
            <button type="button" className="ba-list-footer__retry" onClick={() => void retry()}>
              {t('manage.loadFailed')}
            </button>
          ) : more ? (
            <>
              {t('manage.loadingMore')}
              <DotLoading />
            </>
          ) : (
            t('manage.noMore')
          )}
        </span>
      )}
    </EndOfList>
  );
}

/** fetchNextPage resolves even when the page failed; the footer needs a rejection to offer a retry. */
export async function nextPageOrThrow(fetchNextPage: () => Promise<{ isError: boolean; error: unknown }>) {
  const result = await fetchNextPage();
  if (result.isError) throw result.error;
}
