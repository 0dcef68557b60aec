import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { observeElementOffset, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';

/** The page's own scroll container (PageFrame): the list scrolls with the page, not inside a box. */
const PAGE_SCROLLER = '.ba-page__scroll';
/** Until the browser has measured, assume a phone's viewport (and in jsdom, which measures nothing). */
const PHONE_VIEWPORT = { width: 375, height: 812 };

/**
 * The virtualizer learns the page's offset from scroll events only, and each time it attaches to the page
 * (mounting, or its kept page shown again) it writes the offset it last knew: 0 the first time. Mounted on
 * a page already scrolled (the client list at the end of its second page windows once the third arrives)
 * it threw the user back to the top. Reading the page's offset as it attaches makes that write a no-op.
 */
function observePageOffset(instance: Virtualizer<HTMLElement, Element>, onOffset: (offset: number, isScrolling: boolean) => void) {
  if (instance.scrollElement) onOffset(instance.scrollElement.scrollTop, false);
  return observeElementOffset(instance, onOffset);
}

/**
 * A long list that mounts only the rows on screen (plus a few either side), inside the page's scroll
 * container: thousands of loaded clients or records cost a screenful of DOM. Rows may differ in
 * height; each is measured once shown. Infinite loading stays with the footer under the list, the
 * page's pull-to-refresh and keep-alive scroll restoration work as before (the virtualizer follows
 * the container's scroll position, whoever sets it).
 */
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
