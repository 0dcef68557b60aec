import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemoData } from '@broker/server';
import { apiClient, signInAs, type ApiClient } from '@broker/server/testing';
import { PHONE_CONTEXT, launchBrowser } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { openSignedIn, expectRoute } from './support/web-shell';
import { expect } from './support/expect';
import { hongKongDay } from '@broker/domain';

/**
 * The reliability review (docs/reliability.md): free text a staff member saves — a profile remark and tags, a MOT service note and
 * outcome — comes back on every page that shows it as text: the markup appears literally, no
 * element is created from it, no script runs and no dialog opens.
 */

/** Each would run script or add an element if the app put text into the page as HTML. */
const REMARK = `<script>window.__pwned=1;alert(1)</script><img src=x onerror="window.__pwned=2;alert(2)"><a href="javascript:alert(3)">link</a><svg onload=alert(4)></svg>`;
const NOTE = `<img src=x onerror=alert(5)> &lt;b&gt;bold&lt;/b&gt; <iframe src="javascript:alert(6)"></iframe> ' or 1=1 --`;
const OUTCOME = `<b onmouseover=alert(7)>hover</b><style>*{display:none}</style>`;
const TAGS = ['<script>x</script>', '<img src=x>'];

let server: E2eServer;
let browser: Browser;
let api: ApiClient;
let customerId: number;
let eventId: number;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startE2eServer();
  await seedDemoData(server.database, { customers: 60, seed: 11, asOf: hongKongDay() });
  api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
  const [customer] = await server.database.query<{ id: number }>(
    `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman' order by c.id limit 1`,
  );
  customerId = Number(customer!.id);
  const [event] = await server.database.query<{ id: number }>(
    `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts)
     select corp_id, 'birthday', id, staff_id, 'stored-text-e2e', $2::date, '{}'::jsonb from customer where id = $1
     returning id::float8 as id`,
    [customerId, hongKongDay()],
  );
  eventId = Number(event!.id);
  await api.ok.handleEvent({ eventId, channel: 'wecom', note: NOTE, outcome: OUTCOME });
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

interface Watched {
  page: Page;
  dialogs: string[];
}

/** A signed-in phone that records every dialog (and dismisses it, so a test cannot hang on one). */
async function watchedPhone(path: string): Promise<Watched> {
  const context = await browser.newContext(PHONE_CONTEXT);
  contexts.push(context);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openSignedIn(page, server.baseUrl, path);
  return { page, dialogs };
}

/** Nothing the payloads could have created exists, nothing they would have run has run. */
async function expectNothingInjected({ page, dialogs }: Watched) {
  const injected = await page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: { querySelectorAll(selector: string): { length: number }; body: { innerHTML: string } };
    };
    return {
      pwned: (globalThis as unknown as { __pwned?: number }).__pwned ?? null,
      imagesToX: document.querySelectorAll('img[src="x"]').length,
      handlers: document.querySelectorAll('[onerror], [onload], [onmouseover]').length,
      javascriptLinks: document.querySelectorAll('a[href^="javascript:"], iframe[src^="javascript:"]').length,
      inlineScripts: document.querySelectorAll('body script:not([src])').length,
      svgs: document.querySelectorAll('svg[onload]').length,
    };
  });
  expect(injected).toEqual({ pwned: null, imagesToX: 0, handlers: 0, javascriptLinks: 0, inlineScripts: 0, svgs: 0 });
  expect(dialogs).toEqual([]);
}

describe('stored text renders as text', () => {
  test('a remark with markup typed into the edit form is saved and shown literally on the profile', async () => {
    const watched = await watchedPhone(`/client/edit?customerId=${customerId}`);
    const { page } = watched;
    await expectRoute(page, 'clientEdit');
    await page.locator('#edit-remark').fill(REMARK);
    for (const tag of TAGS) {
      await page.locator('#edit-tag').fill(tag);
      await page.locator('.ba-edit__tag-add button').click();
    }
    await page.locator('[data-testid="edit-save"]').click();
    await expectRoute(page, 'clientInformation');
    const profile = page.locator('.ba-route[data-route="clientInformation"]');
    await expect(profile.locator('[data-testid="info-remark"] dd')).toHaveText(REMARK);
    await expect(profile.locator('[data-testid="info-tags"] dd')).toContainText(TAGS.join('、'));
    for (const tag of TAGS) await expect(profile.locator('.ba-profile__tags')).toContainText(tag);
    await expectNothingInjected(watched);

    // What the browser sent is what the database keeps.
    const [stored] = await server.database.query<{ remark: string; tags: string[] }>('select remark, tags from customer where id = $1', [
      customerId,
    ]);
    expect(stored).toEqual({ remark: REMARK, tags: expect.arrayContaining(TAGS) as unknown as string[] });
  });

  test('the edit form shows the stored markup as the text it is', async () => {
    const watched = await watchedPhone(`/client/edit?customerId=${customerId}`);
    await expectRoute(watched.page, 'clientEdit');
    await expect(watched.page.locator('#edit-remark')).toHaveValue(REMARK);
    for (const tag of TAGS) await expect(watched.page.locator('[data-testid="edit-tags"]')).toContainText(tag);
    await expectNothingInjected(watched);
  });

  test('a service note and outcome with markup show literally on the event and the client history', async () => {
    const detail = await watchedPhone(`/mot/eventDetail?eventId=${eventId}`);
    await expectRoute(detail.page, 'motEventDetail');
    await expect(detail.page.locator('.mot-record__note').first()).toHaveText(NOTE);
    await expect(detail.page.locator('.mot-record__outcome').first()).toContainText(OUTCOME);
    await expectNothingInjected(detail);

    const history = await watchedPhone(`/mot/singleClient?customerId=${customerId}`);
    await expectRoute(history.page, 'motSingleClient');
    await expect(history.page.locator('.mot-row__served-note').first()).toHaveText(NOTE);
    await expectNothingInjected(history);
  });
});
