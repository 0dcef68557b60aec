import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP_SIDEBAR_CONTEXT, PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import type { PageGlobals } from './support/page-globals';
import {
  isMarked,
  markPage,
  navigateInApp,
  openSignedIn,
  sidebarEntryOf,
  signInThroughEmulator,
  topBarTitle,
  expectRoute,
} from './support/web-shell';
import { expect } from './support/expect';

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startE2eServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function freshPage(options = PHONE_CONTEXT): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  return context.newPage();
}

/** Every page route of docs/spec.md §2 with its zh-CN title. */
const ROUTES = [
  { path: '/client/manage/list', name: 'clientManageList', title: '客户管理' },
  { path: '/client/manage/search', name: 'clientManageSearch', title: '客户管理' },
  { path: '/client/information', name: 'clientInformation', title: '客户资料' },
  { path: '/client/information/accountDetail/holdingStock', name: 'clientHoldingStock', title: '持仓明细' },
  { path: '/client/information/accountDetail/transaction', name: 'clientTransaction', title: '交易数据' },
  { path: '/client/information/moneyRecord/moneyRecord', name: 'clientMoneyRecord', title: '出入金记录' },
  { path: '/client/information/moneyRecord/transferStock', name: 'clientTransferStock', title: '转仓记录' },
  { path: '/client/edit', name: 'clientEdit', title: '客户资料' },
  { path: '/kyc/index', name: 'kycIndex', title: 'KYC' },
  { path: '/mot/home', name: 'motHome', title: 'MOT' },
  { path: '/mot/eventDetail', name: 'motEventDetail', title: '事件详情' },
  { path: '/mot/singleClient', name: 'motSingleClient', title: '当前客户' },
  { path: '/mot/historySearch', name: 'motHistorySearch', title: '服务记录' },
] as const;

describe('sign-in', () => {
  test('opens / in a fresh browser, signs in through the emulator and comes back signed in', async () => {
    const page = await freshPage();
    await page.goto(`${server.baseUrl}/`);
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    const authorize = new URL(page.url());
    expect(authorize.searchParams.get('scope')).toBe('snsapi_privateinfo');
    expect(authorize.searchParams.get('agentid')).toBeTruthy();
    const back = new URL(authorize.searchParams.get('redirect_uri')!);
    expect(back.pathname).toBe('/wxEntry');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      redirectPage: '/client/manage/list',
      corpCode: 'fxhl',
      agentCode: 'khzl',
      needBack: '1',
    });
    await saveScreenshot(page, 'sign-in-emulator');

    await signInThroughEmulator(page);
    await expect(page).toHaveURL((url) => url.pathname === '/client/manage/list');
    await expectRoute(page, 'clientManageList');
    await expect(page).toHaveTitle('客户管理');
    await expect(topBarTitle(page)).toHaveText('客户管理');

    const token = await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.getItem('token'));
    expect(token).toBeTruthy();
    // Raw: sent from inside the page, so with the browser's own binding cookie, which the test client does not hold.
    const call = await page.evaluate(async (brokerToken) => {
      const response = await fetch('/api/client/staff/asset/getDefaultCcy', {
        headers: { 'corp-code': 'fxhl', 'agent-code': 'khzl', 'broker-token': brokerToken! },
      });
      return (await response.json()) as { code: string };
    }, token);
    expect(call.code).toBe('0');
  });

  test('a deep link signs in and comes back to the page that was opened', async () => {
    const page = await freshPage();
    await openSignedIn(page, server.baseUrl, '/mot/historySearch');
    await expect(page).toHaveURL((url) => url.pathname === '/mot/historySearch');
    await expect(page).toHaveTitle('服务记录');
  });

  test('a token the server refuses (080001) sends the user through sign-in again, once, back to the same page', async () => {
    const page = await freshPage();
    await openSignedIn(page, server.baseUrl, '/kyc/index');
    await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.setItem('token', 'not-a-real-token'));
    // Without its session cookie the browser has nothing to resume (with it, sign-in-security.e2e shows the resume).
    await page.context().clearCookies();
    const authorisePages: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().includes('/wecom/connect/oauth2/authorize?')) authorisePages.push(frame.url());
    });
    // Only until the document arrives: the refused token sends the app on to sign-in by itself, and when that comes
    // before the page's load event, a goto waiting for load fails with ERR_ABORTED (CI saw it on a busy machine).
    await page.goto(`${server.baseUrl}/mot/home`, { waitUntil: 'commit' });
    await signInThroughEmulator(page);
    await expect(page).toHaveURL((url) => url.pathname === '/mot/home');
    expect(authorisePages).toHaveLength(1);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.getItem('token'))).not.toBe('not-a-real-token');
  });
});

