import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LATEST_RATES, runDailyMotSweep, seedDemoData } from '@broker/server';
import { apiClient, signInAs } from '@broker/server/testing';
import { hongKongDay } from '@broker/domain';
import { saveScreenshot, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';
import { settle } from './support/layout';

/**
 * ADR 0045: every MOT page shows money in the chosen currency, and every MOT screen fits a 320 and a
 * 375 px wide phone in the three languages — measured in the browser, screen by screen: no text cut or spilling
 * out of its box, no two neighbouring elements on top of each other, nothing wider than the screen.
 */

const VIEWPORTS = [
  { width: 320, height: 568 },
  { width: 375, height: 812 },
] as const;
/** Each language with another display currency, so the three currencies' longest figures are measured too. */
const LANGUAGES = [
  { language: 'zh-CN', currency: 'HKD' },
  { language: 'zh-HK', currency: 'CNY' },
  { language: 'en', currency: 'USD' },
] as const;

/** A long English name: the rows must cut it (it is whole on the client's page), never the figures beside it. */
const LONG_NAME_EN = 'Christopher Alexander Montgomery-Wellington';
const LONG_NEXT_STEP = 'Call back with the Q4 portfolio review, the US fund factsheet and the margin account application form';

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let today: string;
/** chanwaiman's clients given MOT events below: a USD deposit, an HKD withdrawal, a stock transfer in. */
let usdClient: { id: number; accountId: number };
let hkdClient: { id: number; accountId: number };
let transferClient: { id: number; accountId: number };
/** One pending event of chanwaiman's per rule found on the book. */
let eventOf: Map<string, number>;

async function chanwaimansClients() {
  return server.database.query<{ id: number; accountId: number }>(
    `select c.id::float8 as id,
            (select a.id::float8 from account a where a.customer_id = c.id order by a.id limit 1) as "accountId"
       from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' and exists (select 1 from account a where a.customer_id = c.id)
      order by c.id limit 3`,
  );
}

beforeAll(async () => {
  server = await startE2eServer();
  today = hongKongDay();
  await seedDemoData(server.database, { customers: 200, seed: 9, asOf: today });
  const clients = await chanwaimansClients();
  expect(clients).toHaveLength(3);
  [usdClient, hkdClient, transferClient] = clients as [typeof usdClient, typeof usdClient, typeof usdClient];
  await server.database.query('update customer set name_en = $1 where id = $2', [LONG_NAME_EN, usdClient.id]);
  // Back-office rows of today, as the importer writes them: the day's sweep turns them into events.
  const movement = `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
                    values ($1, $2, $3, $4, $5, 'fps', ($6::date + time '11:00') at time zone 'Asia/Hong_Kong')`;
  await server.database.query(movement, [usdClient.accountId, usdClient.id, 'deposit', 'USD', 32_000, today]);
  await server.database.query(movement, [hkdClient.accountId, hkdClient.id, 'withdrawal', 'HKD', 1_234_567.89, today]);
  await server.database.query(
    `insert into stock_transfer (account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at)
     select $1, $2, s.id, 'in', 1500, 'Interactive Brokers Hong Kong Limited', ($3::date + time '10:00') at time zone 'Asia/Hong_Kong'
       from security s where s.symbol = 'TSM'`,
    [transferClient.accountId, transferClient.id, today],
  );
  // An identity document about to expire and a birthday this week: two more kinds of event.
  await server.database.query(
    `update customer set id_doc_expiry = $2::date + 12, birthday = (($2::date + 3) - interval '40 years')::date where id = $1`,
    [transferClient.id, today],
  );
  const sweep = await runDailyMotSweep(server.database, { force: true });
  expect(sweep.status).toBe('ran');
  // A follow-up, through the contact log (a next step dated today puts it on today's list).
  const khzl = apiClient(server.baseUrl, await signInAs(server.baseUrl));
  await khzl.ok.addContactRecord({
    customerId: usdClient.id,
    channel: 'phone',
    purpose: 'service',
    note: 'Discussed the USD deposit; the client wants a review of the tech concentration before adding more.',
    nextStep: LONG_NEXT_STEP,
    nextStepDate: today,
  });
  // The WeCom contact lost, as the change callback writes it (ADR 0019): the longest English reason there is.
  await server.database.query(
    `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts, customer_name_en)
     select c.corp_id, 'contact_removed', c.id, c.staff_id, 'e2e-layout', $2, $3::jsonb, c.name_en from customer c where c.id = $1`,
    [
      hkdClient.id,
      today,
      JSON.stringify({
        changeType: 'del_follow_user',
        externalUserId: 'wmEmu0001HoKwokLeung',
        wecomUserId: 'chanwaiman',
        occurredAt: `${today}T09:12:00`,
        source: null,
      }),
    ],
  );
  const events = await server.database.query<{ rule: string; id: number }>(
    `select distinct on (e.rule) e.rule, e.id::float8 as id
       from mot_event e join staff s on s.id = e.staff_id
      where s.wecom_user_id = 'chanwaiman' and e.status <> 'handled'
      order by e.rule, (e.customer_id in ($1, $2, $3)) desc, e.due_date desc, e.id`,
    [usdClient.id, hkdClient.id, transferClient.id],
  );
  eventOf = new Map(events.map((event) => [event.rule, event.id]));
  for (const rule of ['large_deposit', 'large_withdrawal', 'transfer_in', 'follow_up', 'contact_removed', 'id_expiry', 'birthday'])
    expect(eventOf.has(rule), `no ${rule} event on the book`).toBe(true);
  ({ browser, context, page } = await launchPhone());
  await openSignedIn(page, server.baseUrl, '/mot/home');
  await expectRoute(page, 'motHome');
});

afterAll(() => closeInOrder(context, browser, server));

/** Strips that scroll sideways by design (the date strip, the event types): what they hold may run off screen. */
const SCROLL_STRIPS = ['.mot-dates', '.mot-types'];
/**
 * Text cut short by design, each shown whole one tap away: a client's English name and number line in a list
 * row (the client's page), a next step, a reason clamped to two lines and a service note to one (the event
 * page), an outcome typed by the manager (the record). Figures, rule names and labels are not here: they must be whole.
 */
const CUT_BY_DESIGN = [
  '.mot-row__name small',
  // Also the ranked row's client line (Chinese name first, then the English name and number): the event page has it whole.
  '.mot-row__meta',
  '.mot-subject--text',
  '.mot-row__reason',
  '.mot-row__served-note',
  '.mot-record__outcome',
];
/** Marks that sit on a corner of what they mark, on purpose (unseen dots, the filter count). */
const OVERLAYS = ['.mot-unseen-dot', '.mot-avatar__dot', '.mot-search__badge'];

interface LayoutRules {
  strips: string[];
  cutByDesign: string[];
  overlays: string[];
}

/**
 * Runs in the page: every layout problem on screen, as one line each. Looks at every element shown (kept-alive
 * pages are hidden and skipped), in the page and in open sheets:
 * - nothing sticks out of the screen sideways, and no scrolling box other than the strips scrolls sideways;
 * - no box's content is wider or taller than the box (text cut by `overflow: hidden` / an ellipsis, or spilling
 *   over its neighbours), unless cut by design; no one-line field's hint is cut;
 * - no two children of one element overlap (fixed layers and corner marks aside).
 */
function layoutProblems(rules: LayoutRules): string[] {
  const problems: string[] = [];
  const viewport = document.documentElement.clientWidth;
  const label = (element: Element) => {
    const classes = [...element.classList].slice(0, 3).join('.');
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    return `<${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''}> «${text}»`;
  };
  const shown = (element: Element): element is HTMLElement => {
    if (!(element instanceof HTMLElement)) return false;
    if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const strips = rules.strips.join(',');
  const cutByDesign = rules.cutByDesign.join(',');
  const overlays = rules.overlays.join(',');
  const scrolls = (overflow: string) => overflow === 'auto' || overflow === 'scroll';

  if (document.documentElement.scrollWidth > viewport)
    problems.push(`the page is ${document.documentElement.scrollWidth}px wide on a ${viewport}px screen`);
  for (const element of document.body.querySelectorAll('*')) {
    if (!shown(element)) continue;
    const style = getComputedStyle(element);
    const rect = element.getBoundingClientRect();
    const inStrip = element.parentElement?.closest(strips) !== null && element.parentElement?.closest(strips) !== undefined;
    if (!inStrip && style.position !== 'fixed' && (rect.left < -1 || rect.right > viewport + 1))
      problems.push(`${label(element)} sticks out of the screen: ${Math.round(rect.left)}…${Math.round(rect.right)}px`);

    const typed = element.matches('input, textarea');
    // A one-line field's hint, cut at the field's edge (a browser does not report it in scrollWidth).
    if (element instanceof HTMLInputElement && element.placeholder && !element.value) {
      const pen = document.createElement('canvas').getContext('2d')!;
      const hint = getComputedStyle(element, '::placeholder');
      pen.font = `${hint.fontStyle} ${hint.fontWeight} ${hint.fontSize} ${hint.fontFamily}`;
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const needs = pen.measureText(element.placeholder).width;
      if (needs > room + 1)
        problems.push(`${label(element)} cuts its hint «${element.placeholder}»: needs ${Math.ceil(needs)}px, has ${room}px`);
    }
    if (!typed && !element.matches(cutByDesign)) {
      if (scrolls(style.overflowX)) {
        if (!element.matches(strips) && element.scrollWidth > element.clientWidth + 1)
          problems.push(`${label(element)} scrolls sideways: ${element.scrollWidth}px in ${element.clientWidth}px`);
      } else if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1) {
        const how = style.overflowX === 'visible' ? 'spills out of' : 'is cut by';
        problems.push(`${label(element)} ${how} its box: needs ${element.scrollWidth}px, has ${element.clientWidth}px`);
      }
      if (!scrolls(style.overflowY) && element.clientHeight > 0 && element.scrollHeight > element.clientHeight + 1) {
        const how = style.overflowY === 'visible' ? 'spills out of' : 'is cut by';
        problems.push(`${label(element)} ${how} its box: ${element.scrollHeight}px tall in ${element.clientHeight}px`);
      }
    }

    const children = [...element.children].filter(
      (child): child is HTMLElement => shown(child) && !child.matches(overlays) && getComputedStyle(child).position !== 'fixed',
    );
    for (let i = 0; i < children.length; i += 1) {
      const a = children[i]!.getBoundingClientRect();
      for (let j = i + 1; j < children.length; j += 1) {
        const b = children[j]!.getBoundingClientRect();
        const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (across > 1 && down > 1)
          problems.push(`${label(children[i]!)} and ${label(children[j]!)} overlap by ${Math.round(across)}×${Math.round(down)}px`);
      }
    }
  }
  return problems;
}

/**
 * What is drawn is measured: the invisible layers that give a small target its 44 px tap (ADR 0050: the
 * `ba-hit` class's ::after and antd's buttons' and switches', a one-line field's tall line) would count as content spilling out of its box. They
 * are switched off for the measurement by a rule inserted through the CSSOM (the CSP refuses a <style>).
 */
const HIT_LAYERS_OFF = [
  '.ba-hit::after, .adm-button::after, .adm-switch::after { display: none !important; }',
  '.adm-search-bar .adm-input-element, .mot-field__box .adm-input-element { height: auto !important; margin: 0 !important; }',
];
const hitLayers = (on: boolean) =>
  page.evaluate(
    ({ on, rules }) => {
      const sheet = [...document.styleSheets].find((candidate) => candidate.href !== null)!;
      const state = globalThis as unknown as { hitLayersOffAt?: number };
      if (!on && state.hitLayersOffAt === undefined) {
        state.hitLayersOffAt = sheet.cssRules.length;
        for (const rule of rules) sheet.insertRule(rule, sheet.cssRules.length);
      } else if (on && state.hitLayersOffAt !== undefined) {
        for (const _ of rules) sheet.deleteRule(state.hitLayersOffAt);
        delete state.hitLayersOffAt;
      }
    },
    { on, rules: HIT_LAYERS_OFF },
  );

/** Measures the screen as it is; fails naming every problem, the screen, the width and the language. */
async function expectFits(screen: string) {
  await settle(page);
  await hitLayers(false);
  const problems = await page
    .evaluate(layoutProblems, { strips: SCROLL_STRIPS, cutByDesign: CUT_BY_DESIGN, overlays: OVERLAYS })
    .finally(() => hitLayers(true));
  const where = await page.evaluate(() => `${window.innerWidth}px, ${localStorage.getItem('language')}`);
  expect(problems, `${screen} (${where})`).toEqual([]);
}

const route = (name: string) => page.locator(`.ba-route[data-route="${name}"]`);

/** Opens `path` afresh (a reload: the language and currency come back from storage and the server). */
async function open(path: string, routeName: string) {
  await page.goto(`${server.baseUrl}${path}`);
  await expectRoute(page, routeName);
  await expect(route(routeName).getByTestId('loading-state')).toHaveCount(0);
}

/** Today's list by client (`?view=day`): the home's list with its fold and rows; the ranked one is measured on its own. */
async function openHome() {
  await open('/mot/home?view=day', 'motHome');
  await expect(page.getByTestId('mot-list')).toBeVisible();
  await expect(page.getByTestId('mot-list').getByTestId('loading-state')).toHaveCount(0);
}

async function openEvent(rule: string) {
  await open(`/mot/eventDetail?eventId=${eventOf.get(rule)}`, 'motEventDetail');
  await expect(page.getByTestId('mot-reason')).toBeVisible();
}

/** The display currency, chosen where a manager on the MOT pages chooses it: the settings sheet. */
async function chooseCurrency(currency: string) {
  await page.getByTestId('mot-settings-open').click();
  const switcher = page.locator('.mot-sheet [data-testid=currency-switcher]');
  await switcher.getByRole('radio', { name: currency }).click();
  await expect(switcher.getByRole('radio', { name: currency })).toHaveAttribute('aria-checked', 'true');
  await page.locator('.mot-sheet .ba-sheet-close').click();
  await expect(page.locator('.mot-sheet')).toHaveCount(0);
}

/** The home narrowed to one event type (the list is windowed: a row far down is not in the page). */
async function showRule(rule: string | undefined) {
  const chip = rule
    ? page.locator(`[data-testid=mot-types] [data-rule=${rule}]`)
    : page.locator('[data-testid=mot-types] .mot-type').first();
  // A chip already on goes off when tapped (and the filter comes back with a reload, ADR 0013).
  if ((await chip.getAttribute('aria-pressed')) !== 'true') await chip.click();
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('mot-list').getByTestId('loading-state')).toHaveCount(0);
}
const rowOf = (rule: string) => page.locator(`[data-testid=mot-list] [data-testid=mot-row][data-event-id="${eventOf.get(rule)}"]`);

