import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemoData, type DatabaseHandle } from '@broker/server';
import { startTestApp, testDatabases, type RunningTestApp } from '@broker/server/testing';
import { hongKongDay } from '@broker/domain';
import { closeInOrder, launchBrowser, newPhone, saveScreenshot } from './support/browser';
import { WEB_DIST } from './support/server';
import { expectRoute, openSignedIn } from './support/web-shell';
import { expect } from './support/expect';

/*
 * Issue 36.6: two tabs of one staff member edit the same record. The second save meets the first (090409): for
 * every field both changed, the saved value shows beside the user's own and the user chooses; a field only the
 * first tab changed is taken and named; nothing typed is lost, also across a reload while the choice is open.
 * On both engines (PostgreSQL when TEST_DATABASE_URL is set), each with its own server.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => closeInOrder(browser));

const stamp = Date.now().toString(36);

for (const engine of testDatabases()) {
  describe(`two tabs, one record (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let app: RunningTestApp;
    let context: BrowserContext;
    let first: Page;
    let second: Page;
    /** The committed screenshots are taken once, on PGlite. */
    const shoot = (page: Page, name: string) => (engine.kind === 'pglite' ? saveScreenshot(page, name) : Promise.resolve());

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 60, seed: 36, asOf: hongKongDay() });
      app = await startTestApp(database, { WEB_DIST_DIR: WEB_DIST });
      ({ context, page: first } = await newPhone(browser));
      await openSignedIn(first, app.baseUrl, '/client/manage/list');
      // The same staff member's second tab: the same browser, so the same session.
      second = await context.newPage();
    });
    afterAll(() => closeInOrder(context, app, database && { close: () => database.drop() }));

    const route = (page: Page, name: string) => page.locator(`.ba-route[data-route="${name}"]`);
    const useLanguage = (page: Page, language: string) => page.evaluate((chosen) => localStorage.setItem('language', chosen), language);

    test("the client's profile: the remark both changed is chosen, their email taken, my name kept", async () => {
      const [customer] = await database.query<{ id: number }>(
        `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id
          where s.wecom_user_id = 'chanwaiman' and c.status <> 'closed' order by c.id limit 1`,
      );
      const editUrl = `${app.baseUrl}/client/edit?customerId=${customer!.id}`;
      for (const page of [first, second]) {
        await page.goto(editUrl);
        await expect(route(page, 'clientEdit').locator('#edit-remark')).toBeVisible();
      }

      // The other tab saves first.
      const theirs = `已约下周二面谈，客户关注美股科技 ${stamp}`;
      await second.fill('#edit-remark', theirs);
      await second.fill('#edit-email', `colleague.${stamp}@example.com`);
      await second.getByTestId('edit-save').click();
      await expectRoute(second, 'clientInformation');

      // This tab, opened on the same version, saves over it.
      const mine = `客户希望下午三点后来电 ${stamp}`;
      await first.fill('#edit-nameEn', 'CHAN Tai Man');
      await first.fill('#edit-remark', mine);
      await first.getByTestId('edit-save').click();
      const conflict = first.getByTestId('edit-conflict');
      await expect(conflict).toBeVisible();
      const remark = conflict.locator('[data-testid="merge-field"][data-field="remark"]');
      await expect(conflict.getByTestId('merge-field')).toHaveCount(1);
      await expect(remark.getByRole('radio', { name: /已保存的版本/ })).toContainText(theirs);
      await expect(remark.getByRole('radio', { name: /您的修改/ })).toContainText(mine);
      await expect(conflict.getByTestId('merge-taken')).toContainText('邮箱');
      await expect(first.getByTestId('edit-save')).toBeDisabled();
      await expect(first.getByTestId('merge-apply')).toBeDisabled();
      await shoot(first, 'edit-conflict-zh-CN');

      // A reload while the choice is open (a crash, a closed sidebar) brings it back, with what was typed.
      for (const [language, shot] of [
        ['zh-HK', 'edit-conflict-zh-HK'],
        ['en', 'edit-conflict-en'],
        ['zh-CN', null],
      ] as const) {
        await useLanguage(first, language);
        await first.reload();
        await expect(first.getByTestId('edit-conflict')).toBeVisible();
        await expect(first.locator('#edit-remark')).toHaveValue(mine);
        await expect(first.locator('#edit-nameEn')).toHaveValue('CHAN Tai Man');
        if (shot) await shoot(first, shot);
      }
      await first.setViewportSize({ width: 320, height: 568 });
      await shoot(first, 'edit-conflict-320');
      await first.setViewportSize({ width: 375, height: 812 });

      await remark.getByRole('radio', { name: '两者都保留' }).click();
      await expect(first.getByTestId('merge-apply')).toBeEnabled();
      await shoot(first, 'edit-conflict-chosen');
      await first.getByTestId('merge-apply').click();
      await expect(first.getByTestId('edit-conflict')).toHaveCount(0);
      await expect(first.getByTestId('merge-notice')).toContainText('邮箱');
      await expect(first.locator('#edit-remark')).toHaveValue(`${theirs}\n${mine}`);
      await expect(first.locator('#edit-email')).toHaveValue(`colleague.${stamp}@example.com`);
      await expect(first.locator('#edit-nameEn')).toHaveValue('CHAN Tai Man');
      await shoot(first, 'edit-conflict-merged');
      await first.getByTestId('edit-save').click();
      await expectRoute(first, 'clientInformation');

      const [saved] = await database.query<{ nameEn: string; email: string; remark: string }>(
        `select name_en as "nameEn", email, remark from customer where id = $1`,
        [customer!.id],
      );
      expect(saved).toEqual({ nameEn: 'CHAN Tai Man', email: `colleague.${stamp}@example.com`, remark: `${theirs}\n${mine}` });
    });

    test('a contact record changed in both tabs: the note both changed is chosen, their outcome taken', async () => {
      const [found] = await database.query<{ id: number }>(
        `select r.id::float8 as id from contact_record r join staff s on s.id = r.staff_id
          where s.wecom_user_id = 'chanwaiman' and r.superseded_by is null order by r.id limit 1`,
      );
      const recordUrl = `${app.baseUrl}/client/contact/record?recordId=${found!.id}`;
      for (const page of [first, second]) {
        await page.goto(recordUrl);
        // Seeded records are past their lock: changing one is a correction, with a reason.
        await route(page, 'contactRecord').getByTestId('contact-correct').click();
        await expect(page.locator('#contact-note')).toBeVisible();
      }

      const theirs = `客户确认收到派息，并询问再投资安排 ${stamp}`;
      await second.fill('#contact-note', theirs);
      await second.fill('#contact-outcome', '已安排再投资');
      await second.fill('#contact-correctionReason', '补充客户的问题');
      await second.getByTestId('contact-save').click();
      await expect(route(second, 'contactRecord').getByTestId('contact-record')).toHaveAttribute('data-version', '2');

      const mine = `客户来电询问派息安排，已解释除净日及派息日，客户满意 ${stamp}`;
      await first.fill('#contact-note', mine);
      await first.fill('#contact-correctionReason', '补充客户反应');
      await first.getByTestId('contact-save').click();
      const conflict = first.getByTestId('edit-conflict');
      await expect(conflict).toBeVisible();
      const note = conflict.locator('[data-testid="merge-field"][data-field="note"]');
      await expect(conflict.getByTestId('merge-field')).toHaveCount(1);
      await expect(note.getByRole('radio', { name: /已保存的版本/ })).toContainText(theirs);
      await expect(note.getByRole('radio', { name: /您的修改/ })).toContainText(mine);
      await expect(conflict.getByTestId('merge-taken')).toContainText('结果');
      await expect(first.getByTestId('contact-save')).toBeDisabled();
      await shoot(first, 'contact-conflict-zh-CN');

      await note.getByRole('radio', { name: /您的修改/ }).click();
      await first.getByTestId('merge-apply').click();
      // The version saved meanwhile is new and not locked yet: the change is now an edit of it, which keeps no
      // reason, so the reason typed moves into the note, in sight.
      const kept = `${mine}\n（修改原因：补充客户反应）`;
      await expect(first.locator('#contact-note')).toHaveValue(kept);
      await expect(first.getByTestId('contact-reason-moved')).toBeVisible();
      await expect(first.locator('#contact-outcome')).toHaveValue('已安排再投资');
      await expect(first.locator('#contact-correctionReason')).toHaveCount(0);
      await first.getByTestId('contact-save').click();
      await expect(route(first, 'contactRecord').getByTestId('contact-record')).toContainText(mine);

      const [latest] = await database.query<{ note: string; outcome: string; version: number; edits: number }>(
        `select note, outcome, version, edits from contact_record
          where thread_id = (select thread_id from contact_record where id = $1) and superseded_by is null`,
        [found!.id],
      );
      expect(latest).toEqual({ note: kept, outcome: '已安排再投资', version: 2, edits: 1 });
    });
  });
}
