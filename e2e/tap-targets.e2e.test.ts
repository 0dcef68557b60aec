import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { apiClient, signInAs } from '@broker/server/testing';
import { hongKongDay } from '@broker/domain';
import { saveScreenshot, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';
import { settle } from './support/layout';

/**
 * ADR 0050 — made for thumbs. Every page of the route table at 375×812: each thing a finger can tap
 * (links, buttons, chips, tabs, radio buttons, checkboxes, a row's actions, close icons, fields) answers a tap
 * over at least 44×44 CSS px (Apple's HIG, WCAG 2.5.5). And the list card's channel strip shows that it scrolls.
 */

const MIN_PX = 44;

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A client of chanwaiman's with an account, a pending MOT event and a contact record. */
let client: { id: number; nameCn: string };
let eventId: number;
let recordId: number;

beforeAll(async () => {
  server = await startE2eServer();
  const today = hongKongDay();
  await seedDemoData(server.database, { customers: 200, seed: 9, asOf: today });
  const sweep = await runDailyMotSweep(server.database, { force: true });
  expect(sweep.status).toBe('ran');
  const [event] = await server.database.query<{ id: number; customerId: number; nameCn: string }>(
    `select e.id::float8 as id, e.customer_id::float8 as "customerId", c.name_cn as "nameCn"
       from mot_event e join staff s on s.id = e.staff_id join customer c on c.id = e.customer_id
      where s.wecom_user_id = 'chanwaiman' and e.status <> 'handled'
        and exists (select 1 from account a where a.customer_id = c.id)
      order by e.id limit 1`,
  );
  expect(event, 'no pending MOT event of chanwaiman').toBeDefined();
  client = { id: event!.customerId, nameCn: event!.nameCn };
  eventId = event!.id;
  const api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
  const record = await api.ok.addContactRecord({
    customerId: client.id,
    channel: 'phone',
    purpose: 'service',
    note: 'Reviewed the portfolio; the client asked about the US fund.',
    nextStep: 'Send the factsheet',
    nextStepDate: today,
  });
  recordId = record.recordId;
  ({ browser, context, page } = await launchPhone());
  await openSignedIn(page, server.baseUrl, '/client/manage/list');
  await expectRoute(page, 'clientManageList');
});

afterAll(() => closeInOrder(context, browser, server));

interface SmallTarget {
  selector: string;
  text: string;
  width: number;
  height: number;
  why: string;
}

/**
 * Runs in the page: every tap target shown (on the page on screen and in open sheets) whose hit area is smaller
 * than `min` either way. The hit area is measured as a finger meets it, not read off the box: from the target's
 * centre, elementFromPoint walks out left, right, up and down for as long as it lands on the target (or on what
 * it holds), so an invisible extension (padding, a ::before) counts only where it really receives the tap, and a
 * part covered by a neighbour does not count.
 */
function smallTargets(min: number): SmallTarget[] {
  const TARGETS = [
    'a[href]',
    'button',
    'input:not([type=hidden])',
    'textarea',
    'select',
    'summary',
    '[role=button]',
    '[role=link]',
    '[role=tab]',
    '[role=radio]',
    '[role=checkbox]',
    '[role=switch]',
    '[role=option]',
    '[role=menuitem]',
    '.adm-checkbox',
    '.adm-radio',
    '.adm-switch',
    '.adm-selector-item',
    '.adm-tabs-tab',
    '.adm-popup-close-icon',
    // Focusable for the keyboard; a region that scrolls (the channel strip) is swiped, not tapped.
    '[tabindex]:not([tabindex="-1"]):not([role=region])',
  ].join(',');
  const shown = (element: Element): element is HTMLElement => {
    if (!(element instanceof HTMLElement)) return false;
    if (!element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) return false;
    if (element.closest('[hidden], [aria-hidden=true]')) return false;
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  /** A check box or radio button inside its label is tapped through the label: the label is the target. */
  const targetOf = (element: HTMLElement): HTMLElement => {
    if (element instanceof HTMLInputElement && /^(checkbox|radio)$/.test(element.type)) {
      const label = element.closest('label, .adm-checkbox, .adm-radio, [role=radio], [role=checkbox]');
      if (label instanceof HTMLElement) return label;
    }
    return element;
  };
  const describe = (element: HTMLElement) => {
    const id = element.id ? `#${element.id}` : '';
    const testId = element.dataset.testid ? `[data-testid=${element.dataset.testid}]` : '';
    const classes = [...element.classList].slice(0, 2).join('.');
    const owner = element.closest('.ba-route')?.getAttribute('data-route') ?? (element.closest('.adm-popup-body') ? 'sheet' : 'shell');
    return `${owner} ${element.tagName.toLowerCase()}${id}${testId}${classes ? `.${classes}` : ''}`;
  };
  const onScreen = (element: HTMLElement) => {
    const route = element.closest('.ba-route');
    if (route && !route.checkVisibility()) return false;
    // With a sheet open, only the sheet can be tapped.
    const sheets = [...document.querySelectorAll('.adm-popup-body')].filter((sheet) => sheet.checkVisibility());
    return sheets.length === 0 || sheets.some((sheet) => sheet.contains(element));
  };

  const seen = new Set<HTMLElement>();
  const small: SmallTarget[] = [];
  for (const candidate of document.querySelectorAll(TARGETS)) {
    if (!shown(candidate)) continue;
    const element = targetOf(candidate);
    if (seen.has(element) || !onScreen(element)) continue;
    seen.add(element);
    if (element !== candidate && !shown(element)) continue;
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const rect = element.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    const hits = (px: number, py: number) => {
      if (px < 0 || py < 0 || px >= window.innerWidth || py >= window.innerHeight) return false;
      const hit = document.elementFromPoint(px, py);
      return hit !== null && (hit === element || element.contains(hit) || (hit instanceof HTMLLabelElement && hit.control === element));
    };
    const text = (element.textContent || element.getAttribute('aria-label') || (element as HTMLInputElement).placeholder || '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 40);
    if (!hits(x, y)) {
      small.push({ selector: describe(element), text, width: 0, height: 0, why: 'its centre is covered' });
      continue;
    }
    const reach = (dx: number, dy: number) => {
      let step = 0;
      while (step < 400 && hits(x + dx * (step + 1), y + dy * (step + 1))) step += 1;
      return step;
    };
    const width = reach(-1, 0) + reach(1, 0) + 1;
    const height = reach(0, -1) + reach(0, 1) + 1;
    if (width < min || height < min)
      small.push({ selector: describe(element), text, width, height, why: `${Math.round(rect.width)}×${Math.round(rect.height)} drawn` });
  }
  return small;
}

/** Every problem of every screen walked, collected so one run names them all. */
const problems: string[] = [];

/** Measures the screen as it is and notes each target under the minimum (the test fails on them at the end). */
async function measure(screen: string) {
  await settle(page);
  for (const target of await page.evaluate(smallTargets, MIN_PX))
    problems.push(`${screen}: ${target.selector} «${target.text}» answers ${target.width}×${target.height}px (${target.why})`);
}

const route = (name: string) => page.locator(`.ba-route[data-route="${name}"]`);

async function open(path: string, routeName: string) {
  await page.goto(`${server.baseUrl}${path}`);
  await expectRoute(page, routeName);
  await expect(route(routeName).getByTestId('loading-state')).toHaveCount(0);
}

const closeSheet = async () => {
  await page.locator('.adm-popup-body:visible .ba-sheet-close').last().click();
  await expect(page.locator('.adm-popup-body:visible')).toHaveCount(0);
};

describe('made for thumbs', () => {
  test('every tap target of every page answers over at least 44×44 px at 375×812', async () => {
    await page.setViewportSize({ width: 375, height: 812 });

    await open('/client/manage/list', 'clientManageList');
    await expect(page.getByTestId('client-row').first()).toBeVisible();
    await measure('client list');
    await page.getByTestId('me-button').click();
    await expect(page.getByTestId('me-sheet')).toBeVisible();
    await measure('me sheet');
    await closeSheet();

    // The filter is entered from the list only (the route table's enterOnlyFrom).
    await page.getByTestId('filter-entry').click();
    await expectRoute(page, 'clientManageFilter');
    await measure('filter');
    // A filter applied: the list's chips that take it off again.
    await route('clientManageFilter').locator('.adm-selector-item', { hasText: '休眠' }).click();
    await page.locator('.ba-filter__apply').click();
    await expectRoute(page, 'clientManageList');
    await expect(page.getByTestId('client-row').first().or(route('clientManageList').getByTestId('empty-state'))).toBeVisible();
    await expect(page.getByTestId('active-filters')).toBeVisible();
    await measure('client list, filtered');

    await open('/client/manage/search', 'clientManageSearch');
    await measure('search, empty');
    await route('clientManageSearch').locator('input').first().fill(client.nameCn.slice(0, 1));
    await expect(route('clientManageSearch').getByTestId('client-row').first()).toBeVisible();
    await measure('search, results');

    const customer = `customerId=${client.id}`;
    await open(`/client/information?${customer}`, 'clientInformation');
    await expect(route('clientInformation').getByTestId('timeline')).toBeVisible();
    await measure('profile');
    await route('clientInformation').locator('[data-testid=timeline] li[data-kind]').first().click();
    await expect(page.getByTestId('timeline-sheet')).toBeVisible();
    await measure('timeline item sheet');
    await closeSheet();

    await open(`/client/information/accountDetail/holdingStock?${customer}`, 'clientHoldingStock');
    await measure('holdings');
    await open(`/client/information/accountDetail/transaction?${customer}`, 'clientTransaction');
    await measure('trades');
    await open(`/client/information/moneyRecord/moneyRecord?${customer}`, 'clientMoneyRecord');
    await measure('money records');
    await open(`/client/information/moneyRecord/transferStock?${customer}`, 'clientTransferStock');
    await measure('stock transfers');
    await open(`/client/edit?${customer}`, 'clientEdit');
    await measure('edit');

    await open('/mot/home', 'motHome');
    await expect(page.getByTestId('mot-ranked-list')).toBeVisible();
    await measure('MOT home, ranked');
    await open('/mot/home?view=day', 'motHome');
    await expect(page.getByTestId('mot-list')).toBeVisible();
    await measure('MOT home, by event');
    await page.getByTestId('mot-settings-open').click();
    await expect(page.getByTestId('mot-settings')).toBeVisible();
    await measure('MOT settings sheet');
    await closeSheet();
    await open('/mot/historySearch', 'motHistorySearch');
    await measure('MOT service records');
    await page.locator('.mot-search__filter').click();
    await expect(page.locator('.mot-sheet .mot-chips').first()).toBeVisible();
    await measure('MOT service records, filter sheet');
    await closeSheet();
    await open(`/mot/singleClient?${customer}`, 'motSingleClient');
    await measure('MOT client, events');
    await page.getByTestId('mot-client-history-tab').click();
    await measure('MOT client, service records');
    await open(`/mot/eventDetail?eventId=${eventId}`, 'motEventDetail');
    await expect(page.getByTestId('mot-reason')).toBeVisible();
    await measure('MOT event');
    await page.getByTestId('mot-handle-open').click();
    await expect(page.locator('#mot-handle-note')).toBeVisible();
    await measure('MOT handle sheet');
    await closeSheet();
    await page.getByTestId('mot-snooze-open').click();
    await expect(page.getByTestId('mot-snooze-sheet')).toBeVisible();
    await measure('MOT snooze sheet');
    await closeSheet();

    await open(`/client/contact/log?${customer}`, 'contactLog');
    await expect(page.getByTestId('contact-log-row').first()).toBeVisible();
    await measure('contact log');
    await open(`/client/contact/new?${customer}&channel=phone`, 'contactNew');
    await measure('contact form');
    await open(`/client/contact/record?recordId=${recordId}`, 'contactRecord');
    await expect(page.getByTestId('contact-record')).toBeVisible();
    await measure('contact record');
    await open(`/client/contact/print?${customer}`, 'contactPrint');
    await measure('contact print');
    await open('/me/audit', 'auditTrail');
    await measure('audit trail');

    // KYC opens from a chat's sidebar, for a contact not bound yet (the emulator's 何国良, followed by chanwaiman).
    const sidebar = new URLSearchParams({ entry: 'single_chat_tools', externalUserId: 'wmEmu0001HoKwokLeung', url: '/' });
    await page.goto(`${server.baseUrl}/wecom/__emulator/sidebar?${sidebar.toString()}`);
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    await expectRoute(page, 'kycIndex');
    await measure('KYC');
    await page.getByTestId('kyc-search').locator('input').fill(client.nameCn);
    await expect(page.getByTestId('kyc-candidate').first()).toBeVisible();
    await measure('KYC, candidates');

    expect(problems, `tap targets under ${MIN_PX}×${MIN_PX}px`).toEqual([]);
  });
});

describe("the list card's channel strip", () => {
  const strip = () => page.getByTestId('stat-channels');
  const state = () =>
    strip().evaluate((element) => ({
      hidden: element.scrollWidth - element.clientWidth,
      at: element.scrollLeft,
      before: element.hasAttribute('data-more-before'),
      after: element.hasAttribute('data-more-after'),
      mask: getComputedStyle(element).maskImage,
      tabIndex: element.tabIndex,
    }));

  test('shows that it scrolls: a fade at the end that hides more, gone at the end; Tab reaches it, the arrows scroll it', async () => {
    // A book in all four channels: their Chinese names run past the card's edge.
    await server.database.query(
      `update customer set channel = 'wealth'
        where id = (select c.id from customer c join staff s on s.id = c.staff_id
                     where s.wecom_user_id = 'chanwaiman' and c.channel = 'branch' order by c.id limit 1)`,
    );
    const [{ channels }] = (await server.database.query<{ channels: number }>(
      `select count(distinct c.channel)::int as channels from customer c join staff s on s.id = c.staff_id
        where s.wecom_user_id = 'chanwaiman'`,
    )) as [{ channels: number }];
    await page.setViewportSize({ width: 320, height: 568 });
    await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
    await open('/client/manage/list', 'clientManageList');
    // A screen reader hears a named list, whole (what is scrolled away included).
    const region = page.getByRole('region', { name: '渠道分布' });
    await expect(region.getByRole('list', { name: '渠道分布' }).getByRole('listitem')).toHaveCount(channels);

    const start = await state();
    expect(start.hidden, 'the strip overflows').toBeGreaterThan(0);
    expect(start).toMatchObject({ at: 0, before: false, after: true, tabIndex: 0 });
    // The fade at the right end only (the browser reports `to right` as 90deg, `to left` as 270deg).
    expect(start.mask).toMatch(/^linear-gradient\(90deg, rgb\(0, 0, 0\)/);
    await saveScreenshot(page, 'manage-list-channels-320');

    // The keyboard: Tab from the card's last currency button lands on the strip, → scrolls it to its end.
    await page.locator('[data-testid=client-stat] .ba-segmented__item').last().focus();
    await page.keyboard.press('Tab');
    await expect(strip()).toBeFocused();
    for (let press = 0; press < 40 && (await state()).after; press += 1) await page.keyboard.press('ArrowRight');
    const end = await state();
    expect(end.at).toBeGreaterThanOrEqual(end.hidden - 1);
    expect(end).toMatchObject({ before: true, after: false });
    expect(end.mask).toMatch(/^linear-gradient\(270deg, rgb\(0, 0, 0\)/);
    await saveScreenshot(page, 'manage-list-channels-320-end');
    // Half way (a finger's swipe): more both ways, a fade at both ends.
    await strip().evaluate((element) => element.scrollTo({ left: (element.scrollWidth - element.clientWidth) / 2, behavior: 'instant' }));
    await expect.poll(async () => (await state()).after).toBe(true);
    expect(await state()).toMatchObject({ before: true, after: true });
    expect((await state()).mask).toMatch(/^linear-gradient\(90deg, rgba\(0, 0, 0, 0\)/);

    // Where it all fits (English names are short): no fade, and no Tab stop with nothing to scroll.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await open('/client/manage/list', 'clientManageList');
    await expect(page.getByRole('region', { name: 'By channel' }).getByRole('listitem')).toHaveCount(channels);
    await expect.poll(async () => (await state()).hidden).toBeLessThanOrEqual(0);
    expect(await state()).toMatchObject({ before: false, after: false, mask: 'none', tabIndex: -1 });
    await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
  });
});
