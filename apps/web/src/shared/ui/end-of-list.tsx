import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
// antd-mobile InfiniteScroll's stylesheet: the footer keeps its look (CSS is not first-screen JavaScript).
import 'antd-mobile/es/components/infinite-scroll/infinite-scroll.css';

export interface EndOfListProps {
  hasMore: boolean;
  /** Rejects when the page failed: the footer then offers a retry instead of trying again by itself. */
  loadMore: () => Promise<unknown>;
  /** How far (px) below the visible area the end may still be when the next page starts loading. */
  threshold?: number;
  children: (hasMore: boolean, failed: boolean, retry: () => void) => ReactNode;
}

/** Loads the next page as the list's end nears (an IntersectionObserver), instead of InfiniteScroll's throttled listeners (ADR 0029). */
export function EndOfList({ hasMore, loadMore, threshold = 250, children }: EndOfListProps) {
  const footer = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const loading = useRef(false);
  const observer = useRef<IntersectionObserver | null>(null);

  const load = async () => {
    if (loading.current || !hasMore) return;
    loading.current = true;
    try {
      await loadMore();
    } catch {
      setFailed(true);
      return;
    } finally {
      loading.current = false;
    }
    // Still in view after the page arrived (a tall screen, short rows): observing afresh reports it again.
    const element = footer.current;
    if (element && observer.current) {
      observer.current.unobserve(element);
      observer.current.observe(element);
    }
  };
  // Called by the observer with this render's props (hasMore, loadMore), without re-creating the observer.
  const onInView = useEffectEvent(() => void load());

  useEffect(() => {
    const element = footer.current;
    if (!element || !hasMore || failed) return;
    // The page's own scroll container (PageFrame), else the viewport.
    const root = element.closest('.ba-page__scroll');
    const watcher = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && onInView(), {
      root,
      rootMargin: `0px 0px ${threshold}px 0px`,
    });
    observer.current = watcher;
    watcher.observe(element);
    return () => {
      watcher.disconnect();
      observer.current = null;
    };
  }, [hasMore, failed, threshold]);

  // Watching again reports the footer at once if it is in view, which loads the page again.
  const retry = () => setFailed(false);

  return (
    <div className="adm-infinite-scroll" ref={footer}>
      {children(hasMore, failed, retry)}
    </div>
  );
}
