import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { seedDemoData } from '@broker/server';
import { apiClient, signInAs, type ApiClient } from '@broker/server/testing';
import { hongKongDay } from '@broker/domain';
import { PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, navigateInApp, signInThroughEmulator } from './support/web-shell';
import { expect } from './support/expect';

/**
 * ADR 0046 and ADR 0049: one search behaviour on the list's box and the search page, and the ways back to a
 * client — pinned clients, recently opened clients, recent searches, saved filters — kept on the server for the
 * staff member (ADR 0049), against the real server and seeded data.
 */

let server: E2eServer;
let browser: Browser;
let chan: ApiClient;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 300, seed: 22, asOf: hongKongDay() });
  browser = await launchBrowser();
  chan = apiClient(server.baseUrl, await signInAs(server.baseUrl));
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function phone(path = '/client/manage/list', userid = 'chanwaiman'): Promise<Page> {
  const context = await browser.newContext(PHONE_CONTEXT);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}${path}`);
  await signInThroughEmulator(page, userid);
  return page;
}

const route = (page: Page, name: string) => page.locator(`.ba-route[data-route="${name}"]`);
const rowOf = (scope: Locator, customerId: number) => scope.locator(`[data-testid="client-row"][data-customer-id="${customerId}"]`);

/** Every control the manager taps is at least 44 × 44 CSS px (ADR 0050). */
async function expectThumbSized(locator: Locator) {
  for (const box of await locator.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON()))) {
    const { width, height } = box as { width: number; height: number };
    expect(width, JSON.stringify(box)).toBeGreaterThanOrEqual(44);
    expect(height, JSON.stringify(box)).toBeGreaterThanOrEqual(44);
  }
}

async function resetShortcuts() {
  await server.database.query('delete from staff_pinned_client');
  await server.database.query('delete from staff_recent');
  await server.database.query('delete from staff_saved_filter');
}

describe('back to my clients fast', () => {
  test('pin from the profile header and from a row; pins and recents head the list, for this manager on any device only', async () => {
    await resetShortcuts();
    const top = (await chan.ok.searchCustomers({ pageSize: 3, sortBy: 'totalAssets', sortOrder: 'desc' })).list;
    const [first, second, third] = top as [(typeof top)[0], (typeof top)[0], (typeof top)[0]];
    const page = await phone();
    const list = route(page, 'clientManageList');
    await expect(rowOf(list, first.customerId)).toBeVisible();
    // Nothing pinned or opened yet: no quick-access block.
    await expect(list.getByTestId('quick-clients')).toHaveCount(0);

    // Open the first client from the list and pin them on the profile header.
    await rowOf(list, first.customerId).click();
    await expectRoute(page, 'clientInformation');
    const pin = route(page, 'clientInformation').getByTestId('pin-toggle');
    await expect(pin).toHaveAttribute('aria-pressed', 'false');
    await expectThumbSized(pin);
    await pin.click();
    await expect(pin).toHaveAttribute('aria-pressed', 'true');
    await page.goBack();
    await expectRoute(page, 'clientManageList');
    await expect(list.getByTestId('pinned-clients').locator(`[data-customer-id="${first.customerId}"]`)).toBeVisible();

    // Open the second: it is a recent client (the pinned first is not repeated among the recents).
    await rowOf(list, second.customerId).click();
    await expectRoute(page, 'clientInformation');
    await page.goBack();
    await expectRoute(page, 'clientManageList');
    const recent = list.getByTestId('recent-clients');
    await expect(recent.locator(`[data-customer-id="${second.customerId}"]`)).toBeVisible();
    await expect(recent.locator(`[data-customer-id="${first.customerId}"]`)).toHaveCount(0);

    // A row action: the row's long-press sheet pins the third.
    const row = rowOf(list, third.customerId);
    const box = (await row.boundingBox())!;
    const finger = { pointerType: 'touch', isPrimary: true, clientX: box.x + 40, clientY: box.y + 20 };
    await row.dispatchEvent('pointerdown', finger);
    const pinAction = page.getByTestId('pin-action');
    await expect(pinAction).toBeVisible();
    await row.dispatchEvent('pointerup', finger);
    await row.dispatchEvent('click');
    await expectRoute(page, 'clientManageList');
    await expectThumbSized(pinAction);
    await pinAction.click();
    await expect(pinAction).toHaveCount(0);
    const pinned = list.getByTestId('pinned-clients');
    await expect(pinned.locator('a')).toHaveCount(2);
    // Newest pin first.
    await expect(pinned.locator('a').first()).toHaveAttribute('data-customer-id', String(third.customerId));
    await expectThumbSized(list.locator('.ba-quick__client'));
    await saveScreenshot(page, 'shortcuts-list');

    // A pinned chip opens the client.
    await pinned.locator(`[data-customer-id="${first.customerId}"]`).click();
    await expectRoute(page, 'clientInformation');
    await expect(route(page, 'clientInformation').getByTestId('profile-name')).toContainText(first.nameCn);
    await page.goBack();

    // Another device, the same manager: the pins are there (the server keeps them).
    const other = await phone();
    await expect(route(other, 'clientManageList').getByTestId('pinned-clients').locator('a')).toHaveCount(2);

    // The same phone, another manager signing in: none of chanwaiman's pins, recents or searches.
    // WeCom switches account: the session's token and cookie go; the next person signs in on the same browser.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto(`${server.baseUrl}/client/manage/list`);
    await signInThroughEmulator(page, 'leekaying');
    await expectRoute(page, 'clientManageList');
    await expect(list.locator('[data-testid="client-row"]').first()).toBeVisible();
    await expect(list.getByTestId('quick-clients')).toHaveCount(0);
  });

  test('the list box and the search page search as you type and show the same clients; a search is remembered when a result is opened', async () => {
    await resetShortcuts();
    // The commonest surname of the book, so both screens have many rows to compare.
    const book = (await chan.ok.searchCustomers({ pageSize: 50, sortBy: 'totalAssets', sortOrder: 'desc' })).list;
    const surname = (client: (typeof book)[0]) => client.nameEn.split(' ')[0]!.toLowerCase();
    const keyword = surname(
      book.reduce((best, client) =>
        book.filter((c) => surname(c) === surname(client)).length > book.filter((c) => surname(c) === surname(best)).length ? client : best,
      ),
    );
    const target = book.find((client) => surname(client) === keyword);
    const page = await phone();
    const list = route(page, 'clientManageList');
    await expect(list.locator('[data-testid="client-row"]').first()).toBeVisible();

    // The list's box: typing alone searches (no Enter), once for the word.
    const searchedFor = (request: { url(): string; postData(): string | null }) =>
      request.url().endsWith('/manage/search') && (request.postData() ?? '').includes(`"keyword":"${keyword}"`);
    const idsOf = async (response: { json(): Promise<unknown> }) =>
      ((await response.json()) as { data: { list: { customerId: number }[]; total: number } }).data;
    const fromList = page.waitForResponse((response) => searchedFor(response.request()));
    await list.getByRole('searchbox').pressSequentially(keyword, { delay: 40 });
    const listAnswer = await idsOf(await fromList);
    await expect(list.getByTestId('active-filters')).toContainText(keyword);
    await expect(rowOf(list, target!.customerId)).toBeVisible();

    // The search page, the same word: the same clients in the same order.
    await navigateInApp(page, '/client/manage/search');
    await expectRoute(page, 'clientManageSearch');
    const search = route(page, 'clientManageSearch');
    await search.locator('input').pressSequentially(keyword, { delay: 40 });
    await expect(rowOf(search, target!.customerId)).toBeVisible();
    // It asks what the list asked (one query, shared: the answer may come from the list's own), so the rows match.
    await expect(search.locator('.ba-client-list__head h2')).toHaveText(new RegExp(`(^|\\D)${listAnswer.total}(\\D|$)`));
    const shown = await search
      .locator('[data-testid="client-row"]')
      .evaluateAll((rows) => rows.map((row) => Number(row.dataset.customerId)));
    expect(shown.length).toBeGreaterThan(1);
    expect(shown).toEqual(listAnswer.list.slice(0, shown.length).map((row) => row.customerId));

    // Typing saved nothing.
    expect((await chan.ok.getShortcuts()).recentSearches).toEqual([]);
    await rowOf(search, target!.customerId).click();
    await expectRoute(page, 'clientInformation');
    await expect.poll(async () => (await chan.ok.getShortcuts()).recentSearches).toEqual([keyword]);
    await page.goBack();
    await expectRoute(page, 'clientManageSearch');
    await search.locator('input').fill('');
    const recent = search.getByTestId('recent-searches');
    await expect(recent).toContainText(keyword);
    await expectThumbSized(recent.locator('button'));
    await saveScreenshot(page, 'shortcuts-search');
    // Removable, one by one.
    await recent
      .getByRole('button', { name: new RegExp(keyword) })
      .last()
      .click();
    await expect(recent).not.toContainText(keyword);
    expect((await chan.ok.getShortcuts()).recentSearches).toEqual([]);
  });

  test('saved filters: save on the filter page, apply and clear from a chip, rename and delete', async () => {
    await resetShortcuts();
    const page = await phone();
    const list = route(page, 'clientManageList');
    await expect(list.locator('[data-testid="client-row"]').first()).toBeVisible();
    await list.getByTestId('filter-entry').click();
    await expectRoute(page, 'clientManageFilter');
    const filter = route(page, 'clientManageFilter');
    await filter.locator('.adm-selector-item', { hasText: '休眠' }).click();
    await filter.getByTestId('saved-filter-name').fill('休眠客户');
    await expectThumbSized(filter.getByTestId('saved-filter-save'));
    await filter.getByTestId('saved-filter-save').click();
    await expect(filter.getByTestId('saved-filter-item')).toHaveText(/休眠客户/);
    expect((await chan.ok.getShortcuts()).savedFilters).toMatchObject([{ name: '休眠客户', filters: { statuses: ['dormant'] } }]);
    // A taken name is refused on the page, with what was typed kept.
    await filter.getByTestId('saved-filter-name').fill('休眠客户');
    await filter.getByTestId('saved-filter-save').click();
    await expect(filter.getByRole('alert')).toContainText('休眠客户');
    await expect(filter.getByTestId('saved-filter-name')).toHaveValue('休眠客户');
    await filter.getByTestId('filter-reset').click();
    await filter.getByTestId('filter-apply').click();
    await expectRoute(page, 'clientManageList');

    // The list offers it as a chip: one tap applies the set, a second clears it.
    const chip = list.getByTestId('saved-filters').getByRole('button', { name: '休眠客户' });
    await expect(chip).toHaveAttribute('aria-pressed', 'false');
    await expectThumbSized(chip);
    await chip.click();
    await expect(chip).toHaveAttribute('aria-pressed', 'true');
    await expect(list.getByTestId('active-filters')).toContainText('休眠');
    await expect(list.locator('.ba-client .ba-tag--dormant').first()).toBeVisible();
    await expect(list.locator('.ba-client .ba-tag--active')).toHaveCount(0);
    await saveScreenshot(page, 'shortcuts-saved-filter');
    await chip.click();
    await expect(chip).toHaveAttribute('aria-pressed', 'false');
    await expect(list.getByTestId('active-filters')).toHaveCount(0);

    // Rename and delete on the filter page.
    await list.getByTestId('filter-entry').click();
    await expectRoute(page, 'clientManageFilter');
    await filter.getByRole('button', { name: '重命名“休眠客户”' }).click();
    await filter.getByRole('textbox', { name: '重命名' }).fill('长期休眠');
    await filter.getByRole('button', { name: '确定' }).click();
    await expect(filter.getByTestId('saved-filter-item')).toHaveText(/长期休眠/);
    await filter.getByRole('button', { name: '删除“长期休眠”' }).click();
    await expect(filter.getByTestId('saved-filter-item')).toHaveCount(0);
    expect((await chan.ok.getShortcuts()).savedFilters).toEqual([]);
  });
});

describe('quick access and recent searches at 320 and 375 px in the three languages', () => {
  test('screenshots', async () => {
    await resetShortcuts();
    const top = (await chan.ok.searchCustomers({ pageSize: 8, sortBy: 'totalAssets', sortOrder: 'desc' })).list;
    for (const client of top.slice(0, 3)) await chan.ok.setClientPin({ customerId: client.customerId, pinned: true });
    for (const client of top.slice(3))
      await chan.ok.recordClientOpened({ customerId: client.customerId, search: client.nameEn.split(' ')[0]! });
    await chan.ok.saveFilter({ name: 'VIP', filters: { assetMin: 1_000_000 } });
    await chan.ok.saveFilter({ name: '休眠', filters: { statuses: ['dormant'] } });
    const page = await phone();
    for (const language of ['zh-CN', 'zh-HK', 'en'] as const) {
      await page.evaluate((chosen) => localStorage.setItem('language', chosen), language);
      for (const viewport of [
        { width: 375, height: 812 },
        { width: 320, height: 568 },
      ]) {
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/client/manage/list`);
        await expectRoute(page, 'clientManageList');
        const list = route(page, 'clientManageList');
        await expect(list.getByTestId('pinned-clients').locator('a')).toHaveCount(3);
        await expect(list.getByTestId('recent-clients').locator('a')).toHaveCount(5);
        await expect(list.locator('[data-testid="client-row"]').first()).toBeVisible();
        await expectThumbSized(list.locator('.ba-quick__client, .ba-saved__chip'));
        await saveScreenshot(page, `shortcuts-list-${language}-${viewport.width}`);
        await page.goto(`${server.baseUrl}/client/manage/search`);
        await expectRoute(page, 'clientManageSearch');
        const recent = route(page, 'clientManageSearch').getByTestId('recent-searches');
        await expect(recent.locator('.ba-recent__item')).not.toHaveCount(0);
        await saveScreenshot(page, `shortcuts-search-${language}-${viewport.width}`);
      }
    }
  });
});
