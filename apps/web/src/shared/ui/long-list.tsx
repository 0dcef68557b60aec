import { lazy, Suspense, type ComponentType } from 'react';
import type { VirtualListProps } from './virtual-list';

/** Up to this many rows (two pages of 20) a list renders plainly; beyond, it windows. */
export const WINDOW_FROM = 40;

const VirtualList = lazy(async () => ({
  default: (await import('./virtual-list')).VirtualList as ComponentType<VirtualListProps<unknown>>,
}));

/**
 * A list that can grow long (infinite scroll). Its first page renders plainly: no windowing code on
 * the first screen (its size: ADR 0029). Once more than WINDOW_FROM rows are loaded it
 * switches to VirtualList, which mounts only the rows on screen; the switch keeps the same row
 * markup and the page's scroll offset, and shows the plain rows until the virtualizer has loaded.
 */
export function LongList<Item>(props: VirtualListProps<Item>) {
  const { items, itemKey, renderItem, className } = props;
  const plain = (
    <div className={className ? `ba-vlist ${className}` : 'ba-vlist'} role="list">
      {items.map((item) => (
        <div key={itemKey(item)} className="ba-vlist__row" role="listitem">
          {renderItem(item)}
        </div>
      ))}
    </div>
  );
  if (items.length <= WINDOW_FROM) return plain;
  return (
    <Suspense fallback={plain}>
      <VirtualList {...(props as VirtualListProps<unknown>)} />
    </Suspense>
  );
}
