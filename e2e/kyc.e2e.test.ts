import { afterAll, beforeAll, describe, test } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { schema, seedDemoData } from '@broker/server';
import { DESKTOP_SIDEBAR_CONTEXT, PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import type { PageGlobals } from './support/page-globals';
import { navigateInApp, expectRoute } from './support/web-shell';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

// Emulator contacts: 0001 何国良 is followed by chanwaiman; 0003 only by leekaying.
const HO = 'wmEmu0001HoKwokLeung';
const LAU = 'wmEmu0003LauChiKeung';
const TSE = 'wmEmu0002TseMeiYee';

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Two customers of chanwaiman (the staff member signing in). */
let customers: { id: number; nameCn: string; customerNo: string }[];

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 3, asOf: hongKongDay() });
  customers = await server.database.db
    .select({ id: schema.customers.id, nameCn: schema.customers.nameCn, customerNo: schema.customers.customerNo })
    .from(schema.customers)
    .innerJoin(schema.staff, eq(schema.staff.id, schema.customers.staffId))
    .where(eq(schema.staff.wecomUserId, 'chanwaiman'))
    .orderBy(asc(schema.customers.id))
    .limit(2);
  expect(customers).toHaveLength(2);
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function newContext(options = PHONE_CONTEXT): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  contexts.push(context);
  return context;
}

/**
 * The emulated authorise page, as `staff`. Unlike signInThroughEmulator this does not wait for a visible
 * page: while the sidebar decides where to land, the page underneath is covered.
 */
async function signInThroughEmulator(page: Page, staff: string) {
  await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
  await page.click(`a.staff[data-userid="${staff}"]`);
  await page.waitForURL((url) => url.pathname !== '/wxEntry' && !url.pathname.startsWith('/wecom'));
}

const sidebarUrl = (externalUserId: string, entry = 'single_chat_tools') =>
  `${server.baseUrl}/wecom/__emulator/sidebar?${new URLSearchParams({ entry, externalUserId, url: '/' }).toString()}`;

const pathAndQuery = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

const storage = (page: Page) =>
  page.evaluate(() => {
    const { localStorage, sessionStorage } = globalThis as unknown as PageGlobals;
    const settings = JSON.parse(sessionStorage.getItem('appSettings') ?? '{}') as { state?: { entry?: string } };
    return { kyc: localStorage.getItem('kyc'), customerId: localStorage.getItem('kyc_customerId'), entry: settings.state?.entry };
  });

const profileOf = (customerId: number) => `/client/information?customerId=${customerId}`;

/** The newest dialog, once shown: one closing may still be fading out underneath. */
async function expectDialog(page: Page) {
  const dialog = page.locator('.adm-dialog-body').last();
  await expect(dialog).toBeVisible();
  return dialog;
}

async function searchAndBind(page: Page, customer: { id: number; nameCn: string }, screenshots = false) {
  await page.getByTestId('kyc-search').locator('input').fill(customer.nameCn);
  const candidate = page.locator(`[data-testid="kyc-candidate"][data-customer-id="${customer.id}"]`);
  await expect(candidate).toBeVisible();
  if (screenshots) await saveScreenshot(page, 'kyc-search');
  await candidate.getByRole('button', { name: '绑定' }).click();
  const dialog = await expectDialog(page);
  await expect(dialog).toContainText(customer.nameCn);
  if (screenshots) await saveScreenshot(page, 'kyc-confirm-bind');
  await page.getByRole('button', { name: '确认绑定' }).click();
}

async function unbindFromKycPage(page: Page) {
  await expect(page.getByTestId('kyc-bound')).toBeVisible();
  await page.getByTestId('kyc-bound').getByRole('button', { name: '解除绑定' }).click();
  await expect(page.locator('.adm-dialog-body')).toBeVisible();
  await page.locator('.adm-dialog-footer').getByRole('button', { name: '解除绑定' }).click();
  await expect(page.getByTestId('kyc-search')).toBeVisible();
}

