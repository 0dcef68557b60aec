/**
 * A kept page's place by row, not pixels (ADR 0047): a block above the rows that appears or grows while the page is hidden pushes
 * them down under the same offset, and Chromium's scroll anchoring misses some cases, so the page holds its first row itself.
 */

/** The attribute a list row carries with its item's key (LongList's and VirtualList's rows): what a page's place is tied to. */
export const ROW_KEY_ATTRIBUTE = 'data-row-key';

/** A row and where its top edge was, from the top of the page's scroll container (negative: partly scrolled past). */
export interface RowAnchor {
  key: string;
  top: number;
}

/** The first row at least partly on screen, and where it is: what the manager was looking at. */
export function rowAnchorOf(scroller: HTMLElement): RowAnchor | null {
  const viewTop = scroller.getBoundingClientRect().top;
  for (const row of scroller.querySelectorAll<HTMLElement>(`[${ROW_KEY_ATTRIBUTE}]`)) {
    const box = row.getBoundingClientRect();
    if (box.bottom > viewTop) return { key: row.getAttribute(ROW_KEY_ATTRIBUTE)!, top: box.top - viewTop };
  }
  return null;
}

/** How far the anchor's row is from where it was, in px; null once it is no longer in the page. */
function driftOf(scroller: HTMLElement, anchor: RowAnchor): number | null {
  // A key is an item's id; quotes and backslashes escaped all the same, as an attribute value in a selector.
  const row = scroller.querySelector(`[${ROW_KEY_ATTRIBUTE}="${anchor.key.replace(/["\\]/g, '\\$&')}"]`);
  if (!row) return null;
  return row.getBoundingClientRect().top - scroller.getBoundingClientRect().top - anchor.top;
}

/** Holds the anchor's row where it was while what is above it changes, until the page is scrolled; returns the release. */
export function holdRowInPlace(scroller: HTMLElement, anchor: RowAnchor): () => void {
  // The offset this hold last saw or set: any other offset that moved the row is someone else's scroll, which ends the hold.
  let known = scroller.scrollTop;
  let held = true;
  const settle = () => {
    const drift = driftOf(scroller, anchor);
    const moved = drift === null || Math.abs(drift) >= 1;
    // A scroll that kept the row in place (the browser's anchoring, a row measured anew) is no reason to let go.
    if (moved && Math.abs(scroller.scrollTop - known) >= 1) {
      release();
      return;
    }
    if (moved && drift !== null) scroller.scrollTop += drift;
    known = scroller.scrollTop;
  };
  // What pushes the row is a change of size above it: the scroll container's children (and any added later).
  const resizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(settle);
  const observeChildren = () => {
    for (const child of scroller.children) resizes?.observe(child);
  };
  const additions =
    typeof MutationObserver === 'undefined'
      ? null
      : new MutationObserver(() => {
          observeChildren();
          settle();
        });
  settle();
  observeChildren();
  additions?.observe(scroller, { childList: true });
  scroller.addEventListener('scroll', settle, { passive: true });
  function release() {
    if (!held) return;
    held = false;
    scroller.removeEventListener('scroll', settle);
    resizes?.disconnect();
    additions?.disconnect();
  }
  return release;
}
