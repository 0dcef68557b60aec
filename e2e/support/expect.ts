import { expect as playwrightExpect } from '@playwright/test';

/**
 * Playwright's web-first `expect` (toBeVisible, toHaveText, toHaveURL, toHaveCount… retry until the page
 * shows what they ask), used under vitest, which stays the runner (ADR 0030). It also carries the ordinary
 * matchers, so a test file needs this one `expect`. Outside Playwright's runner its timeout would be 5 s;
 * it gets the 30 s that `locator.waitFor()` allowed before: two cores shared with the server, PGlite and
 * Chromium sometimes need that long for a screen.
 */
export const expect = playwrightExpect.configure({ timeout: 30_000 });
