import { afterAll, beforeAll, expect, test } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { VirtualList } from './virtual-list';
import { LongList, WINDOW_FROM } from './long-list';

const ROW_HEIGHT = 86;
const VIEWPORT_HEIGHT = 812;
const clients = Array.from({ length: 500 }, (_, index) => ({ id: index + 1, name: `Client ${index + 1}` }));

/**
 * jsdom lays nothing out: give the page's scroll container a phone's viewport and every row its
 * height, as a browser would report them, for the whole file.
 */
const originalRect = HTMLElement.prototype.getBoundingClientRect;
const originalOffsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
const originalClientHeight = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight')!;
const originalClientWidth = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth')!;
const isScroller = (element: HTMLElement) => element.classList.contains('ba-page__scroll');
beforeAll(() => {
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    const height = isScroller(this) ? VIEWPORT_HEIGHT : this.classList.contains('ba-vlist__row') ? ROW_HEIGHT : 0;
    // The list itself moves up as its page scrolls.
    const top = this.classList.contains('ba-vlist') ? -(this.closest('.ba-page__scroll')?.scrollTop ?? 0) : 0;
    return new DOMRect(0, top, 375, height);
  };
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('ba-vlist__row') ? ROW_HEIGHT : 0;
    },
  });
  Object.defineProperty(Element.prototype, 'clientHeight', {
    configurable: true,
    get(this: Element) {
      return this.classList.contains('ba-page__scroll') ? VIEWPORT_HEIGHT : 0;
    },
  });
  Object.defineProperty(Element.prototype, 'clientWidth', {
    configurable: true,
    get(this: Element) {
      return this.classList.contains('ba-page__scroll') ? 375 : 0;
    },
  });
});
afterAll(() => {
  HTMLElement.prototype.getBoundingClientRect = originalRect;
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', originalOffsetHeight);
  Object.defineProperty(Element.prototype, 'clientHeight', originalClientHeight);
  Object.defineProperty(Element.prototype, 'clientWidth', originalClientWidth);
});

function renderLongList() {
  const view = render(
    <div className="ba-page__scroll" data-testid="page-scroll">
      <VirtualList
        items={clients}
        itemKey={(client) => client.id}
        estimateSize={ROW_HEIGHT}
        renderItem={(client) => (
          <div data-testid="client-row" data-id={client.id}>
            {client.name}
          </div>
        )}
      />
    </div>,
  );
  return { ...view, scroller: view.container.querySelector<HTMLElement>('.ba-page__scroll')! };
}

const mountedIds = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-testid="client-row"]')].map((row) => Number(row.getAttribute('data-id')));

test('a list of 500 clients mounts only about a screenful of rows', () => {
  const { container } = renderLongList();
  const ids = mountedIds(container);
  const screenful = Math.ceil(VIEWPORT_HEIGHT / ROW_HEIGHT);
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
  act(() => {
    // jsdom keeps scrollTop at 0; a browser reports where the page was scrolled to.
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 300 * ROW_HEIGHT });
    scroller.dispatchEvent(new Event('scroll'));
  });
  const ids = mountedIds(container);
  expect(ids).toContain(301);
  expect(ids).not.toContain(1);
  expect(ids.length).toBeLessThanOrEqual(Math.ceil(VIEWPORT_HEIGHT / ROW_HEIGHT) + 2 * 6);
});

test('the client list windows once it holds more than two pages, and renders its first page plainly', async () => {
  const rows = (count: number) => (
    <div className="ba-page__scroll">
      <LongList
        items={clients.slice(0, count)}
        itemKey={(client) => client.id}
        estimateSize={ROW_HEIGHT}
        renderItem={(client) => (
          <div data-testid="client-row" data-id={client.id}>
            {client.name}
          </div>
        )}
      />
    </div>
  );
  const view = render(rows(20));
  expect(mountedIds(view.container)).toHaveLength(20);
  view.rerender(rows(500));
  await waitFor(() => expect(view.container.querySelector('.ba-vlist')!.getAttribute('style')).toContain(`${500 * ROW_HEIGHT}px`));
  expect(mountedIds(view.container).length).toBeLessThan(WINDOW_FROM);
});
