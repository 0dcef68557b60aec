import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { saveScreenshot, closeInOrder, launchPhone } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';

/**
 * The screenshot set of ADR 0046 (search forms) and ADR 0048 (numbers, names): the client list, search, a client's profile and the MOT home, on a 375×812 and a
 * 320×568 phone, in the three languages (docs/screenshots/issue22-<screen>-<language>-<width>.png). Each screen
 * is also checked for what a manager would see broken at once: nothing sticking out of the screen sideways.
 */

const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 320, height: 568 },
] as const;
const LANGUAGES = ['zh-CN', 'zh-HK', 'en'] as const;

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A client of chanwaiman's with holdings (the profile). */
let client: { id: number; nameCn: string };
/** The surname most of chanwaiman's clients share: a search with several results. */
let surname: string;

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 200, seed: 9, asOf: hongKongDay() });
  expect((await runDailyMotSweep(server.database, { force: true })).status).toBe('ran');
  const [found] = await server.database.query<{ id: number; nameCn: string }>(
    `select c.id::float8 as id, c.name_cn as "nameCn" from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' and c.status = 'active'
        and exists (select 1 from holding h join account a on a.id = h.account_id where a.customer_id = c.id)
      order by c.id limit 1`,
  );
  expect(found, 'no active client of chanwaiman with holdings').toBeDefined();
  client = found!;
  const [common] = await server.database.query<{ surname: string }>(
    `select left(c.name_cn, 1) as surname from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = 'chanwaiman' group by 1 order by count(*) desc, 1 limit 1`,
  );
  surname = common!.surname;
  ({ browser, context, page } = await launchPhone());
  await openSignedIn(page, server.baseUrl, '/client/manage/list');
  await expectRoute(page, 'clientManageList');
});

afterAll(() => closeInOrder(context, browser, server));

const route = (name: string) => page.locator(`.ba-route[data-route="${name}"]`);

async function open(path: string, routeName: string) {
  await page.goto(`${server.baseUrl}${path}`);
  await expectRoute(page, routeName);
  await expect(route(routeName).getByTestId('loading-state')).toHaveCount(0);
}

/** Saves the screen, once nothing on it sticks out of the screen sideways. */
async function shoot(name: string) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(wide, `${name}: the page is wider than the screen`).toBeLessThanOrEqual(0);
  await saveScreenshot(page, name);
}

describe('search, numbers and names screens (ADRs 0046, 0048)', () => {
  for (const language of LANGUAGES) {
    test(`list, search, profile and MOT home in ${language}`, async () => {
      await page.evaluate((chosen) => localStorage.setItem('language', chosen), language);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const suffix = `${language}-${viewport.width}`;

        await open('/client/manage/list', 'clientManageList');
        await expect(route('clientManageList').getByTestId('client-row').first()).toBeVisible();
        await expect(page.getByTestId('stat-channels').getByRole('listitem').first()).toBeVisible();
        await shoot(`issue22-list-${suffix}`);

        await open('/client/manage/search', 'clientManageSearch');
        await route('clientManageSearch').locator('input').first().fill(surname);
        await expect(route('clientManageSearch').getByTestId('client-row').first()).toBeVisible();
        await page.locator('input:focus').blur();
        await shoot(`issue22-search-${suffix}`);

        await open(`/client/information?customerId=${client.id}`, 'clientInformation');
        await expect(route('clientInformation').getByTestId('timeline')).toBeVisible();
        await shoot(`issue22-profile-${suffix}`);

        await open('/mot/home', 'motHome');
        await expect(page.getByTestId('mot-ranked-list')).toBeVisible();
        await expect(
          page.getByTestId('mot-ranked-row').first().or(page.getByTestId('mot-ranked-list').getByTestId('empty-state')),
        ).toBeVisible();
        await shoot(`issue22-mot-home-${suffix}`);
      }
    });
  }
});
