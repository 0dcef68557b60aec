import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { closeInOrder, launchBrowser, newPhone, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';

/*
 * Nothing typed is lost to another tab (issue 36.6, ADR 0013): one tab's save leaves the other tab's draft; several
 * tabs' drafts of one record are offered, not picked silently; a note typed for an MOT event handled meanwhile is
 * shown and can become a contact record; a correction's reason met by a version still open to edits moves into the
 * note. One staff member, several tabs of one browser (one context: one localStorage, a sessionStorage per tab).
 */

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
const stamp = Date.now().toString(36);
const LANGUAGES = ['zh-CN', 'zh-HK', 'en'] as const;

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 36, asOf: hongKongDay() });
  expect((await runDailyMotSweep(server.database, { force: true })).status).toBe('ran');
  browser = await launchBrowser();
  let page: Page;
  ({ context, page } = await newPhone(browser));
  await openSignedIn(page, server.baseUrl, '/client/manage/list');
  await page.close();
});
afterAll(() => closeInOrder(context, browser, server));

const customers = () =>
  server.database.query<{ id: number }>(
    `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' order by c.id limit 2`,
  );

/** A tab of the browser at `path`, once the page of `route` shows. */
async function tabAt(path: string, route: string) {
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}${path}`);
  await expectRoute(page, route);
  return page;
}

/** How many tabs' drafts the browser keeps for `key` (localStorage holds every tab's). */
const draftsOf = (page: Page, key: string) =>
  page.evaluate(
    (suffix) =>
      Object.keys(localStorage).filter((name) => name.startsWith('draft:') && (name.endsWith(`:${suffix}`) || name.includes(`:${suffix}#`)))
        .length,
    key,
  );

const useLanguage = (page: Page, language: string) => page.evaluate((chosen) => localStorage.setItem('language', chosen), language);

describe('two tabs on one client profile', () => {
  test("one tab's save leaves the other's typing: that tab, closed and opened again, gets it back", async () => {
    const [customer] = await customers();
    const path = `/client/edit?customerId=${customer!.id}`;
    const theirs = await tabAt(path, 'clientEdit');
    const mine = await tabAt(path, 'clientEdit');
    const typed = `客户下周出差，改约月底 ${stamp}`;
    await mine.fill('#edit-remark', typed);
    await expect.poll(() => draftsOf(mine, `clientEdit:${customer!.id}`)).toBe(1);

    await theirs.fill('#edit-remark', `已电话确认地址 ${stamp}`);
    await theirs.getByTestId('edit-save').click();
    await expectRoute(theirs, 'clientInformation');
    await mine.close();

    const reopened = await tabAt(path, 'clientEdit');
    // Typed against the version before the other tab's save: both changed the remark, and mine is there to choose.
    const remark = reopened.getByTestId('edit-conflict').locator('[data-testid="merge-field"][data-field="remark"]');
    await expect(remark.getByRole('radio', { name: /您的修改/ })).toContainText(typed);
    await expect(reopened.locator('#edit-remark')).toHaveValue(typed);
    await theirs.close();
    await reopened.close();
  });

  test('drafts left by two closed tabs are both offered; the one taken opens, the other stays', async () => {
    const [, customer] = await customers();
    const path = `/client/edit?customerId=${customer!.id}`;
    const key = `clientEdit:${customer!.id}`;
    const first = await tabAt(path, 'clientEdit');
    const second = await tabAt(path, 'clientEdit');
    await first.fill('#edit-remark', `第一个窗口的备注 ${stamp}`);
    await second.fill('#edit-remark', `第二个窗口的备注 ${stamp}`);
    await expect.poll(() => draftsOf(first, key)).toBe(2);
    await first.close();
    await second.close();

    const page = await tabAt(path, 'clientEdit');
    const choice = page.getByTestId('draft-choice');
    await expect(choice.getByTestId('draft-choice-item')).toHaveCount(2);
    await expect(choice.getByTestId('draft-choice-item').first()).toContainText(`第二个窗口的备注 ${stamp}`);
    for (const language of LANGUAGES) {
      await useLanguage(page, language);
      await page.reload();
      await expect(page.getByTestId('draft-choice')).toBeVisible();
      await saveScreenshot(page, `draft-choice-${language}`);
    }
    await useLanguage(page, 'zh-CN');
    await page.reload();
    await page.getByTestId('draft-choice-item').filter({ hasText: '第一个窗口' }).click();
    await expect(page.locator('#edit-remark')).toHaveValue(`第一个窗口的备注 ${stamp}`);
    await expect(page.getByTestId('draft-notice')).toBeVisible();
    // Taken by this tab (its own now), the other tab's kept.
    expect(await draftsOf(page, key)).toBe(2);
    await page.close();
  });
});

