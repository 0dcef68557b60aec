import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { addDays, hongKongDay } from '@broker/domain';
import { launchBrowser, newPhone, saveScreenshot, closeInOrder } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';

/*
 * The contact log (ADR 0038) in the browser against the real server: logging a contact from the profile (with
 * the rules the form shows before sending), editing it before it locks, correcting it after (a new version, the
 * old one kept), the client's log with its filter, the CSV export and the printable page; and MOT's handle sheet
 * handing what was typed over to the full form. The lock window is a few seconds here (CONTACT_RECORD_LOCK_HOURS).
 */

/** 0.01 h = 36 s: long enough to edit in place, short enough to wait for the lock. */
const LOCK_HOURS = '0.01';
const LOCK_MS = 36_000;

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let customer: { customerId: number; nameCn: string; customerNo: string };
const stamp = Date.now().toString(36);
const NOTE = `E2E 面谈：介绍美股基金，客户有兴趣 ${stamp}`;
const SUITABILITY = '客户风险等级 R4，投资目标为增长，有五年股票经验';
const NEXT_STEP = '寄送基金说明书';

beforeAll(async () => {
  server = await startE2eServer({ CONTACT_RECORD_LOCK_HOURS: LOCK_HOURS });
  await seedDemoData(server.database, { customers: 200, seed: 23, asOf: hongKongDay() });
  const sweep = await runDailyMotSweep(server.database, { force: true });
  expect(sweep.status).toBe('ran');
  const [found] = await server.database.query<{ customerId: number; nameCn: string; customerNo: string }>(
    `select c.id::float8 as "customerId", c.name_cn as "nameCn", c.customer_no as "customerNo" from customer c
       join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' and c.open_date < current_date - 30
      order by c.id limit 1`,
  );
  customer = found!;
  browser = await launchBrowser();
  ({ context, page } = await newPhone(browser, { acceptDownloads: true }));
  await openSignedIn(page, server.baseUrl, `/client/information?customerId=${customer.customerId}`);
});

afterAll(() => closeInOrder(context, browser, server));

const route = (name: string) => page.locator(`.ba-route[data-route="${name}"]`);
const form = () => route('contactNew');
const record = () => route('contactRecord');
const toastGone = () => expect(page.locator('.adm-toast-mask')).toHaveCount(0);
/** A screenshot of the form from its top (typing scrolled it down), with the focus out of the inputs. */
async function shootFormFromTop(name: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await form()
    .getByTestId('page-scroll')
    .evaluate((element) => element.scrollTo(0, 0));
  await saveScreenshot(page, name);
}

async function useLanguage(language: string) {
  await page.evaluate((chosen) => localStorage.setItem('language', chosen), language);
}

/** The record the first test writes (and the later ones edit, correct, export), as its page's path. */
let recordPath = '';

