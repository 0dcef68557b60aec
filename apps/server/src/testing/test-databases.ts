import { randomBytes } from 'node:crypto';
import { openDatabase, type DatabaseHandle, type DatabaseKind, type QueryObserver } from '../db/client';
import { createFromPostgresTemplate, databaseUrl, pgliteTemplate, withAdmin } from './database-templates';

export interface TestDatabase {
  kind: DatabaseKind;
  /**
   * A fresh, migrated, empty database (a copy of the run's migrated template); `drop()` removes it. `onQuery`
   * sees every statement. `url` (PostgreSQL): for a child process, such as a tool, to open the same database.
   * `migrate: false`: not migrated (a test that migrates it step by step).
   */
  create(options?: { onQuery?: QueryObserver; migrate?: boolean }): Promise<DatabaseHandle & { drop(): Promise<void>; url?: string }>;
}

/** Read once here so suites never touch process.env themselves. */
const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const inCi = process.env.CI === 'true';

/** PGlite in memory, loaded from a template (database-templates.ts) rather than made by initdb and migrated. */
export const pgliteTestDatabase: TestDatabase = {
  kind: 'pglite',
  async create(options = {}) {
    const pgliteData = await pgliteTemplate(options.migrate !== false);
    const handle = await openDatabase({ pgliteDir: 'memory://', ...options, pgliteData, migrate: false });
    return { ...handle, drop: () => handle.close() };
  },
};

function postgres(serverUrl: string): TestDatabase {
  return {
    kind: 'postgres',
    async create(options = {}) {
      const name = `broker_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
      if (options.migrate !== false) await createFromPostgresTemplate(serverUrl, name);
      else await withAdmin(serverUrl, (admin) => admin.query(`create database ${name}`));
      const url = databaseUrl(serverUrl, name);
      const handle = await openDatabase({ url, poolMax: 8, ...options, migrate: false });
      return {
        ...handle,
        url,
        async drop() {
          await handle.close();
          await withAdmin(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
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
  return testDatabaseUrl ? [pgliteTestDatabase, postgres(testDatabaseUrl)] : [pgliteTestDatabase];
}

export const testDatabaseUrlForTools = () => testDatabaseUrl;
