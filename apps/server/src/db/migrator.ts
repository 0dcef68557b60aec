import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type pg from 'pg';
import { SERVER_ROOT } from '../server-root';
import type { DatabaseHandle } from './client';

export const MIGRATIONS_FOLDER = join(SERVER_ROOT, 'drizzle');

/** Any stable number: every replica takes this lock before migrating. */
const MIGRATION_LOCK_KEY = 727_001;

export async function runMigrations(handle: DatabaseHandle) {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const client = await (handle.sessionPool ?? handle.pool!).connect();
  let failed = false;
  try {
    await migratePostgres(client);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A failed migration's connection may be mid-transaction or broken: not handed to anyone else.
    client.release(failed);
  }
}

/**
 * Drizzle's migrator for node-postgres, in one transaction that first takes a transaction advisory
 * lock: replicas starting together migrate once, the second finding the first's work done. Drizzle's
 * own reads the last applied migration before its transaction, so a lock taken inside that
 * transaction would come too late, and a session lock taken around it leaks through a
 * transaction-mode pooler (the unlock lands on another server connection, and the next replica's
 * start waits on it). This one is released by COMMIT or ROLLBACK on the server connection that took
 * it, wherever that is. Same journal table and rules as Drizzle's (a migration applies when newer than
 * the last one recorded), so either may run after the other.
 */
async function migratePostgres(client: pg.PoolClient) {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query('create schema if not exists drizzle');
    await client.query(
      'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
    );
    const [last] = (
      await client.query<{ createdAt: string }>(
        'select created_at as "createdAt" from drizzle.__drizzle_migrations order by created_at desc limit 1',
      )
    ).rows;
    for (const migration of migrations) {
      if (last && Number(last.createdAt) >= migration.folderMillis) continue;
      for (const statement of migration.sql) await client.query(statement);
      await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}
