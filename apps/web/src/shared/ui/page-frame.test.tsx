import { expect, test } from 'vitest';
import { Activity } from 'react';
import { render } from '@testing-library/react';
import { PageFrame } from './page-frame';

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
