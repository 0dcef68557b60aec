import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';
import './scroll-fade.css';

export interface ScrollEdges {
  /** More content hidden before the start (scrolled away from the start). */
  before: boolean;
  /** More content hidden past the end. */
  after: boolean;
}

/** Slack for sub-pixel scroll positions: a strip scrolled to within a pixel of its end is at its end. */
const EDGE_SLACK_PX = 1;

/** Which ends of a sideways strip hide more, kept as it scrolls, resizes or its `content` changes; for `ba-scroll-fade`. */
export function useScrollEdges(ref: RefObject<HTMLElement | null>, content: unknown): ScrollEdges & { onScroll: () => void } {
  const [edges, setEdges] = useState<ScrollEdges>({ before: false, after: false });
  const measure = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const hidden = element.scrollWidth - element.clientWidth;
    // Right-to-left scripts count scrollLeft from 0 down to -hidden.
    const from = Math.abs(element.scrollLeft);
    const next = { before: from > EDGE_SLACK_PX, after: hidden - from > EDGE_SLACK_PX };
    setEdges((now) => (now.before === next.before && now.after === next.after ? now : next));
  }, [ref]);
  useLayoutEffect(() => {
    measure();
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // What it holds grows without the strip changing size (a web font arriving): its children are watched too.
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, [measure, ref, content]);
  return { ...edges, onScroll: measure };
}

/** The strip's attributes for scroll-fade.css. */
export const scrollFadeProps = ({ before, after }: ScrollEdges) => ({
  'data-more-before': before || undefined,
  'data-more-after': after || undefined,
});