describe('sign-in failures', () => {
  test('a used or bogus code shows a localized message in a toast and offers to sign in again', async () => {
    const page = await freshPage();
    // A sign-in this browser really started (its cookie and state), coming back with a code WeCom never issued.
    await page.goto(`${server.baseUrl}/mot/home`);
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    const state = new URL(page.url()).searchParams.get('state')!;
    await page.goto(`${server.baseUrl}/wxEntry?code=bogus-code&state=${state}&redirectPage=%2Fmot%2Fhome`);
    const toast = page.locator('.adm-toast-main');
    await expect(toast).toBeVisible();
    // 080002's English server msg is replaced by the user's language (shared/api/error-messages.ts).
    await expect(toast).toContainText('企业微信授权已失效');
    await expect(page.getByTestId('error-state')).toBeVisible();
    await expect(page).toHaveTitle('经纪助手');
    await saveScreenshot(page, 'route-wxEntry-failed');
    await page.getByRole('button', { name: '重新登录' }).click();
    await signInThroughEmulator(page);
    await expect(page).toHaveURL((url) => url.pathname === '/mot/home');
  });
});

describe('routes', () => {
  let page: Page;
  const problems: string[] = [];
  beforeAll(async () => {
    page = await freshPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // 404s of API calls the server does not have yet (silent user-settings calls) are expected.
      if ((message.type() === 'error' || message.type() === 'warning') && !message.text().startsWith('Failed to load resource')) {
        problems.push(`${message.type()}: ${message.text()}`);
      }
    });
    await openSignedIn(page, server.baseUrl, '/');
  });

  afterAll(() => {
    expect(problems).toEqual([]);
  });

  test('every route renders with its title and document title', async () => {
    for (const route of ROUTES) {
      await page.goto(`${server.baseUrl}${route.path}`);
      await expectRoute(page, route.name);
      await expect(topBarTitle(page), route.path).toHaveText(route.title);
      await expect(page, route.path).toHaveTitle(route.title);
      await page.waitForLoadState('networkidle');
      await saveScreenshot(page, `route-${route.name}`);
    }
  });

  test('the document title follows in-app navigation', async () => {
    await page.goto(`${server.baseUrl}/client/manage/list`);
    await expectRoute(page, 'clientManageList');
    await navigateInApp(page, '/mot/eventDetail');
    await expectRoute(page, 'motEventDetail');
    await expect(page).toHaveTitle('事件详情');
    await page.goBack();
    await expectRoute(page, 'clientManageList');
    await expect(page).toHaveTitle('客户管理');
  });

  test('redirects: /, /client, /client/manage and /mot', async () => {
    for (const [from, to] of [
      ['/', '/client/manage/list'],
      ['/client', '/client/information'],
      ['/client/manage', '/client/manage/list'],
      ['/mot', '/mot/home'],
    ]) {
      await page.goto(`${server.baseUrl}${from}`);
      await expect(page).toHaveURL((url) => url.pathname === to);
      await expect(page.locator('.ba-route:visible')).toBeVisible();
    }
  });

  test('an unknown path shows a friendly not-found page that leads home', async () => {
    await page.goto(`${server.baseUrl}/client/nowhere`);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page).toHaveTitle('页面不存在');
    await expect(topBarTitle(page)).toHaveText('页面不存在');
    await saveScreenshot(page, 'route-notFound');
    await page.getByRole('button', { name: '返回客户管理' }).click();
    await expectRoute(page, 'clientManageList');
  });

  test('the filter page is entered only from the client list', async () => {
    await page.goto(`${server.baseUrl}/client/manage/filter`);
    await page.waitForURL((url) => url.pathname === '/client/manage/list');
    await expectRoute(page, 'clientManageList');

    await navigateInApp(page, '/kyc/index');
    await expectRoute(page, 'kycIndex');
    await navigateInApp(page, '/client/manage/filter', '/client/manage/list');
    await expectRoute(page, 'clientManageList');

    await page.locator('.ba-manage__filter').click();
    await expectRoute(page, 'clientManageFilter');
    await expect(page).toHaveURL((url) => url.pathname === '/client/manage/filter');
    await expect(page).toHaveTitle('客户管理');
    await saveScreenshot(page, 'route-clientManageFilter');
  });
});

