import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';
import type { PageGlobals } from './support/page-globals';
import { hongKongDay } from '@broker/domain';

/**
 * Reaching a client in one tap (ADR 0039): from the profile header, an MOT event and a
 * long-pressed list row; a card sent into the client's chat from the sidebar; every reveal of a number
 * in the audit trail; and after each contact, the offer to log it.
 */

// Emulator contact 0001 何国良 is followed by chanwaiman.
const HO = 'wmEmu0001HoKwokLeung';

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** chanwaiman's client with a phone and an open MOT event, bound to HO. */
let client: { id: number; nameCn: string; eventId: number };

interface ChatEntry {
  api: string;
  userid: string;
  externalUserIds: string[];
  entry?: string;
  message?: { msgtype: string; news?: { title: string; desc: string; link: string }; text?: { content: string } };
}

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 120, seed: 7, asOf: hongKongDay() });
  await runDailyMotSweep(server.database, { force: true });
  const [row] = await server.database.query<{ id: number; nameCn: string; eventId: number; corpId: number; staffId: number }>(
    `select c.id::float8 as id, c.name_cn as "nameCn", e.id::float8 as "eventId", c.corp_id as "corpId", c.staff_id as "staffId"
       from mot_event e join customer c on c.id = e.customer_id join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.phone is not null and e.status <> 'handled'
      order by e.id limit 1`,
  );
  client = { id: row!.id, nameCn: row!.nameCn, eventId: row!.eventId };
  await server.database.query(`delete from kyc_binding where external_user_id = $1 or customer_id = $2`, [HO, client.id]);
  await server.database.query(
    `insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id) values ($1, $2, $3, $4)`,
    [row!.corpId, HO, client.id, row!.staffId],
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function signedInPhone(path: string): Promise<Page> {
  const context = await browser.newContext(PHONE_CONTEXT);
  contexts.push(context);
  const page = await context.newPage();
  await openSignedIn(page, server.baseUrl, path);
  return page;
}

/** What the emulated WeCom client opened or sent since `since` (epoch ms). */
async function chatLog(since: number): Promise<ChatEntry[]> {
  const response = await fetch(`${server.baseUrl}/wecom/__emulator/chat-log?since=${since}`);
  return ((await response.json()) as { list: ChatEntry[] }).list;
}

/** The audit rows of phone reveals for a client, oldest first. */
const revealsOf = (customerId: number) =>
  server.database.query<{ action: string; actor: string }>(
    `select l.action, s.wecom_user_id as actor from audit_log l join staff s on s.id = l.actor_staff_id
      where l.entity = 'customer' and l.entity_id = $1 and l.action in ('customer.revealPhone', 'customer.callPhone') order by l.id`,
    [String(customerId)],
  );

const route = (page: Page, name: string) => page.locator(`.ba-route[data-route="${name}"]`);
const logDialog = (page: Page) => page.locator('.adm-dialog-body').filter({ hasText: '记录这次联系？' });

/** The log form the offer leads to, with its query (the form itself is the contact log's page, docs/contact-log.md). */
async function expectLogForm(page: Page, expected: Record<string, string>) {
  await page.waitForURL((url) => url.pathname === '/client/contact/new');
  const query = Object.fromEntries(new URL(page.url()).searchParams);
  expect(query).toMatchObject(expected);
  expect(Number(query.at)).toBeGreaterThan(Date.now() - 60_000);
}

describe('reach a client in one tap', () => {
  test('profile header: a WeCom chat with the bound contact, then the offer to log it', async () => {
    const page = await signedInPhone(`/client/information?customerId=${client.id}`);
    const profile = route(page, 'clientInformation');
    const actions = profile.getByTestId('reach-actions');
    await expect(actions.getByTestId('reach-chat')).toBeVisible();
    await expect(actions.getByTestId('reach-phone')).toHaveText(/\*{4}$/);
    // The base information card keeps the number masked too.
    await expect(profile.getByTestId('info-phone')).toContainText('****');
    await saveScreenshot(page, 'reach-profile-actions');

    const since = Date.now();
    await actions.getByTestId('reach-chat').click();
    await expect(logDialog(page)).toBeVisible();
    expect(await chatLog(since)).toEqual([
      expect.objectContaining({ api: 'openEnterpriseChat', userid: 'chanwaiman', externalUserIds: [HO] }),
    ]);
    await saveScreenshot(page, 'reach-log-offer');
    await logDialog(page).getByRole('button', { name: '去记录' }).click();
    await expectLogForm(page, { customerId: String(client.id), channel: 'wecom' });
  });

  test('profile header: a call reveals the number in the audit trail; "show number" too, each under its own action', async () => {
    const before = (await revealsOf(client.id)).length;
    const page = await signedInPhone(`/client/information?customerId=${client.id}`);
    const actions = route(page, 'clientInformation').getByTestId('reach-actions');
    const [phone] = await server.database.query<{ phone: string }>('select phone from customer where id = $1', [client.id]);

    await actions.getByTestId('reach-reveal').click();
    await expect(actions.getByTestId('reach-phone')).toHaveText(phone!.phone);
    const calledSince = Date.now();
    await actions.getByTestId('reach-call').click();
    await expect(logDialog(page)).toBeVisible();
    // The sandbox's phone: the emulator records the number dialled (a phone's WeCom opens the dialler).
    expect(await chatLog(calledSince)).toEqual([
      expect.objectContaining({ api: 'tel', userid: 'chanwaiman', message: { number: expect.any(String) } }),
    ]);
    await logDialog(page).getByRole('button', { name: '稍后' }).click();
    await expect(logDialog(page)).toBeHidden();
    expect((await revealsOf(client.id)).slice(before)).toEqual([
      { action: 'customer.revealPhone', actor: 'chanwaiman' },
      { action: 'customer.callPhone', actor: 'chanwaiman' },
    ]);

    // My activity says so, in plain words and with the number masked.
    await page.goto(`${server.baseUrl}/me/audit`);
    await expectRoute(page, 'auditTrail');
    const call = page.locator('[data-testid="audit-entry"][data-action="customer.callPhone"]').first();
    await expect(call).toContainText(`拨打了 ${client.nameCn} 的电话`);
    await expect(page.locator('[data-testid="audit-entry"][data-action="customer.revealPhone"]').first()).toContainText(
      `查看了 ${client.nameCn} 的完整电话号码`,
    );
    await expect(page.locator('.ba-audit')).not.toContainText(phone!.phone);
  });

  test('an MOT event: the chat, and the log form linked to the event', async () => {
    const page = await signedInPhone(`/mot/eventDetail?eventId=${client.eventId}`);
    const actions = route(page, 'motEventDetail').getByTestId('reach-actions');
    const since = Date.now();
    await actions.getByTestId('reach-chat').click();
    await expect(logDialog(page)).toBeVisible();
    expect(await chatLog(since)).toEqual([expect.objectContaining({ api: 'openEnterpriseChat', externalUserIds: [HO] })]);
    await logDialog(page).getByRole('button', { name: '去记录' }).click();
    await expectLogForm(page, { customerId: String(client.id), channel: 'wecom', eventId: String(client.eventId) });
  });

  test('a list row: a long press opens the actions (not the profile); a call from there offers its log', async () => {
    const page = await signedInPhone('/client/manage/list');
    const row = route(page, 'clientManageList').getByTestId('client-row').first();
    await expect(row).toBeVisible();
    const customerId = await row.getAttribute('data-customer-id');
    const box = (await row.boundingBox())!;
    const at = { pointerType: 'touch', isPrimary: true, clientX: box.x + 40, clientY: box.y + 20 };
    await row.dispatchEvent('pointerdown', at);
    // The sheet opens while the finger is still down: a long press, not a tap.
    const sheet = page.getByTestId('reach-sheet');
    await expect(sheet).toBeVisible();
    await row.dispatchEvent('pointerup', at);
    await row.dispatchEvent('click');
    await expectRoute(page, 'clientManageList');
    await saveScreenshot(page, 'reach-list-sheet');

    await sheet.getByTestId('reach-call').click();
    await expect(logDialog(page)).toBeVisible();
    await logDialog(page).getByRole('button', { name: '去记录' }).click();
    await expectLogForm(page, { customerId: customerId!, channel: 'phone' });
  });

  test('the sidebar of the client’s own chat: a card sent into the chat, named and worded in the chosen language', async () => {
    const context = await browser.newContext(PHONE_CONTEXT);
    contexts.push(context);
    const page = await context.newPage();
    const sidebar = new URLSearchParams({ entry: 'single_chat_tools', externalUserId: HO, url: '/' });
    await page.goto(`${server.baseUrl}/wecom/__emulator/sidebar?${sidebar.toString()}`);
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    await page.click('a.staff[data-userid="chanwaiman"]');
    await page.waitForURL((url) => url.pathname === '/client/information' && url.searchParams.get('customerId') === String(client.id));
    const actions = route(page, 'clientInformation').getByTestId('reach-actions');
    await actions.getByTestId('reach-send').click();
    const templates = page.getByTestId('reach-templates');
    await expect(templates).toBeVisible();
    await templates.getByRole('radio', { name: '大额入金致谢' }).click();
    await templates.getByRole('radio', { name: '繁體' }).click();
    await expect(page.getByTestId('reach-preview')).toContainText('存款已到賬');
    await expect(page.getByTestId('reach-preview')).toContainText(client.nameCn);
    await saveScreenshot(page, 'reach-sidebar-card');

    const since = Date.now();
    await page.getByTestId('reach-send-confirm').click();
    await expect(logDialog(page)).toBeVisible();
    const [sent] = await chatLog(since);
    expect(sent).toMatchObject({
      api: 'sendChatMessage',
      userid: 'chanwaiman',
      entry: 'single_chat_tools',
      externalUserIds: [HO],
      message: { msgtype: 'news', news: { title: '存款已到賬' } },
    });
    expect(sent!.message!.news!.desc).toContain(client.nameCn);
    expect(sent!.message!.news!.link).toMatch(/^https?:\/\//);
  });

  test('outside the client’s chat there is nothing to send into', async () => {
    const page = await signedInPhone(`/client/information?customerId=${client.id}`);
    const actions = route(page, 'clientInformation').getByTestId('reach-actions');
    await expect(actions.getByTestId('reach-chat')).toBeVisible();
    await expect(actions.getByTestId('reach-send')).toHaveCount(0);
  });

  test('a client with no bound WeCom contact is offered the KYC binding instead of a chat', async () => {
    // Another of chanwaiman's clients, with nobody bound to it.
    const [unbound] = await server.database.query<{ id: number }>(
      `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id
        where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed'
          and not exists (select 1 from kyc_binding b where b.customer_id = c.id)
        order by c.id limit 1`,
    );
    const page = await signedInPhone(`/client/information?customerId=${unbound!.id}`);
    const actions = route(page, 'clientInformation').getByTestId('reach-actions');
    await expect(actions.getByTestId('reach-bind')).toBeVisible();
    await expect(actions.getByTestId('reach-chat')).toHaveCount(0);
    const since = Date.now();
    await actions.getByTestId('reach-bind').click();
    await expectRoute(page, 'kycIndex');
    await page.waitForURL(
      (url) => url.pathname === '/kyc/index' && url.searchParams.get('redirectPage') === `/client/information?customerId=${unbound!.id}`,
    );
    // Nothing was opened in WeCom.
    expect(await chatLog(since)).toEqual([]);
  });

  test('the profile actions read naturally in zh-HK and English', async () => {
    const page = await signedInPhone(`/client/information?customerId=${client.id}`);
    for (const [language, chat, call] of [
      ['zh-HK', '企業微信', '打電話'],
      ['en', 'WeCom', 'Call'],
    ] as const) {
      await page.evaluate((value) => (globalThis as unknown as PageGlobals).localStorage.setItem('language', value), language);
      await page.goto(`${server.baseUrl}/client/information?customerId=${client.id}`);
      const actions = route(page, 'clientInformation').getByTestId('reach-actions');
      await expect(actions.getByTestId('reach-chat')).toContainText(chat);
      await expect(actions.getByTestId('reach-call')).toContainText(call);
      await saveScreenshot(page, `reach-profile-actions-${language}`);
    }
  });
});
