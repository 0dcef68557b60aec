import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type LaunchOptions, type Page } from 'playwright-core';
import { DEBIAN_CHROMIUM_FLAGS, DEBIAN_CHROMIUM_PATH, debianChromiumMissing } from '@broker/server/testing';

/**
 * A test run writes its screenshots to the ignored test-results/screenshots/, so `npm test` leaves the tree
 * as it found it. `npm run screenshots` (SCREENSHOTS=docs) refreshes the committed docs/screenshots/ on purpose.
 */
export const SCREENSHOTS_FOR_DOCS = process.env.SCREENSHOTS === 'docs';
/** The one font the committed screenshots are drawn with (CI installs it: .ci/run). README, "Screenshots". */
export const SCREENSHOT_CJK_FONT = 'WenQuanYi Micro Hei';
const SCREENSHOT_DIR = fileURLToPath(
  new URL(SCREENSHOTS_FOR_DOCS ? '../../docs/screenshots/' : '../../test-results/screenshots/', import.meta.url),
);

/** The folder holding the screenshot font, from fontconfig; null when it is not installed. */
function screenshotFontFolder(): string | null {
  try {
    const file = execFileSync('fc-list', [SCREENSHOT_CJK_FONT, 'file'], { encoding: 'utf8' }).split('\n')[0]?.replace(/:\s*$/, '');
    return file ? dirname(file) : null;
  } catch {
    return null;
  }
}

/**
 * A fontconfig that knows only the screenshot font's folder: every glyph, Latin and CJK, is drawn with it, so a
 * machine with more fonts (Noto Sans CJK, Liberation) renders the same pixels as CI. The page's CSS cannot be
 * overridden for the shot instead: the app's CSP (style-src 'self') refuses injected styles, rightly.
 */
function screenshotFontconfig(): Record<string, string> {
  const folder = screenshotFontFolder();
  if (!folder)
    throw new Error(`the screenshots need the font ${SCREENSHOT_CJK_FONT}: apt-get install fonts-wqy-microhei (README, "Screenshots")`);
  const config = fileURLToPath(new URL('../../test-results/fontconfig/', import.meta.url));
  mkdirSync(config, { recursive: true });
  writeFileSync(
    join(config, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n  <dir>${folder}</dir>\n  <cachedir>${join(config, 'cache')}</cachedir>\n</fontconfig>\n`,
  );
  return { FONTCONFIG_FILE: join(config, 'fonts.conf') };
}

/**
 * The committed screenshots show one fixed day (tools/src/ops/screenshots.sh runs everything under
 * libfaketime): a run that rewrites them on the real day would put today's dates into the docs.
 */
function assertPinnedDay() {
  const asOf = process.env.SCREENSHOTS_AS_OF;
  const today = new Date().toISOString().slice(0, 10);
  if (!asOf || today !== asOf)
    throw new Error(`docs/screenshots/ are drawn as of a fixed day: run them with \`npm run screenshots\` (it is ${today} here)`);
}

/** How the run's Chromium is started (support/browser-server.ts, once per run). */
export function browserLaunchOptions(): LaunchOptions {
  const missing = debianChromiumMissing();
  if (missing) throw new Error(`${missing}; browser tests cannot run without it`);
  if (SCREENSHOTS_FOR_DOCS) assertPinnedDay();
  // Only the committed screenshots pin the font; a test run draws with whatever the machine has.
  const fonts = SCREENSHOTS_FOR_DOCS ? { env: { ...process.env, ...screenshotFontconfig() } } : {};
  return { executablePath: DEBIAN_CHROMIUM_PATH, args: [...DEBIAN_CHROMIUM_FLAGS], headless: true, ...fonts };
}

/**
 * The run's Chromium, shared by every file (launched by the e2e project's global setup): a file gets a connection of its
 * own, and its contexts are fresh; closing the connection closes them. Launched here when there is none to share.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = inject('chromiumEndpoint');
  return shared ? chromium.connect(shared) : chromium.launch(browserLaunchOptions());
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
  // Every page of the context, the first and any a test opens later (context.newPage()).
  context.on('page', trackApiCalls);
  const page = await context.newPage();
  return { context, page };
}

/** A browser and one phone in it (`newPhone`): the set-up of a suite that drives one page. */
export async function launchPhone(options: BrowserContextOptions = {}): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await launchBrowser();
  return { browser, ...(await newPhone(browser, options)) };
}

/**
 * Closes what a suite opened, one after the other in the order given (the phone, its browser, then the server);
 * a part its beforeAll never got to open is passed over.
 */
export async function closeInOrder(...parts: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const part of parts) await part?.close();
}

/** The page's calls to the app's API in flight, and when the last one started or ended (performance.now() of the runner). */
const apiCalls = new WeakMap<Page, { inFlight: number; lastChange: number }>();

function trackApiCalls(page: Page) {
  const calls = { inFlight: 0, lastChange: performance.now() };
  apiCalls.set(page, calls);
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('request', (request) => {
    if (!isApi(request.url())) return;
    calls.inFlight += 1;
    calls.lastChange = performance.now();
  });
  const ended = (request: { url(): string }) => {
    if (!isApi(request.url())) return;
    calls.inFlight = Math.max(0, calls.inFlight - 1);
    calls.lastChange = performance.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/**
 * Resolves once the page (of a `newPhone` context) has had no API call in flight for `quietMs`: the reads a screen
 * starts after it shows (the JS-SDK's signature, a strip's shortcuts) are over. A test that changes the server's
 * state under the page (expires its session) waits for this, so that only its own next action meets the change.
 */
export async function untilApiQuiet(page: Page, quietMs = 400, withinMs = 15_000): Promise<void> {
  const calls = apiCalls.get(page);
  if (!calls) throw new Error("untilApiQuiet needs a page of newPhone's context (it counts the calls from the start)");
  const deadline = performance.now() + withinMs;
  while (calls.inFlight > 0 || performance.now() - calls.lastChange < quietMs) {
    if (performance.now() > deadline)
      throw new Error(`the page's API calls did not go quiet within ${withinMs} ms (${calls.inFlight} in flight)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SHOT_OPTIONS = { fullPage: false, animations: 'disabled', caret: 'hide' } as const;
/** How long a screenshot waits for the page to hold still (antd-mobile animates in JS, not CSS). */
const STILL_WITHIN_MS = 5_000;

/** Frames between two compared shots: about 100 ms at 60 fps, longer when a loaded machine draws fewer. */
const FRAMES_APART = 6;

/** Resolves once the page has begun `count` more frames (counted by the page, not by a clock). */
const nextFrames = (page: Page, count: number) =>
  page.evaluate(
    (left) =>
      new Promise<void>((resolve) => {
        const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
    count,
  );

/**
 * Saves a full-viewport screenshot as <name>.png (docs/screenshots/ with SCREENSHOTS=docs) for people to look at.
 * CSS animations are finished and the caret hidden; and the shot is taken once two frames in a row are identical,
 * so a sheet sliding in or a dialog fading in is shown where it stops, not mid-way (no fixed wait in the tests).
 * A page still moving after STILL_WITHIN_MS (a spinner) is shot as it is then.
 */
export async function saveScreenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const deadline = Date.now() + STILL_WITHIN_MS;
  let previous = await page.screenshot(SHOT_OPTIONS);
  for (;;) {
    await nextFrames(page, FRAMES_APART);
    const next = await page.screenshot(SHOT_OPTIONS);
    if (next.equals(previous) || Date.now() > deadline) {
      writeFileSync(`${SCREENSHOT_DIR}${name}.png`, next);
      return;
    }
    previous = next;
  }
}
