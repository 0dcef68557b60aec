import { afterAll, beforeAll, describe, test } from 'vitest';
import fc from 'fast-check';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { safeAppTarget } from '@broker/contract/app-routes';
import { hostileNavigationSample, hostileTargetArbitrary, type HostileTarget } from '@broker/contract/testing';
import { PHONE_CONTEXT, launchBrowser } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { openSignedIn, sidebarEntryOf, signInThroughEmulator } from './support/web-shell';
import { expect } from './support/expect';

/*
 * ADR 0013: every navigation to a target taken from a URL, storage or a message goes through one rule
 * (safeAppTarget, ADR 0013). Each hostile target is driven through each path in chromium: none may leave
 * the origin, run script, or leave the page on the sign-in spinner; the user lands on the client list (or
 * on the own route asked for).
 */

let server: E2eServer;
let browser: Browser;
let origin: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startE2eServer();
  origin = new URL(server.baseUrl).origin;
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

/** The listed sample, plus generated strings (fixed seed) whose expected landing is the rule's own answer. */
const generated: HostileTarget[] = fc
  .sample(hostileTargetArbitrary, { numRuns: 3, seed: 1713 })
  .filter((target) => target !== '')
  .map((target) => ({ target, lands: safeAppTarget(target) }));
const TARGETS: HostileTarget[] = [...hostileNavigationSample().filter(({ target }) => target !== ''), ...generated];

const label = (target: string) => JSON.stringify(target).slice(0, 70);
const pathAndQuery = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

interface Watched {
  page: Page;
  context: BrowserContext;
  /** Requests to any other origin, script that ran from a target, dialogs that opened: all must stay empty. */
  escapes: string[];
}

async function watchedPage(): Promise<Watched> {
  const context = await browser.newContext(PHONE_CONTEXT);
  contexts.push(context);
  const page = await context.newPage();
  const escapes: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && new URL(url).origin !== origin) escapes.push(`request ${url}`);
  });
  page.on('dialog', (dialog) => {
    escapes.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('popup', (popup) => escapes.push(`popup ${popup.url()}`));
  return { page, context, escapes };
}

/** The router's redirects (route-table.ts), which keep the query: `/` is where WeCom opens the app. */
const REDIRECTS: Record<string, string> = {
  '/': '/client/manage/list',
  '/client': '/client/information',
  '/client/manage': '/client/manage/list',
  '/mot': '/mot/home',
};
const afterRedirect = (target: string) => {
  const url = new URL(target, 'https://app.invalid');
  return `${REDIRECTS[url.pathname] ?? url.pathname}${url.search}`;
};

/** Landed: same origin, on `lands`, a page of the app shown, not the sign-in spinner, no script from the target. */
async function expectLanded({ page, escapes }: Watched, target: string, asked: string) {
  const lands = afterRedirect(asked);
  await expect(page, label(target)).toHaveURL((url) => url.origin === origin && `${url.pathname}${url.search}` === lands);
  await expect(page.locator('.ba-route:visible').first(), label(target)).toBeVisible();
  expect(pathAndQuery(page), label(target)).toBe(lands);
  await expect(page.locator('.ba-waiting'), label(target)).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as unknown as { __hostileRan?: number }).__hostileRan), label(target)).toBeUndefined();
  expect(escapes, label(target)).toEqual([]);
  // Settled: no navigation of the landing still under way when the next case takes the page.
  await page.waitForLoadState('networkidle');
}

