import { afterAll, beforeAll, describe, test } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { schema, seedDemoData } from '@broker/server';
import { DESKTOP_SIDEBAR_CONTEXT, PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute } from './support/web-shell';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

// Emulator contacts followed by chanwaiman: 0001 何国良, 0002 谢美仪, 0005 王磊.
const HO = 'wmEmu0001HoKwokLeung';
const TSE = 'wmEmu0002TseMeiYee';
const WANG = 'wmEmu0005WangLei';

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Three customers of chanwaiman: HO is bound to the first, TSE to the second. */
let customers: { id: number; nameCn: string }[];

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 5, asOf: hongKongDay() });
  const [chan] = await server.database.db.select().from(schema.staff).where(eq(schema.staff.wecomUserId, 'chanwaiman'));
  customers = await server.database.db
    .select({ id: schema.customers.id, nameCn: schema.customers.nameCn })
    .from(schema.customers)
    .where(eq(schema.customers.staffId, chan!.id))
    .orderBy(asc(schema.customers.id))
    .limit(3);
  for (const [contact, customer] of [
    [HO, customers[0]!],
    [TSE, customers[1]!],
  ] as const) {
    await server.database.db
      .insert(schema.kycBindings)
      .values({ corpId: chan!.corpId, externalUserId: contact, customerId: customer.id, boundByStaffId: chan!.id });
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function openSidebar(options: typeof PHONE_CONTEXT, externalUserId: string, entry: string) {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(sidebarUrl(externalUserId, entry));
  await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
  await page.click('a.staff[data-userid="chanwaiman"]');
  await page.waitForURL((url) => url.pathname !== '/wxEntry' && !url.pathname.startsWith('/wecom'));
  return page;
}

const sidebarUrl = (externalUserId: string, entry: string) =>
  `${server.baseUrl}/wecom/__emulator/sidebar?${new URLSearchParams({ entry, externalUserId, url: '/' }).toString()}`;

/** Kept-alive pages stay in the DOM, hidden: look only in the page on screen. */
const visibleText = (page: Page, text: string) => expect(page.locator('.ba-route:visible').getByText(text).first()).toBeVisible();

const profileOf = (customerId: number) => `/client/information?customerId=${customerId}`;
const isAt = (page: Page, path: string) => page.waitForURL((url) => `${url.pathname}${url.search}` === path);

/** Desktop WeCom shows the same sidebar page for the next chat (the emulator's bridge plays it). */
const switchChat = (page: Page, externalUserId: string, entry = 'single_chat_tools') =>
  page.evaluate(
    (context) => (globalThis as unknown as { wecomEmulator: { switchChat(c: object): void } }).wecomEmulator.switchChat(context),
    { externalUserId, entry },
  );

describe('every entry a client manager opens the app from', () => {
  test("contact_profile (a customer's contact card) of a bound customer opens that customer's profile", async () => {
    const page = await openSidebar(PHONE_CONTEXT, HO, 'contact_profile');
    await isAt(page, profileOf(customers[0]!.id));
    await expectRoute(page, 'clientInformation');
    await visibleText(page, customers[0]!.nameCn);
    await saveScreenshot(page, 'sidebar-contact-profile-bound');
  });

  test('contact_profile of a contact bound to nobody opens the KYC page for that contact', async () => {
    const page = await openSidebar(PHONE_CONTEXT, WANG, 'contact_profile');
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    const contact = page.getByTestId('kyc-contact');
    await expect(contact).toContainText('王磊');
    await expect(page.getByTestId('kyc-search')).toBeVisible();
  });

  test('group_chat_tools: a clear notice, and the client list stays usable', async () => {
    const page = await openSidebar(PHONE_CONTEXT, '', 'group_chat_tools');
    const notice = page.getByTestId('entry-notice');
    await expect(notice).toBeVisible();
    await expect(page.locator('.adm-dialog-body').last()).toContainText('群聊中暂不支持客户识别');
    await saveScreenshot(page, 'sidebar-group-chat-notice');
    await page.getByRole('button', { name: '知道了' }).click();
    await expectRoute(page, 'clientManageList');
    expect(new URL(page.url()).pathname).toBe('/client/manage/list');
  });

  test('chat_attachment: the same kind of notice', async () => {
    const page = await openSidebar(PHONE_CONTEXT, '', 'chat_attachment');
    await expect(page.getByTestId('entry-notice')).toBeVisible();
    await expect(page.locator('.adm-dialog-body').last()).toContainText('此入口暂不支持客户识别');
  });
});

describe('the desktop sidebar, reused from chat to chat', () => {
  test('re-reads its context when shown again: never the previous chat’s customer', async () => {
    const page = await openSidebar(DESKTOP_SIDEBAR_CONTEXT, HO, 'single_chat_tools');
    await isAt(page, profileOf(customers[0]!.id));
    await expectRoute(page, 'clientInformation');

    // Next chat: 王磊, bound to nobody → the KYC page for him.
    await switchChat(page, WANG);
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expect(page.getByTestId('kyc-contact').getByText('王磊')).toBeVisible();
    await saveScreenshot(page, 'sidebar-switched-to-unbound-chat');

    // Next chat: 谢美仪, bound to the second customer → that profile, not the first one's.
    await switchChat(page, TSE);
    await isAt(page, profileOf(customers[1]!.id));
    await visibleText(page, customers[1]!.nameCn);

    // Back to the same chat after looking elsewhere (hidden, then shown for the same contact): the page stays.
    const before = page.url();
    await switchChat(page, TSE);
    await visibleText(page, customers[1]!.nameCn);
    expect(page.url()).toBe(before);
  });
});

describe('JS-SDK tickets heal', () => {
  test('WeCom dropped the cached tickets: the page asks once more with refresh and works, without a dialog', async () => {
    const page = await openSidebar(PHONE_CONTEXT, WANG, 'single_chat_tools');
    await expect(page.getByTestId('kyc-contact').getByText('王磊')).toBeVisible();

    // The cached tickets are older than a minute, and WeCom stops accepting them.
    await server.database.query(`update wecom_credential set fetched_at = fetched_at - interval '2 minutes' where kind like '%ticket'`);
    const emulator = server.app.wecomEmulator!;
    expect(emulator.invalidateTickets()).toBeGreaterThan(0);
    const before = { ...emulator.stats };
    const signs: { url: string; refresh?: boolean }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/aggregation/qywx/getJsSdkSign'))
        signs.push(request.postDataJSON() as { url: string; refresh?: boolean });
    });

    await page.goto(sidebarUrl(WANG, 'single_chat_tools'));
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expect(page.getByTestId('kyc-contact').getByText('王磊')).toBeVisible();
    await expect(page.locator('.adm-dialog-body')).toHaveCount(0);
    // The refused signature, then one refreshed (later in-app navigations sign their own URLs as usual).
    expect(signs[0]?.refresh).toBeUndefined();
    expect(signs[1]?.refresh).toBe(true);
    expect(signs.filter((sign) => sign.refresh)).toHaveLength(1);
    expect(emulator.stats.agentTicket - before.agentTicket).toBe(1);
  });
});