describe('KYC in the single-chat sidebar', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext();
    page = await context.newPage();
  });

  test('opened for an unbound contact → KYC → bind → lands on the client profile', async () => {
    await page.goto(sidebarUrl(HO));
    await signInThroughEmulator(page, 'chanwaiman');
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expectRoute(page, 'kycIndex');
    const contact = page.getByTestId('kyc-contact');
    await expect(contact).toContainText('何国良');
    await expect(contact).toContainText('未绑定');
    expect((await storage(page)).entry).toBe('single_chat_tools');
    await saveScreenshot(page, 'kyc-unbound');

    const [customer] = customers;
    await searchAndBind(page, customer!, true);
    await page.waitForURL((url) => `${url.pathname}${url.search}` === profileOf(customer!.id));
    await expectRoute(page, 'clientInformation');
    const stored = await storage(page);
    expect(stored.kyc).toBeTruthy();
    expect(stored.kyc).not.toContain('unbind');
    expect(stored.customerId).toBe(String(customer!.id));
  });

  test('opened again for that contact → straight to the profile', async () => {
    const visited: string[] = [];
    const onNavigated = () => visited.push(pathAndQuery(page));
    page.on('framenavigated', onNavigated);
    await page.goto(sidebarUrl(HO));
    await page.waitForURL((url) => `${url.pathname}${url.search}` === profileOf(customers[0]!.id));
    await expectRoute(page, 'clientInformation');
    page.off('framenavigated', onNavigated);
    expect(visited.some((path) => path.startsWith('/kyc'))).toBe(false);
  });

  test('the KYC page shows the bound customer; unbind → back to the KYC search', async () => {
    await navigateInApp(page, '/kyc/index');
    const bound = page.getByTestId('kyc-bound');
    await expect(bound).toContainText(customers[0]!.nameCn);
    await expect(page.getByTestId('kyc-contact')).toContainText('已绑定');
    await saveScreenshot(page, 'kyc-bound');
    await page.getByTestId('kyc-bound').getByRole('button', { name: '解除绑定' }).click();
    await expectDialog(page);
    await saveScreenshot(page, 'kyc-confirm-unbind');
    await page.locator('.adm-dialog-footer').getByRole('button', { name: '解除绑定' }).click();
    await expect(page.getByTestId('kyc-search')).toBeVisible();
    await expect(page.getByTestId('kyc-contact')).toContainText('未绑定');
    expect((await storage(page)).kyc).toContain('unbind');
  });

  test('a second sidebar page of the same origin follows bind and unbind through the storage event', async () => {
    const other = await context.newPage();
    await other.goto(sidebarUrl(HO));
    await other.waitForURL((url) => url.pathname === '/kyc/index');
    await expect(other.getByTestId('kyc-search')).toBeVisible();

    // Only the front page runs animation frames (antd-mobile's dialogs animate with them).
    await page.bringToFront();
    const customer = customers[1]!;
    await searchAndBind(page, customer);
    await page.waitForURL((url) => `${url.pathname}${url.search}` === profileOf(customer.id));
    await other.waitForURL((url) => `${url.pathname}${url.search}` === profileOf(customer.id));
    await expectRoute(other, 'clientInformation');

    await navigateInApp(page, '/kyc/index');
    await unbindFromKycPage(page);
    await other.bringToFront();
    await other.waitForURL((url) => url.pathname === '/kyc/index');
    expect(new URL(other.url()).searchParams.get('redirectPage')).toBe('/client/information');
    await expect(other.getByTestId('kyc-search')).toBeVisible();
    await other.close();
    await page.bringToFront();
  });

  test('each binding rule is explained: a customer bound to another contact is marked, binding it again is refused', async () => {
    const customer = customers[0]!;
    await searchAndBind(page, customer);
    await page.waitForURL((url) => url.pathname === '/client/information');

    // Another chat, same customer: the result says "already bound" and offers no bind button.
    await page.goto(sidebarUrl(TSE));
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expect(page.getByTestId('kyc-contact')).toContainText('谢美仪');
    await page.getByTestId('kyc-search').locator('input').fill(customer.nameCn);
    const candidate = page.locator(`[data-testid="kyc-candidate"][data-customer-id="${customer.id}"]`);
    await expect(candidate).toContainText('已绑定');
    await expect(candidate.getByRole('button', { name: '绑定' })).toHaveCount(0);
    await saveScreenshot(page, 'kyc-search-already-bound');

    // Clean up for the next test: unbind 何国良 again.
    await page.goto(sidebarUrl(HO));
    await page.waitForURL((url) => url.pathname === '/client/information');
    await navigateInApp(page, '/kyc/index');
    await unbindFromKycPage(page);
  });

  test('a contact the staff member does not follow in WeCom: told so in words (091003), with nothing of the contact and nothing to bind', async () => {
    await page.goto(sidebarUrl(LAU));
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expect(page.getByText('该联系人不是您在企业微信中的客户联系人，无法绑定')).toBeVisible();
    // ADR 0015: not even WeCom's name for the contact, nor whether anyone bound it.
    await expect(page.getByTestId('kyc-contact')).toHaveCount(0);
    await expect(page.getByTestId('kyc-page')).not.toContainText('刘志强');
    await saveScreenshot(page, 'kyc-error-not-following');
  });

  test('in English', async () => {
    await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.setItem('language', 'en'));
    await page.goto(sidebarUrl(HO));
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expect(page.getByTestId('kyc-contact')).toContainText('Not bound');
    await page.getByTestId('kyc-search').locator('input').fill(customers[0]!.nameCn);
    await expect(page.locator(`[data-testid="kyc-candidate"][data-customer-id="${customers[0]!.id}"]`)).toBeVisible();
    await saveScreenshot(page, 'kyc-search-en');
    await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.setItem('language', 'zh-CN'));
  });
});

