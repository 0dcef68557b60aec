import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '@broker/contract';
import { BUILT_IN_CORP } from '../corps';
import { DEMO_STAFF } from '../db/seed/reference-data';
import { testDatabases, startTestApp, signInAs, type RunningTestApp } from '../testing';
import type { DatabaseHandle } from '../db/client';
import { corps, staff } from '../db/schema';

/** Issue 17.3: what the emulator may and may not do to a server that is, or could be, production. */
for (const engine of testDatabases()) {
  describe(`the WeCom emulator's mount (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let fromFile: RunningTestApp;
    let real: RunningTestApp;
    const dist = mkdtempSync(join(tmpdir(), 'web-dist-emulator-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">broker</div>');

    beforeAll(async () => {
      database = await engine.create();
      const corpsFile = join(mkdtempSync(join(tmpdir(), 'corps-')), 'corps.json');
      writeFileSync(
        corpsFile,
        JSON.stringify([
          {
            code: 'fxhl',
            name: '富兴证券（香港）',
            corpId: 'ww7a1f3c9e5b2d4f60',
            agents: BUILT_IN_CORP.agents,
          },
        ]),
      );
      // An operator who points the emulator at a real corps file on purpose (WECOM_MODE set explicitly).
      fromFile = await startTestApp(database, { CORPS_FILE: corpsFile });
      real = await startTestApp(database, { WECOM_MODE: 'real', WEB_DIST_DIR: dist });
    });
    afterAll(async () => {
      await fromFile?.close();
      await real?.close();
      await database?.drop();
    });

    it('never adds its made-up staff to corps from CORPS_FILE', async () => {
      const [corp] = await database.db.select({ id: corps.id }).from(corps).where(eq(corps.code, 'fxhl'));
      const rows = await database.db
        .select({ userid: staff.wecomUserId })
        .from(staff)
        .where(and(eq(staff.corpId, corp!.id)));
      const emulated = new Set(DEMO_STAFF.map((member) => member.userid));
      expect(rows.filter((row) => emulated.has(row.userid))).toEqual([]);
      // So the emulated WeCom cannot sign anyone into that corp.
      await expect(signInAs(fromFile.baseUrl, 'chanwaiman')).rejects.toThrow(new RegExp(`login failed: ${ErrorCode.LOGIN_STAFF_UNKNOWN}`));
    });

    it.each([
      '/wecom/jsbridge.js',
      '/wecom/__emulator/stats',
      '/wecom/__emulator/sidebar?entry=normal&url=/',
      '/wecom/connect/oauth2/authorize?appid=ww7a1f3c9e5b2d4f60',
      '/wecom/cgi-bin/gettoken?corpid=ww7a1f3c9e5b2d4f60&corpsecret=x',
    ])('without the emulator, %s is a plain 404 envelope, never the app page', async (path) => {
      const response = await fetch(`${real.baseUrl}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(((await response.json()) as { code: string }).code).toBe(ErrorCode.NO_SUCH_ENDPOINT);
    });

    it('without the emulator, its control endpoints cannot be driven either', async () => {
      for (const path of ['/wecom/__emulator/expire-access-tokens', '/wecom/__emulator/jsapi/verify']) {
        const response = await fetch(`${real.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.status, path).toBe(404);
      }
    });
  });
}
