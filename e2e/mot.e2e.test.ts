import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { saveScreenshot, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { openSignedIn, expectRoute } from './support/web-shell';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Two of chanwaiman's customers: A deposits HKD 150,000 today (over the default 100,000 threshold), B deposits HKD 60,000. */
let big: { customerId: number; nameCn: string };
let small: { customerId: number; nameCn: string };
const NOTE = `E2E 企业微信跟进大额入金 ${Date.now().toString(36)}`;

async function depositToday(customerId: number, amount: number) {
  const [account] = await server.database.query<{ id: number }>(
    'select id::float8 as id from account where customer_id = $1 order by id limit 1',
    [customerId],
  );
  await server.database.query(
    `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
     values ($1, $2, 'deposit', 'HKD', $3, 'fps', ($4::date + time '12:00') at time zone 'Asia/Hong_Kong')`,
    [account!.id, customerId, amount, hongKongDay()],
  );
}

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 9, asOf: hongKongDay() });
  const customers = await server.database.query<{ customerId: number; nameCn: string }>(
    `select c.id::float8 as "customerId", c.name_cn as "nameCn" from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' and exists (select 1 from account a where a.customer_id = c.id)
      order by c.id limit 2`,
  );
  expect(customers).toHaveLength(2);
  [big, small] = customers as [typeof big, typeof small];
  await depositToday(big.customerId, 150_000);
  await depositToday(small.customerId, 60_000);
  const sweep = await runDailyMotSweep(server.database, { force: true });
  expect(sweep.status).toBe('ran');
  ({ browser, context, page } = await launchPhone());
});

afterAll(() => closeInOrder(context, browser, server));

const list = () => page.getByTestId('mot-list');
const rowsOf = (customerId: number) => page.locator(`[data-testid=mot-list] [data-testid=mot-row][data-customer-id="${customerId}"]`);
const ruleChip = (rule: string) => page.locator(`[data-testid=mot-types] [data-rule=${rule}]`);

/** No toast is on screen (screenshots should not be covered by one). */
const toastGone = () => expect(page.locator('.adm-toast-mask')).toHaveCount(0);

/** The list is shown and has finished loading. */
async function listSettled() {
  await expect(list()).toBeVisible();
  await expect(list().getByTestId('loading-state')).toHaveCount(0);
}

const historyRecords = () => page.locator('[data-testid=mot-history-list] [data-testid=service-record]');
const historyTotal = () => page.locator('[data-testid=mot-history-list] .mot-history__total');

