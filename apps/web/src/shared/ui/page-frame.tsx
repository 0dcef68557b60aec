import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { holdRowInPlace, rowAnchorOf, type RowAnchor } from './row-anchor';
import './page-frame.css';

/**
 * The scroll container of one page. Each page scrolls on its own, and remembers where it was: a page
 * kept alive by <Activity> is hidden with display:none, which can lose the scroll offset, so the offset
 * is restored when the page shows again (layout effects re-run then). A page of rows (LongList) is
 * restored by its first row on screen, not only by pixels: that row stays where it was while blocks
 * above it appear or grow, until the manager scrolls (row-anchor.ts).
 */
export function PageFrame({ children, className, footer }: { children: ReactNode; className?: string; footer?: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const offset = useRef(0);
  const anchor = useRef<RowAnchor | null>(null);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    if (offset.current) element.scrollTop = offset.current;
    // At the top, what appears above the rows is meant to be seen: only a scrolled page holds its rows.
    const release = offset.current && anchor.current ? holdRowInPlace(element, anchor.current) : undefined;
    // Read as the page is hidden: React runs this before it hides the page, so it is the offset on screen.
    // (Not from scroll events: the one of a scroll just before leaving can arrive after the hiding, and
    // reads the hidden page's 0.)
    return () => {
      release?.();
      offset.current = element.scrollTop;
      anchor.current = offset.current ? rowAnchorOf(element) : null;
    };
  }, []);

  return (
    <div className={className ? `ba-page ${className}` : 'ba-page'}>
      <div className="ba-page__scroll" data-testid="page-scroll" ref={scroller}>
        {children}
      </div>
      {footer}
    </div>
  );
}