test('a client moved to another manager: the edit page no longer opens, and what was typed for it is shown', async () => {
  const [customer] = await server.database.query<{ id: number }>(
    `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' order by c.id desc limit 1`,
  );
  const path = `/client/edit?customerId=${customer!.id}`;
  const typed = `客户要求改用电邮联系 ${stamp}`;
  const before = await tabAt(path, 'clientEdit');
  await before.fill('#edit-remark', typed);
  await expect.poll(() => draftsOf(before, `clientEdit:${customer!.id}`)).toBe(1);
  await before.close();
  await server.database.query(`update customer set staff_id = (select id from staff where wecom_user_id = 'leekaying') where id = $1`, [
    customer!.id,
  ]);

  const page = await tabAt(path, 'clientEdit');
  await expect(page.getByTestId('client-unavailable')).toBeVisible();
  await expect(page.getByTestId('unreachable-draft')).toHaveText(typed);
  for (const language of [...LANGUAGES.slice(1), 'zh-CN'] as const) {
    await useLanguage(page, language);
    await page.reload();
    await expect(page.getByTestId('unreachable-draft')).toHaveText(typed);
    await saveScreenshot(page, `unreachable-draft-${language}`);
  }
  await page.getByTestId('unreachable-discard').click();
  await expect(page.getByTestId('unreachable-drafts')).toHaveCount(0);
  expect(await draftsOf(page, `clientEdit:${customer!.id}`)).toBe(0);
  await page.close();
});

test('a note typed for an MOT event handled in another tab meanwhile is shown, and saved as a contact record', async () => {
  const [event] = await server.database.query<{ id: number; customerId: number }>(
    `select e.id::float8 as id, e.customer_id::float8 as "customerId" from mot_event e join staff s on s.id = e.staff_id
      where s.wecom_user_id = 'chanwaiman' and e.status <> 'handled' order by e.id limit 1`,
  );
  const path = `/mot/eventDetail?eventId=${event!.id}`;
  const mine = await tabAt(path, 'motEventDetail');
  const theirs = await tabAt(path, 'motEventDetail');
  const note = `电话联系客户，约周五来行 ${stamp}`;
  await mine.getByTestId('mot-handle-open').click();
  await mine.fill('#mot-handle-note', note);

  await theirs.getByTestId('mot-handle-open').click();
  await theirs.fill('#mot-handle-note', `企业微信问候 ${stamp}`);
  await theirs.getByRole('button', { name: '提交' }).click();
  await expect(theirs.getByTestId('mot-event')).toHaveAttribute('data-status', 'handled');
  await theirs.close();

  await mine.getByRole('button', { name: '提交' }).click();
  const left = mine.getByTestId('mot-handled-meanwhile');
  await expect(left).toBeVisible();
  await expect(mine.getByTestId('mot-left-note')).toHaveText(note);
  for (const language of [...LANGUAGES.slice(1), 'zh-CN'] as const) {
    // A reload (a crash) keeps it too.
    await useLanguage(mine, language);
    await mine.reload();
    await expect(mine.getByTestId('mot-left-note')).toHaveText(note);
    await saveScreenshot(mine, `mot-handled-meanwhile-${language}`);
  }

  await mine.getByTestId('mot-left-save').click();
  await expectRoute(mine, 'contactNew');
  await expect(mine.locator('#contact-note')).toHaveValue(note);
  await mine.getByTestId('contact-save').click();
  await expectRoute(mine, 'contactRecord');
  const saved = await server.database.query(`select 1 from contact_record where customer_id = $1 and note = $2`, [event!.customerId, note]);
  expect(saved).toHaveLength(1);
  await mine.close();
});

test('a correction met by a version saved meanwhile and still open to edits keeps its reason, in the note', async () => {
  const records = await server.database.query<{ id: number }>(
    `select r.id::float8 as id from contact_record r join staff s on s.id = r.staff_id
      where s.wecom_user_id = 'chanwaiman' and r.superseded_by is null and r.locks_at < now() order by r.id limit 3`,
  );
  expect(records).toHaveLength(3);
  const lines = { 'zh-CN': '（修改原因：{r}）', 'zh-HK': '（修改原因：{r}）', en: '(Reason for the change: {r})' };
  for (const [index, language] of LANGUAGES.entries()) {
    const path = `/client/contact/record?recordId=${records[index]!.id}`;
    const theirs = await tabAt(path, 'contactRecord');
    await useLanguage(theirs, language);
    const mine = await tabAt(path, 'contactRecord');
    for (const page of [theirs, mine]) {
      await page.reload();
      await page.getByTestId('contact-correct').click();
    }
    await theirs.fill('#contact-outcome', `已安排 ${stamp}`);
    await theirs.fill('#contact-correctionReason', 'outcome added');
    await theirs.getByTestId('contact-save').click();
    await expect(theirs.getByTestId('contact-record')).toHaveAttribute('data-version', '2');
    await theirs.close();

    const typed = `Client asked about dividends ${stamp}`;
    await mine.fill('#contact-note', typed);
    await mine.fill('#contact-correctionReason', 'the call, in full');
    await mine.getByTestId('contact-save').click();
    // Only the other tab changed the outcome: taken; the change is now an edit of version 2, which keeps no reason.
    await expect(mine.getByTestId('contact-reason-moved')).toBeVisible();
    const kept = `${typed}\n${lines[language].replace('{r}', 'the call, in full')}`;
    await expect(mine.locator('#contact-note')).toHaveValue(kept);
    await expect(mine.locator('#contact-correctionReason')).toHaveCount(0);
    await saveScreenshot(mine, `contact-reason-moved-${language}`);
    await mine.getByTestId('contact-save').click();
    await expect(mine.getByTestId('contact-record')).toContainText(typed);
    const [latest] = await server.database.query<{ note: string; version: number }>(
      `select note, version from contact_record where thread_id = (select thread_id from contact_record where id = $1) and superseded_by is null`,
      [records[index]!.id],
    );
    expect(latest).toEqual({ note: kept, version: 2 });
    await mine.close();
  }
});
