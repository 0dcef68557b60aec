import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { announceSweep, dispatchMotPushes, runDailyMotSweep, seedDemoData } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { saveScreenshot, closeInOrder, launchPhone, newPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, signInThroughEmulator } from './support/web-shell';
import { expect } from './support/expect';
import type { PageGlobals } from './support/page-globals';

/** ADR 0042: a new event → one WeCom card in the member's inbox → its link → the event, signed in through WeCom OAuth. */
let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let customer: { customerId: number; nameCn: string };

beforeAll(async () => {
  // The default quiet hours (21:00–08:00 Hong Kong), as the settings sheet shows them.
  server = await startE2eServer({ MOT_PUSH_QUIET_HOURS: '21:00-08:00' });
  await seedDemoData(server.database, { customers: 60, seed: 11, asOf: hongKongDay() });
  // The demo's own events are old news: announced by no card.
  await runDailyMotSweep(server.database, { force: true, announce: announceSweep });
  await server.database.query(
    `insert into mot_push_event (event_id, push_id) select id, 0 from mot_event on conflict (event_id) do update set push_id = 0`,
  );
  await server.database.query(`update mot_push set status = 'skipped' where status = 'pending'`);
  const [row] = await server.database.query<{ customerId: number; nameCn: string; accountId: number }>(
    `select c.id::float8 as "customerId", c.name_cn as "nameCn", a.id::float8 as "accountId"
       from customer c join staff s on s.id = c.staff_id join account a on a.customer_id = c.id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' order by c.id limit 1`,
  );
  customer = row!;
  await server.database.query(
    `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
     values ($1, $2, 'withdrawal', 'HKD', 880000, 'fps', now())`,
    [row!.accountId, row!.customerId],
  );
  // The sweep raises the one new event and queues its manager's card.
  const sweep = await runDailyMotSweep(server.database, { force: true, announce: announceSweep });
  expect(sweep.status).toBe('ran');
  // The ticker's work, done now and whatever the hour: this suite may run inside the quiet hours.
  const sent = await dispatchMotPushes(server.database, {
    corps: server.app.corps.all(),
    send: (corp, agentCode, body) => server.app.wecom.sendMessage(corp, agentCode, body),
    appUrl: server.baseUrl,
    quietHours: null,
  });
  expect(sent.sent).toBe(1);
  ({ browser, context, page } = await launchPhone());
});

afterAll(() => closeInOrder(context, browser, server));

/** The language the server keeps for a member: the one their cards are written in (staff.language). */
const storedLanguage = async (userid: string) =>
  (await server.database.query<{ language: string }>(`select language from staff where wecom_user_id = $1`, [userid]))[0]!.language;

/** A new large withdrawal of one of `userid`'s clients, swept and its card sent at once (no quiet hours, no interval). */
async function newCardFor(userid: string) {
  const [row] = await server.database.query<{ customerId: number; accountId: number }>(
    `select c.id::float8 as "customerId", a.id::float8 as "accountId"
       from customer c join staff s on s.id = c.staff_id join account a on a.customer_id = c.id
      where s.wecom_user_id = $1 and c.status <> 'closed' order by c.id desc limit 1`,
    [userid],
  );
  await server.database.query(
    `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
     values ($1, $2, 'withdrawal', 'HKD', 990000, 'fps', now())`,
    [row!.accountId, row!.customerId],
  );
  expect((await runDailyMotSweep(server.database, { force: true, announce: announceSweep })).status).toBe('ran');
  const sent = await dispatchMotPushes(server.database, {
    corps: server.app.corps.all(),
    send: (corp, agentCode, body) => server.app.wecom.sendMessage(corp, agentCode, body),
    appUrl: server.baseUrl,
    quietHours: null,
    minIntervalMs: 0,
  });
  expect(sent.sent).toBe(1);
}

