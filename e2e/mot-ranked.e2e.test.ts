import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { addDays, hongKongDay } from '@broker/domain';
import { saveScreenshot, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { openSignedIn, expectRoute } from './support/web-shell';
import { expect } from './support/expect';

/**
 * ADR 0041 in a real browser: today's MOT list ranked by the rule score with "why this rank"
 * on the event, the day's completion heading the home, and snoozing an event to a later day.
 */

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const TODAY = hongKongDay();
/** An expired risk assessment of chanwaiman's richest client, 12 days overdue, never contacted: 5 × 2 × 2 × 2 = 40, the top. */
let topEventId = 0;
let topCustomer = { customerId: 0, nameCn: '' };

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 9, asOf: TODAY, contactRecords: false });
  const sweep = await runDailyMotSweep(server.database, { force: true });
  expect(sweep.status).toBe('ran');
  const [customer] = await server.database.query<{ customerId: number; nameCn: string }>(
    `select c.id::float8 as "customerId", c.name_cn as "nameCn" from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' order by c.id limit 1`,
  );
  topCustomer = customer!;
  await server.database.query('update customer set total_assets_hkd = 20000000 where id = $1', [topCustomer.customerId]);
  const [event] = await server.database.query<{ id: number }>(
    `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts, created_at)
     select corp_id, 'risk_expiry', id, staff_id, 'e2e-ranked', $2::date, $3::jsonb, now() - interval '12 days' from customer where id = $1
     returning id::float8 as id`,
    [
      topCustomer.customerId,
      addDays(TODAY, -12),
      JSON.stringify({
        expiryDate: addDays(TODAY, -12),
        daysToExpiry: -12,
        assessedOn: addDays(TODAY, -742),
        riskLevel: 3,
        validYears: 2,
        lookaheadDays: 30,
      }),
    ],
  );
  topEventId = event!.id;
  ({ browser, context, page } = await launchPhone());
});

afterAll(() => closeInOrder(context, browser, server));

const rankedRows = () => page.locator('[data-testid=mot-ranked-list] [data-testid=mot-ranked-row]');
const toastGone = () => expect(page.locator('.adm-toast-mask')).toHaveCount(0);
async function rankedSettled() {
  await expect(page.getByTestId('mot-ranked-list')).toBeVisible();
  await expect(page.getByTestId('mot-ranked-list').getByTestId('loading-state')).toHaveCount(0);
  await expect(rankedRows().first()).toBeVisible();
}
const useLanguage = (language: string) => page.evaluate((chosen) => localStorage.setItem('language', chosen), language);
const progressTotal = async () => Number(await page.getByTestId('mot-day-progress').getAttribute('data-total'));