describe('MOT: to-do list → event → handle → service records', () => {
  let eventId: string;
  let largeDeposits: number;

  test('the home shows the date strip with counts, counts by type and unseen events', async () => {
    // Today's list by client name (the ranked day has its own test, mot-ranked.e2e.test.ts).
    await openSignedIn(page, server.baseUrl, '/mot/home?view=day');
    await expectRoute(page, 'motHome');
    await listSettled();
    await expect(list()).toHaveAttribute('data-fold', 'unfolded');
    const today = page.locator(`[data-testid=mot-dates] [data-date="${hongKongDay()}"]`);
    await expect(today).toHaveAttribute('aria-pressed', 'true');
    expect(Number(await today.getByTestId('mot-date-count').innerText())).toBeGreaterThan(0);
    largeDeposits = Number((await ruleChip('large_deposit').locator('.mot-type__count').innerText()).trim());
    expect(largeDeposits).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('mot-unseen-mark').count()).toBeGreaterThan(0);
    await saveScreenshot(page, 'mot-home');

    await ruleChip('large_deposit').click();
    await listSettled();
    const row = rowsOf(big.customerId);
    await expect(row).toBeVisible();
    await expect(page.locator('[data-testid=mot-list] [data-testid=mot-row]')).toHaveCount(largeDeposits);
    await expect(row.getByTestId('mot-unseen-mark')).toHaveCount(1);
    eventId = (await row.getAttribute('data-event-id'))!;
    expect(eventId).toMatch(/^\d+$/);
  });

  test('the event shows why it fired and links to the client pages; opening it marks it seen', async () => {
    await rowsOf(big.customerId).click();
    await expectRoute(page, 'motEventDetail');
    const event = page.getByTestId('mot-event');
    await expect(page.locator('[data-testid=mot-event][data-status=seen]')).toBeVisible();
    await expect(event).toContainText('大额入金');
    const reason = await page.getByTestId('mot-reason').innerText();
    expect(reason).toContain('HKD 150,000.00');
    expect(reason).toContain('HKD 100,000');
    await expect(page.getByTestId('mot-client-name')).toContainText(big.nameCn);
    const hrefs = await page.locator('.mot-links a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual([
      `/client/information?customerId=${big.customerId}`,
      `/client/information/accountDetail/transaction?customerId=${big.customerId}`,
      `/client/information/moneyRecord/moneyRecord?customerId=${big.customerId}`,
      `/mot/singleClient?customerId=${big.customerId}`,
    ]);
    await saveScreenshot(page, 'mot-event-detail');
  });

  test('the handle sheet needs a note, then writes the service record', async () => {
    await page.getByTestId('mot-handle-open').click();
    const sheet = page.locator('.mot-sheet');
    await expect(sheet).toBeVisible();
    await page.getByRole('radio', { name: '企业微信' }).click();
    await sheet.getByRole('button', { name: '提交' }).click();
    await expect(sheet.getByText('请填写服务内容')).toBeVisible();
    await page.fill('#mot-handle-note', NOTE);
    await sheet.getByRole('button', { name: '已约面谈' }).click();
    await expect(page.locator('#mot-handle-outcome')).toHaveValue('已约面谈');
    await saveScreenshot(page, 'mot-handle-sheet');
    await sheet.getByRole('button', { name: '提交' }).click();
    await expect(page.locator('[data-testid=mot-event][data-status=handled]')).toBeVisible();
    const record = page.getByTestId('service-record');
    await expect(record).toContainText(NOTE);
    await expect(record).toContainText('企业微信');
    await expect(page.getByTestId('mot-handle-open')).toHaveCount(0);
    await toastGone();
    await saveScreenshot(page, 'mot-event-handled');
  });

  test('the handled event leaves the to-do list', async () => {
    await page.goBack();
    await expectRoute(page, 'motHome');
    await listSettled();
    await expect(list().locator(`[data-event-id="${eventId}"]`)).toHaveCount(0);
    await expect(ruleChip('large_deposit').locator('.mot-type__count')).toHaveText(String(largeDeposits - 1));
  });

  test('it appears in the service records, found by keyword', async () => {
    await page.getByTestId('mot-history-link').click();
    await expectRoute(page, 'motHistorySearch');
    const everyRecord = await historyTotal().innerText();
    await page.locator('.mot-search input').fill(NOTE.slice(-8));
    await expect(historyRecords()).toHaveCount(1);
    const record = page.locator('[data-testid=mot-history-list] a').first();
    await expect(record).toHaveAttribute('data-event-id', eventId);
    await expect(record).toContainText(big.nameCn);
    await expect(record).toContainText('大额入金');
    await page.locator('.mot-search input').fill('');
    await expect(historyTotal()).toHaveText(everyRecord);
    await saveScreenshot(page, 'mot-history-search');

    // Filters: event type and channel narrow the records; a type with no records shows none.
    const openFilters = async () => {
      await page.locator('.mot-search__filter').click();
      await expect(page.locator('.mot-sheet .mot-chips').first()).toBeVisible();
    };
    const sheet = page.locator('.mot-sheet');
    await openFilters();
    await sheet.locator('.mot-chips').nth(0).getByRole('button', { name: '大额入金' }).click();
    await sheet.locator('.mot-chips').nth(1).getByRole('button', { name: '企业微信' }).click();
    await saveScreenshot(page, 'mot-history-filter');
    await sheet.getByRole('button', { name: '确定' }).click();
    await expect(historyRecords()).toHaveCount(1);
    await openFilters();
    await sheet.locator('.mot-chips').nth(0).getByRole('button', { name: '生日' }).click();
    await sheet.getByRole('button', { name: '确定' }).click();
    await expect(page.getByText('没有符合条件的服务记录')).toBeVisible();
    await openFilters();
    await sheet.getByRole('button', { name: '重置' }).click();
    await sheet.getByRole('button', { name: '确定' }).click();
    await expect(page.getByTestId('mot-history-list')).toBeVisible();
    await page.locator('.mot-search input').fill(NOTE.slice(-8));
    await expect(historyRecords()).toHaveCount(1);
    await record.click();
  });

  test("and in the client's history", async () => {
    await expectRoute(page, 'motSingleClient');
    expect(new URL(page.url()).searchParams.get('customerId')).toBe(String(big.customerId));
    const event = page.locator(`[data-testid=mot-client-event][data-event-id="${eventId}"]`);
    await expect(event).toBeVisible();
    await expect(event).toHaveAttribute('data-status', 'handled');
    await saveScreenshot(page, 'mot-client');
    await page.getByTestId('mot-client-history-tab').click();
    await expect(page.getByTestId('mot-client-records')).toContainText(NOTE);
  });
});

