import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { seedDemoData } from '@broker/server';
import { apiClient } from '@broker/server/testing';
import { DESKTOP_SIDEBAR_CONTEXT, PHONE_CONTEXT, launchBrowser, saveScreenshot } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { openSignedIn, signInThroughEmulator, expectRoute } from './support/web-shell';
import type { PageGlobals } from './support/page-globals';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

/**
 * Login CSRF and the agent that started a sign-in exchanging its code (ADR 0011), sessions that end and belong to their
 * browser (ADR 0012), in Debian chromium against the real server and its emulated WeCom.
 */
let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 80, seed: 9, asOf: hongKongDay() });
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function freshPage(options: BrowserContextOptions = PHONE_CONTEXT): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  return context.newPage();
}

const storedToken = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.getItem('token'));

/** Who the app says is signed in: the name on the "me" sheet (the sheet is closed again). */
async function signedInName(page: Page): Promise<string> {
  await page.getByTestId('me-button').click();
  const name = await page.getByTestId('me-name').innerText();
  await page.locator('.ba-sheet-close').click();
  await expect(page.locator('.ba-me-sheet')).toBeHidden();
  return name;
}

/** The staff member a token belongs to, and the agent its sign-in was exchanged with, from the database. */
async function sessionOf(token: string) {
  const [row] = await server.database.query<{ userid: string; agent: string }>(
    `select st.wecom_user_id as userid, s.agent_code as agent from auth_session s join staff st on st.id = s.staff_id
      where s.token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [token],
  );
  return row;
}

/**
 * The attacker's half of a login CSRF: in their own browser they start a real sign-in and pick
 * themselves (leekaying) on WeCom's page, but stop the redirect back — the link they now hold is
 * `/wxEntry?code=<leekaying's code>&state=<their state>&…`.
 */
async function attackerLink(): Promise<{ link: string; attacker: Page }> {
  const attacker = await freshPage();
  await attacker.goto(`${server.baseUrl}/client/manage/list`);
  await attacker.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
  // The attacker's pick on WeCom's page, followed by hand: WeCom's 302 to /wxEntry is kept, not followed.
  const pick = await attacker.locator('a.staff[data-userid="leekaying"]').getAttribute('href');
  const confirm = await fetch(new URL(pick!, attacker.url()), { redirect: 'manual' });
  const link = confirm.headers.get('location') ?? '';
  return { link, attacker };
}

describe('login CSRF (ADR 0011)', () => {
  test("someone else's code opened as /wxEntry switches nobody: a signed-in browser stays who it was", async () => {
    const { link, attacker } = await attackerLink();
    expect(new URL(link).searchParams.get('code')).toBeTruthy();

    const victim = await freshPage();
    await openSignedIn(victim, server.baseUrl, '/client/manage/list');
    const before = await storedToken(victim);
    await victim.goto(link);
    await expect(victim.getByTestId('error-state')).toContainText('你仍以陈伟文的身份登录');
    await saveScreenshot(victim, 'sign-in-foreign-link');
    expect(await storedToken(victim)).toBe(before);
    expect((await sessionOf(before!))?.userid).toBe('chanwaiman');
    await victim.getByRole('button', { name: '继续使用' }).click();
    await expectRoute(victim, 'clientManageList');
    expect(await signedInName(victim)).toBe('陈伟文');

    // A browser signed in as nobody: nothing is stored, it is offered its own sign-in.
    const nobody = await freshPage();
    await nobody.goto(link);
    await expect(nobody.getByTestId('error-state')).toContainText('请在本设备上重新登录');
    expect(await storedToken(nobody)).toBeNull();

    // Neither browser got as far as WeCom with it: the code still signs in the browser that started it.
    await attacker.goto(link);
    await expectRoute(attacker, 'clientManageList');
    expect(await signedInName(attacker)).toBe('李嘉欣');
  });
});

describe('the agent whose home page started the sign-in (ADR 0011)', () => {
  for (const agentCode of ['khgl', 'mot'] as const) {
    test(`opened from the ${agentCode} app, the code is exchanged as ${agentCode}`, async () => {
      // The app's home page as the WeCom admin console sets it for this agent (docs/deployment.md, 'Real WeCom', the admin's checklist).
      const corp = await apiClient(server.baseUrl).ok.getCorpConfig({ corpCode: 'fxhl' });
      const agentId = corp.agents.find((agent) => agent.agentCode === agentCode)!.agentId;
      const page = await freshPage();
      await page.goto(`${server.baseUrl}/?corpCode=fxhl&agentCode=${agentCode}&agentId=${agentId}&wxAppId=${corp.corpId}`);
      await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
      const authorize = new URL(page.url());
      expect(authorize.searchParams.get('agentid')).toBe(agentId);
      expect(new URL(authorize.searchParams.get('redirect_uri')!).searchParams.get('agentCode')).toBe(agentCode);
      await signInThroughEmulator(page, 'zhangmin');
      expect(await sessionOf((await storedToken(page))!)).toEqual({ userid: 'zhangmin', agent: agentCode });
    });
  }
});

describe('the "me" sheet and signing out (ADR 0012)', () => {
  test('shows who is signed in and the language in every language, and signs out on this device', async () => {
    const page = await freshPage();
    await openSignedIn(page, server.baseUrl, '/client/manage/list');
    await page.waitForLoadState('networkidle');
    const token = await storedToken(page);

    for (const [language, label] of [
      ['zh-CN', '繁體中文'],
      ['zh-HK', 'English'],
      ['en', null],
    ] as const) {
      await page.getByTestId('me-button').click();
      await expect(page.getByTestId('me-name')).toHaveText('陈伟文');
      await expect(page.getByTestId('me-sheet')).toContainText('chanwaiman');
      // The sheet slides up; wait until it is still.
      await page.locator('.ba-me-sheet').evaluate((sheet) => Promise.all(sheet.getAnimations().map((animation) => animation.finished)));
      await saveScreenshot(page, `me-sheet-${language}`);
      if (label) {
        await page.getByText(label, { exact: true }).click();
        await expect(page.locator('.ba-me-sheet')).toBeHidden();
      }
    }

    await page.getByTestId('sign-out').click();
    await expect(page.getByText('You have signed out')).toBeVisible();
    await saveScreenshot(page, 'signed-out-en');
    expect(await storedToken(page)).toBeNull();
    // The old token is over for good, even sent by hand from this page (raw: from inside the page, with its cookies).
    const answer = await page.evaluate(async (old) => {
      const response = await fetch('/api/client/staff/asset/getDefaultCcy', { headers: { 'corp-code': 'fxhl', 'broker-token': old! } });
      return ((await response.json()) as { code: string }).code;
    }, token);
    expect(answer).toBe('080001');
    // A reload does not sign anyone in by itself (a shared PC's next user must not become this one).
    await page.reload();
    await expect(page.getByText('You have signed out')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/client/manage/list');

    await page.getByRole('button', { name: 'Sign in again' }).click();
    await signInThroughEmulator(page, 'chanwaiman');
    await expectRoute(page, 'clientManageList');
  });

  test('sign out everywhere ends the session on the other device too, after a confirmation', async () => {
    const phone = await freshPage();
    const desktop = await freshPage(DESKTOP_SIDEBAR_CONTEXT);
    await openSignedIn(phone, server.baseUrl, '/client/manage/list');
    await openSignedIn(desktop, server.baseUrl, '/mot/home');

    await phone.getByTestId('me-button').click();
    await phone.getByTestId('sign-out-everywhere').click();
    await expect(phone.getByText('在所有设备上退出？')).toBeVisible();
    await saveScreenshot(phone, 'sign-out-everywhere-confirm');
    await phone.getByRole('button', { name: '全部退出' }).click();
    await expect(phone.getByText('你已退出登录')).toBeVisible();
    await saveScreenshot(phone, 'signed-out');

    // The desktop's next call is refused; with nothing to resume, it goes to WeCom's page.
    await desktop.goto(`${server.baseUrl}/client/manage/list`);
    await desktop.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
  });
});

describe('a session belongs to the browser it was issued to (ADR 0012)', () => {
  test("a shared PC: WeCom's account switch clears cookies, not localStorage — the next person does not see the previous one's clients", async () => {
    const page = await freshPage(DESKTOP_SIDEBAR_CONTEXT);
    await openSignedIn(page, server.baseUrl, '/client/manage/list');
    await page.waitForLoadState('networkidle');
    expect(await storedToken(page)).toBeTruthy();

    await page.context().clearCookies();
    const answered: string[] = [];
    await page.route('**/api/client/**', async (route) => {
      const response = await route.fetch();
      answered.push(((await response.json()) as { code: string }).code);
      await route.fulfill({ response });
    });
    await page.goto(`${server.baseUrl}/client/manage/list`);
    await page.waitForURL(/\/wecom\/connect\/oauth2\/authorize\?/);
    // Every customer call made with the previous person's token was refused.
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((code) => code === '080001')).toBe(true);

    await signInThroughEmulator(page, 'leekaying');
    expect(await signedInName(page)).toBe('李嘉欣');
  });

  test("WeCom's Mac sidebar: localStorage emptied on every load, cookies kept — it opens signed in without WeCom's page", async () => {
    const page = await freshPage(DESKTOP_SIDEBAR_CONTEXT);
    await openSignedIn(page, server.baseUrl, '/client/manage/list');
    const first = await storedToken(page);
    const authorisePages: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().includes('/wecom/connect/oauth2/authorize')) authorisePages.push(frame.url());
    });

    await page.evaluate(() => (globalThis as unknown as PageGlobals & { localStorage: { clear(): void } }).localStorage.clear());
    await page.goto(`${server.baseUrl}/mot/home`);
    await expectRoute(page, 'motHome');
    expect(authorisePages).toEqual([]);
    const resumed = await storedToken(page);
    expect(resumed).toBeTruthy();
    // The browser's one live session again, not another (ADR 0012).
    expect(resumed).toBe(first);
    expect((await sessionOf(resumed!))?.userid).toBe('chanwaiman');
    expect(await signedInName(page)).toBe('陈伟文');
  });
});
