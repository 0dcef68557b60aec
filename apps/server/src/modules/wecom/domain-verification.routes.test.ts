import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { makeEnv } from '../../env';
import type { DatabaseHandle } from '../../db/client';
import { pgliteTestDatabase } from '../../testing/test-databases';

/**
 * Issue 19.7: WeCom proves the trusted domain (可信域名) by fetching `https://HOST/WW_verify_<token>.txt`
 * and comparing the body with the file it handed the admin. The server answers it from the web build
 * (apps/web/public → dist) or from WECOM_VERIFY_DIR, read at request time so no rebuild or restart is needed.
 */
describe('WeCom domain verification file', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  const verifyDir = mkdtempSync(join(tmpdir(), 'wecom-verify-'));
  const dist = mkdtempSync(join(tmpdir(), 'web-dist-verify-'));

  beforeAll(async () => {
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">broker</div>');
    writeFileSync(join(dist, 'WW_verify_FromTheBuild01.txt'), 'FromTheBuild01');
    writeFileSync(join(verifyDir, 'WW_verify_aBcD1234eFgH5678.txt'), 'aBcD1234eFgH5678');
    database = await pgliteTestDatabase.create();
    app = await buildApp({
      env: makeEnv({ LOG_LEVEL: 'silent', WEB_DIST_DIR: dist, WECOM_VERIFY_DIR: verifyDir }),
      tuning: { motSweepIntervalMs: 0 },
      database,
      logger: false,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves the file exactly, as plain text, from WECOM_VERIFY_DIR', async () => {
    const response = await app.inject({ method: 'GET', url: '/WW_verify_aBcD1234eFgH5678.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe('aBcD1234eFgH5678');
  });

  it('picks up a file the admin drops in later, without a restart', async () => {
    expect((await app.inject('/WW_verify_Later000000001.txt')).statusCode).toBe(404);
    writeFileSync(join(verifyDir, 'WW_verify_Later000000001.txt'), 'Later000000001');
    const response = await app.inject('/WW_verify_Later000000001.txt');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('Later000000001');
  });

  it('serves one that came with the web build (apps/web/public)', async () => {
    const response = await app.inject('/WW_verify_FromTheBuild01.txt');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('FromTheBuild01');
  });

  it.each(['/WW_verify_missing0000.txt', '/WW_verify_..%2Findex.txt', '/WW_verify_a.b.txt', '/WW_verify_.txt'])(
    '%s is a 404 envelope, never the app page nor another file',
    async (url) => {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('broker');
    },
  );
});