describe('MOT settings', () => {
  test('the fold toggle groups the list by client, and stays on across visits', async () => {
    await page.goto(`${server.baseUrl}/mot/home?view=day`);
    await expectRoute(page, 'motHome');
    await listSettled();
    const eventRows = await page
      .locator('[data-testid=mot-list] [data-testid=mot-row]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-customer-id')));
    expect(eventRows.length).toBeGreaterThan(0);

    await page.getByTestId('mot-fold-on').click();
    await expect(page.locator('[data-testid=mot-list][data-fold=folded]')).toBeVisible();
    await listSettled();
    const clientRows = await page
      .locator('[data-testid=mot-list] [data-testid=mot-row]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-customer-id')));
    expect(new Set(clientRows).size).toBe(clientRows.length);
    expect(clientRows.length).toBeLessThanOrEqual(eventRows.length);
    const dayTotal = Number(await page.getByTestId('mot-day-total').innerText());
    if (dayTotal <= 20) {
      // One page holds the whole day: the same events, grouped under their clients.
      expect(new Set(clientRows)).toEqual(new Set(eventRows));
      await expect(page.locator('[data-testid=mot-list] .mot-row--client [data-testid=mot-event-link]')).toHaveCount(eventRows.length);
    }
    await saveScreenshot(page, 'mot-home-folded');

    await page.reload();
    await expectRoute(page, 'motHome');
    await expect(page.locator('[data-testid=mot-list][data-fold=folded]')).toBeVisible();

    await page.getByTestId('mot-fold-off').click();
    await expect(page.locator('[data-testid=mot-list][data-fold=unfolded]')).toBeVisible();
  });

  test('lowering the large-money threshold brings smaller deposits onto the list; raising it takes them off', async () => {
    await listSettled();
    await expect(ruleChip('large_deposit')).toHaveCount(0);

    const setThreshold = async (amount: string) => {
      await page.getByTestId('mot-settings-open').click();
      const input = page.locator('#mot-min-cash-io');
      await expect(input).toBeVisible();
      await input.fill(amount);
      await page.locator('[data-testid=mot-settings]').getByRole('button', { name: '保存' }).click();
      await expect(page.locator('.adm-toast-main').getByText('已保存')).toBeVisible();
    };

    await setThreshold('50000');
    await toastGone();
    await saveScreenshot(page, 'mot-settings');
    await page.locator('.ba-sheet-close').click();
    await expect(ruleChip('large_deposit')).toBeVisible();
    await ruleChip('large_deposit').click();
    await listSettled();
    await expect(rowsOf(small.customerId)).toBeVisible();

    await setThreshold('100000');
    await page.locator('.ba-sheet-close').click();
    await listSettled();
    await expect(list().locator(`[data-customer-id="${small.customerId}"]`)).toHaveCount(0);
    await expect(ruleChip('large_deposit')).toHaveAttribute('aria-pressed', 'true');
  });
});
