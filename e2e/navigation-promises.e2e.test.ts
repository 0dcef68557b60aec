import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemoData } from '@broker/server';
import { apiClient, signInAs } from '@broker/server/testing';
import { PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { clientRowsOnScreen, drawnClientRowsOnScreen, expectRoute, navigateInApp, openSignedIn } from './support/web-shell';
import type { PageGlobals } from './support/page-globals';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

/**
 * ADR 0047: navigation keeps its promises (the list's place with filters on, sub-page filters,
 * what a failed page says) and /wxEntry trusts a fresh WeCom code over a stored token. Real server, emulated WeCom.
 */
let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 300, seed: 5, asOf: hongKongDay() });
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function freshPhone(): Promise<Page> {
  const context = await browser.newContext(PHONE_CONTEXT);
  contexts.push(context);
  return context.newPage();
}

const route = (page: Page, name: string) => page.locator(`.ba-route[data-route="${name}"]`);
const scrollerOf = (page: Page, name: string) => route(page, name).locator('[data-testid="page-scroll"]').first();
const storedToken = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.getItem('token'));

describe('the client list keeps its place with filters and sort on (ADR 0047)', () => {
  /** How the list was narrowed: on the filter page (a sort, a status) or by a keyword in its own search box. */
  /** While the client is open: the manager pins them on the profile header, or saves a filter on another device. */
  type WhileAway = 'pin the client' | 'save a filter elsewhere';
  const ways: { name: string; narrow: (page: Page) => Promise<void>; whileAway?: WhileAway }[] = [
    { name: 'nothing narrowed', narrow: async () => undefined },
    { name: 'nothing narrowed, the client pinned on its profile', narrow: async () => undefined, whileAway: 'pin the client' },
    {
      name: 'a sort alone',
      narrow: async (page) => {
        await route(page, 'clientManageList').getByTestId('filter-entry').click();
        await expectRoute(page, 'clientManageFilter');
        await route(page, 'clientManageFilter').getByText('最近交易', { exact: true }).click();
        await route(page, 'clientManageFilter').getByTestId('filter-apply').click();
      },
    },
    {
      name: 'a sort and a filter',
      narrow: async (page) => {
        await route(page, 'clientManageList').getByTestId('filter-entry').click();
        await expectRoute(page, 'clientManageFilter');
        const filter = route(page, 'clientManageFilter');
        await filter.getByText('开户日期最新', { exact: true }).click();
        await filter.getByText('活跃', { exact: true }).click();
        await filter.getByTestId('filter-apply').click();
      },
    },
    {
      name: 'a keyword',
      narrow: async (page) => {
        const box = route(page, 'clientManageList').locator('input[type="search"]');
        await box.fill('a');
        await box.press('Enter');
      },
    },
  ];

  for (const way of ways) {
    test(`${way.name}: open a client from deep in the list, go back: the same rows at the same place`, async () => {
      // A manager who never opened a client: no pins, recents or saved filters, so no block above the rows yet.
      await server.database.query('delete from staff_pinned_client');
      await server.database.query('delete from staff_recent');
      await server.database.query('delete from staff_saved_filter');
      const page = await freshPhone();
      // The page's clock, to be away longer than the list's data stays fresh (it is fetched again on return).
      await page.clock.install();
      await openSignedIn(page, server.baseUrl, '/client/manage/list');
      const list = route(page, 'clientManageList');
      const rows = list.locator('[data-testid="client-row"]');
      await expect(rows.first()).toBeVisible();
      await expect(list.getByTestId('quick-clients')).toHaveCount(0);
      await way.narrow(page);
      await expectRoute(page, 'clientManageList');
      const narrowed = !way.name.startsWith('nothing narrowed');
      if (narrowed) await expect(list.getByTestId('active-filters')).toBeVisible();
      await expect(rows.first()).toBeVisible();

      // Deep in the list: as far as it goes (windowed once past two pages).
      const footer = list.locator('[data-testid="list-footer"]');
      while ((await footer.innerText()) !== '已经到底了') {
        const loaded = await rows.count();
        await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollTo(0, element.scrollHeight));
        await expect.poll(async () => (await rows.count()) > loaded || (await footer.innerText()) === '已经到底了').toBe(true);
      }
      const scrollTop = await scrollerOf(page, 'clientManageList').evaluate((element) => {
        element.scrollTo(0, Math.round(element.scrollHeight * 0.6));
        return element.scrollTop;
      });
      expect(scrollTop).toBeGreaterThan(1000);
      const before = await drawnClientRowsOnScreen(page);

      await list.locator(`[data-testid="client-row"][data-customer-id="${before[1]!.split('@')[0]}"]`).click();
      await expectRoute(page, 'clientInformation');
      await expect(route(page, 'clientInformation').locator('[data-testid="profile-name"]')).toBeVisible();
      if (way.whileAway === 'pin the client') {
        // The profile's star writes the pin into the shortcuts the list reads: the pinned block is there as the list shows.
        const pin = route(page, 'clientInformation').getByTestId('pin-toggle');
        await pin.click();
        await expect(pin).toHaveAttribute('aria-pressed', 'true');
      } else {
        // On another device the manager saves a filter: the saved-filters strip joins the block above the rows
        // (and, with nothing narrowed, the first recent client appears there too).
        await apiClient(server.baseUrl, await signInAs(server.baseUrl)).ok.saveFilter({ name: '活跃', filters: { statuses: ['active'] } });
      }
      await page.clock.fastForward('01:00');
      await page.goBack();
      await expectRoute(page, 'clientManageList');
      if (way.whileAway === 'pin the client') await expect(list.getByTestId('pinned-clients')).toBeVisible();
      else await expect(list.getByTestId('saved-filters')).toBeVisible();
      if (!narrowed && !way.whileAway) await expect(list.getByTestId('recent-clients')).toBeVisible();
      // The block above grew while the manager was away: the rows they were looking at stay where they were.
      await expect.poll(() => clientRowsOnScreen(page)).toEqual(before);
      // And the place is the manager's again: scrolling on from there moves the rows.
      await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollBy(0, -300));
      await expect.poll(() => clientRowsOnScreen(page)).not.toEqual(before);
    });
  }
});

