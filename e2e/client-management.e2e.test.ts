import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemoData } from '@broker/server';
import { signInAs, type SignedIn } from '@broker/server/testing';
import { PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { isMarked, markPage, navigateInApp, openSignedIn, expectRoute } from './support/web-shell';
import type { PageGlobals } from './support/page-globals';

/** Issue 5 acceptance: the client-management screens against the real server and seeded data. */

let server: E2eServer;
let browser: Browser;
let api: SignedIn;
const contexts: BrowserContext[] = [];
const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

interface Envelope<T> {
  code: string;
  msg: string;
  data: T;
}

async function call<T>(method: 'GET' | 'POST', path: string, payload: Record<string, unknown> = {}, agent = 'khzl'): Promise<T> {
  const headers = { ...api.headers, 'agent-code': agent };
  const response =
    method === 'GET'
      ? await fetch(
          `${server.baseUrl}${path}?${new URLSearchParams(Object.entries(payload).map(([key, value]): [string, string] => [key, String(value)]))}`,
          { headers },
        )
      : await fetch(`${server.baseUrl}${path}`, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        });
  const body = (await response.json()) as Envelope<T>;
  if (body.code !== '0') throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data;
}

interface Stat {
  clients: number;
  totalAssetsHkd: number;
}
interface ListItem {
  customerId: number;
  nameCn: string;
  nameEn: string;
  totalAssetsHkd: number;
  status: string;
}

