import { useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import type { ShownSizes, VirtualListProps } from './virtual-list';

/** Up to this many rows (two pages of 20) a list renders plainly; beyond, it windows. */
export const WINDOW_FROM = 40;

type WindowedList = ComponentType<VirtualListProps<unknown> & { shownSizes: ShownSizes }>;

let windowedList: WindowedList | null = null;
let loadingWindowedList: Promise<WindowedList> | null = null;

/** VirtualList's chunk, loaded once (a failed load is tried again by the next list that needs it). */
function loadWindowedList(): Promise<WindowedList> {
  loadingWindowedList ??= import('./virtual-list').then(
    (module) => (windowedList = module.VirtualList as WindowedList),
    (error: unknown) => {
      loadingWindowedList = null;
      throw error;
    },
  );
  return loadingWindowedList;
}

/**
 * A list that can grow long (infinite scroll). Its first page renders plainly: no windowing code on
 * the first screen (its size: ADR 0029). Once more than WINDOW_FROM rows are loaded it switches to
 * VirtualList, which mounts only the rows on screen, with the same row markup. Until VirtualList's
 * chunk is in, the plain rows stay as they are, new ones added below (not swapped for a Suspense
 * fallback: the browser would lose what the user was looking at and scroll by the rows added). The
 * plain rows' heights go to the virtualizer, so at the switch every row stays where the user saw it.
 */
export function LongList<Item>(props: VirtualListProps<Item>) {
  const { items, itemKey, renderItem, className } = props;
  const long = items.length > WINDOW_FROM;
  const [Windowed, setWindowed] = useState<WindowedList | null>(() => windowedList);
  useEffect(() => {
    if (!long || Windowed) return undefined;
    let wanted = true;
    // A failed load keeps the plain rows: the whole list, only not windowed.
    loadWindowedList().then(
      (loaded) => wanted && setWindowed(() => loaded),
      () => undefined,
    );
    return () => {
      wanted = false;
    };
  }, [long, Windowed]);

  const plainList = useRef<HTMLDivElement>(null);
  const [shownSizes] = useState<Map<string | number, number>>(() => new Map());
  useLayoutEffect(() => {
    const rows = plainList.current?.children;
    if (!rows) return;
    for (let index = 0; index < rows.length && index < items.length; index += 1) {
      shownSizes.set(itemKey(items[index]!), (rows[index] as HTMLElement).offsetHeight);
    }
  }, [items, itemKey, shownSizes]);

  if (long && Windowed) return <Windowed {...(props as VirtualListProps<unknown>)} shownSizes={shownSizes} />;
  return (
    <div className={className ? `ba-vlist ${className}` : 'ba-vlist'} role="list" ref={plainList}>
      {items.map((item) => (
        <div key={itemKey(item)} className="ba-vlist__row" role="listitem" data-row-key={itemKey(item)}>
          {renderItem(item)}
        </div>
      ))}
    </div>
  );
}
