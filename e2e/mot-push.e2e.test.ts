import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { dispatchMotPushes, runDailyMotSweep, seedDemoData } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { saveScreenshot, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, signInThroughEmulator } from './support/web-shell';
import { expect } from './support/expect';
import type { PageGlobals } from './support/page-globals';

/** Issue 24.2: a new event → one WeCom card in the member's inbox → its link → the event, signed in through WeCom OAuth. */
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
  await runDailyMotSweep(server.database, { force: true });
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
  const sweep = await runDailyMotSweep(server.database, { force: true });
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
});