const format = (value: number, decimals: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

describe('MOT money in the chosen currency', () => {
  test('the list, the event, its facts and the client figures follow the currency chosen in the settings', async () => {
    const [withdrawal] = await server.database.query<{ amountHkd: number; thresholdHkd: number }>(
      `select (facts->>'amountHkd')::float8 as "amountHkd", (facts->>'thresholdHkd')::float8 as "thresholdHkd" from mot_event where id = $1`,
      [eventOf.get('large_withdrawal')],
    );
    const inUsd = (hkd: number, decimals: number) => format(hkd * LATEST_RATES.USD, decimals);

    await openHome();
    await chooseCurrency('USD');
    // Booked in HKD, shown with its value in USD; the USD deposit is booked in the chosen currency and needs none.
    await showRule('large_deposit');
    await expect(rowOf('large_deposit').locator('.mot-row__subject')).toHaveText('USD 32,000.00');
    await showRule('large_withdrawal');
    await expect(rowOf('large_withdrawal').locator('.mot-row__subject')).toHaveText(
      `HKD 1,234,567.89 (≈ USD ${inUsd(withdrawal!.amountHkd, 0)})`,
    );

    await rowOf('large_withdrawal').click();
    await expectRoute(page, 'motEventDetail');
    await expect(page.getByTestId('mot-reason')).toContainText(
      `HKD 1,234,567.89，折合 USD ${inUsd(withdrawal!.amountHkd, 2)}，不低于大额门槛 USD ${inUsd(withdrawal!.thresholdHkd, 0)}`,
    );
    const facts = page.locator('.ba-route:visible .mot-card .mot-facts:not(.mot-facts--grid)');
    await expect(facts.locator('.mot-facts__row', { hasText: '折合（USD）' }).locator('dd')).toHaveText(inUsd(withdrawal!.amountHkd, 2));
    await expect(facts.locator('.mot-facts__row', { hasText: '大额门槛（USD）' }).locator('dd')).toHaveText(
      inUsd(withdrawal!.thresholdHkd, 2),
    );
    await expect(page.locator('.ba-route:visible .mot-facts--grid')).toContainText('总资产（USD）');
    await saveScreenshot(page, 'mot-event-usd');

    // Back to HKD: the rule's own figures again, no equivalent for an HKD amount.
    await openHome();
    await chooseCurrency('HKD');
    await expect(rowOf('large_withdrawal').locator('.mot-row__subject')).toHaveText('HKD 1,234,567.89');
    await showRule('large_deposit');
    await expect(rowOf('large_deposit').locator('.mot-row__subject')).toHaveText(/^USD 32,000\.00 \(≈ HKD [\d,]+\)$/);
    await showRule(undefined);
  });
});

describe('MOT screens fit 320 and 375 px wide phones in the three languages', () => {
  for (const { language, currency } of LANGUAGES) {
    test(`${language}, amounts in ${currency}`, async () => {
      await page.setViewportSize(VIEWPORTS[1]);
      await page.evaluate((chosen) => localStorage.setItem('language', chosen), language);
      await openHome();
      await chooseCurrency(currency);
      const rules = [...eventOf.keys()];
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const size = `${viewport.width}`;

        await openHome();
        await expectFits('MOT home, by event');
        await saveScreenshot(page, `mot-home-${language}-${size}`);
        await page.getByTestId('mot-fold-on').click();
        await expect(page.locator('[data-testid=mot-list][data-fold=folded]')).toBeVisible();
        await expectFits('MOT home, by client');
        await page.getByTestId('mot-fold-off').click();
        await expect(page.locator('[data-testid=mot-list][data-fold=unfolded]')).toBeVisible();
        // Today ranked (the home's default): the day's completion, each row's score and badges.
        await open('/mot/home', 'motHome');
        await expect(page.getByTestId('mot-ranked-list')).toBeVisible();
        await expect(page.getByTestId('mot-ranked-list').getByTestId('loading-state')).toHaveCount(0);
        await expect(
          page.getByTestId('mot-ranked-row').first().or(page.getByTestId('mot-ranked-list').getByTestId('empty-state')),
        ).toBeVisible();
        await expectFits('MOT home, ranked');
        await openHome();
        await page.getByTestId('mot-settings-open').click();
        await expect(page.getByTestId('mot-settings').locator('#mot-min-cash-io')).toBeVisible();
        await expectFits('MOT settings');
        await page.locator('.mot-sheet .ba-sheet-close').click();

        for (const rule of rules) {
          await openEvent(rule);
          await expectFits(`event ${rule}`);
          if (rule === 'large_deposit') await saveScreenshot(page, `mot-event-${language}-${size}`);
        }
        await openEvent('large_withdrawal');
        await page.getByTestId('mot-snooze-open').click();
        await expect(page.getByTestId('mot-snooze-sheet')).toBeVisible();
        await expectFits('snooze sheet');
        await openEvent('large_withdrawal');
        await page.getByTestId('mot-handle-open').click();
        await expect(page.locator('#mot-handle-note')).toBeVisible();
        await expectFits('handle sheet');

        await open(`/mot/singleClient?customerId=${usdClient.id}`, 'motSingleClient');
        await expect(page.getByTestId('mot-client-events')).toBeVisible();
        await expectFits('client, events');
        await page.getByTestId('mot-client-history-tab').click();
        await expect(page.getByTestId('mot-client-records').or(route('motSingleClient').getByTestId('empty-state'))).toBeVisible();
        await expectFits('client, service records');

        await open('/mot/historySearch', 'motHistorySearch');
        await expect(page.getByTestId('mot-history-list')).toBeVisible();
        await expectFits('service records');
        await page.locator('.mot-search__filter').click();
        await expect(page.locator('.mot-sheet .mot-chips').first()).toBeVisible();
        await page.locator('.mot-sheet .mot-chips').nth(0).locator('.mot-chip').nth(3).click();
        await expectFits('service records, filters');
        await page.locator('.mot-sheet .ba-sheet-close').click();
      }
    });
  }
});
