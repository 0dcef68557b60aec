import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemoData } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { launchBrowser, newPhone, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';

/**
 * In the browser: rise/fall colours are the reader's setting (ADR 0048) and apply to the
 * profile and the holdings at once; zh-HK shows securities by their Hong Kong Traditional names; and no English
 * label on the client pages is cut on a 320 px phone.
 */

const RED = 'rgb(229, 72, 77)';
const GREEN = 'rgb(0, 163, 92)';

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** A client of chanwaiman's holding one stock above its cost and one below: both colours on the holdings page. */
let mixed: { id: number };

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 9, asOf: hongKongDay() });
  const [client] = await server.database.query<{ id: number }>(
    `select h.customer_id::float8 as id
       from holding h join security s on s.id = h.security_id join customer c on c.id = h.customer_id join staff st on st.id = c.staff_id
      where st.wecom_user_id = 'chanwaiman' and h.quantity > 0 and c.status <> 'closed' and c.total_assets_hkd > 0
      group by h.customer_id
     having bool_or(s.last_price > h.avg_cost * 1.01) and bool_or(s.last_price < h.avg_cost * 0.99)
      order by h.customer_id limit 1`,
  );
  expect(client, 'a client with a gain and a loss').toBeTruthy();
  mixed = client!;
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function phone(viewport = { width: 375, height: 812 }): Promise<Page> {
  const { context, page } = await newPhone(browser, { viewport });
  contexts.push(context);
  await openSignedIn(page, server.baseUrl, `/client/information?customerId=${mixed.id}`);
  await expectRoute(page, 'clientInformation');
  return page;
}

const route = (page: Page, name: string) => page.locator(`.ba-route[data-route="${name}"]`);

/** Opens `path` afresh: language, colours and currency come back from storage. */
async function open(page: Page, path: string, routeName: string) {
  await page.goto(`${server.baseUrl}${path}`);
  await expectRoute(page, routeName);
  await expect(route(page, routeName).getByTestId('loading-state')).toHaveCount(0);
}

async function useLanguage(page: Page, language: string) {
  await page.evaluate((code) => localStorage.setItem('language', code), language);
}

/** Every shown rise and every shown fall on the page, by their computed colour. */
async function trendColours(page: Page, routeName: string) {
  return route(page, routeName).evaluate((root) => {
    const colours = (selector: string) =>
      [...root.querySelectorAll(selector)]
        .filter((element) => (element as HTMLElement).offsetParent !== null)
        .map((element) => getComputedStyle(element).color);
    return { up: colours('.ba-trend--up'), down: colours('.ba-trend--down') };
  });
}

const HOLDINGS = () => `/client/information/accountDetail/holdingStock?customerId=${mixed.id}`;
const PROFILE = () => `/client/information?customerId=${mixed.id}`;

describe('rise and fall colours are the reader’s (ADR 0048)', () => {
  test('Chinese readers start red up; flipping the setting turns every gain and loss on holdings and profile at once', async () => {
    const page = await phone();
    await open(page, HOLDINGS(), 'clientHoldingStock');
    await expect(route(page, 'clientHoldingStock').getByTestId('record-row').first()).toBeVisible();
    let colours = await trendColours(page, 'clientHoldingStock');
    expect(colours.up.length, 'a gain on the holdings page').toBeGreaterThan(0);
    expect(colours.down.length, 'a loss on the holdings page').toBeGreaterThan(0);
    expect(new Set(colours.up)).toEqual(new Set([RED]));
    expect(new Set(colours.down)).toEqual(new Set([GREEN]));
    await saveScreenshot(page, 'numbers-holdings-red-up-zh-CN-375');

    await page.locator('.ba-topbar__me').click();
    const setting = page.getByTestId('trend-colours');
    await expect(setting.getByRole('radio', { name: '红涨绿跌' })).toHaveAttribute('aria-checked', 'true');
    await saveScreenshot(page, 'numbers-me-sheet-colours-zh-CN-375');
    await setting.getByRole('radio', { name: '绿涨红跌' }).click();
    await expect(setting.getByRole('radio', { name: '绿涨红跌' })).toHaveAttribute('aria-checked', 'true');
    await page.locator('.ba-me-sheet .ba-sheet-close').click();
    await expect(page.getByTestId('me-sheet')).toHaveCount(0);

    colours = await trendColours(page, 'clientHoldingStock');
    expect(new Set(colours.up)).toEqual(new Set([GREEN]));
    expect(new Set(colours.down)).toEqual(new Set([RED]));
    await saveScreenshot(page, 'numbers-holdings-green-up-zh-CN-375');

    // Kept: the profile, opened afresh, colours the same way.
    await open(page, PROFILE(), 'clientInformation');
    await expect(route(page, 'clientInformation').getByTestId('asset-total')).toBeVisible();
    const profile = await trendColours(page, 'clientInformation');
    expect([...profile.up, ...profile.down].length, 'a coloured figure on the profile').toBeGreaterThan(0);
    for (const colour of profile.up) expect(colour).toBe(GREEN);
    for (const colour of profile.down) expect(colour).toBe(RED);
  });

  test('English readers start green up', async () => {
    const page = await phone();
    await useLanguage(page, 'en');
    await open(page, HOLDINGS(), 'clientHoldingStock');
    await expect(route(page, 'clientHoldingStock').getByTestId('record-row').first()).toBeVisible();
    const colours = await trendColours(page, 'clientHoldingStock');
    expect(new Set(colours.up)).toEqual(new Set([GREEN]));
    expect(new Set(colours.down)).toEqual(new Set([RED]));
    await saveScreenshot(page, 'numbers-holdings-green-up-en-375');
  });
});

