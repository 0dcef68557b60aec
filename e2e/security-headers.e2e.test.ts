import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runDailyMotSweep, seedDemoData } from '@broker/server';
import { launchBrowser, PHONE_CONTEXT, closeInOrder } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectRoute } from './support/web-shell';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

// Emulator contact 0001 何国良 is followed by chanwaiman.
const HO = 'wmEmu0001HoKwokLeung';

interface Violation {
  directive: string;
  blocked: string;
  page: string;
}

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every `securitypolicyviolation` event any document of the app fired, and every console CSP error. */
const violations: Violation[] = [];
const consoleCspErrors: string[] = [];
const appDocumentPolicies: (string | null)[] = [];

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 150, seed: 5, asOf: hongKongDay() });
  await runDailyMotSweep(server.database, { force: true });
  browser = await launchBrowser();
  context = await browser.newContext(PHONE_CONTEXT);
  // Reported from inside each document to the test through a binding, so nothing is lost on navigation.
  await context.exposeBinding('__reportCspViolation', (_source, violation: Violation) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    const target = globalThis as unknown as {
      addEventListener(type: string, listener: (event: Record<string, string>) => void, capture: boolean): void;
      location: { pathname: string };
      __reportCspViolation(violation: Violation): void;
    };
    target.addEventListener(
      'securitypolicyviolation',
      (event) =>
        target.__reportCspViolation({ directive: event.violatedDirective!, blocked: event.blockedURI!, page: target.location.pathname }),
      true,
    );
  });
  page = await context.newPage();
  page.on('response', (response) => {
    // The emulator's pages included: they come from this origin, so they live under the same policy.
    if (response.request().resourceType() !== 'document') return;
    void response.headerValue('content-security-policy').then((policy) => appDocumentPolicies.push(policy));
  });
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) consoleCspErrors.push(message.text());
  });
});

afterAll(() => closeInOrder(context, browser, server));

const expectNoViolations = (where: string) => {
  expect(violations, where).toEqual([]);
  expect(consoleCspErrors, where).toEqual([]);
};

describe('the app runs under its Content-Security-Policy', () => {
  test('sidebar KYC flow: sign in through WeCom, load the bridge and the SDK, search', async () => {
    await page.goto(`${server.baseUrl}/wecom/__emulator/sidebar?entry=single_chat_tools&externalUserId=${HO}&url=/`);
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    await page.click('a.staff[data-userid="chanwaiman"]');
    await page.waitForURL((url) => url.pathname === '/kyc/index');
    // Every document came with the policy: the sidebar opener, the authorise page, the app.
    expect(appDocumentPolicies.length).toBeGreaterThanOrEqual(3);
    for (const policy of appDocumentPolicies) expect(policy).toContain("script-src 'self'; style-src 'self'");
    await expectRoute(page, 'kycIndex');
    // The contact's name comes through getCurExternalContact: the emulator bridge and the SDK both ran.
    await expect(page.getByTestId('kyc-contact').getByText('何国良')).toBeVisible();
    await page.getByTestId('kyc-search').locator('input').fill('陈');
    await expect(page.locator('[data-testid="kyc-candidate"]').first()).toBeVisible();
    expectNoViolations('KYC sidebar');
  });

  test('client list → client detail → edit (form validation and save) → holdings', async () => {
    await page.goto(`${server.baseUrl}/client/manage/list`);
    await expectRoute(page, 'clientManageList');
    const row = page.locator('.ba-route[data-route="clientManageList"] [data-testid="client-row"]').first();
    await expect(row).toBeVisible();
    await row.click();
    await expectRoute(page, 'clientInformation');
    const profile = page.locator('.ba-route[data-route="clientInformation"]');
    await expect(profile.locator('[data-testid="asset-total"]')).toBeVisible();
    await expect(profile.locator('[data-testid="timeline"]')).toBeVisible();
    // The edit form validates with the contract's zod schemas in the browser: no eval allowed there.
    await profile.locator('[data-testid="profile-edit"]').click();
    await expectRoute(page, 'clientEdit');
    const edit = page.locator('.ba-route[data-route="clientEdit"]');
    await edit.locator('#edit-email').fill('not-an-email');
    await edit.locator('[data-testid="edit-save"]').click();
    await expect(edit.locator('.ba-field__error').first()).toBeVisible();
    await edit.locator('#edit-email').fill('csp.check@example.com');
    await edit.locator('[data-testid="edit-save"]').click();
    await expectRoute(page, 'clientInformation');
    await expect(profile.locator('[data-testid="info-email"]')).toContainText('csp.check@example.com');
    await profile.locator('[data-testid="link-holdings"]').click();
    await expectRoute(page, 'clientHoldingStock');
    expectNoViolations('client pages');
  });

  test('MOT: to-do list → event detail → service-record search', async () => {
    await page.goto(`${server.baseUrl}/mot/home?view=day`);
    await expectRoute(page, 'motHome');
    const row = page.locator('[data-testid=mot-list] [data-testid=mot-row]').first();
    await expect(row).toBeVisible();
    await row.click();
    await expectRoute(page, 'motEventDetail');
    await expect(page.getByTestId('mot-event')).toBeVisible();
    await page.goto(`${server.baseUrl}/mot/historySearch`);
    await expectRoute(page, 'motHistorySearch');
    expectNoViolations('MOT pages');
  });

  test('the policy is enforced and the listener hears it: an injected inline script is blocked and reported', async () => {
    const ran = await page.evaluate(() => {
      const scope = globalThis as unknown as {
        document: { createElement(tag: string): { textContent: string }; head: { append(node: unknown): void } };
        __inlineRan?: boolean;
      };
      const script = scope.document.createElement('script');
      script.textContent = 'globalThis.__inlineRan = true';
      scope.document.head.append(script);
      return Boolean(scope.__inlineRan);
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations[0]).toMatchObject({ directive: expect.stringMatching(/^script-src/), blocked: 'inline' });
    violations.length = 0;
    consoleCspErrors.length = 0;
  });
});