describe('MOT: the ranked day and snoozing', () => {
  let totalBefore = 0;

  test("today's list is ranked by score, most important first, under the day's completion", async () => {
    await openSignedIn(page, server.baseUrl, '/mot/home');
    await expectRoute(page, 'motHome');
    await rankedSettled();
    await expect(rankedRows().first()).toHaveAttribute('data-event-id', String(topEventId));
    await expect(rankedRows().first()).toHaveAttribute('data-position', '1');
    await expect(rankedRows().first().getByTestId('mot-ranked-score')).toHaveText('40.0');
    await expect(rankedRows().first()).toContainText('逾期 12 天');
    // Scores never rise down the list.
    const scores = (await rankedRows().getByTestId('mot-ranked-score').allInnerTexts()).map(Number);
    expect(scores.length).toBeGreaterThan(3);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    await expect(page.getByTestId('mot-day-progress')).toHaveAttribute('data-handled', '0');
    totalBefore = await progressTotal();
    expect(totalBefore).toBeGreaterThan(3);
    await expect(page.getByTestId('mot-day-progress')).toContainText(`0 / ${totalBefore}`);
    await expect(page.getByTestId('mot-view-ranked')).toHaveAttribute('aria-pressed', 'true');
    await saveScreenshot(page, 'mot-ranked-zh-CN');
  });

  test('the event says why it ranks there, factor by factor', async () => {
    await rankedRows().first().click();
    await expectRoute(page, 'motEventDetail');
    const factors = page.getByTestId('mot-rank-factors');
    await expect(factors).toBeVisible();
    await expect(page.getByTestId('mot-rank-score')).toHaveText('40.0');
    await expect(factors.locator('[data-factor=type]')).toContainText('风险评估到期× 5.00');
    await expect(factors.locator('[data-factor=tier]')).toContainText('第 3 级');
    await expect(factors.locator('[data-factor=overdue]')).toContainText('逾期 12 天');
    await expect(factors.locator('[data-factor=contact]')).toContainText('从未联系');
    await factors.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'mot-rank-why-zh-CN');
  });

  test('snoozing needs a valid day and a reason; the event leaves today and keeps the snooze', async () => {
    await page.getByTestId('mot-snooze-open').click();
    const sheet = page.getByTestId('mot-snooze-sheet');
    await expect(sheet).toBeVisible();
    await page.getByTestId('mot-snooze-preset-nextWeek').click();
    await expect(page.getByTestId('mot-snooze-date')).toHaveValue(addDays(TODAY, 7));
    // "Other" needs a note.
    await sheet.getByRole('radio', { name: '其他' }).click();
    await page.getByTestId('mot-snooze-submit').click();
    await expect(sheet).toContainText('选“其他”时请写明原因');
    // The date picker: any day from tomorrow to 90 days ahead.
    const until = addDays(TODAY, 5);
    await page.getByTestId('mot-snooze-date').fill(until);
    await sheet.locator('#mot-snooze-note').fill('客户出差，下周回港后再联系');
    await saveScreenshot(page, 'mot-snooze-zh-CN');
    await page.getByTestId('mot-snooze-submit').click();
    await expect(page.locator('.adm-toast-main').getByText(`已延后到 ${until}`)).toBeVisible();
    await expect(sheet).toHaveCount(0);
    await expect(page.getByTestId('mot-event').getByTestId('mot-snoozed-mark')).toBeVisible();
    await expect(page.getByTestId('mot-event')).toContainText(until);
    const history = page.getByTestId('mot-snoozes');
    await expect(history).toContainText(`${addDays(TODAY, -12)} → ${until}`);
    await expect(history).toContainText('客户出差，下周回港后再联系');
    await toastGone();
    await history.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'mot-snoozed-event-zh-CN');

    await page.goBack();
    await expectRoute(page, 'motHome');
    await rankedSettled();
    await expect(page.locator(`[data-testid=mot-ranked-row][data-event-id="${topEventId}"]`)).toHaveCount(0);
    await expect.poll(progressTotal).toBe(totalBefore - 1);
    // It waits on its day on the strip, marked snoozed there.
    await page.locator(`[data-testid=mot-dates] [data-date="${until}"]`).click();
    const row = page.locator(`[data-testid=mot-list] [data-event-id="${topEventId}"]`);
    await expect(row).toBeVisible();
  });

  test('the ranked list, why this rank and the snooze sheet in Traditional Chinese and English', async () => {
    for (const [language, why, snoozeTitle] of [
      ['zh-HK', '為何排在這裏', '延後事件'],
      ['en', 'Why this rank', 'Snooze event'],
    ] as const) {
      await useLanguage(language);
      await page.goto(`${server.baseUrl}/mot/home`);
      await expectRoute(page, 'motHome');
      // The page comes back on the day last picked (the snoozed event's): today, ranked.
      await page.locator(`[data-testid=mot-dates] [data-date="${TODAY}"]`).click();
      await page.getByTestId('mot-view-ranked').click();
      await rankedSettled();
      await expect(page.getByTestId('mot-day-progress')).toContainText(language === 'en' ? "Today's completion" : '今日完成');
      await saveScreenshot(page, `mot-ranked-${language}`);
      await rankedRows().first().click();
      await expectRoute(page, 'motEventDetail');
      await expect(page.locator('.ba-card__title', { hasText: why })).toBeVisible();
      await page.getByTestId('mot-rank-factors').scrollIntoViewIfNeeded();
      await saveScreenshot(page, `mot-rank-why-${language}`);
      await page.getByTestId('mot-snooze-open').click();
      await expect(page.locator('.ba-sheet__title', { hasText: snoozeTitle })).toBeVisible();
      await page.getByTestId('mot-snooze-preset-in3Days').click();
      await saveScreenshot(page, `mot-snooze-${language}`);
      await page.locator('.mot-sheet .ba-sheet-close').click();
      await expect(page.getByTestId('mot-snooze-sheet')).toHaveCount(0);
    }
  });
});