describe('the contact log', () => {
  test('logging from the profile: channel and purpose chips, the rules shown before sending, then the record', async () => {
    await route('clientInformation').getByTestId('link-contact-new').click();
    await expectRoute(page, 'contactNew');
    await expect(form().getByTestId('contact-client')).toContainText(customer.nameCn);
    await form().getByRole('radio', { name: /面谈/ }).click();
    await form().getByRole('radio', { name: '产品推荐' }).click();
    await form().locator('#contact-note').fill(NOTE);
    await form().locator('#contact-nextStepDate').fill(addDays(hongKongDay(), 7));
    await form().getByTestId('contact-save').click();
    // A recommendation without its rationale, a date without its step: said under the fields, nothing sent.
    await expect(form().getByTestId('contact-error-suitability')).toBeVisible();
    await expect(form().getByTestId('contact-error-nextStep')).toBeVisible();
    await form().locator('#contact-suitability').fill(SUITABILITY);
    await form().locator('#contact-nextStep').fill(NEXT_STEP);
    await form().locator('#contact-outcome').fill('客户考虑中');
    await shootFormFromTop('contact-form-zh-CN');
    await form().getByTestId('contact-save').click();

    await expectRoute(page, 'contactRecord');
    await expect(record().getByTestId('contact-note')).toHaveText(NOTE);
    await expect(record().getByTestId('contact-record')).toContainText(SUITABILITY);
    await expect(record().getByTestId('contact-record')).toContainText(NEXT_STEP);
    await expect(record().getByTestId('contact-lock')).toHaveAttribute('data-locked', 'false');
    recordPath = new URL(page.url()).pathname + new URL(page.url()).search;
    expect(recordPath).toMatch(/^\/client\/contact\/record\?recordId=\d+$/);
    const [saved] = await server.database.query<{ note: string; requestId: string | null }>(
      `select note, request_id::text as "requestId" from contact_record where id = $1`,
      [Number(new URL(page.url()).searchParams.get('recordId'))],
    );
    expect(saved).toMatchObject({ note: NOTE });
    expect(saved!.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('before the lock the author edits it in place: the same version, no reason asked', async () => {
    await record().getByTestId('contact-edit').click();
    await expect(record().locator('#contact-correctionReason')).toHaveCount(0);
    await record().locator('#contact-outcome').fill('客户同意下周再谈');
    await record().getByTestId('contact-save').click();
    await expect(record().getByTestId('contact-record')).toContainText('客户同意下周再谈');
    await expect(record().getByTestId('contact-record')).toHaveAttribute('data-version', '1');
  });

  test('once locked it can only be corrected: a reason, a new version, the earlier one kept', async () => {
    // The page turns from "edit" to "correct" at the lock, without a reload.
    await expect(record().getByTestId('contact-lock')).toHaveAttribute('data-locked', 'true', { timeout: LOCK_MS + 30_000 });
    await expect(record().getByTestId('contact-edit')).toHaveCount(0);
    await toastGone();
    await record().getByTestId('contact-correct').click();
    await record().locator('#contact-note').fill(`${NOTE}（更正：电话联系）`);
    await record().getByRole('radio', { name: /电话/ }).click();
    await record().getByTestId('contact-save').click();
    await expect(record().getByTestId('contact-error-correctionReason')).toBeVisible();
    await record().locator('#contact-correctionReason').fill('联系方式记错，实为电话');
    await saveScreenshot(page, 'contact-correction-zh-CN');
    await record().getByTestId('contact-save').click();

    await expect(record().getByTestId('contact-record')).toHaveAttribute('data-version', '2');
    await expect(record().getByTestId('contact-record').getByTestId('contact-note')).toHaveText(`${NOTE}（更正：电话联系）`);
    await expect(record().getByTestId('contact-record')).toContainText('联系方式记错，实为电话');
    const versions = record().getByTestId('contact-version');
    await expect(versions).toHaveCount(1);
    await expect(versions.first()).toContainText(NOTE);
    await expect(versions.first()).toHaveAttribute('data-version', '1');
    await toastGone();
    await saveScreenshot(page, 'contact-record-zh-CN');
  });

  test("the client's log: newest first, by channel, exported to CSV with every version, and printable", async () => {
    await record().getByTestId('contact-log-link').click();
    await expectRoute(page, 'contactLog');
    const rows = route('contactLog').getByTestId('contact-log-row');
    await expect(rows.first()).toContainText(`${NOTE}（更正：电话联系）`);
    await route('contactLog').getByTestId('contact-log-filter').getByRole('radio', { name: '面谈' }).click();
    await expect(route('contactLog').getByText(`${NOTE}（更正：电话联系）`)).toHaveCount(0);
    await route('contactLog').getByTestId('contact-log-filter').getByRole('radio', { name: '电话' }).click();
    await expect(rows.first()).toContainText(`${NOTE}（更正：电话联系）`);

    const download = page.waitForEvent('download');
    await route('contactLog').getByTestId('contact-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^contact-log-.+\.csv$/);
    // Read through playwright's stream: the run's shared Chromium is connected to, and a connection has no local path.
    const csv = (await buffer(await file.createReadStream())).toString('utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain(`${NOTE}（更正：电话联系）`);
    expect(csv).toContain('联系方式记错，实为电话');
    // The earlier version is in the export too.
    expect(csv.split(NOTE).length - 1).toBeGreaterThanOrEqual(2);
    const [audited] = await server.database.query<{ count: number }>(
      `select count(*)::int as count from audit_log where action like 'contact.%export%'`,
    );
    expect(audited!.count).toBeGreaterThanOrEqual(1);

    await route('contactLog').getByTestId('contact-print').click();
    await expectRoute(page, 'contactPrint');
    await expect(route('contactPrint').getByTestId('contact-print-row').first()).toContainText(`${NOTE}（更正：电话联系）`);
    await expect(route('contactPrint').getByTestId('contact-print')).toContainText(customer.customerNo);
  });

  test("MOT's handle sheet offers the full form and carries over what was typed", async () => {
    const [event] = await server.database.query<{ id: number; customerId: number }>(
      `select e.id::float8 as id, e.customer_id::float8 as "customerId" from mot_event e join staff s on s.id = e.staff_id
        where s.wecom_user_id = 'chanwaiman' and e.status <> 'handled' order by e.id limit 1`,
    );
    await page.goto(`${server.baseUrl}/mot/eventDetail?eventId=${event!.id}`);
    await page.getByTestId('mot-handle-open').click();
    await page.locator('#mot-handle-note').fill(`E2E 从 MOT 打开完整表单 ${stamp}`);
    await page.getByTestId('mot-handle-full-form').click();
    await expectRoute(page, 'contactNew');
    await expect(form().locator('#contact-note')).toHaveValue(`E2E 从 MOT 打开完整表单 ${stamp}`);
    await expect(form().locator(`[data-testid=contact-events] [data-event-id="${event!.id}"]`)).toHaveAttribute('aria-checked', 'true');
    await form().getByTestId('contact-save').click();
    await expectRoute(page, 'contactRecord');
    const [handled] = await server.database.query<{ status: string }>('select status from mot_event where id = $1', [event!.id]);
    expect(handled!.status).toBe('handled');
  });
});

describe('languages', () => {
  test('the log form and the record read naturally in zh-HK and English', async () => {
    for (const [language, formTitle, noteLabel] of [
      ['zh-HK', '記錄聯絡', '溝通內容'],
      ['en', 'Log a contact', 'What was discussed'],
    ] as const) {
      await useLanguage(language);
      await page.goto(`${server.baseUrl}/client/contact/new?customerId=${customer.customerId}&channel=wecom`);
      await expect(page.locator('.ba-topbar__title')).toHaveText(formTitle);
      await expect(form().locator('label[for=contact-note]')).toContainText(noteLabel);
      await form()
        .locator('#contact-note')
        .fill(language === 'en' ? 'Called about the US fund; client is interested' : '致電介紹美股基金，客戶有興趣');
      await form()
        .locator('#contact-nextStep')
        .fill(language === 'en' ? 'Send the fund factsheet' : '寄送基金說明書');
      await form().locator('#contact-nextStepDate').fill(addDays(hongKongDay(), 7));
      await shootFormFromTop(`contact-form-${language}`);
      // Not saved: emptied, so no draft is left behind for the next language.
      await form().locator('#contact-note').fill('');
      await form().locator('#contact-nextStep').fill('');
      await form().locator('#contact-nextStepDate').fill('');
      await page.goto(`${server.baseUrl}${recordPath}`);
      await expect(record().getByTestId('contact-record')).toHaveAttribute('data-version', '2');
      await expect(record().getByTestId('contact-versions')).toBeVisible();
      await saveScreenshot(page, `contact-record-${language}`);
    }
    await useLanguage('zh-CN');
  });
});
