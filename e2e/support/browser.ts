import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { DEBIAN_CHROMIUM_FLAGS, DEBIAN_CHROMIUM_PATH, debianChromiumMissing } from '@broker/server/testing';

/**
 * A test run writes its screenshots to the ignored test-results/screenshots/, so `npm test` leaves the tree
 * as it found it. `npm run screenshots` (SCREENSHOTS=docs) refreshes the committed docs/screenshots/ on purpose.
 */
export const SCREENSHOTS_FOR_DOCS = process.env.SCREENSHOTS === 'docs';
const SCREENSHOT_DIR = fileURLToPath(
  new URL(SCREENSHOTS_FOR_DOCS ? '../../docs/screenshots/' : '../../test-results/screenshots/', import.meta.url),
);

export async function launchBrowser(): Promise<Browser> {
  const missing = debianChromiumMissing();
  if (missing) throw new Error(`${missing}; browser tests cannot run without it`);
  return chromium.launch({ executablePath: DEBIAN_CHROMIUM_PATH, args: [...DEBIAN_CHROMIUM_FLAGS], headless: true });
}

/** An iPhone-sized phone running WeCom's in-app browser: 375×812. */
export const PHONE_CONTEXT: BrowserContextOptions = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'zh-CN',
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 wxwork/4.1.22 MicroMessenger/7.0.1 Language/zh ColorScheme/Light',
};

/** The WeCom desktop client's sidebar: same width, not a mobile device. */
export const DESKTOP_SIDEBAR_CONTEXT: BrowserContextOptions = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: false,
  locale: 'zh-CN',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 wxwork/4.1.22 MicroMessenger/7.0.1 WindowsWechat',
};

export async function newPhone(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE_CONTEXT, ...options });
  const page = await context.newPage();
  return { context, page };
}

/** Saves a full-viewport screenshot as <name>.png (docs/screenshots/ with SCREENSHOTS=docs) for people to look at. */
export async function saveScreenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: false });
}
