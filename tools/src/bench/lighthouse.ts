import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { DEBIAN_CHROMIUM_FLAGS, DEBIAN_CHROMIUM_PATH, debianChromiumMissing } from '@broker/server/testing';

/**
 * Lighthouse's mobile performance score of the client list (the speed targets, docs/benchmarks.md: ≥ 95), signed in
 * through the emulated WeCom first: Debian's chromium on a fresh profile, playwright-core signs in, the HTTP cache is
 * emptied, and Lighthouse audits without resetting storage (the token stays): a first visit on a new phone.
 */
export const CLIENT_LIST_PATH = '/client/manage/list';
const SIGN_IN_TIMEOUT_MS = 60_000;

/** The audits reported beside the score, by Lighthouse id → our short name (all in ms, CLS unitless). */
const METRICS = {
  'first-contentful-paint': 'fcpMs',
  'largest-contentful-paint': 'lcpMs',
  'total-blocking-time': 'tbtMs',
  'cumulative-layout-shift': 'cls',
  'speed-index': 'siMs',
  interactive: 'ttiMs',
} as const;

export interface LighthouseOptions {
  baseUrl: string;
  /** Where the WeCom emulator's authorise page is, when not under `${baseUrl}/wecom`. */
  wecomBaseUrl?: string;
  staffUserId: string;
  /** Where to write the HTML report (default: the system temp directory). */
  reportDir?: string;
}

/** Opens the app, picks `staffUserId` on the emulated WeCom authorise page, and waits for the client list. */
async function signIn(port: number, options: LighthouseOptions) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    const authorise = new URL('connect/oauth2/authorize', `${(options.wecomBaseUrl ?? `${options.baseUrl}/wecom`).replace(/\/?$/, '/')}`);
    await page.goto(`${options.baseUrl}${CLIENT_LIST_PATH}`);
    await page.waitForURL((url) => url.href.startsWith(authorise.href), { timeout: SIGN_IN_TIMEOUT_MS });
    await page.click(`a.staff[data-userid="${options.staffUserId}"]`, { timeout: SIGN_IN_TIMEOUT_MS });
    await page.waitForURL((url) => url.pathname === CLIENT_LIST_PATH, { timeout: SIGN_IN_TIMEOUT_MS });
    await page.waitForSelector('[data-testid="client-row"], [data-testid="empty-state"]', { timeout: SIGN_IN_TIMEOUT_MS });
    // Cold cache: what the sign-in fetched must be fetched again; the token in localStorage stays.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', { origin: options.baseUrl, storageTypes: 'cache_storage,service_workers,shader_cache' });
    await cdp.detach();
    await page.close();
  } finally {
    // Only disconnects: the browser (and the profile holding the token) belongs to chrome-launcher.
    await browser.close();
  }
}

export async function runLighthouse(options: LighthouseOptions) {
  // Asked first: chrome-launcher reports a missing browser by crashing at the end.
  const unavailable = debianChromiumMissing();
  if (unavailable) throw new Error(unavailable);
  // A profile of this run's own, removed afterwards: nothing cached by an earlier run survives.
  const profile = mkdtempSync(join(tmpdir(), 'broker-lighthouse-profile-'));
  const chrome = await chromeLauncher.launch({
    chromePath: DEBIAN_CHROMIUM_PATH,
    chromeFlags: [...DEBIAN_CHROMIUM_FLAGS],
    userDataDir: profile,
    logLevel: 'silent',
  });
  try {
    await signIn(chrome.port, options);
    const result = await lighthouse(
      `${options.baseUrl}${CLIENT_LIST_PATH}`,
      {
        port: chrome.port,
        output: 'html',
        logLevel: 'error',
        onlyCategories: ['performance'],
        disableStorageReset: true,
        // Lighthouse's default, written out: a mid-range phone on slow 4G, simulated.
        formFactor: 'mobile',
        throttlingMethod: 'simulate',
      },
      undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
    if (finalPath !== CLIENT_LIST_PATH) throw new Error(`Lighthouse ended on ${finalPath}, not the client list: the sign-in did not hold`);
    const metrics: Record<string, number> = {};
    for (const [audit, name] of Object.entries(METRICS)) {
      const value = lhr.audits[audit]?.numericValue;
      if (typeof value === 'number') metrics[name] = Math.round(value * (name === 'cls' ? 1000 : 1)) / (name === 'cls' ? 1000 : 1);
    }
    const reportDir = options.reportDir ?? tmpdir();
    mkdirSync(reportDir, { recursive: true });
    const reportPath = join(reportDir, `lighthouse-client-list-${new Date().toISOString().replace(/[:.]/g, '-')}.html`);
    writeFileSync(reportPath, Array.isArray(result.report) ? result.report.join('\n') : result.report);
    return { score: Math.round((lhr.categories.performance?.score ?? 0) * 100), metrics, reportPath };
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  }
}

const USAGE = `npm run lighthouse -w @broker/tools -- --base-url http://127.0.0.1:3000 [--staff chanwaiman] [--wecom-base-url URL] [--report-dir DIR]

Signs in on the WeCom emulator as --staff and prints Lighthouse's mobile performance score of the client list.
The server must be running with the built web app (npm start).`;

async function main() {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      staff: { type: 'string', default: 'chanwaiman' },
      'wecom-base-url': { type: 'string' },
      'report-dir': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values['base-url']) {
    console.log(USAGE);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const result = await runLighthouse({
    baseUrl: values['base-url'].replace(/\/$/, ''),
    staffUserId: values.staff,
    wecomBaseUrl: values['wecom-base-url'],
    reportDir: values['report-dir'],
  });
  console.log(`Lighthouse mobile performance, client list: ${result.score}`);
  for (const [name, value] of Object.entries(result.metrics)) console.log(`  ${name.padEnd(6)} ${value}`);
  console.log(`report: ${result.reportPath}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
