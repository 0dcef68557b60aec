/**
 * A kept page's place, by row rather than by pixels (ADR 0047). Restoring a scroll offset puts back the pixels,
 * not what the manager was looking at: a block above the rows that appears or grows while the page is hidden or
 * just after it shows again (the client list's recent clients on the first open, a pin, a saved filter added on
 * another device) pushes the rows down under the same offset. Chromium's own scroll anchoring catches some of
 * these and not others (it gives up when an ancestor's size or a row's transform changes in the same frame, as the
 * windowed list's do), so the page holds its first row on screen itself.
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

/**
 * Puts the anchor's row back where it was and keeps it there while what is above it changes size, until someone
 * else moves the page: the manager scrolling, or the page itself (new filters start from the top). Returns the
 * release, for when the page is hidden again.
 */
export function holdRowInPlace(scroller: HTMLElement, anchor: RowAnchor): () => void {
  // The offset this hold last saw or set: a change to anything else that also moved the row is someone else's
  // scroll (the manager's, or the page's own: new filters start from the top), and the place is theirs from then on.
  let known = scroller.scrollTop;
  let held = true;
  const settle = () => {
    const drift = driftOf(scroller, anchor);
    const moved = drift === null || Math.abs(drift) >= 1;
    // A scroll that kept the row in place (the browser's own anchoring, the windowed list correcting a row's
    // measured height) is no reason to let go.
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
