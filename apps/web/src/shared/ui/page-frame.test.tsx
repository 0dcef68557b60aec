import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { Activity } from 'react';
import { render, waitFor } from '@testing-library/react';
import { PageFrame } from './page-frame';
import { LongList } from './long-list';

/**
 * A page's scroll container as a phone's webview treats it: hidden (display:none, as <Activity> hides a kept
 * page) it reads 0 and forgets its offset, so it shows again at the top unless the page restores it.
 */
function scrollLikeAPhone(scroller: HTMLElement) {
  let offset = 0;
  const hidden = () => scroller.closest('[style*="display: none"]') !== null;
  Object.defineProperty(scroller, 'scrollTop', {
    configurable: true,
    get: () => (hidden() ? (offset = 0) : offset),
    set: (top: number) => {
      if (!hidden()) offset = top;
    },
  });
  return {
    /** The user scrolls: the offset changes, and the scroll event comes with the next frame. */
    scrollTo(top: number) {
      scroller.scrollTop = top;
      scroller.dispatchEvent(new Event('scroll'));
    },
  };
}

function renderKeptPage() {
  const page = (mode: 'visible' | 'hidden') => (
    <Activity mode={mode}>
      <div className="ba-route">
        <PageFrame>
          <div style={{ height: 5000 }} />
        </PageFrame>
      </div>
    </Activity>
  );
  const view = render(page('visible'));
  const scroller = view.getByTestId('page-scroll');
  return {
    scroller,
    phone: scrollLikeAPhone(scroller),
    hide: () => view.rerender(page('hidden')),
    show: () => view.rerender(page('visible')),
  };
}

test('a kept page shows again where the user left it', () => {
  const { scroller, phone, hide, show } = renderKeptPage();
  phone.scrollTo(900);
  hide();
  show();
  expect(scroller.scrollTop).toBe(900);
});

test('a scroll event that reaches the page once it is hidden does not lose the place', () => {
  const { scroller, phone, hide, show } = renderKeptPage();
  phone.scrollTo(900);
  hide();
  // The event of the user's last scroll, delivered after the page was hidden: it reads the hidden page's 0.
  scroller.dispatchEvent(new Event('scroll'));
  show();
  expect(scroller.scrollTop).toBe(900);
});

describe('a kept list page is restored by the row on screen, not by pixels (issue 22.2)', () => {
  const ROW_HEIGHT = 80;
  const clients = Array.from({ length: 30 }, (_, index) => ({ id: 100 + index }));

  /**
   * Lays the page out as a phone would (jsdom lays nothing out): a block of `data-height` px above the rows,
   * each row ROW_HEIGHT high, everything moved up by the scroll offset.
   */
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      if (this.dataset.testid === 'page-scroll') return new DOMRect(0, 0, 375, 812);
      const scroller = this.closest<HTMLElement>('[data-testid="page-scroll"]');
      const row = this.closest('[data-row-key]');
      if (!scroller || !row) return new DOMRect(0, 0, 0, 0);
      const block = Number(scroller.querySelector<HTMLElement>('[data-testid="block"]')?.dataset.height ?? 0);
      const index = [...row.parentElement!.children].indexOf(row);
      return new DOMRect(0, block + index * ROW_HEIGHT - scroller.scrollTop, 375, ROW_HEIGHT);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  function renderKeptList() {
    const page = (mode: 'visible' | 'hidden', block: number) => (
      <Activity mode={mode}>
        <div className="ba-route">
          <PageFrame>
            {block > 0 && <div data-testid="block" data-height={block} />}
            <LongList
              items={clients}
              itemKey={(client) => client.id}
              estimateSize={ROW_HEIGHT}
              renderItem={(client) => <span>{client.id}</span>}
            />
          </PageFrame>
        </div>
      </Activity>
    );
    const view = render(page('visible', 0));
    const scroller = view.getByTestId('page-scroll');
    /** The row at the top of the screen and where its top edge is. */
    const topRow = () => {
      const row = [...scroller.querySelectorAll<HTMLElement>('[data-row-key]')].find((each) => each.getBoundingClientRect().bottom > 0)!;
      return `${row.dataset.rowKey}@${row.getBoundingClientRect().top}`;
    };
    return {
      scroller,
      phone: scrollLikeAPhone(scroller),
      topRow,
      show: (block: number) => view.rerender(page('visible', block)),
      hide: (block: number) => view.rerender(page('hidden', block)),
    };
  }

  test('a block that appeared above the rows while the page was hidden does not move them', () => {
    const { phone, topRow, hide, show } = renderKeptList();
    phone.scrollTo(900);
    const before = topRow();
    hide(0);
    hide(120);
    show(120);
    expect(topRow()).toBe(before);
  });

  test('nor one that appears just after the page shows again (the recent clients, fetched on return)', async () => {
    const { phone, topRow, hide, show } = renderKeptList();
    phone.scrollTo(900);
    const before = topRow();
    hide(0);
    show(0);
    show(120);
    await waitFor(() => expect(topRow()).toBe(before));
  });

  test('once the manager scrolls, the place is theirs: a block appearing then moves the rows as usual', async () => {
    const { scroller, phone, hide, show } = renderKeptList();
    phone.scrollTo(900);
    hide(0);
    show(0);
    phone.scrollTo(500);
    show(120);
    // A tick for the observers to have run, had the page still held its row.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(scroller.scrollTop).toBe(500);
  });

  test('the page scrolling itself (new filters start from the top) lets go, even before its scroll event arrives', async () => {
    const { scroller, phone, hide, show } = renderKeptList();
    phone.scrollTo(900);
    hide(0);
    show(0);
    // The list page's own scrollTo: the offset changes now, the scroll event comes with the next frame.
    scroller.scrollTop = 0;
    show(120);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(scroller.scrollTop).toBe(0);
  });

  test('at the top, what appears above the rows is shown, not scrolled past', async () => {
    const { scroller, hide, show } = renderKeptList();
    hide(0);
    show(0);
    show(120);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(scroller.scrollTop).toBe(0);
  });
});
