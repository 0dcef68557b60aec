import { useLayoutEffect, useRef, type ReactNode } from 'react';
import './page-frame.css';

/**
 * The scroll container of one page. Each page scrolls on its own, and remembers where it was: a page
 * kept alive by <Activity> is hidden with display:none, which loses the scroll offset, so the offset
 * is restored when the page shows again (layout effects re-run then).
 */
export function PageFrame({ children, className, footer }: { children: ReactNode; className?: string; footer?: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const offset = useRef(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && offset.current) element.scrollTop = offset.current;
  }, []);

  return (
    <div className={className ? `ba-page ${className}` : 'ba-page'}>
      <div
        className="ba-page__scroll"
        data-testid="page-scroll"
        ref={scroller}
        onScroll={(event) => {
          offset.current = event.currentTarget.scrollTop;
        }}
      >
        {children}
      </div>
      {footer}
    </div>
  );
}
