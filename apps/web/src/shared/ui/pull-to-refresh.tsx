import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import './pull-to-refresh.css';

type PullStatus = 'pulling' | 'canRelease' | 'refreshing' | 'complete';

/** Head height while refreshing, and how far to pull before releasing refreshes (CSS px at 375 wide). */
const HEAD_HEIGHT = 40;
const RELEASE_AT = 60;
const COMPLETE_SHOWN_MS = 500;

/** Pulling past the head's room gets harder, as a rubber band does. */
const damp = (distance: number) => (distance <= HEAD_HEIGHT * 5 ? distance : HEAD_HEIGHT * 5 + (distance - HEAD_HEIGHT * 5) * 0.3);

/** Whether anything between the touch and the page is scrolled away from its top (then the pull is a scroll). */
function scrolledAway(target: EventTarget | null): boolean {
  for (let node = target instanceof Element ? target : null; node; node = node.parentElement) {
    if (node.scrollTop > 0) return true;
  }
  return false;
}

/** Pull down at the top of a page to refresh: plain touch events, not antd-mobile's spring and gesture libraries (ADR 0029). */
export function PullToRefresh({
  onRefresh,
  pullingText,
  canReleaseText,
  refreshingText,
  completeText,
  children,
}: {
  onRefresh: () => Promise<unknown>;
  pullingText: ReactNode;
  canReleaseText: ReactNode;
  refreshingText: ReactNode;
  completeText: ReactNode;
  children: ReactNode;
}) {
  const [status, setStatus] = useState<PullStatus>('pulling');
  const [height, setHeight] = useState(0);
  const [dragging, setDragging] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  // The touch listeners are attached once; they call whatever onRefresh the last render passed.
  const refresh = useEffectEvent(() => onRefresh());

  useEffect(() => {
    const element = root.current;
    if (!element) return undefined;
    let startY: number | null = null;
    let pulling = false;
    let pulled = 0;
    let busy = false;

    const release = async () => {
      busy = true;
      setStatus('refreshing');
      setHeight(HEAD_HEIGHT);
      try {
        await refresh();
        setStatus('complete');
        await new Promise((resolve) => setTimeout(resolve, COMPLETE_SHOWN_MS));
      } finally {
        setHeight(0);
        setStatus('pulling');
        busy = false;
      }
    };
    const onStart = (event: TouchEvent) => {
      startY = busy || event.touches.length !== 1 ? null : event.touches[0]!.clientY;
      pulling = false;
    };
    const onMove = (event: TouchEvent) => {
      if (startY === null) return;
      const distance = event.touches[0]!.clientY - startY;
      if (!pulling) {
        if (distance <= 0 || scrolledAway(event.target)) {
          startY = null;
          return;
        }
        pulling = true;
        setDragging(true);
      }
      if (event.cancelable) event.preventDefault();
      pulled = Math.max(0, damp(distance));
      setHeight(pulled);
      setStatus(pulled > RELEASE_AT ? 'canRelease' : 'pulling');
    };
    const onEnd = () => {
      startY = null;
      if (!pulling) return;
      pulling = false;
      setDragging(false);
      if (pulled > RELEASE_AT) void release().catch(() => undefined);
      else setHeight(0);
      pulled = 0;
    };
    element.addEventListener('touchstart', onStart, { passive: true });
    // Not passive: a pull at the top must not also scroll (or bounce) the page.
    element.addEventListener('touchmove', onMove, { passive: false });
    element.addEventListener('touchend', onEnd);
    element.addEventListener('touchcancel', onEnd);
    return () => {
      element.removeEventListener('touchstart', onStart);
      element.removeEventListener('touchmove', onMove);
      element.removeEventListener('touchend', onEnd);
      element.removeEventListener('touchcancel', onEnd);
    };
  }, []);

  const text = { pulling: pullingText, canRelease: canReleaseText, refreshing: refreshingText, complete: completeText }[status];
  return (
    <div className="ba-pull" ref={root}>
      <div
        className={dragging ? 'ba-pull__head' : 'ba-pull__head ba-pull__head--settling'}
        style={{ height }}
        data-testid="pull-to-refresh-head"
        aria-live="polite"
      >
        <div className="ba-pull__text" style={{ height: HEAD_HEIGHT }}>
          {height > 0 && text}
        </div>
      </div>
      {children}
    </div>
  );
}
