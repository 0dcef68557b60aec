import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type DatabaseKind, type QueryObserver } from '../db/client';

export interface TestDatabase {
  kind: DatabaseKind;
  /**
   * A fresh, migrated, empty database; `drop()` removes it. `onQuery` sees every statement. `url`
   * (PostgreSQL): for a child process, such as a tool, to open the same database. `migrate: false`:
   * not migrated (a test that migrates it step by step).
   */
  create(options?: { onQuery?: QueryObserver; migrate?: boolean }): Promise<DatabaseHandle & { drop(): Promise<void>; url?: string }>;
}

/** Read once here so suites never touch process.env themselves. */
const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const inCi = process.env.CI === 'true';

const pglite: TestDatabase = {
  kind: 'pglite',
  async create(options = {}) {
    const handle = await openDatabase({ pgliteDir: 'memory://', ...options });
    return { ...handle, drop: () => handle.close() };
  },
};

function postgres(adminUrl: string): TestDatabase {
  return {
    kind: 'postgres',
    async create(options = {}) {
      const name = `broker_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const handle = await openDatabase({ url: url.toString(), poolMax: 8, ...options });
      return {
        ...handle,
        url: url.toString(),
        async drop() {
          await handle.close();
          const cleanup = new pg.Client({ connectionString: adminUrl });
          await cleanup.connect();
          await cleanup.query(`drop database if exists ${name} with (force)`);
          await cleanup.end();
        },
      };
    },
  };
}

/**
 * The engines every integration suite runs on: PGlite always, PostgreSQL when
 * TEST_DATABASE_URL is set. In CI a missing TEST_DATABASE_URL is an error, not a skip.
 */
export function testDatabases(): TestDatabase[] {
  if (!testDatabaseUrl && inCi) throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suite would be skipped');
  return testDatabaseUrl ? [pglite, postgres(testDatabaseUrl)] : [pglite];
}

export const testDatabaseUrlForTools = () => testDatabaseUrl;
