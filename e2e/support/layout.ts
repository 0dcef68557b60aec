import type { Page } from 'playwright-core';

/**
 * Resolves once nothing on the page has moved for a few frames (sheets slide in, lists measure their rows), or
 * after five seconds: what a layout measurement waits for.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = '';
        let still = 0;
        const started = performance.now();
        const tick = () => {
          const now = [...document.querySelectorAll('.adm-popup-body, .ba-vlist__row, .ba-route')]
            .map((element) => {
              const rect = element.getBoundingClientRect();
              return `${rect.x},${rect.y},${rect.width},${rect.height}`;
            })
            .join(';');
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 5 || performance.now() - started > 5000) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}
