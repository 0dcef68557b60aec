import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { PHONE_CONTEXT, saveScreenshot, untilApiQuiet, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { openSignedIn, signInThroughEmulator, expectRoute } from './support/web-shell';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

/*
 * ADR 0013: nothing a user typed is lost to a session expiry. Each save below hits 080000 (the session
 * is expired in the database, which is what an expiry is), goes through the emulator's sign-in, comes
 * back to the same page with the draft (and the page's filters) restored, and is submitted again.
 */

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let customerId: number;
let eventId: number;

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 5, asOf: hongKongDay() });
  const sweep = await runDailyMotSweep(server.database, { force: true });
  expect(sweep.status).toBe('ran');
  const [customer] = await server.database.query<{ id: number }>(
    `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' and exists (select 1 from trade t where t.customer_id = c.id)
      order by c.id limit 1`,
  );
  customerId = customer!.id;
  const [event] = await server.database.query<{ id: number }>(
    `select e.id::float8 as id from mot_event e join staff s on s.id = e.staff_id
      where s.wecom_user_id = 'chanwaiman' and e.status <> 'handled' order by e.id limit 1`,
  );
  eventId = event!.id;
  ({ browser, context, page } = await launchPhone());
  await openSignedIn(page, server.baseUrl, '/client/manage/list');
});

afterAll(() => closeInOrder(context, browser, server));

/** The session ends as it does when its time is up: the server answers the next call with 080000. */
const expireSessions = () => server.database.query('update auth_session set expires_at = now() where expires_at > now()');

/**
 * The session ends once the page has stopped calling the API: a read still in flight (a filter's page, the
 * JS-SDK's signature after a screen shows) would otherwise meet the expiry before the step the test is about.
 */
async function expireSessionsOnceQuiet() {
  await untilApiQuiet(page);
  await expireSessions();
}

/** The draft keys the browser holds, in either storage. */
const draftKeys = () =>
  page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((key) => key.startsWith('draft:')));

async function useLanguage(language: string) {
  await page.evaluate((chosen) => localStorage.setItem('language', chosen), language);
}

/** No toast covers the page (screenshots). */
const toastGone = () => expect(page.locator('.adm-toast-mask')).toHaveCount(0);

