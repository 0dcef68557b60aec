import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema';

/** One Drizzle type over both drivers: repositories never know which engine they run on. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Raw SQL with positional parameters, returning rows (bulk tools, EXPLAIN, tests). */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool, for tools that stream with COPY. */
  pool?: pg.Pool;
  pglite?: PGlite;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent, PGlite at `pgliteDir`. */
  url?: string | undefined;
  pgliteDir?: string;
  poolMax?: number;
  migrate?: boolean;
  /**
   * Sees every statement with its parameters before it runs (Drizzle and raw). For the benchmark,
   * which replays an endpoint's SQL alone, and the query-plan test; never set in production.
   */
  onQuery?: QueryObserver;
}

export type QueryObserver = (text: string, params: readonly unknown[]) => void;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Any stable number: every replica takes this lock before migrating. */
const MIGRATION_LOCK_KEY = 727_001;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const observe = options.onQuery;
  const handle = options.url
    ? await openPostgres(options.url, options.poolMax ?? 10, observe)
    : await openPglite(options.pgliteDir ?? 'memory://', observe);
  if (options.migrate !== false) await runMigrations(handle);
  return handle;
}

const loggerOf = (observe: QueryObserver | undefined) => (observe ? { logger: { logQuery: observe } } : {});

async function openPglite(dir: string, observe?: QueryObserver): Promise<DatabaseHandle> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema, ...loggerOf(observe) }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    async query<Row>(text: string, params: unknown[] = []) {
      observe?.(text, params);
      const result = await client.query<Row>(text, params);
      return result.rows;
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, poolMax: number, observe?: QueryObserver): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, connectionTimeoutMillis: 10_000 });
  // An idle client's network error must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, ...loggerOf(observe) }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    pool,
    async query<Row>(text: string, params: unknown[] = []) {
      observe?.(text, params);
      const result = await pool.query(text, params);
      return result.rows as Row[];
    },
    close: () => pool.end(),
  };
}

export async function runMigrations(handle: DatabaseHandle) {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  // Replicas starting together must not migrate twice: serialise on an advisory lock.
  const lockClient = await handle.pool!.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    lockClient.release();
  }
}

export async function pingDatabase(handle: DatabaseHandle) {
  await handle.db.execute(sql`select 1`);
}
