import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';
import { SESSION_PROOF_TIMEOUT_MS } from './listen';
import { causeChain, POOL_WAIT_TIMEOUT_MESSAGE } from './transient-errors';
import { runMigrations } from './migrator';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { ReadRouter } from './read-routing';

export { SESSION_PROOF_TIMEOUT_MS } from './listen';
export { MIGRATIONS_FOLDER, runMigrations } from './migrator';
export { preparedRunnerOf, preparedStatementName } from './prepared-statements';

/** One Drizzle type over both drivers: repositories never know which engine they run on. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** What `db.transaction` hands its callback. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Raw SQL with positional parameters (bulk tools, EXPLAIN, tests). */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
  /**
   * NOTIFY on `channel`; resolves with the unsubscribe. `onLive(false)`: notifications may be missed from now on
   * (drop whatever they keep fresh); `onLive(true)`: delivered again.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  /** PostgreSQL only: the primary's pool, for tools that stream with COPY. */
  pool?: pg.Pool;
  /**
   * PostgreSQL only: where session advisory locks are taken (DATABASE_DIRECT_URL's pool, else `pool`), once
   * `keepsSessions` has proven them sessions: through a transaction-mode pooler a lock would outlive us (ADR 0052).
   */
  sessionPool?: pg.Pool;
  /**
   * A NOTIFY sent through DATABASE_URL reached a LISTEN on `sessionPool` (never through a transaction-mode pooler).
   * Proven once; a failed proof stands for a minute. PGlite: always true.
   */
  keepsSessions(): Promise<boolean>;
  /** PostgreSQL with DATABASE_READ_URL only (ADR 0052). */
  reads?: ReadRouter;
  /** PostgreSQL only: connections that always reuse their generic plan (`preparedRunnerOf`). */
  preparedPool?: pg.Pool;
  /** PGlite only: for COPY and the bench's SQL replay. */
  pglite?: PGlite;
}

export interface NotificationHandlers {
  onNotify(payload: string): void;
  onLive(live: boolean): void;
  /** The listening connection did not hear its own notification (a transaction-mode pooler): not live, tried later. */
  onUnproven?(problem: string): void;
}

export interface DatabaseOptions {
  /** When absent, PGlite at `pgliteDir`. */
  url?: string | undefined;
  pgliteDir?: string;
  /** PGlite: this process's name (`server`, `npm run seed`…) for a process refused the directory. Default: the script's path. */
  holder?: string;
  /** PGlite only: a dump of a data directory to start from (tests' migrated template). */
  pgliteData?: Blob;
  poolMax?: number;
  /** PostgreSQL only: the wait for a free pool connection (`isDatabaseBusy`), so a full pool sheds load. */
  poolWaitMs?: number;
  migrate?: boolean;
  /** PostgreSQL only: streaming standbys for page reads (DATABASE_READ_URL, ADR 0052). */
  standbys?: StandbyOptions | undefined;
  /**
   * PostgreSQL only: the primary or a session-mode pooler (DATABASE_DIRECT_URL). When set, DATABASE_URL is taken
   * for a transaction-mode pooler and opened without startup options, which PgBouncer refuses.
   */
  directUrl?: string | undefined;
  /** Tests shorten it. */
  sessionProofTimeoutMs?: number;
  /** Sees every statement with its parameters (the benchmark's replay, the query-plan test); never in production. */
  onQuery?: QueryObserver;
}

export interface StandbyOptions {
  urls: readonly string[];
  maxLagMs: number;
  waitMs: number;
  /** Default 2000 ms. */
  timeoutMs?: number;
  /** Tests shorten it. Default 250 ms. */
  monitorIntervalMs?: number;
}

/** `prepared`: run as a named statement (`preparedRunnerOf`). */
export type QueryObserver = (text: string, params: readonly unknown[], prepared?: boolean) => void;

const DEFAULT_POOL_WAIT_MS = 2000;

/** Every pool connection stayed busy for the whole wait: overloaded, not broken (090503 with Retry-After). */
export const isDatabaseBusy = (error: unknown) => [...causeChain(error)].some((current) => current.message === POOL_WAIT_TIMEOUT_MESSAGE);

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const observe = options.onQuery;
  const handle = options.url
    ? await openPostgres(
        options.url,
        { max: options.poolMax ?? 10, waitMs: options.poolWaitMs ?? DEFAULT_POOL_WAIT_MS },
        {
          directUrl: options.directUrl,
          standbys: options.standbys,
          sessionProofTimeoutMs: options.sessionProofTimeoutMs ?? SESSION_PROOF_TIMEOUT_MS,
        },
        observe,
      )
    : await openPglite(options.pgliteDir ?? 'memory://', { holder: options.holder, data: options.pgliteData }, observe);
  if (options.migrate !== false) {
    try {
      await runMigrations(handle);
      // A standby may not have replayed the DDL yet.
      await handle.reads?.raiseFloor();
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }
  return handle;
}

export async function pingDatabase(handle: DatabaseHandle) {
  await handle.db.execute(sql`select 1`);
}
