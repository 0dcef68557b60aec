import DotLoading from 'antd-mobile/es/components/dot-loading';
import { EndOfList } from './end-of-list';
import './list-footer.css';

export interface ListFooterLabels {
  loading: string;
  noMore: string;
  /** The retry button's words. */
  failed: string;
}

/** The end of a paged list: loads the next page as it comes into view, and says loading, no more, or failed (tap to retry). */
export function ListFooter({
  hasMore,
  loadMore,
  labels,
  testId,
}: {
  hasMore: boolean;
  loadMore: () => Promise<unknown>;
  labels: ListFooterLabels;
  testId?: string;
}) {
  return (
    <EndOfList hasMore={hasMore} loadMore={loadMore} threshold={300}>
      {(more, failed, retry) => (
        <span className="ba-caption ba-list-footer" data-testid={testId}>
          {failed ? (
            <button type="button" className="ba-bare ba-list-footer__retry" onClick={() => void retry()}>
              {labels.failed}
            </button>
          ) : more ? (
            <>
              {labels.loading}
              <DotLoading />
            </>
          ) : (
            labels.noMore
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