describe('/wxEntry redirectPage and relauchType returns', () => {
  let watched: Watched;
  beforeAll(async () => {
    watched = await watchedPage();
    await openSignedIn(watched.page, server.baseUrl, '/mot/home');
  });

  test.each(TARGETS)('$target', async ({ target, lands }) => {
    const { page } = watched;
    // Signed out, a link asks to come back to `target` after sign-in (docs/spec.md §4 relauchType=reLogin).
    // Both the token and the browser's binding cookie go, or the page would resume its session (ADR 0012).
    await page.evaluate(() => localStorage.removeItem('token'));
    await watched.context.clearCookies();
    // The app leaves for WeCom as soon as it starts, possibly before its own load event: wait for the commit only.
    await page.goto(`${server.baseUrl}/mot/home?${new URLSearchParams({ relauchType: 'reLogin', redirectPage: target }).toString()}`, {
      waitUntil: 'commit',
    });
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    const authorize = new URL(page.url());
    const back = new URL(authorize.searchParams.get('redirect_uri')!);
    expect(back.origin, label(target)).toBe(origin);
    expect(back.searchParams.get('redirectPage'), label(target)).toBe(lands);
    // The return address itself tampered with: /wxEntry receives the hostile target as it is.
    back.searchParams.set('redirectPage', target);
    authorize.searchParams.set('redirect_uri', back.toString());
    await page.goto(authorize.toString());
    await signInThroughEmulator(page);
    await expectLanded(watched, target, lands);
  });
});

describe('the KYC storage listener, driven from a second tab (entry single_chat_tools)', () => {
  let watched: Watched;
  let writer: Page;
  beforeAll(async () => {
    watched = await watchedPage();
    // Opened from the chat toolbar, as WeCom opens the sidebar: the page's entry is single_chat_tools.
    const opener = new URLSearchParams({
      entry: 'single_chat_tools',
      externalUserId: 'wmEmu0001HoKwokLeung',
      url: '/client/information?customerId=1',
    });
    await openSignedIn(watched.page, server.baseUrl, `/wecom/__emulator/sidebar?${opener.toString()}`);
    // The listener follows only once the page knows its entry (from WeCom, after the first page shows); a case
    // that reloads the page before then starts with entry 'normal' and the bind is rightly ignored.
    await expect.poll(() => sidebarEntryOf(watched.page)).toBe('single_chat_tools');
    writer = await watched.context.newPage();
    await writer.goto(`${server.baseUrl}/healthz`);
  });

  test.each(TARGETS)('$target', async ({ target, lands }) => {
    const { page } = watched;
    const query = new URLSearchParams({ customerId: '1', redirectPage: target }).toString();
    await page.goto(`${server.baseUrl}/client/information?${query}`);
    await expect(page.locator('.ba-route[data-route="clientInformation"]')).toBeVisible();

    // Bound in the other tab: this one follows to redirectPage with the customer, if redirectPage is an own route.
    await writer.evaluate((now) => {
      localStorage.setItem('kyc_customerId', '7');
      localStorage.setItem('kyc', `bind:7:${now}`);
    }, Date.now());
    const bound = new URL(lands, origin);
    bound.searchParams.set('customerId', '7');
    await expectLanded(watched, target, `${bound.pathname}${bound.search}`);

    // Unbound in the other tab: /kyc/index, carrying redirectPage (an own route) for the next bind.
    await page.goto(`${server.baseUrl}/client/information?${query}`);
    await expect(page.locator('.ba-route[data-route="clientInformation"]')).toBeVisible();
    await writer.evaluate((now) => {
      localStorage.removeItem('kyc_customerId');
      localStorage.setItem('kyc', `unbind:7:${now}`);
    }, Date.now());
    await expectLanded(watched, target, `/kyc/index?${new URLSearchParams({ redirectPage: lands }).toString()}`);
  });
});

describe("the emulator's sidebar opener (a message naming the page to open)", () => {
  let watched: Watched;
  beforeAll(async () => {
    watched = await watchedPage();
    await openSignedIn(watched.page, server.baseUrl, '/mot/home');
  });

  test.each(TARGETS)('$target', async ({ target, lands }) => {
    await watched.page.goto(
      `${server.baseUrl}/wecom/__emulator/sidebar?${new URLSearchParams({ entry: 'normal', url: target }).toString()}`,
    );
    await expectLanded(watched, target, lands);
  });
});
