import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { apiClient, signInAs, type ApiAnswer } from '@broker/server/testing';
import { saveScreenshot, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { openSignedIn, expectRoute } from './support/web-shell';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

// Emulator contact 0001 何国良 is followed by chanwaiman.
const HO = 'wmEmu0001HoKwokLeung';

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let editedName: string;

/** chanwaiman's day, through the API: a profile edit, a binding, an event handled, a threshold changed. */
async function doSomeWork() {
  const api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
  const succeeded = (name: string, { body }: ApiAnswer<unknown>) => expect(body.code, `${name}: ${body.msg}`).toBe('0');
  const [first, second] = await server.database.query<{ id: number; nameCn: string; version: number }>(
    `select c.id::float8 as id, c.name_cn as "nameCn", c.version from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.phone is not null order by c.id limit 2`,
  );
  editedName = first!.nameCn;
  succeeded(
    'updateProfile',
    await api.updateProfile({ customerId: first!.id, version: first!.version, phone: '+852 6789 0123', remark: '周五下午回电' }),
  );
  succeeded('kycBind', await api.kycBind({ externalUserId: HO, customerId: second!.id }));
  const [event] = await server.database.query<{ id: number }>(
    `select e.id::float8 as id from mot_event e join customer c on c.id = e.customer_id join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and e.status <> 'handled' order by e.id limit 1`,
  );
  succeeded('handleEvent', await api.handleEvent({ eventId: event!.id, channel: 'phone', note: '已电话联系' }));
  succeeded('setMinCashIO', await api.setMinCashIO({ minCashIO: 150_000 }));
}

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 120, seed: 6, asOf: hongKongDay() });
  await runDailyMotSweep(server.database, { force: true });
  await doSomeWork();
  ({ browser, context, page } = await launchPhone());
});

afterAll(() => closeInOrder(context, browser, server));

describe('My activity', () => {
  test('reached from the top bar sheet; lists my own changes in plain words, phones masked', async () => {
    await openSignedIn(page, server.baseUrl, '/client/manage/list');
    await expectRoute(page, 'clientManageList');
    await page.getByTestId('me-button').click();
    await page.getByText('我的操作记录', { exact: true }).click();
    await expectRoute(page, 'auditTrail');
    await expect(page.getByTestId('audit-list')).toBeVisible();
    const entries = page.getByTestId('audit-entry');
    expect(await entries.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')))).toEqual([
      'mot.setMinCashIO',
      // Handling an event writes its contact record through the contact log (ADR 0038): two entries, one transaction.
      'mot.handle',
      'contact.add',
      'kyc.bind',
      'customer.update',
    ]);
    const edit = page.locator('[data-testid="audit-entry"][data-action="customer.update"]');
    await expect(edit).toContainText(`编辑了 ${editedName} 的资料`);
    await expect(edit).toContainText('+852 6789 ****');
    await expect(page.locator('.ba-audit')).not.toContainText('6789 0123');
    await expect(page.locator('[data-testid="audit-entry"][data-action="kyc.bind"]')).toContainText(`将企业微信联系人 ${HO} 绑定到`);
    await expect(page.locator('[data-testid="audit-entry"][data-action="mot.setMinCashIO"]')).toContainText('HKD 150,000');
    await expect(page.locator('.adm-action-sheet-popup .adm-popup-body')).toBeHidden();
    await saveScreenshot(page, 'audit-trail');

    await page.getByRole('button', { name: 'KYC 绑定' }).click();
    await expect(entries).toHaveCount(1);
  });
});
