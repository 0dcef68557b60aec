import { useEffect, useEffectEvent, useRef, useState } from 'react';
import DotLoading from 'antd-mobile/es/components/dot-loading';
// antd-mobile InfiniteScroll's stylesheet: the footer keeps its look (CSS is not first-screen JavaScript).
import 'antd-mobile/es/components/infinite-scroll/infinite-scroll.css';
import './list-footer.css';

interface ListFooterLabels {
  loading: string;
  noMore: string;
  /** The retry button's words. */
  failed: string;
}

/**
 * The end of a paged list: loads the next page as it comes into view (an IntersectionObserver, instead of InfiniteScroll's
 * throttled listeners: ADR 0029), and says loading, no more, or failed (tap to retry).
 */
export function ListFooter({
  hasMore,
  fetchNextPage,
  labels,
  testId,
}: {
  hasMore: boolean;
  fetchNextPage: () => Promise<{ isError: boolean }>;
  labels: ListFooterLabels;
  testId?: string;
}) {
  const footer = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const loading = useRef(false);
  const observer = useRef<IntersectionObserver | null>(null);

  const load = async () => {
    if (loading.current || !hasMore) return;
    loading.current = true;
    // fetchNextPage resolves even when the page failed: the footer then offers a retry instead of trying again by itself.
    const pageFailed = await fetchNextPage().then(
      (page) => page.isError,
      () => true,
    );
    loading.current = false;
    if (pageFailed) {
      setFailed(true);
      return;
    }
    // Still in view after the page arrived (a tall screen, short rows): observing afresh reports it again.
    const element = footer.current;
    if (element && observer.current) {
      observer.current.unobserve(element);
      observer.current.observe(element);
    }
  };
  // Called by the observer with this render's props (hasMore, fetchNextPage), without re-creating the observer.
  const onInView = useEffectEvent(() => void load());

  useEffect(() => {
    const element = footer.current;
    if (!element || !hasMore || failed) return;
    // The page's own scroll container (PageFrame), else the viewport.
    const root = element.closest('.ba-page__scroll');
    const watcher = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && onInView(), {
      root,
      rootMargin: '0px 0px 300px 0px',
    });
    observer.current = watcher;
    watcher.observe(element);
    return () => {
      watcher.disconnect();
      observer.current = null;
    };
  }, [hasMore, failed]);

  return (
    <div className="adm-infinite-scroll" ref={footer}>
      <span className="ba-caption ba-row ba-list-footer" data-testid={testId}>
        {failed ? (
          // Watching again reports the footer at once if it is in view, which loads the page again.
          <button type="button" className="ba-bare ba-list-footer__retry" onClick={() => setFailed(false)}>
            {labels.failed}
          </button>
        ) : hasMore ? (
          <>
            {labels.loading}
            <DotLoading />
          </>
        ) : (
          labels.noMore
        )}
      </span>
    </div>
  );
}