describe('languages all the way down (ADR 0048)', () => {
  test('zh-HK shows each holding by its Hong Kong Traditional name', async () => {
    const names = await server.database.query<{ name_cn: string; name_hk: string }>(
      `select s.name_cn, s.name_hk from holding h join security s on s.id = h.security_id
        where h.customer_id = $1 and h.quantity > 0 and s.name_hk <> s.name_cn`,
      [mixed.id],
    );
    expect(names.length, 'a holding whose two scripts differ').toBeGreaterThan(0);
    const page = await phone();
    await useLanguage(page, 'zh-HK');
    await open(page, HOLDINGS(), 'clientHoldingStock');
    const list = route(page, 'clientHoldingStock').getByTestId('record-list');
    await expect(list.getByText(names[0]!.name_hk, { exact: true }).first()).toBeVisible();
    await expect(list.getByText(names[0]!.name_cn, { exact: true })).toHaveCount(0);
    await saveScreenshot(page, 'numbers-holdings-zh-HK-375');
  });

  /** Text cut by design on the client pages, each whole one tap away: a client's or a security's name in a row. */
  const CUT_BY_DESIGN = ['.ba-client__name-en', '.ba-record__title', '.ba-profile__name-en'];

  /**
   * Every shown box whose own text does not fit it — cut (an ellipsis, hidden overflow) or spilling over its
   * neighbours — as one line each. Sideways-scrolling strips (the filter chips) are meant to run off screen.
   */
  function cutTexts(allowed: string[]): string[] {
    const problems: string[] = [];
    const skip = allowed.join(',');
    for (const element of document.querySelectorAll<HTMLElement>('.ba-route *, .adm-popup-body *')) {
      if (!element.checkVisibility({ checkVisibilityCSS: true }) || element.clientWidth === 0) continue;
      if (skip && element.matches(skip)) continue;
      // A one-line field's hint, cut at the field's edge (a browser does not report it in scrollWidth).
      if (element instanceof HTMLInputElement && element.placeholder && !element.value) {
        const pen = document.createElement('canvas').getContext('2d')!;
        const hint = getComputedStyle(element, '::placeholder');
        pen.font = `${hint.fontStyle} ${hint.fontWeight} ${hint.fontSize} ${hint.fontFamily}`;
        const field = getComputedStyle(element);
        const room = element.clientWidth - parseFloat(field.paddingLeft) - parseFloat(field.paddingRight);
        const needs = pen.measureText(element.placeholder).width;
        if (needs > room + 1) problems.push(`hint «${element.placeholder}» cut: needs ${Math.ceil(needs)}px, has ${room}px`);
        continue;
      }
      // A text box's own text wraps and scrolls inside it by design.
      if (element instanceof HTMLTextAreaElement) continue;
      // The element's own text, measured as laid out (a Range spans it whole, even where an ellipsis cuts it).
      // Not scrollWidth: a tap target's 44 px hit layer (an absolutely placed ::after, ADR 0050) overflows a
      // narrow chip on purpose and counts in scrollWidth, though every letter fits.
      const text = document.createRange();
      let textLeft = Infinity;
      let textRight = -Infinity;
      for (const node of element.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || node.textContent!.trim() === '') continue;
        text.selectNodeContents(node);
        const rect = text.getBoundingClientRect();
        textLeft = Math.min(textLeft, rect.left);
        textRight = Math.max(textRight, rect.right);
      }
      if (textLeft === Infinity) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const contentLeft = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
      const contentRight = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
      if (textLeft >= contentLeft - 1 && textRight <= contentRight + 1) continue;
      const how = style.textOverflow === 'ellipsis' || style.overflowX !== 'visible' ? 'cut' : 'spills';
      const needs = Math.ceil(textRight - textLeft);
      problems.push(
        `«${element.textContent.trim().slice(0, 60)}» ${how}: text needs ${needs}px, has ${Math.floor(contentRight - contentLeft)}px`,
      );
    }
    return problems;
  }

  const CLIENT_PAGES = [
    { path: () => PROFILE(), name: 'clientInformation', shot: 'profile' },
    { path: () => HOLDINGS(), name: 'clientHoldingStock', shot: 'holdings' },
    { path: () => `/client/information/accountDetail/transaction?customerId=${mixed.id}`, name: 'clientTransaction', shot: 'trades' },
    { path: () => `/client/information/moneyRecord/moneyRecord?customerId=${mixed.id}`, name: 'clientMoneyRecord', shot: 'money' },
    { path: () => `/client/information/moneyRecord/transferStock?customerId=${mixed.id}`, name: 'clientTransferStock', shot: 'transfers' },
    { path: () => `/client/edit?customerId=${mixed.id}`, name: 'clientEdit', shot: 'edit' },
    { path: () => '/client/manage/list', name: 'clientManageList', shot: 'list' },
  ];

  test('no English label is cut at 320 px on the client pages; the three languages shot', async () => {
    const page = await phone({ width: 320, height: 568 });
    const found: string[] = [];
    for (const language of ['en', 'zh-CN', 'zh-HK']) {
      await useLanguage(page, language);
      for (const screen of CLIENT_PAGES) {
        await open(page, screen.path(), screen.name);
        await page.waitForLoadState('networkidle');
        if (language === 'en') for (const problem of await page.evaluate(cutTexts, CUT_BY_DESIGN)) found.push(`${screen.shot}: ${problem}`);
        await saveScreenshot(page, `numbers-${screen.shot}-${language}-320`);
      }
    }
    expect(found).toEqual([]);
  });
});