describe('keep-alive (docs/spec.md §2 sets)', () => {
  let page: Page;
  beforeAll(async () => {
    page = await freshPage({ ...PHONE_CONTEXT, viewport: { width: 375, height: 560 } });
    await openSignedIn(page, server.baseUrl, '/');
  });

  const scrollTopOf = (route: string) =>
    page.locator(`.ba-route[data-route="${route}"] [data-testid="page-scroll"]`).evaluate((element) => element.scrollTop);
  const searchValueOf = (route: string) => page.locator(`.ba-route[data-route="${route}"] input`).inputValue();

  test('the client list keeps its search text and scroll position wherever the user goes', async () => {
    await page.goto(`${server.baseUrl}/client/manage/list`);
    await expectRoute(page, 'clientManageList');
    // The box searches as you type (ADR 0046): the search it starts lands before the scroll, as a manager's
    // would. A common surname, so the list stays long enough to scroll.
    const searched = page.waitForResponse(
      (response) => response.url().endsWith('/api/client/customer/manage/search') && (response.request().postData() ?? '').includes('陈'),
    );
    await page.locator('.ba-route[data-route="clientManageList"] input').fill('陈');
    await searched;
    const scroller = page.locator('.ba-route[data-route="clientManageList"] [data-testid="page-scroll"]');
    await scroller.evaluate((element) => element.scrollTo(0, 100));
    await expect.poll(() => scrollTopOf('clientManageList')).toBe(100);

    for (const [away, awayRoute] of [
      ['/kyc/index', 'kycIndex'],
      ['/mot/home', 'motHome'],
      ['/client/information/accountDetail/holdingStock', 'clientHoldingStock'],
    ]) {
      await navigateInApp(page, away!);
      await expectRoute(page, awayRoute!);
      await expect(page.locator('.ba-route[data-route="clientManageList"]')).toBeHidden();
      await page.goBack();
      await expectRoute(page, 'clientManageList');
      expect(await searchValueOf('clientManageList'), away).toBe('陈');
      expect(await scrollTopOf('clientManageList'), away).toBe(100);
    }
  });

  test('the search page keeps its text while a client profile is open, and not otherwise', async () => {
    await navigateInApp(page, '/client/manage/search');
    await expectRoute(page, 'clientManageSearch');
    await page.locator('.ba-route[data-route="clientManageSearch"] input').fill('黄志诚');

    await navigateInApp(page, '/client/information');
    await expectRoute(page, 'clientInformation');
    await page.goBack();
    await expectRoute(page, 'clientManageSearch');
    expect(await searchValueOf('clientManageSearch')).toBe('黄志诚');

    await navigateInApp(page, '/client/edit');
    await expectRoute(page, 'clientEdit');
    await page.goBack();
    await expectRoute(page, 'clientManageSearch');
    expect(await searchValueOf('clientManageSearch')).toBe('');
  });

  /** [page, destinations it stays alive for, a destination it does not] per docs/spec.md §2. */
  const PAIRS: [string, string, string[], string][] = [
    [
      'clientInformation',
      '/client/information',
      [
        '/client/information/accountDetail/holdingStock',
        '/client/information/accountDetail/transaction',
        '/client/information/moneyRecord/moneyRecord',
        '/client/information/moneyRecord/transferStock',
      ],
      '/client/edit',
    ],
    [
      'motHome',
      '/mot/home',
      [
        '/mot/historySearch',
        '/mot/eventDetail',
        '/client/information',
        '/client/information/accountDetail/transaction',
        '/client/information/moneyRecord/moneyRecord',
      ],
      '/mot/singleClient',
    ],
    [
      'motEventDetail',
      '/mot/eventDetail',
      ['/client/information', '/client/information/accountDetail/transaction', '/client/information/moneyRecord/moneyRecord'],
      '/client/information/accountDetail/holdingStock',
    ],
    [
      'motSingleClient',
      '/mot/singleClient',
      ['/client/information', '/client/information/accountDetail/transaction', '/client/information/moneyRecord/moneyRecord'],
      '/mot/home',
    ],
    [
      'motHistorySearch',
      '/mot/historySearch',
      ['/client/information', '/client/information/accountDetail/transaction', '/client/information/moneyRecord/moneyRecord'],
      '/client/information/moneyRecord/transferStock',
    ],
    ['clientHoldingStock', '/client/information/accountDetail/holdingStock', [], '/client/information'],
    ['kycIndex', '/kyc/index', [], '/mot/home'],
  ];

  test.each(PAIRS)('%s stays alive exactly for its set', async (route, path, keptFor, notKeptFor) => {
    for (const destination of [...keptFor, notKeptFor]) {
      await navigateInApp(page, path);
      await expectRoute(page, route);
      await markPage(page, route);
      await navigateInApp(page, destination);
      await expect(page.locator(`.ba-route[data-route="${route}"]`)).toBeHidden();
      await page.goBack();
      await expectRoute(page, route);
      expect(await isMarked(page, route), `${route} → ${destination}`).toBe(destination !== notKeptFor);
    }
  });
});