describe('WeCom JS-SDK in the emulator', () => {
  test('in the desktop sidebar the entry comes from ww.getContext(), not the URL: the back arrow shows', async () => {
    const context = await newContext(DESKTOP_SIDEBAR_CONTEXT);
    const page = await context.newPage();
    await page.goto(sidebarUrl(HO));
    await signInThroughEmulator(page, 'chanwaiman');
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    expect(new URL(page.url()).searchParams.get('entry')).toBeNull();
    expect((await storage(page)).entry).toBe('single_chat_tools');
    await expect(page.locator('.ba-topbar .adm-nav-bar-back-arrow')).toBeVisible();
  });

  test('opened from the workbench (entry normal): no redirect, no back arrow', async () => {
    const context = await newContext(DESKTOP_SIDEBAR_CONTEXT);
    const page = await context.newPage();
    await page.goto(sidebarUrl(HO, 'normal'));
    await signInThroughEmulator(page, 'chanwaiman');
    await expectRoute(page, 'clientManageList');
    await expect.poll(async () => (await storage(page)).entry).toBe('normal');
    await expect(page).toHaveURL((url) => url.pathname === '/client/manage/list');
    await expect(page.locator('.ba-topbar .adm-nav-bar-back-arrow')).toHaveCount(0);
  });

  test('a wrong signature is refused by the emulated bridge: the sidebar says so instead of going blank', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.route('**/api/aggregation/qywx/getJsSdkSign', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { agentConfig: { signature: string }; config: { signature: string } } };
      const flip = (signature: string) => (signature[0] === '0' ? '1' : '0') + signature.slice(1);
      body.data.agentConfig.signature = flip(body.data.agentConfig.signature);
      body.data.config.signature = flip(body.data.config.signature);
      await route.fulfill({ response, json: body });
    });
    await page.goto(sidebarUrl(HO));
    await signInThroughEmulator(page, 'chanwaiman');
    const dialog = await expectDialog(page);
    await expect(dialog).toContainText('无法连接企业微信');
    await expect(dialog).toContainText('企业微信拒绝了页面签名');
    await expect(dialog.locator('.ba-kyc__error-detail')).toHaveText('agentConfig:invalid signature');
    await saveScreenshot(page, 'kyc-error-signature');
    await page.getByRole('button', { name: '知道了' }).click();

    // The KYC page, opened directly, shows the same refusal with a retry.
    await navigateInApp(page, '/kyc/index');
    const error = page.getByTestId('error-state');
    await expect(error).toContainText('企业微信拒绝了页面签名');
    await saveScreenshot(page, 'kyc-error-signature-page');
    expect(pageErrors).toEqual([]);
  });
});
