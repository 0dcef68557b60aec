import { expect, test, vi } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { VirtualList } from './virtual-list';
import { LongList, WINDOW_FROM } from './long-list';
import { layOutLikeAPhone, PHONE_VIEWPORT_HEIGHT, scrollPageTo } from '../../testing/phone-layout';

const ROW_HEIGHT = 86;
const clients = Array.from({ length: 500 }, (_, index) => ({ id: index + 1, name: `Client ${index + 1}` }));

layOutLikeAPhone(ROW_HEIGHT);

const clientRow = (client: (typeof clients)[number]) => (
  <div data-testid="client-row" data-id={client.id}>
    {client.name}
  </div>
);

function renderLongList() {
  const view = render(
    <div className="ba-page__scroll" data-testid="page-scroll">
      <VirtualList items={clients} itemKey={(client) => client.id} estimateSize={ROW_HEIGHT} renderItem={clientRow} />
    </div>,
  );
  return { ...view, scroller: view.container.querySelector<HTMLElement>('.ba-page__scroll')! };
}

const mountedIds = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-testid="client-row"]')].map((row) => Number(row.getAttribute('data-id')));

test('a list of 500 clients mounts only about a screenful of rows', () => {
  const { container } = renderLongList();
  const ids = mountedIds(container);
  const screenful = Math.ceil(PHONE_VIEWPORT_HEIGHT / ROW_HEIGHT);
  expect(ids.length).toBeGreaterThanOrEqual(screenful);
  // A screenful plus the few rows kept either side, never the whole list.
  expect(ids.length).toBeLessThanOrEqual(screenful + 2 * 6);
  expect(ids[0]).toBe(1);
  expect(ids).not.toContain(500);
  // The list still takes the whole list's height, so the page scrolls as if every row were there.
  expect(container.querySelector<HTMLElement>('.ba-vlist')!.style.height).toBe(`${500 * ROW_HEIGHT}px`);
});

test('scrolling the page swaps the mounted rows for the ones now on screen', () => {
  const { container, scroller } = renderLongList();
  act(() => scrollPageTo(scroller, 300 * ROW_HEIGHT));
  const ids = mountedIds(container);
  expect(ids).toContain(301);
  expect(ids).not.toContain(1);
  expect(ids.length).toBeLessThanOrEqual(Math.ceil(PHONE_VIEWPORT_HEIGHT / ROW_HEIGHT) + 2 * 6);
});

test('the client list windows once it holds more than two pages, and renders its first page plainly', async () => {
  const rows = (count: number) => (
    <div className="ba-page__scroll">
      <LongList items={clients.slice(0, count)} itemKey={(client) => client.id} estimateSize={ROW_HEIGHT} renderItem={clientRow} />
    </div>
  );
  const view = render(rows(20));
  expect(mountedIds(view.container)).toHaveLength(20);
  view.rerender(rows(500));
  await waitFor(() => expect(view.container.querySelector('.ba-vlist')!.getAttribute('style')).toContain(`${500 * ROW_HEIGHT}px`));
  expect(mountedIds(view.container).length).toBeLessThan(WINDOW_FROM);
});

/** A client list in its page, scrolled by the test; its rows' usual height may be guessed wrong (`estimateSize`). */
function renderGrowingList(estimateSize = ROW_HEIGHT) {
  const rows = (count: number) => (
    <div className="ba-page__scroll">
      <LongList items={clients.slice(0, count)} itemKey={(client) => client.id} estimateSize={estimateSize} renderItem={clientRow} />
    </div>
  );
  const view = render(rows(WINDOW_FROM));
  const scroller = view.container.querySelector<HTMLElement>('.ba-page__scroll')!;
  // A browser's scrollTo (jsdom has none), whose scroll event comes a moment later: the virtualizer positions the page through it.
  scroller.scrollTo = ((options: ScrollToOptions) => {
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: options.top ?? 0 });
    setTimeout(() => scroller.dispatchEvent(new Event('scroll')));
  }) as typeof scroller.scrollTo;
  return {
    view,
    scroller,
    /** The user reaches the end of the second page, which loads the third: the list now windows. */
    async growAtTheEnd() {
      act(() => scrollPageTo(scroller, WINDOW_FROM * ROW_HEIGHT - PHONE_VIEWPORT_HEIGHT));
      view.rerender(rows(WINDOW_FROM + 9));
      await waitFor(() => expect(view.container.querySelector('.ba-vlist__row[data-index]')).not.toBeNull());
    },
  };
}

test('a list that starts windowing on a scrolled page keeps the page where the user left it', async () => {
  const { view, scroller, growAtTheEnd } = renderGrowingList();
  await growAtTheEnd();
  expect(scroller.scrollTop).toBe(WINDOW_FROM * ROW_HEIGHT - PHONE_VIEWPORT_HEIGHT);
  // The rows on screen are the last of the second page, not the first page's.
  expect(mountedIds(view.container)).toContain(WINDOW_FROM);
  expect(mountedIds(view.container)).not.toContain(1);
});

test('rows shown before the list windows stay where they were, however wrong the usual height was', async () => {
  const { view, scroller, growAtTheEnd } = renderGrowingList(ROW_HEIGHT + 14);
  await growAtTheEnd();
  const positions = [...view.container.querySelectorAll<HTMLElement>('.ba-vlist__row[data-index]')].map((row) => ({
    index: Number(row.dataset.index),
    top: Number(/translateY\((-?[\d.]+)px\)/.exec(row.style.transform)![1]),
  }));
  expect(positions.map((row) => row.index)).toContain(WINDOW_FROM - 1);
  // Each at the height it was shown at, not at the guess: the screen shows what it showed before the switch.
  for (const row of positions) expect(row.top).toBe(row.index * ROW_HEIGHT);
  expect(scroller.scrollTop).toBe(WINDOW_FROM * ROW_HEIGHT - PHONE_VIEWPORT_HEIGHT);
});

test('while the windowing code loads, the rows on screen stay the same rows, the new ones added below', async () => {
  // A fresh LongList module: VirtualList's chunk not yet loaded, as on a phone that reaches the third page.
  vi.resetModules();
  const { LongList: FreshLongList } = await import('./long-list');
  const rows = (count: number) => (
    <div className="ba-page__scroll">
      <FreshLongList items={clients.slice(0, count)} itemKey={(client) => client.id} estimateSize={ROW_HEIGHT} renderItem={clientRow} />
    </div>
  );
  const view = render(rows(WINDOW_FROM));
  const lastSeen = view.container.querySelector(`[data-testid="client-row"][data-id="${WINDOW_FROM}"]`)!;
  view.rerender(rows(WINDOW_FROM + 9));
  // Not swapped for copies (the browser would lose its place among them): the same element, and the third page under it.
  expect(lastSeen.isConnected).toBe(true);
  expect(mountedIds(view.container)).toHaveLength(WINDOW_FROM + 9);
  await waitFor(() => expect(view.container.querySelector('.ba-vlist__row[data-index]')).not.toBeNull());
});
