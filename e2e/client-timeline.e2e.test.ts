import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemoData } from '@broker/server';
import { apiClient, signInAs, type ApiClient } from '@broker/server/testing';
import { hongKongDay } from '@broker/domain';
import { PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import type { PageGlobals } from './support/page-globals';
import { expect } from './support/expect';

/** The client timeline (ADR 0040) on the profile — its filters, its infinite scroll, each item's detail. */

/** A WeCom contact chanwaiman follows in the emulator. */
const HO = 'wmEmu0001HoKwokLeung';

let server: E2eServer;
let browser: Browser;
let api: ApiClient;
const contexts: BrowserContext[] = [];
/** chanwaiman's client with the most trades, given a history of every kind through the API. */
let customerId: number;

beforeAll(async () => {
  server = await startE2eServer();
  const today = hongKongDay();
  await seedDemoData(server.database, { customers: 300, seed: 5, asOf: today });
  browser = await launchBrowser();
  api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
  const mot = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
  const [busiest] = await server.database.query<{ id: number; staffId: number; corpId: number; nameEn: string; accountId: number }>(
    `select c.id::float8 as id, c.staff_id as "staffId", c.corp_id as "corpId", c.name_en as "nameEn",
            (select a.id::float8 from account a where a.customer_id = c.id order by a.id limit 1) as "accountId"
       from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and exists (select 1 from account a where a.customer_id = c.id)
      order by (select count(*) from trade t where t.customer_id = c.id) desc, c.id limit 1`,
  );
  customerId = busiest!.id;
  // Back-office data: a large deposit yesterday (the importer's kind of row).
  await server.database.query(
    `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
     values ($1, $2, 'deposit', 'HKD', 880000, 'fps', now() - interval '1 day')`,
    [busiest!.accountId, customerId],
  );
  const [event] = await server.database.query<{ id: number }>(
    `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts, customer_name_en, created_at)
     values ($1, 'birthday', $2, $3, 'e2e-timeline', $4, '{"birthday":"1980-11-20"}', $5, now() - interval '2 hours') returning id::float8 as id`,
    [busiest!.corpId, customerId, busiest!.staffId, today, busiest!.nameEn],
  );
  await mot.ok.markEventsSeen({ eventIds: [event!.id] });
  await mot.ok.handleEvent({ eventId: event!.id, channel: 'phone', note: '电话祝贺生日，客户询问港股走势' });
  await server.database.query('delete from kyc_binding where customer_id = $1 or external_user_id = $2', [customerId, HO]);
  await api.ok.kycBind({ externalUserId: HO, customerId });
  const { version } = await api.ok.getBaseInfo({ customerId });
  await api.ok.updateProfile({ customerId, version, phone: '+852 6123 4567', tags: ['VIP', '高净值'] });
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function profilePage(): Promise<Page> {
  const context = await browser.newContext(PHONE_CONTEXT);
  contexts.push(context);
  const page = await context.newPage();
  await openSignedIn(page, server.baseUrl, `/client/information?customerId=${customerId}`);
  await expectRoute(page, 'clientInformation');
  return page;
}

const profile = (page: Page) => page.locator('.ba-route[data-route="clientInformation"]');
const timeline = (page: Page) => profile(page).locator('[data-testid="timeline"]');
const items = (page: Page, kind?: string) => timeline(page).locator(kind ? `li[data-kind="${kind}"]` : 'li[data-kind]');
const chip = (page: Page, kind: string) => timeline(page).locator(`[data-testid="timeline-filter"] button[data-kind="${kind}"]`);

describe('client timeline', () => {
  test('shows the relationship by default, filters by kind, scrolls on, and opens each item', async () => {
    // The MOT items of the client (ours, and any the day's sweep raised), as the API counts them.
    const motItems = (await api.ok.getTimeline({ customerId, kinds: ['mot'], limit: 15 })).list.length;
    expect(motItems).toBeGreaterThanOrEqual(3);
    const page = await profilePage();
    await timeline(page).scrollIntoViewIfNeeded();
    // Default: everything but trades.
    await expect(items(page, 'mot').first()).toContainText('已处理');
    await expect(items(page, 'kyc').first()).toContainText('绑定企业微信联系人');
    await expect(items(page, 'profileEdit').first()).toBeVisible();
    await expect(items(page, 'money').first()).toContainText('880,000');
    await expect(items(page, 'trade')).toHaveCount(0);
    await expect(chip(page, 'trade')).toHaveAttribute('aria-pressed', 'false');
    await profile(page)
      .locator('.ba-card--timeline')
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await saveScreenshot(page, 'client-timeline');

    // Trades on: the request names every kind shown, and trades join the list.
    const withTrades = page.waitForRequest((request) => request.url().includes('/getTimeline') && request.url().includes('kinds=trade'));
    await chip(page, 'trade').click();
    await withTrades;
    await expect(chip(page, 'trade')).toHaveAttribute('aria-pressed', 'true');
    await expect(items(page, 'trade').first()).toBeVisible();

    // Scrolling to the end loads the next page (the busiest client has more than one page of trades).
    const firstPage = await items(page).count();
    await profile(page)
      .locator('[data-testid="page-scroll"]')
      .first()
      .evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect.poll(() => items(page).count()).toBeGreaterThan(firstPage);

    // Only MOT events: every other kind off.
    for (const kind of ['contact', 'kyc', 'profileEdit', 'money', 'transfer', 'trade']) {
      if ((await chip(page, kind).getAttribute('aria-pressed')) === 'true') await chip(page, kind).click();
    }
    await expect(items(page, 'mot')).toHaveCount(motItems);
    await expect(timeline(page).locator('li[data-kind]:not([data-kind="mot"])')).toHaveCount(0);
    // The last kind cannot be switched off: an empty filter would show nothing.
    await chip(page, 'mot').click();
    await expect(chip(page, 'mot')).toHaveAttribute('aria-pressed', 'true');

    // The handled event opens its sheet, and from there the event itself.
    await items(page, 'mot').first().locator('button').click();
    const sheet = page.locator('[data-testid="timeline-sheet"]');
    await expect(sheet).toHaveAttribute('data-kind', 'mot');
    await expect(sheet).toContainText('已处理');
    await sheet.locator('[data-testid="timeline-open"]').click();
    await expectRoute(page, 'motEventDetail');
    await page.goBack();
    await expectRoute(page, 'clientInformation');

    // A profile edit shows what changed, before → after, the phone masked.
    if ((await chip(page, 'profileEdit').getAttribute('aria-pressed')) !== 'true') await chip(page, 'profileEdit').click();
    await items(page, 'profileEdit').first().locator('button').click();
    await expect(sheet.locator('[data-testid="timeline-changes"]')).toContainText('+852 6123 ****');
    await expect(sheet.locator('[data-testid="timeline-changes"]')).toContainText('高净值');
    await saveScreenshot(page, 'client-timeline-edit-sheet');
    await sheet.locator('.ba-sheet-close').click();
    await expect(sheet).toBeHidden();
  });

  test('reads naturally in zh-HK and English', async () => {
    const page = await profilePage();
    for (const [language, title, handled] of [
      ['zh-CN', '客户时间线', '已处理'],
      ['zh-HK', '客戶時間線', '已處理'],
      ['en', 'Timeline', 'Handled'],
    ] as const) {
      await page.evaluate((value) => (globalThis as unknown as PageGlobals).localStorage.setItem('language', value), language);
      await page.goto(`${server.baseUrl}/client/information?customerId=${customerId}`);
      await expect(profile(page).locator('.ba-card--timeline .ba-card__title')).toHaveText(title);
      await expect(items(page, 'mot').first()).toContainText(handled);
      await profile(page)
        .locator('.ba-card--timeline')
        .evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await saveScreenshot(page, `client-timeline-${language}`);
    }
  });
});