describe('follower changes arrive from WeCom', () => {
  test('the customer deletes their manager in WeCom: the KYC page and the profile say the binding is stale', async () => {
    const page = await openSidebar(PHONE_CONTEXT, HO, 'single_chat_tools');
    await isAt(page, profileOf(customers[0]!.id));
    const deleted = await fetch(`${server.baseUrl}/wecom/__emulator/external-contact/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userid: 'chanwaiman', externalUserId: HO, by: 'customer' }),
    });
    expect(((await deleted.json()) as { delivered: { body: string } }).delivered.body).toBe('success');

    await page.reload();
    await expect(page.getByTestId('profile-kyc-stale')).toHaveText('企微联系已断开');
    await saveScreenshot(page, 'client-profile-kyc-stale');

    await page.goto(`${server.baseUrl}/kyc/index`);
    await expect(page.getByTestId('kyc-stale')).toContainText('客户已于');
    await expect(page.getByTestId('kyc-state')).toHaveText('企微联系已断开');
    await saveScreenshot(page, 'kyc-bound-stale');
  });
  test('…and the manager is told on the MOT pages, in every language', async () => {
    // The previous test's deletion raised a contact_removed event for the customer bound to HO.
    const context = await browser.newContext(PHONE_CONTEXT);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/mot/singleClient?customerId=${customers[0]!.id}`);
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    await page.click('a.staff[data-userid="chanwaiman"]');
    await expectRoute(page, 'motSingleClient');
    const event = page.locator('.ba-route:visible [data-testid="mot-client-event"]').filter({ hasText: '企微联系已断开' });
    await expect(event.first()).toContainText('客户在企业微信中删除了您');
    const eventId = await event.first().getAttribute('data-event-id');
    for (const [language, title, reason] of [
      ['zh-CN', '企微联系已断开', '客户在企业微信中删除了您'],
      ['zh-HK', '企微聯繫已中斷', '客戶在企業微信中刪除了您'],
      ['en', 'WeCom contact lost', 'the customer removed you in WeCom'],
    ] as const) {
      await page.evaluate((chosen) => localStorage.setItem('language', chosen), language);
      await page.goto(`${server.baseUrl}/mot/eventDetail?eventId=${eventId}`);
      await expectRoute(page, 'motEventDetail');
      const reasonText = page.locator('.ba-route:visible [data-testid="mot-reason"]');
      await expect(reasonText).toContainText(reason);
      await expect(page.locator('.ba-route:visible [data-testid="mot-event"]')).toContainText(title);
      await saveScreenshot(page, `mot-contact-removed-${language}`);
    }
  });
});
