import { useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { lazyPart, WhenLoaded } from './lazy-part';
import type { ShownSizes, VirtualListProps } from './virtual-list';

/** Up to this many rows (two pages of 20) a list renders plainly; beyond, it windows. */
export const WINDOW_FROM = 40;

type WindowedProps = VirtualListProps<unknown> & { shownSizes: ShownSizes };

/** VirtualList's chunk, loaded once a list first grows long. */
const windowedList = lazyPart(() => import('./virtual-list').then((module) => module.VirtualList as ComponentType<WindowedProps>));

/**
 * A list that can grow long: its first page renders plainly (no windowing code on the first screen, ADR 0029); past WINDOW_FROM
 * rows it switches to VirtualList, keeping the plain rows until its chunk is in, and handing their heights over so none moves.
 */
export function LongList<Item>(props: VirtualListProps<Item>) {
  const { items, itemKey, renderItem, className } = props;
  const long = items.length > WINDOW_FROM;
  const plainList = useRef<HTMLDivElement>(null);
  const [shownSizes] = useState<Map<string | number, number>>(() => new Map());
  useLayoutEffect(() => {
    const rows = plainList.current?.children;
    if (!rows) return;
    for (let index = 0; index < rows.length && index < items.length; index += 1) {
      shownSizes.set(itemKey(items[index]!), (rows[index] as HTMLElement).offsetHeight);
    }
  }, [items, itemKey, shownSizes]);

  const plain = (
    <div className={className ? `ba-vlist ${className}` : 'ba-vlist'} role="list" ref={plainList}>
      {items.map((item) => (
        <div key={itemKey(item)} className="ba-vlist__row" role="listitem" data-row-key={itemKey(item)}>
          {renderItem(item)}
        </div>
      ))}
    </div>
  );
  // A failed load keeps the plain rows: the whole list, only not windowed.
  return (
    <WhenLoaded part={windowedList} wanted={long} fallback={plain}>
      {(Windowed) => <Windowed {...(props as VirtualListProps<unknown>)} shownSizes={shownSizes} />}
    </WhenLoaded>
  );
}
