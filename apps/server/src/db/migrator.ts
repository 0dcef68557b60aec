import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type pg from 'pg';
import { SERVER_ROOT } from '../server-root';
import type { DatabaseHandle } from './client';

export const MIGRATIONS_FOLDER = join(SERVER_ROOT, 'drizzle');

/** Every replica takes this lock before migrating. */
const MIGRATION_LOCK_KEY = 727_001;

export async function runMigrations(handle: DatabaseHandle) {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const client = await (handle.sessionPool ?? handle.pool!).connect();
  await migratePostgres(client).then(
    () => client.release(),
    (error: unknown) => {
      // A failed migration's connection may be mid-transaction or broken.
      client.release(true);
      throw error;
    },
  );
}

/**
 * Drizzle's migrator in one transaction that first takes a transaction advisory lock, so replicas migrate once.
 * Drizzle's own reads the last migration before its transaction (a lock inside comes too late), and a session
 * lock leaks through a transaction-mode pooler. Same journal table and rules as Drizzle's.
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
