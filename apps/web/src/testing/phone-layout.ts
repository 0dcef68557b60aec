import { afterAll, beforeAll } from 'vitest';

export const PHONE_VIEWPORT_HEIGHT = 812;

/**
 * jsdom lays nothing out. For the calling test file, the page's scroll container (`.ba-page__scroll`) reports
 * a phone's viewport and every virtual-list row `rowHeight`, as a browser would; the list itself moves up as
 * its page scrolls (`scrollPageTo`).
 */
export function layOutLikeAPhone(rowHeight: number) {
  const originalRect = HTMLElement.prototype.getBoundingClientRect;
  const originalOffsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
  const originalClientHeight = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight')!;
  const originalClientWidth = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth')!;
  const isScroller = (element: Element) => element.classList.contains('ba-page__scroll');
  const isRow = (element: Element) => element.classList.contains('ba-vlist__row');
  beforeAll(() => {
    HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
      const height = isScroller(this) ? PHONE_VIEWPORT_HEIGHT : isRow(this) ? rowHeight : 0;
      const top = this.classList.contains('ba-vlist') ? -(this.closest('.ba-page__scroll')?.scrollTop ?? 0) : 0;
      return new DOMRect(0, top, 375, height);
    };
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return isRow(this) ? rowHeight : 0;
      },
    });
    Object.defineProperty(Element.prototype, 'clientHeight', {
      configurable: true,
      get(this: Element) {
        return isScroller(this) ? PHONE_VIEWPORT_HEIGHT : 0;
      },
    });
    Object.defineProperty(Element.prototype, 'clientWidth', {
      configurable: true,
      get(this: Element) {
        return isScroller(this) ? 375 : 0;
      },
    });
  });
  afterAll(() => {
    HTMLElement.prototype.getBoundingClientRect = originalRect;
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', originalOffsetHeight);
    Object.defineProperty(Element.prototype, 'clientHeight', originalClientHeight);
    Object.defineProperty(Element.prototype, 'clientWidth', originalClientWidth);
  });
}

/** Scrolls a page's scroll container to `top` as a browser would report it (jsdom keeps scrollTop at 0). */
export function scrollPageTo(scroller: HTMLElement, top: number) {
  Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: top });
  scroller.dispatchEvent(new Event('scroll'));
}