describe('the first recent client at 375 px in the three languages (ADR 0047)', () => {
  test('the rows stay under the manager as the block arrives above them; at the top, the block', async () => {
    for (const language of ['zh-CN', 'zh-HK', 'en'] as const) {
      await server.database.query('delete from staff_pinned_client');
      await server.database.query('delete from staff_recent');
      await server.database.query('delete from staff_saved_filter');
      const page = await freshPhone();
      await openSignedIn(page, server.baseUrl, '/client/manage/list');
      await page.evaluate((chosen) => (globalThis as unknown as PageGlobals).localStorage.setItem('language', chosen), language);
      await page.goto(`${server.baseUrl}/client/manage/list`);
      await expectRoute(page, 'clientManageList');
      const list = route(page, 'clientManageList');
      const rows = list.locator('[data-testid="client-row"]');
      await expect(rows.first()).toBeVisible();
      // A little way down: the stat header's foot still on screen, the rows under it.
      await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollTo(0, 300));
      const before = await drawnClientRowsOnScreen(page);
      await list.locator(`[data-testid="client-row"][data-customer-id="${before[0]!.split('@')[0]}"]`).click();
      await expectRoute(page, 'clientInformation');
      await expect(route(page, 'clientInformation').locator('[data-testid="profile-name"]')).toBeVisible();
      await page.goBack();
      await expectRoute(page, 'clientManageList');
      await expect(list.getByTestId('recent-clients')).toHaveCount(1);
      await expect.poll(() => clientRowsOnScreen(page)).toEqual(before);
      await saveScreenshot(page, `list-kept-rows-first-recent-${language}-375`);
      await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollTo(0, 0));
      await expect(list.getByTestId('recent-clients')).toBeInViewport();
      await saveScreenshot(page, `list-first-recent-${language}-375`);
    }
  });
});