describe('MOT pushed into WeCom', () => {
  test('the member’s WeCom inbox shows one card naming the event, and its link opens the event after signing in', async () => {
    await page.goto(`${server.baseUrl}/wecom/__emulator/inbox?userid=chanwaiman`);
    const cards = page.locator('article.card');
    await expect(cards).toHaveCount(1);
    await expect(cards.first().locator('h2')).toHaveText('MOT：1 个新事件待跟进');
    await expect(cards.first()).toContainText('大额出金');
    await expect(cards.first()).toContainText(`${[...customer.nameCn][0]}*`);
    await expect(cards.first()).not.toContainText(customer.nameCn);
    await saveScreenshot(page, 'mot-push-inbox');
    // Nobody else got a card.
    await page.goto(`${server.baseUrl}/wecom/__emulator/inbox?userid=leekaying`);
    await expect(page.locator('article.card')).toHaveCount(0);

    await page.goto(`${server.baseUrl}/wecom/__emulator/inbox?userid=chanwaiman`);
    const link = page.locator('article.card a.more');
    const href = (await link.getAttribute('href'))!;
    expect(new URL(href).pathname).toBe('/mot/eventDetail');
    expect(new URL(href).searchParams.get('agentCode')).toBe('mot');
    await link.click();
    // No session on this phone yet: the app signs in through WeCom OAuth for the mot agent, then comes back.
    await signInThroughEmulator(page);
    await expectRoute(page, 'motEventDetail');
    await expect(page).toHaveURL(
      (url) => url.pathname === '/mot/eventDetail' && url.searchParams.get('eventId') === new URL(href).searchParams.get('eventId'),
    );
    await expect(page.getByTestId('mot-event')).toContainText('大额出金');
    await expect(page.getByTestId('mot-client-name')).toContainText(customer.nameCn);
    await saveScreenshot(page, 'mot-push-event');
  });

  test('the settings sheet turns the cards off and on, in three languages, and says when they never arrive', async () => {
    for (const [language, label, quiet] of [
      ['zh-CN', '企业微信提醒', '香港时间'],
      ['zh-HK', '企業微信提醒', '香港時間'],
      ['en', 'Reminders in WeCom', 'Hong Kong time'],
    ] as const) {
      await page.evaluate((value) => (globalThis as unknown as PageGlobals).localStorage.setItem('language', value), language);
      await page.goto(`${server.baseUrl}/mot/home`);
      await expectRoute(page, 'motHome');
      await page.getByTestId('mot-settings-open').click();
      const setting = page.getByTestId('mot-push-setting');
      await expect(setting).toContainText(label);
      await expect(setting).toContainText(quiet);
      await expect(setting).toContainText('21:00');
      await expect(setting).toContainText('08:00');
      const toggle = setting.getByRole('switch');
      await expect(toggle).toHaveAttribute('aria-checked', 'true');
      await saveScreenshot(page, `mot-push-setting-${language}`);
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-checked', 'false');
      const [staff] = await server.database.query<{ opt_out: boolean }>(
        `select mot_push_opt_out as opt_out from staff where wecom_user_id = 'chanwaiman'`,
      );
      expect(staff!.opt_out).toBe(true);
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-checked', 'true');
    }
  });

  test('a manager who chooses English in the “me” sheet gets the next card in English (the server keeps the language)', async () => {
    await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.setItem('language', 'zh-CN'));
    await page.goto(`${server.baseUrl}/mot/home`);
    await expectRoute(page, 'motHome');
    await page.getByTestId('me-button').click();
    await page.getByTestId('me-sheet').waitFor();
    await page.getByRole('radio', { name: 'English' }).click();
    await expect.poll(() => storedLanguage('chanwaiman')).toBe('en');

    await newCardFor('chanwaiman');
    await page.goto(`${server.baseUrl}/wecom/__emulator/inbox?userid=chanwaiman`);
    const newest = page.locator('article.card').first();
    await expect(newest.locator('h2')).toHaveText('MOT: 1 new event to follow up');
    await expect(newest).toContainText('Large withdrawal');
    await expect(newest.locator('a.more')).toHaveText('View');
    await expect(newest).not.toContainText('大额出金');
    await saveScreenshot(page, 'mot-push-inbox-en');
    // The card before it stays as it was written.
    await expect(page.locator('article.card').nth(1).locator('h2')).toHaveText('MOT：1 个新事件待跟进');
  });

  test('a manager who signs in with the app in Traditional Chinese gets cards in Traditional Chinese', async () => {
    const phone = await newPhone(browser);
    try {
      const hongKong = phone.page;
      await hongKong.goto(`${server.baseUrl}/wecom/__emulator/inbox?userid=leekaying`);
      await hongKong.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.setItem('language', 'zh-HK'));
      expect(await storedLanguage('leekaying')).toBe('zh-CN');
      await hongKong.goto(`${server.baseUrl}/mot/home`);
      await signInThroughEmulator(hongKong, 'leekaying');
      await expectRoute(hongKong, 'motHome');
      expect(await storedLanguage('leekaying')).toBe('zh-HK');

      await newCardFor('leekaying');
      await hongKong.goto(`${server.baseUrl}/wecom/__emulator/inbox?userid=leekaying`);
      const card = hongKong.locator('article.card').first();
      await expect(card.locator('h2')).toHaveText('MOT：1 個新事件待跟進');
      await expect(card).toContainText('大額出金');
      await expect(card.locator('a.more')).toHaveText('查看');
      await saveScreenshot(hongKong, 'mot-push-inbox-zh-HK');
    } finally {
      await phone.context.close();
    }
  });
});