/** Same grouping and rounding as the app (SPEC.md §9). */
const grouped = (value: number, decimals = 2) => {
  const [integer = '0', fraction] = Math.abs(value).toFixed(decimals).split('.');
  return `${value < 0 ? '-' : ''}${integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
};

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 300, seed: 5, asOf: today });
  browser = await launchBrowser();
  api = await signInAs(server.baseUrl);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function signedInPhone(path = '/client/manage/list'): Promise<Page> {
  const context = await browser.newContext(PHONE_CONTEXT);
  contexts.push(context);
  const page = await context.newPage();
  await openSignedIn(page, server.baseUrl, path);
  return page;
}

const route = (page: Page, name: string) => page.locator(`.ba-route[data-route="${name}"]`);
const scrollerOf = (page: Page, name: string) => route(page, name).locator('[data-testid="page-scroll"]').first();
const settle = (page: Page) => page.waitForTimeout(400);

describe('client list, search, profile, holdings', () => {
  test('the list does not move when the header figures arrive (no layout shift)', async () => {
    const page = await signedInPhone();
    await expectRoute(page, 'clientManageList');
    // A fresh load of the list, observed from its start, with the figures held back so they land after the rows.
    await page.addInitScript(() => {
      const shifts = window as unknown as { layoutShift: number };
      shifts.layoutShift = 0;
      new PerformanceObserver((entries) => {
        for (const entry of entries.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
          if (!entry.hadRecentInput) shifts.layoutShift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.route('**/api/client/customer/manage/stat', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await request.continue();
    });
    await page.reload();
    const list = route(page, 'clientManageList');
    await list.locator('[data-testid="client-row"]').first().waitFor();
    await expect.poll(() => list.locator('[data-testid="stat-clients"]').innerText(), { timeout: 10_000 }).not.toBe('-');
    await settle(page);
    // Lighthouse's CLS was 0.055 when the channel line appeared (and wrapped) above the list.
    expect(await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift)).toBeLessThan(0.01);
  });

  test('search → profile → holdings → back to a list that kept its scroll', async () => {
    const page = await signedInPhone();
    await expectRoute(page, 'clientManageList');
    const list = route(page, 'clientManageList');
    await list.locator('[data-testid="client-row"]').first().waitFor();
    const stat = await call<Stat>('POST', '/api/client/customer/manage/stat', {}, 'khgl');
    expect(stat.clients).toBeGreaterThan(20);
    expect(await list.locator('[data-testid="stat-clients"]').innerText()).toBe(grouped(stat.clients, 0));
    expect(await list.locator('[data-testid="stat-total-assets"]').innerText()).toBe(grouped(stat.totalAssetsHkd));
    await saveScreenshot(page, 'manage-list');

    // Infinite scroll: reaching the end of the first page loads the next one.
    const firstPage = await list.locator('[data-testid="client-row"]').count();
    expect(firstPage).toBe(20);
    await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect.poll(() => list.locator('[data-testid="client-row"]').count(), { timeout: 10_000 }).toBeGreaterThan(20);
    // Let the second page finish rendering (the loading footer goes, the window re-measures) before
    // the user's scroll, as a person would: once, in CI, a scroll made at once read back as 0.
    await settle(page);

    await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollTo(0, 900));
    await settle(page);
    const scrollTop = await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollTop);
    expect(scrollTop).toBe(900);
    await markPage(page, 'clientManageList');

    const [target] = (
      await call<{ list: ListItem[] }>(
        'POST',
        '/api/client/customer/manage/search',
        { pageSize: 1, sortBy: 'totalAssets', sortOrder: 'desc' },
        'khgl',
      )
    ).list;
    const keyword = target!.nameEn.split(' ')[0]!.toLowerCase();
    await navigateInApp(page, '/client/manage/search');
    await expectRoute(page, 'clientManageSearch');
    const search = route(page, 'clientManageSearch');
    // By account number: the row says what matched.
    const accountNo = (
      await call<{ accounts: { accountNo: string }[] }>('GET', '/api/client/customer/getBaseInfo', { customerId: target!.customerId })
    ).accounts[0]!.accountNo;
    await search.locator('input').fill(accountNo);
    const byAccount = search.locator(`[data-testid="client-row"][data-customer-id="${target!.customerId}"] .ba-client__matched`);
    await byAccount.waitFor();
    expect(await byAccount.innerText()).toContain(accountNo);
    await search.locator('input').fill('');

    // Debounced: typing a word quickly asks the server once, not once per key.
    const searches: string[] = [];
    const onRequest = (request: { url(): string; postData(): string | null }) => {
      if (request.url().endsWith('/manage/search')) searches.push(request.postData() ?? '');
    };
    page.on('request', onRequest);
    const asked = page.waitForRequest(
      (request) => request.url().endsWith('/manage/search') && (request.postData() ?? '').includes(`"keyword":"${keyword}"`),
    );
    await search.locator('input').pressSequentially(keyword, { delay: 40 });
    await asked;
    await page.waitForTimeout(600);
    page.off('request', onRequest);
    const targetRow = search.locator(`[data-testid="client-row"][data-customer-id="${target!.customerId}"]`);
    await targetRow.waitFor();
    expect(searches).toHaveLength(1);
    expect(JSON.parse(searches[0]!)).toMatchObject({ keyword });
    expect((await targetRow.locator('mark').first().innerText()).toLowerCase()).toBe(keyword);
    await saveScreenshot(page, 'manage-search');

    await targetRow.click();
    await expectRoute(page, 'clientInformation');
    const profile = route(page, 'clientInformation');
    expect(await profile.locator('[data-testid="profile-name"]').innerText()).toContain(target!.nameCn);
    await profile.locator('[data-testid="asset-total"]').waitFor();
    await profile.locator('[data-testid="dynamics"]').waitFor();
    await saveScreenshot(page, 'client-profile');
    await scrollerOf(page, 'clientInformation').evaluate((element) => element.scrollTo(0, 720));
    await settle(page);
    await saveScreenshot(page, 'client-profile-info');
    await scrollerOf(page, 'clientInformation').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await settle(page);
    await saveScreenshot(page, 'client-profile-dynamics');

    await profile.locator('[data-testid="link-holdings"]').click();
    await expectRoute(page, 'clientHoldingStock');
    const holdings = route(page, 'clientHoldingStock');
    await holdings.locator('[data-testid="record-row"]').first().waitFor();
    const holdingData = await call<{ total: number; summary: { marketValueHkd: number } }>('GET', '/api/client/customer/getHolding', {
      customerId: target!.customerId,
    });
    expect(await holdings.locator('[data-testid="summary-market-value"]').innerText()).toBe(grouped(holdingData.summary.marketValueHkd));
    expect(await holdings.locator('[data-testid="record-row"]').count()).toBe(Math.min(holdingData.total, 20));
    await saveScreenshot(page, 'client-holdings');

    await page.goBack();
    await expectRoute(page, 'clientInformation');
    await page.goBack();
    await expectRoute(page, 'clientManageSearch');
    // The search page was left behind for holdings (its keep-alive set is the profile only): it starts
    // afresh, offering what was searched.
    const recent = search.locator('[data-testid="recent-searches"]');
    await recent.waitFor();
    expect(await recent.innerText()).toContain(keyword);
    await saveScreenshot(page, 'manage-search-recent');
    await page.goBack();
    await expectRoute(page, 'clientManageList');
    expect(await isMarked(page, 'clientManageList')).toBe(true);
    expect(await scrollerOf(page, 'clientManageList').evaluate((element) => element.scrollTop)).toBe(scrollTop);
  });

  test('the other detail pages show their records and totals', async () => {
    // A client with stock transfers, so that every page has rows to show.
    const candidates = (
      await call<{ list: ListItem[] }>(
        'POST',
        '/api/client/customer/manage/search',
        { pageSize: 50, sortBy: 'lastTrade', sortOrder: 'desc' },
        'khgl',
      )
    ).list;
    let id = candidates[0]!.customerId;
    let most = 0;
    for (const candidate of candidates) {
      const transfers = await call<{ total: number }>('GET', '/api/client/customer/getTransfer', { customerId: candidate.customerId });
      if (transfers.total > most) [id, most] = [candidate.customerId, transfers.total];
    }
    const page = await signedInPhone(`/client/information/accountDetail/transaction?customerId=${id}`);
    await expectRoute(page, 'clientTransaction');
    const trades = await call<{ total: number }>('GET', '/api/client/customer/getTrade', { customerId: id });
    await route(page, 'clientTransaction').locator('[data-testid="record-summary"]').waitFor();
    expect(await route(page, 'clientTransaction').locator('.ba-records__total').innerText()).toContain(String(trades.total));
    await saveScreenshot(page, 'client-trades');

    const sells = await call<{ total: number }>('GET', '/api/client/customer/getTrade', { customerId: id, side: 'sell' });
    await route(page, 'clientTransaction').locator('[data-testid="filter-side"] button', { hasText: '卖出' }).click();
    expect(sells.total).toBeGreaterThan(0);
    expect(sells.total).toBeLessThan(trades.total);
    await expect.poll(() => route(page, 'clientTransaction').locator('.ba-records__total').innerText()).toContain(String(sells.total));
    expect(await route(page, 'clientTransaction').locator('[data-testid="record-row"] .ba-side--buy').count()).toBe(0);

    await navigateInApp(page, `/client/information/moneyRecord/moneyRecord?customerId=${id}`);
    await expectRoute(page, 'clientMoneyRecord');
    const money = route(page, 'clientMoneyRecord');
    await money.locator('[data-testid="record-summary"], [data-testid="empty-state"]').first().waitFor();
    await saveScreenshot(page, 'client-money');
    // A custom period: the totals are those of the days chosen.
    const lastYear = `${Number(today.slice(0, 4)) - 1}`;
    const inRange = await call<{ total: number }>('GET', '/api/client/customer/getWithdrawalDeposit', {
      customerId: id,
      dateFrom: `${lastYear}-01-01`,
      dateTo: `${lastYear}-12-31`,
    });
    await money.locator('[data-testid="filter-period"] button', { hasText: '自定义' }).click();
    await money.locator('.ba-frow__date').nth(0).fill(`${lastYear}-12-31`);
    await money.locator('.ba-frow__date').nth(1).fill(`${lastYear}-01-01`);
    if (inRange.total > 0) await expect.poll(() => money.locator('.ba-records__total').innerText()).toContain(String(inRange.total));
    else await money.locator('[data-testid="empty-state"]').waitFor();

    await navigateInApp(page, `/client/information/moneyRecord/transferStock?customerId=${id}`);
    await expectRoute(page, 'clientTransferStock');
    await route(page, 'clientTransferStock').locator('[data-testid="record-row"]').first().waitFor();
    await saveScreenshot(page, 'client-transfers');
  });
});

describe('list gestures and data scope', () => {
  test('pulling the list down reloads the figures and the rows', async () => {
    const page = await signedInPhone();
    await expectRoute(page, 'clientManageList');
    const list = route(page, 'clientManageList');
    await list.locator('[data-testid="client-row"]').first().waitFor();
    await settle(page);
    const reloads: string[] = [];
    page.on('request', (request) => {
      if (/\/manage\/(stat|search)$/.test(new URL(request.url()).pathname)) reloads.push(new URL(request.url()).pathname);
    });
    const box = (await list.locator('[data-testid="client-stat"]').boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + 20;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let step = 1; step <= 12; step += 1) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + step * 25 }] });
      await page.waitForTimeout(16);
    }
    await list.locator('[data-testid="pull-to-refresh-head"]').getByText('释放立即刷新').waitFor();
    await saveScreenshot(page, 'manage-list-pull-to-refresh');
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect
      .poll(() => [...new Set(reloads)].sort())
      .toEqual(['/api/client/customer/manage/search', '/api/client/customer/manage/stat']);
  });

  test("another manager's client is refused with a plain explanation", async () => {
    const other = await signInAs(server.baseUrl, 'leekaying', { agentCode: 'khgl' });
    const response = await fetch(`${server.baseUrl}/api/client/customer/manage/search`, {
      method: 'POST',
      headers: { ...other.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ pageSize: 1 }),
    });
    const [theirs] = ((await response.json()) as Envelope<{ list: ListItem[] }>).data.list;
    const page = await signedInPhone(`/client/information?customerId=${theirs!.customerId}`);
    const unavailable = route(page, 'clientInformation').locator('[data-testid="client-unavailable"]');
    await unavailable.waitFor();
    expect(await unavailable.innerText()).toContain('无权查看该客户');
    await saveScreenshot(page, 'client-profile-forbidden');
  });
});

describe('filter', () => {
  test('applied filters show on the list and in its figures; reset brings everything back', async () => {
    const page = await signedInPhone();
    await expectRoute(page, 'clientManageList');
    const list = route(page, 'clientManageList');
    await list.locator('[data-testid="client-row"]').first().waitFor();
    const all = await call<Stat>('POST', '/api/client/customer/manage/stat', {}, 'khgl');
    const dormant = await call<Stat>('POST', '/api/client/customer/manage/stat', { statuses: ['dormant'], hasHolding: true }, 'khgl');
    expect(dormant.clients).toBeGreaterThan(0);

    await list.locator('[data-testid="filter-entry"]').click();
    await expectRoute(page, 'clientManageFilter');
    const filter = route(page, 'clientManageFilter');
    await filter.locator('.adm-selector-item', { hasText: '休眠' }).click();
    await filter.locator('.adm-selector-item', { hasText: '有持仓' }).click();
    await expect.poll(() => filter.locator('[data-testid="filter-apply"]').innerText()).toContain(String(dormant.clients));
    // Inline check of the asset range.
    await filter.locator('[data-testid="asset-min"]').fill('500000');
    await filter.locator('[data-testid="asset-max"]').fill('1000');
    await filter.locator('.ba-filter__error').waitFor();
    await saveScreenshot(page, 'manage-filter');
    await filter.locator('[data-testid="asset-min"]').fill('');
    await filter.locator('[data-testid="asset-max"]').fill('');
    await filter.locator('[data-testid="filter-apply"]').click();

    await expectRoute(page, 'clientManageList');
    const chips = list.locator('[data-testid="active-filters"]');
    await chips.waitFor();
    expect(await chips.innerText()).toContain('休眠');
    expect(await chips.innerText()).toContain('有持仓');
    await expect.poll(() => list.locator('[data-testid="stat-clients"]').innerText()).toBe(grouped(dormant.clients, 0));
    await expect
      .poll(
        async () =>
          (await list.locator('[data-testid="client-row"] .ba-tag--dormant').count()) ===
          (await list.locator('[data-testid="client-row"]').count()),
      )
      .toBe(true);
    expect(await list.locator('[data-testid="filter-entry"] .ba-manage__badge').innerText()).toBe('2');
    await saveScreenshot(page, 'manage-list-filtered');

    await list.locator('[data-testid="clear-filters"]').click();
    await expect.poll(() => list.locator('[data-testid="active-filters"]').count()).toBe(0);
    await expect.poll(() => list.locator('[data-testid="stat-clients"]').innerText()).toBe(grouped(all.clients, 0));

    // Reset on the filter page clears what was chosen there.
    await list.locator('[data-testid="filter-entry"]').click();
    await expectRoute(page, 'clientManageFilter');
    await filter.locator('.adm-selector-item', { hasText: '休眠' }).click();
    await filter.locator('[data-testid="filter-reset"]').click();
    await expect.poll(() => filter.locator('[data-testid="filter-apply"]').innerText()).toContain(String(all.clients));
    await filter.locator('[data-testid="filter-apply"]').click();
    await expectRoute(page, 'clientManageList');
    expect(await list.locator('[data-testid="active-filters"]').count()).toBe(0);
  });
});

describe('edit', () => {
  test('inline errors, a save shown on the profile, and a conflict that keeps the input', async () => {
    const [target] = (await call<{ list: ListItem[] }>('POST', '/api/client/customer/manage/search', { pageSize: 1, pageNum: 3 }, 'khgl'))
      .list;
    const id = target!.customerId;
    const page = await signedInPhone(`/client/information?customerId=${id}`);
    await expectRoute(page, 'clientInformation');
    await route(page, 'clientInformation').locator('[data-testid="profile-edit"]').click();
    await expectRoute(page, 'clientEdit');
    const edit = route(page, 'clientEdit');
    await edit.locator('#edit-nameEn').waitFor();

    await edit.locator('#edit-email').fill('not-an-email');
    await edit.locator('#edit-phone').fill('12345');
    await edit.locator('#edit-nameEn').fill('');
    await edit.locator('#edit-remark').click();
    await edit.locator('[data-testid="edit-save"]').click();
    expect(await edit.locator('.ba-field__error').allInnerTexts()).toEqual([
      '请填写英文名',
      '请输入带国家区号的手机号，如 +852 9123 4567',
      '邮箱格式不正确',
    ]);
    await saveScreenshot(page, 'client-edit-errors');

    const remark = `E2E 备注 ${Date.now()}`;
    await edit.locator('#edit-nameEn').fill('CHAN Tai Man');
    await edit.locator('#edit-phone').fill('+852 9123 4567');
    await edit.locator('#edit-email').fill('tai.man@example.com');
    await edit.locator('#edit-remark').fill(remark);
    await edit.locator('#edit-tag').fill('高净值');
    await edit.locator('.ba-edit__tag-add button').click();
    expect(await edit.locator('.ba-field__error').count()).toBe(0);
    await saveScreenshot(page, 'client-edit');
    await edit.locator('[data-testid="edit-save"]').click();

    await expectRoute(page, 'clientInformation');
    const profile = route(page, 'clientInformation');
    await expect.poll(() => profile.locator('[data-testid="info-remark"]').innerText()).toContain(remark);
    await expect.poll(() => profile.locator('[data-testid="profile-name-en"]').innerText()).toBe('CHAN Tai Man');
    expect(await profile.locator('[data-testid="info-tags"]').innerText()).toContain('高净值');
    expect(await profile.locator('[data-testid="info-email"]').innerText()).toContain('tai.man@example.com');

    // Someone else saves while this user edits: the save is refused, explained, and nothing typed is lost.
    await profile.locator('[data-testid="profile-edit"]').click();
    await expectRoute(page, 'clientEdit');
    await edit.locator('#edit-remark').waitFor();
    const current = await call<{ version: number }>('GET', '/api/client/customer/getBaseInfo', { customerId: id });
    await call('POST', '/api/client/customer/updateProfile', { customerId: id, version: current.version, email: 'colleague@example.com' });
    const mine = `${remark} · 第二次`;
    await edit.locator('#edit-remark').fill(mine);
    await edit.locator('[data-testid="edit-save"]').click();
    const conflict = edit.locator('[data-testid="edit-conflict"]');
    await conflict.waitFor();
    await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
    expect(await conflict.innerText()).toContain('资料已被他人修改');
    expect(await edit.locator('#edit-remark').inputValue()).toBe(mine);
    await saveScreenshot(page, 'client-edit-conflict');

    await edit.locator('[data-testid="edit-reapply"]').click();
    await edit.locator('[data-testid="edit-notice"]').waitFor();
    expect(await edit.locator('#edit-remark').inputValue()).toBe(mine);
    expect(await edit.locator('#edit-email').inputValue()).toBe('colleague@example.com');
    await edit.locator('[data-testid="edit-save"]').click();
    await expectRoute(page, 'clientInformation');
    await expect.poll(() => profile.locator('[data-testid="info-remark"]').innerText()).toContain(mine);
    expect(await profile.locator('[data-testid="info-email"]').innerText()).toContain('colleague@example.com');
  });
});

describe('currency', () => {
  test('switching to USD shows every amount as HKD × rate, and the choice is saved', async () => {
    const rates = await call<{ toCcy: string; rate: number }[]>('GET', '/api/client/common/getCurrencyExchangeRate');
    const usd = rates.find((rate) => rate.toCcy === 'USD')!.rate;
    const [target] = (await call<{ list: ListItem[] }>('POST', '/api/client/customer/manage/search', { pageSize: 1 }, 'khgl')).list;
    const asset = await call<{ totalAssetsHkd: number }>('GET', '/api/client/customer/getAsset', { customerId: target!.customerId });
    const stat = await call<Stat>('POST', '/api/client/customer/manage/stat', {}, 'khgl');

    const page = await signedInPhone();
    await expectRoute(page, 'clientManageList');
    const list = route(page, 'clientManageList');
    const firstRow = list.locator('[data-testid="client-row"]').first();
    await firstRow.waitFor();
    expect(await firstRow.locator('[data-testid="client-assets"]').innerText()).toBe(grouped(target!.totalAssetsHkd));

    await list.locator('[data-testid="currency-switcher"] button', { hasText: 'USD' }).click();
    expect(await list.locator('[data-testid="stat-total-assets"]').innerText()).toBe(grouped(stat.totalAssetsHkd * usd));
    expect(await firstRow.locator('[data-testid="client-assets"]').innerText()).toBe(grouped(target!.totalAssetsHkd * usd));
    expect(await firstRow.innerText()).toContain('总资产(USD)');
    await expect.poll(async () => (await call<{ ccy: string }>('GET', '/api/client/staff/asset/getDefaultCcy')).ccy).toBe('USD');
    await saveScreenshot(page, 'manage-list-usd');

    await firstRow.click();
    await expectRoute(page, 'clientInformation');
    const total = route(page, 'clientInformation').locator('[data-testid="asset-total"]');
    await total.waitFor();
    expect(await total.innerText()).toBe(grouped(asset.totalAssetsHkd * usd));
    await saveScreenshot(page, 'client-profile-usd');

    // A new visit starts in the saved currency.
    const again = await signedInPhone(`/client/information?customerId=${target!.customerId}`);
    await route(again, 'clientInformation').locator('[data-testid="asset-total"]').waitFor();
    expect(await route(again, 'clientInformation').locator('[data-testid="asset-total"]').innerText()).toBe(
      grouped(asset.totalAssetsHkd * usd),
    );

    await route(again, 'clientInformation').locator('[data-testid="currency-switcher"] button', { hasText: 'HKD' }).click();
    expect(await route(again, 'clientInformation').locator('[data-testid="asset-total"]').innerText()).toBe(grouped(asset.totalAssetsHkd));
    await expect.poll(async () => (await call<{ ccy: string }>('GET', '/api/client/staff/asset/getDefaultCcy')).ccy).toBe('HKD');
  });
});

describe('languages', () => {
  test('the list and the profile read naturally in zh-HK and English', async () => {
    const [target] = (await call<{ list: ListItem[] }>('POST', '/api/client/customer/manage/search', { pageSize: 1 }, 'khgl')).list;
    const page = await signedInPhone();
    for (const [language, listTitle, assetTitle] of [
      ['zh-HK', '客戶列表', '資產概覽'],
      ['en', 'Clients', 'Assets'],
    ] as const) {
      await page.evaluate((value) => (globalThis as unknown as PageGlobals).localStorage.setItem('language', value), language);
      await page.goto(`${server.baseUrl}/client/manage/list`);
      await route(page, 'clientManageList').locator('[data-testid="client-row"]').first().waitFor();
      expect(await route(page, 'clientManageList').locator('.ba-client-list__head h2').innerText()).toBe(listTitle);
      await saveScreenshot(page, `manage-list-${language}`);
      await page.goto(`${server.baseUrl}/client/information?customerId=${target!.customerId}`);
      await route(page, 'clientInformation').locator('[data-testid="asset-total"]').waitFor();
      expect(await route(page, 'clientInformation').locator('.ba-card__title').first().innerText()).toBe(assetTitle);
      await saveScreenshot(page, `client-profile-${language}`);
    }
  });
});