describe("a client's record pages keep their filters (ADR 0047)", () => {
  /** Each record page, and the filter rows whose second chip (the first choice after "all") is turned on. */
  const recordPages = [
    { link: 'link-trades', route: 'clientTransaction', rows: ['side', 'status', 'period'] },
    { link: 'link-money', route: 'clientMoneyRecord', rows: ['direction', 'period'] },
    { link: 'link-transfers', route: 'clientTransferStock', rows: ['direction', 'market', 'period'] },
    { link: 'link-holdings', route: 'clientHoldingStock', rows: ['market'] },
  ] as const;

  const chosen = (page: Page, name: string, row: string) =>
    route(page, name).getByTestId(`filter-${row}`).locator('[role="radio"][aria-checked="true"]');

  for (const recordPage of recordPages) {
    test(`${recordPage.route}: a visit elsewhere and back, back and forward, a reload — the filters stay`, async () => {
      const api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
      const [client] = (await api.ok.searchCustomers({ pageSize: 1, sortBy: 'lastTrade', sortOrder: 'desc' })).list;
      const page = await freshPhone();
      await openSignedIn(page, server.baseUrl, `/client/information?customerId=${client!.customerId}`);
      await route(page, 'clientInformation').getByTestId(recordPage.link).click();
      await expectRoute(page, recordPage.route);
      const picked: Record<string, string> = {};
      for (const row of recordPage.rows) {
        const chip = route(page, recordPage.route).getByTestId(`filter-${row}`).locator('[role="radio"]').nth(1);
        picked[row] = await chip.innerText();
        await chip.click();
        await expect(chosen(page, recordPage.route, row)).toHaveText(picked[row]);
      }
      const expectKept = async () => {
        await expectRoute(page, recordPage.route);
        for (const row of recordPage.rows) await expect(chosen(page, recordPage.route, row)).toHaveText(picked[row]!);
      };

      // A detail elsewhere (the client's contact log), then back.
      await navigateInApp(page, `/client/contact/log?customerId=${client!.customerId}`);
      await expectRoute(page, 'contactLog');
      await page.goBack();
      await expectKept();
      // Back to the profile and forward again.
      await page.goBack();
      await expectRoute(page, 'clientInformation');
      await page.goForward();
      await expectKept();
      await page.reload();
      await expectKept();
      await saveScreenshot(page, `record-filters-kept-${recordPage.route}`);
      // The rows shown are the filtered ones: the request carried the filters.
      await expect(route(page, recordPage.route).locator('[data-testid="record-row"], [data-testid="empty-state"]').first()).toBeVisible();
    });
  }
});

describe('a page that cannot load says what failed (ADR 0047)', () => {
  test('an unknown event, record or client is named as such, in each language, with a way back', async () => {
    const page = await freshPhone();
    await openSignedIn(page, server.baseUrl, '/client/manage/list');
    const cases = [
      { path: '/mot/eventDetail?eventId=987654321', route: 'motEventDetail', shot: 'event' },
      { path: '/client/contact/record?recordId=987654321', route: 'contactRecord', shot: 'record' },
      { path: '/client/information?customerId=987654321', route: 'clientInformation', shot: 'client' },
    ] as const;
    const wording = {
      'zh-CN': { event: '该事件不存在或已被移除', record: '该记录不存在或已被删除', client: '客户不存在或已被移除' },
      'zh-HK': { event: '該事件不存在或已被移除', record: '該記錄不存在或已被刪除', client: '客戶不存在或已被移除' },
      en: {
        event: 'This event does not exist or was removed',
        record: 'This record does not exist or was deleted',
        client: 'This client does not exist or was removed',
      },
    } as const;
    for (const language of ['zh-CN', 'zh-HK', 'en'] as const) {
      await page.evaluate((value) => (globalThis as unknown as PageGlobals).localStorage.setItem('language', value), language);
      for (const { path, route: name, shot } of cases) {
        await page.goto(`${server.baseUrl}${path}`);
        const unavailable = route(page, name).locator('[data-reason="notFound"]');
        await expect(unavailable).toContainText(wording[language][shot]);
        // Not something a retry or the network would fix: no "check your network".
        await expect(route(page, name)).not.toContainText(/网络|網絡|connection/);
        await expect(unavailable.getByRole('button')).toBeVisible();
        await saveScreenshot(page, `not-found-${shot}-${language}`);
      }
    }
  });
});