describe('a save that meets an expired session keeps what was typed', () => {
  test('MOT handle sheet: the note comes back in the reopened sheet, and is submitted (zh-CN)', async () => {
    await useLanguage('zh-CN');
    await page.goto(`${server.baseUrl}/mot/eventDetail?eventId=${eventId}`);
    await expectRoute(page, 'motEventDetail');
    await page.getByTestId('mot-handle-open').click();
    const sheet = page.locator('.mot-sheet');
    await expect(sheet).toBeVisible();
    const note = `客户来电询问美股开户，已约周五面谈 ${Date.now().toString(36)}`;
    await page.getByRole('radio', { name: '企业微信' }).click();
    await page.fill('#mot-handle-note', note);
    await page.fill('#mot-handle-outcome', '已约面谈');

    await expireSessionsOnceQuiet();
    await sheet.getByRole('button', { name: '提交' }).click();
    await signInThroughEmulator(page);

    expect(new URL(page.url()).pathname).toBe('/mot/eventDetail');
    expect(new URL(page.url()).searchParams.get('eventId')).toBe(String(eventId));
    await expect(page.locator('#mot-handle-note')).toBeVisible();
    await expect(page.locator('#mot-handle-note')).toHaveValue(note);
    await expect(page.locator('#mot-handle-outcome')).toHaveValue('已约面谈');
    expect(await page.getByRole('radio', { name: '企业微信' }).getAttribute('aria-checked')).toBe('true');
    await expect(page.getByTestId('draft-notice')).toContainText('登录已过期');
    await saveScreenshot(page, 'draft-restored-handle-sheet-zh-CN');

    await sheet.getByRole('button', { name: '提交' }).click();
    await expect(page.locator('[data-testid=mot-event][data-status=handled]')).toBeVisible();
    await expect(page.getByTestId('service-record')).toContainText(note);
    expect(await draftKeys()).toEqual([]);
    await toastGone();
  });

  test('client edit: the changed fields come back, and the save goes through (zh-HK)', async () => {
    await useLanguage('zh-HK');
    await page.goto(`${server.baseUrl}/client/edit?customerId=${customerId}`);
    await expectRoute(page, 'clientEdit');
    await expect(page.locator('#edit-remark')).toBeVisible();
    const remark = `客戶希望下月起每月定投港股 ETF ${Date.now().toString(36)}`;
    await page.fill('#edit-remark', remark);
    await page.fill('#edit-nameEn', 'CHAN Siu Ming');

    await expireSessionsOnceQuiet();
    await page.getByTestId('edit-save').click();
    await signInThroughEmulator(page);

    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(`/client/edit?customerId=${customerId}`);
    await expect(page.locator('#edit-remark')).toBeVisible();
    await expect(page.locator('#edit-remark')).toHaveValue(remark);
    await expect(page.locator('#edit-nameEn')).toHaveValue('CHAN Siu Ming');
    await expect(page.getByTestId('draft-notice')).toContainText('登入已過期');
    await expect(page.getByTestId('edit-conflict')).toHaveCount(0);
    await saveScreenshot(page, 'draft-restored-client-edit-zh-HK');

    await page.getByTestId('edit-save').click();
    await expectRoute(page, 'clientInformation');
    await expect(page.locator('.ba-route:visible [data-testid="info-remark"]')).toContainText(remark);
    expect(await draftKeys()).toEqual([]);
    await toastGone();
  });

  test('MOT threshold: the settings reopen with the amount typed, and it is saved (en)', async () => {
    await useLanguage('en');
    await page.goto(`${server.baseUrl}/mot/home`);
    await expectRoute(page, 'motHome');
    await page.getByTestId('mot-settings-open').click();
    const input = page.locator('#mot-min-cash-io');
    await expect(input).toBeVisible();
    await input.fill('250000');

    await expireSessionsOnceQuiet();
    await page.locator('[data-testid=mot-settings]').getByRole('button', { name: 'Save' }).click();
    await signInThroughEmulator(page);

    expect(new URL(page.url()).pathname).toBe('/mot/home');
    await expect(input).toBeVisible();
    await expect(input).toHaveValue('250000');
    await expect(page.getByTestId('draft-notice')).toContainText('Your sign-in expired');
    await saveScreenshot(page, 'draft-restored-mot-threshold-en');

    await page.locator('[data-testid=mot-settings]').getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.adm-toast-main')).toBeVisible();
    await expect
      .poll(async () => {
        const [row] = await server.database.query<{ minCashIo: string }>(
          `select min_cash_io::text as "minCashIo" from staff where wecom_user_id = 'chanwaiman'`,
        );
        return Number(row!.minCashIo);
      })
      .toBe(250000);
    expect(await draftKeys()).toEqual([]);
    await toastGone();
    await page.locator('.ba-sheet-close').click();
    await useLanguage('zh-CN');
  });
});

