import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { holdRowInPlace, rowAnchorOf, type RowAnchor } from './row-anchor';
import './page-frame.css';

/**
 * The scroll container of one page, which remembers where it was: a page kept alive is hidden with display:none, which can lose
 * the offset, so it is restored when shown again; a page of rows by its first row on screen (row-anchor.ts).
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
    // Read as the page is hidden (before React hides it), not from scroll events, which can arrive after the hiding and read 0.
    return () => {
      release?.();
      offset.current = element.scrollTop;
      anchor.current = offset.current ? rowAnchorOf(element) : null;
    };
  }, []);

  return (
    <div className={className ? `ba-stack ba-page ${className}` : 'ba-stack ba-page'}>
      <div className="ba-page__scroll" data-testid="page-scroll" ref={scroller}>
        {children}
      </div>
      {footer}
    </div>
  );
}
