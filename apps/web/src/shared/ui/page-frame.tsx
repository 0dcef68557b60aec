import { useLayoutEffect, useRef, type ReactNode } from 'react';
import './page-frame.css';

/**
 * The scroll container of one page. Each page scrolls on its own, and remembers where it was: a page
 * kept alive by <Activity> is hidden with display:none, which can lose the scroll offset, so the offset
 * is restored when the page shows again (layout effects re-run then).
 */
export function PageFrame({ children, className, footer }: { children: ReactNode; className?: string; footer?: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const offset = useRef(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    if (offset.current) element.scrollTop = offset.current;
    // Read as the page is hidden: React runs this before it hides the page, so it is the offset on screen.
    // (Not from scroll events: the one of a scroll just before leaving can arrive after the hiding, and
    // reads the hidden page's 0.)
    return () => {
      offset.current = element.scrollTop;
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