describe('what cannot be restored as it was says so', () => {
  test('a crashed edit of a profile someone changed meanwhile is not saved over their change', async () => {
    await page.goto(`${server.baseUrl}/client/edit?customerId=${customerId}`);
    await expectRoute(page, 'clientEdit');
    await expect(page.locator('#edit-remark')).toBeVisible();
    const mine = `崩溃前输入的备注 ${Date.now().toString(36)}`;
    await page.fill('#edit-remark', mine);
    await expect.poll(draftKeys).toHaveLength(2);

    // The page dies (a crash, a closed sidebar); a colleague saves the same client before it is opened again.
    await page.close();
    await server.database.query(`update customer set email = 'colleague@example.com', version = version + 1 where id = $1`, [customerId]);
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/client/edit?customerId=${customerId}`);
    await expectRoute(page, 'clientEdit');

    // The colleague changed only the email: it is taken and named; the remark typed before the crash is kept.
    await expect(page.getByTestId('merge-notice')).toContainText('邮箱');
    await expect(page.getByTestId('edit-conflict')).toHaveCount(0);
    await expect(page.locator('#edit-remark')).toHaveValue(mine);
    await saveScreenshot(page, 'draft-restored-over-changed-profile');
    await expect(page.locator('#edit-email')).toHaveValue('colleague@example.com');
    await page.getByTestId('edit-save').click();
    await expectRoute(page, 'clientInformation');
    await expect(page.locator('.ba-route:visible [data-testid="info-remark"]')).toContainText(mine);
    await expect(page.locator('.ba-route:visible [data-testid="info-email"]')).toContainText('colleague@example.com');
    await toastGone();
  });
});

describe("the page's filters come back too", () => {
  test('trade filters chosen before the expiry are there after the sign-in', async () => {
    await page.goto(`${server.baseUrl}/client/information/accountDetail/transaction?customerId=${customerId}`);
    await expectRoute(page, 'clientTransaction');
    await page.getByTestId('filter-market').getByRole('radio', { name: '港股' }).click();
    await page.getByTestId('filter-period').getByRole('radio', { name: '近3月' }).click();

    await expireSessionsOnceQuiet();
    // The next read (a filter changed) meets the expired session.
    await page.getByTestId('filter-side').getByRole('radio', { name: '买入' }).click();
    await signInThroughEmulator(page);

    await expectRoute(page, 'clientTransaction');
    for (const [filter, chosen] of [
      ['filter-market', '港股'],
      ['filter-period', '近3月'],
      ['filter-side', '买入'],
    ] as const) {
      await expect(page.getByTestId(filter).locator('[aria-checked=true]'), filter).toHaveText(chosen);
    }
  });

  test('the client list keeps its search through the sign-in', async () => {
    await page.goto(`${server.baseUrl}/client/manage/list`);
    await expectRoute(page, 'clientManageList');
    const search = page.locator('.ba-manage__search input');
    await expect(page.locator('[data-testid="client-row"]').first()).toBeVisible();
    // Expired once the page is idle: a background read would otherwise start the sign-in before the search.
    await expireSessionsOnceQuiet();
    // Typing searches once it pauses (ADR 0046): that search meets the expired session.
    await search.fill('陈');
    await signInThroughEmulator(page);

    await expectRoute(page, 'clientManageList');
    await expect(page.getByTestId('active-filters')).toContainText('陈');
  });
});

describe('a shared PC', () => {
  test("another staff member signing in never sees the previous one's draft, and it is gone from the browser", async () => {
    await page.goto(`${server.baseUrl}/mot/home`);
    await expectRoute(page, 'motHome');
    await page.getByTestId('mot-settings-open').click();
    await page.locator('#mot-min-cash-io').fill('777777');
    await expect.poll(draftKeys).toHaveLength(2);

    // WeCom switches account: the token goes (not localStorage), the next person signs in.
    await expireSessionsOnceQuiet();
    await page.reload();
    await signInThroughEmulator(page, 'leekaying');
    await expectRoute(page, 'motHome');
    expect(await draftKeys()).toEqual([]);
    await page.getByTestId('mot-settings-open').click();
    const input = page.locator('#mot-min-cash-io');
    await expect(input).toBeVisible();
    await expect(input).not.toHaveValue('777777');
    await expect(page.getByTestId('draft-notice')).toHaveCount(0);
  });
});

// Last: its expiry ends the main page's session too.
describe('KYC bind in the chat sidebar', () => {
  test('the search and the customer being bound come back; the bind is confirmed again', async () => {
    const sidebar = await browser.newContext({ ...PHONE_CONTEXT });
    const tab = await sidebar.newPage();
    try {
      const [customer] = await server.database.query<{ id: number; nameCn: string }>(
        `select c.id::float8 as id, c.name_cn as "nameCn" from customer c join staff s on s.id = c.staff_id
          where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' order by c.id desc limit 1`,
      );
      const opener = new URLSearchParams({ entry: 'single_chat_tools', externalUserId: 'wmEmu0001HoKwokLeung', url: '/' });
      await tab.goto(`${server.baseUrl}/wecom/__emulator/sidebar?${opener.toString()}`);
      await tab.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
      await tab.click('a.staff[data-userid="chanwaiman"]');
      await tab.waitForURL((url) => url.pathname === '/kyc/index');
      await tab.getByTestId('kyc-search').locator('input').fill(customer!.nameCn);
      const candidate = tab.locator(`[data-testid="kyc-candidate"][data-customer-id="${customer!.id}"]`);
      await candidate.getByRole('button', { name: '绑定' }).click();
      await expect(tab.locator('.adm-dialog-body')).toBeVisible();

      await expireSessions();
      await tab.getByRole('button', { name: '确认绑定' }).click();
      await tab.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
      await tab.click('a.staff[data-userid="chanwaiman"]');
      await tab.waitForURL((url) => url.pathname === '/kyc/index');

      await expect(tab.getByTestId('draft-notice')).toBeVisible();
      await expect(tab.getByTestId('kyc-search').locator('input')).toHaveValue(customer!.nameCn);
      const again = candidate.getByTestId('kyc-bind-interrupted');
      await expect(again).toBeVisible();
      await saveScreenshot(tab, 'draft-restored-kyc-bind-zh-CN');
      await again.click();
      await expect(tab.locator('.adm-dialog-body').last()).toBeVisible();
      await tab.getByRole('button', { name: '确认绑定' }).click();
      await tab.waitForURL((url) => url.pathname === '/client/information');
      expect(new URL(tab.url()).searchParams.get('customerId')).toBe(String(customer!.id));
      expect(
        await tab.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((key) => key.startsWith('draft:'))),
      ).toEqual([]);
    } finally {
      await sidebar.close();
    }
  });
});
