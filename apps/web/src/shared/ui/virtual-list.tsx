import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { observeElementOffset, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';

/** The page's own scroll container (PageFrame): the list scrolls with the page, not inside a box. */
const PAGE_SCROLLER = '.ba-page__scroll';
/** Until the browser has measured, assume a phone's viewport (and in jsdom, which measures nothing). */
const PHONE_VIEWPORT = { width: 375, height: 812 };

/** The virtualizer writes the offset it last knew on attaching (0 at first), which threw a scrolled page to the top: read it first. */
function observePageOffset(instance: Virtualizer<HTMLElement, Element>, onOffset: (offset: number, isScrolling: boolean) => void) {
  if (instance.scrollElement) onOffset(instance.scrollElement.scrollTop, false);
  return observeElementOffset(instance, onOffset);
}

/** A long list that mounts only the rows on screen (plus a few), inside the page's scroll container; each row is measured once shown. */
export interface VirtualListProps<Item> {
  items: readonly Item[];
  itemKey: (item: Item) => string | number;
  /** A typical row's height in px, for rows not yet measured. */
  estimateSize: number;
  renderItem: (item: Item) => ReactNode;
  /** Extra class of the list element (it is a `role="list"` of `role="listitem"` rows). */
  className?: string;
}

/** Heights (px) of rows already shown without windowing, by key (LongList's plain rows). */
export type ShownSizes = ReadonlyMap<string | number, number>;

export function VirtualList<Item>({
  items,
  itemKey,
  estimateSize,
  renderItem,
  className,
  shownSizes,
}: VirtualListProps<Item> & { shownSizes?: ShownSizes }) {
  const list = useRef<HTMLDivElement>(null);
  // Where the list starts inside the scroll container (below the page's header cards).
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const element = list.current;
    const scroller = element?.closest(PAGE_SCROLLER);
    if (!element || !scroller) return;
    const offset = element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    if (Math.abs(offset - scrollMargin) >= 1) setScrollMargin(offset);
  }, [items, scrollMargin]);
  // The compiler cannot memoize around the virtualizer (it re-renders through its own state); nothing here relies on that.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => list.current?.closest<HTMLElement>(PAGE_SCROLLER) ?? null,
    // A row the user has seen keeps its height: the rows above the screen are laid out as they were.
    estimateSize: (index) => shownSizes?.get(itemKey(items[index]!)) ?? estimateSize,
    getItemKey: (index) => itemKey(items[index]!),
    overscan: 6,
    scrollMargin,
    initialRect: PHONE_VIEWPORT,
    observeElementOffset: observePageOffset,
  });
  return (
    <div
      ref={list}
      className={className ? `ba-vlist ${className}` : 'ba-vlist'}
      role="list"
      style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          className="ba-vlist__row"
          role="listitem"
          data-index={row.index}
          data-row-key={row.key}
          ref={virtualizer.measureElement}
          style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start - scrollMargin}px)` }}
        >
          {renderItem(items[row.index]!)}
        </div>
      ))}
    </div>
  );
}