/** WeCom opening `url` from a one-to-one chat's toolbar: the entry comes from ww.getContext(), not the URL. */
const fromChatToolbar = (url: string) =>
  `/wecom/__emulator/sidebar?${new URLSearchParams({ entry: 'single_chat_tools', externalUserId: 'wmEmu0001HoKwokLeung', url }).toString()}`;

describe('top bar', () => {
  test('no back arrow on a phone, even in the single-chat sidebar', async () => {
    const page = await freshPage(PHONE_CONTEXT);
    await openSignedIn(page, server.baseUrl, fromChatToolbar('/client/manage/list'));
    await expectRoute(page, 'clientManageList');
    await expect.poll(() => sidebarEntryOf(page)).toBe('single_chat_tools');
    await expect(page.locator('.ba-topbar .adm-nav-bar-back-arrow')).toHaveCount(0);
  });

  test('no back arrow on the desktop client in the normal entry', async () => {
    const page = await freshPage(DESKTOP_SIDEBAR_CONTEXT);
    await openSignedIn(page, server.baseUrl, '/mot/home');
    await expectRoute(page, 'motHome');
    await expect(page.locator('.ba-topbar .adm-nav-bar-back-arrow')).toHaveCount(0);
  });

  test('a back arrow in the desktop single-chat sidebar, and it goes back', async () => {
    const page = await freshPage(DESKTOP_SIDEBAR_CONTEXT);
    await openSignedIn(page, server.baseUrl, fromChatToolbar('/kyc/index'));
    await expectRoute(page, 'kycIndex');
    await expect(page.locator('.ba-topbar .adm-nav-bar-back-arrow')).toBeVisible();
    await navigateInApp(page, '/client/information');
    await expectRoute(page, 'clientInformation');
    await saveScreenshot(page, 'sidebar-desktop-back-arrow');
    await page.locator('.ba-topbar .adm-nav-bar-back').click();
    await expectRoute(page, 'kycIndex');
    await expect(page).toHaveURL((url) => url.pathname === '/kyc/index');
  });

  test('the kyc storage listener follows a bind or unbind made in another page of the sidebar', async () => {
    const page = await freshPage(DESKTOP_SIDEBAR_CONTEXT);
    await openSignedIn(page, server.baseUrl, fromChatToolbar('/mot/singleClient?redirectPage=%2Fmot%2FsingleClient'));
    await expectRoute(page, 'motSingleClient');
    await expect.poll(() => sidebarEntryOf(page)).toBe('single_chat_tools');
    const other = await page.context().newPage();
    await other.goto(`${server.baseUrl}/kyc/index`);
    await other.evaluate(() => {
      const { localStorage } = globalThis as unknown as PageGlobals;
      localStorage.setItem('kyc_customerId', 'C0001');
      localStorage.setItem('kyc', 'bind');
    });
    await page.waitForURL((url) => url.pathname === '/mot/singleClient' && url.searchParams.get('customerId') === 'C0001');
    await other.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.setItem('kyc', 'unbind'));
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expectRoute(page, 'kycIndex');
    await other.close();
  });
});

describe('language', () => {
  test('switching language changes titles and is remembered', async () => {
    const page = await freshPage();
    await openSignedIn(page, server.baseUrl, '/mot/eventDetail');
    await expect(topBarTitle(page)).toHaveText('事件详情');

    await page.getByTestId('me-button').click();
    await page.getByText('English', { exact: true }).click();
    await expect(page).toHaveTitle('Event details');
    await expect(topBarTitle(page)).toHaveText('Event details');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    await page.goto(`${server.baseUrl}/client/manage/list`);
    await expectRoute(page, 'clientManageList');
    await expect(page).toHaveTitle('Client management');
    await page.waitForLoadState('networkidle');
    await saveScreenshot(page, 'route-clientManageList-en');

    await page.getByTestId('me-button').click();
    await page.getByText('繁體中文', { exact: true }).click();
    await expect(page).toHaveTitle('客戶管理');
    await expect(topBarTitle(page)).toHaveText('客戶管理');
    await expectRoute(page, 'clientManageList');
    await expect(page.locator('.ba-me-sheet')).toBeHidden();
    await saveScreenshot(page, 'route-clientManageList-zh-HK');
  });
});
