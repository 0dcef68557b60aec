import type { Page } from 'playwright-core';
import { expect } from './expect';
import type { PageGlobals } from './page-globals';

/** Goes through the emulated WeCom authorise page as the given staff member and waits to be back in the app. */
export async function signInThroughEmulator(page: Page, userid = 'chanwaiman') {
  await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
  await page.click(`a.staff[data-userid="${userid}"]`);
  await page.waitForURL((url) => url.pathname !== '/wxEntry' && !url.pathname.startsWith('/wecom'));
  await expect(page.locator('.ba-route:visible').first()).toBeVisible();
}

/** Opens `path` in a fresh page and signs in on the way; resolves once the app shows `path` again. */
export async function openSignedIn(page: Page, baseUrl: string, path = '/') {
  await page.goto(`${baseUrl}${path}`);
  await signInThroughEmulator(page);
}

/**
 * How the page says WeCom opened it (`entry`, kept for the browser session): 'normal' until the sidebar flow has
 * heard `ww.getContext()`, which happens after the first page shows. A test that depends on the entry waits for it.
 */
export const sidebarEntryOf = (page: Page) =>
  page.evaluate(
    () =>
      (JSON.parse((globalThis as unknown as PageGlobals).sessionStorage.getItem('appSettings') ?? '{}') as { state?: { entry?: string } })
        .state?.entry,
  );

/** The title in the app's top bar (assert on it with toHaveText: it retries until the page shows it). */
export const topBarTitle = (page: Page) => page.locator('.ba-topbar__title');

/**
 * An in-app navigation to `path`, the way the router sees a link or WeCom's history move: a history
 * entry plus popstate. The pages of later issues will carry real links; until then this drives the router.
 */
export async function navigateInApp(page: Page, path: string, landsOn = path) {
  await page.evaluate((target) => {
    const { history, dispatchEvent, PopStateEvent } = globalThis as unknown as PageGlobals;
    const state = (history.state ?? {}) as { idx?: number };
    history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: (state.idx ?? 0) + 1 }, '', target);
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  }, path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === landsOn);
}

/** Marks a page's DOM so a later check can tell the same (kept) instance from a fresh mount. */
export async function markPage(page: Page, route: string) {
  await page.locator(`.ba-route[data-route="${route}"]`).evaluate((element) => {
    (element as unknown as { __kept?: boolean }).__kept = true;
  });
}

export async function isMarked(page: Page, route: string) {
  return page
    .locator(`.ba-route[data-route="${route}"]`)
    .evaluate((element) => Boolean((element as unknown as { __kept?: boolean }).__kept));
}

/** The page of `route` is the one on screen (kept-alive pages stay in the DOM, hidden). */
export async function expectRoute(page: Page, route: string) {
  await expect(page.locator(`.ba-route[data-route="${route}"]`)).toBeVisible();
}

/**
 * The client list's rows on a 812 px phone screen ("id@top"), as the manager sees them, read in one pass in the page.
 * (Not row by row through `.all()`: the windowed list mounts and unmounts rows as it settles, so the nth row found a
 * moment before may be gone, and its boundingBox() then waits 30 s for it, longer than the poll around this allows.)
 */
export function clientRowsOnScreen(page: Page) {
  return page.locator('.ba-route[data-route="clientManageList"] [data-testid="client-row"]').evaluateAll((rows) =>
    rows.flatMap((row) => {
      const box = row.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= 812 ? [`${row.getAttribute('data-customer-id')}@${Math.round(box.top)}`] : [];
    }),
  );
}

/**
 * The client list's rows on screen once it has drawn them after a scroll. The windowed list draws a new offset's rows
 * in a frame after the scroll event, not within scrollTo: read at once on a loaded machine, the screen held no row
 * yet (CI saw 0). Waits until at least `atLeast` rows are on screen and two reads in a row agree.
 */
export async function drawnClientRowsOnScreen(page: Page, atLeast = 3) {
  let previous: string[] = [];
  await expect
    .poll(async () => {
      const seen = await clientRowsOnScreen(page);
      const settled = seen.length >= atLeast && seen.join() === previous.join();
      previous = seen;
      return settled;
    })
    .toBe(true);
  return previous;
}