describe('/wxEntry trusts a fresh code over a stored token (ADR 0047)', () => {
  /**
   * Starts a real sign-in in a fresh phone and stops on WeCom's authorise page; before the manager picks
   * themselves there, the app's storage gets `token` (what an earlier session left behind).
   */
  async function onAuthorisePageWithStoredToken(token: string) {
    const page = await freshPhone();
    const authorisePages: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().includes('/wecom/connect/oauth2/authorize')) authorisePages.push(frame.url());
    });
    const loginCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/login/')) loginCalls.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.baseUrl}/client/manage/list`);
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    // The emulated authorise page is served from the app's origin: its storage is the app's.
    await page.evaluate((stale) => (globalThis as unknown as PageGlobals).localStorage.setItem('token', stale), token);
    return { page, authorisePages, loginCalls };
  }

  test('a stale stored token: the code is exchanged and its session used, no second trip to WeCom', async () => {
    // A token this server once issued and has ended since: signed in, then signed out everywhere.
    const earlier = await freshPhone();
    await openSignedIn(earlier, server.baseUrl, '/client/manage/list');
    const stale = (await storedToken(earlier))!;
    await server.database.query(`delete from auth_session where token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`, [stale]);

    const { page, authorisePages, loginCalls } = await onAuthorisePageWithStoredToken(stale);
    expect(authorisePages).toHaveLength(1);
    await page.click('a.staff[data-userid="leekaying"]');
    await expectRoute(page, 'clientManageList');
    await expect(route(page, 'clientManageList').locator('[data-testid="client-row"]').first()).toBeVisible();
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    expect(token).not.toBe(stale);
    // One trip to WeCom (the one that brought the code), one exchange, no new sign-in started.
    expect(authorisePages).toHaveLength(1);
    expect(loginCalls.filter((path) => path.endsWith('/login/start'))).toHaveLength(1);
    expect(loginCalls.filter((path) => path.endsWith('/login/qywx'))).toHaveLength(1);
  });

  test('an unusable code with a working stored token: nothing is exchanged, the manager is asked before going on', async () => {
    const page = await freshPhone();
    await openSignedIn(page, server.baseUrl, '/client/manage/list');
    const token = await storedToken(page);
    const exchanges: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/login/')) exchanges.push(request.url());
    });
    for (const [language, stillSignedIn, goOn] of [
      ['zh-CN', '你仍以陈伟文的身份登录', '继续使用'],
      ['zh-HK', '你仍以陈伟文的身分登入', '繼續使用'],
      ['en', 'You are still signed in as 陈伟文', 'Continue'],
    ] as const) {
      await page.evaluate((value) => (globalThis as unknown as PageGlobals).localStorage.setItem('language', value), language);
      // A control character inside: the shared checker refuses it, so it is not a sign-in at all.
      await page.goto(`${server.baseUrl}/wxEntry?code=abc%0Adef&state=abc&redirectPage=%2Fmot%2Fhome`);
      await expect(page.getByTestId('error-state')).toContainText(stillSignedIn);
      await saveScreenshot(page, `sign-in-unusable-code-${language}`);
      expect(await storedToken(page)).toBe(token);
      await page.getByRole('button', { name: goOn }).click();
      await expectRoute(page, 'motHome');
    }
    expect(exchanges).toEqual([]);
  });
});
