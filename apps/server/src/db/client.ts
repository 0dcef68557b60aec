import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';
import { SESSION_PROOF_TIMEOUT_MS } from './listen';
import { runMigrations } from './migrator';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { ReadRouter } from './read-routing';

export { SESSION_PROOF_TIMEOUT_MS } from './listen';
export { MIGRATIONS_FOLDER, runMigrations } from './migrator';
export { preparedRunnerOf, preparedStatementName } from './prepared-statements';

/** One Drizzle type over both drivers: repositories never know which engine they run on. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Raw SQL with positional parameters, returning rows (bulk tools, EXPLAIN, tests). */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
  /**
   * Subscribes to NOTIFY on `channel` (a lower-case identifier) and resolves with the function that
   * ends the subscription. `onLive(false)`: notifications may be missed from now on (the listening
   * connection is down; drop whatever they keep fresh); `onLive(true)`: they are delivered again.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  /** PostgreSQL only: the primary's pool, for tools that stream with COPY. */
  pool?: pg.Pool;
  /**
   * PostgreSQL only: the connections session advisory locks are taken on (db/advisory-lock.ts):
   * DATABASE_DIRECT_URL's, else `pool` itself. Used only once `keepsSessions` has proven them
   * sessions of their own: behind a transaction-mode pooler a lock and its unlock would land on
   * different server connections, and the lock would outlive this process (ADR 0052).
   */
  sessionPool?: pg.Pool;
  /**
   * Whether `sessionPool`'s connections keep their session from one statement to the next: a
   * NOTIFY sent through DATABASE_URL reached a LISTEN on one of them within
   * SESSION_PROOF_TIMEOUT_MS (through a transaction-mode pooler it never does). Proven once, then
   * remembered; a failed proof stands for a minute, then is tried again. PGlite: always true.
   */
  keepsSessions(): Promise<boolean>;
  /** PostgreSQL with DATABASE_READ_URL only: sends the reads of listed endpoints to standbys (ADR 0052). */
  reads?: ReadRouter;
  /**
   * PostgreSQL only: the connections prepared statements run on, which always reuse their
   * generic plan (see `preparedRunnerOf`).
   */
  preparedPool?: pg.Pool;
  /** PGlite only: PGlite itself, for COPY and the bench's SQL replay. */
  pglite?: PGlite;
}

export interface NotificationHandlers {
  onNotify(payload: string): void;
  onLive(live: boolean): void;
  /**
   * The listening connection was opened but did not hear a notification of its own sent through
   * DATABASE_URL (a transaction-mode pooler in between): not live; tried again later. `problem`
   * says where and what to change, for one log line.
   */
  onUnproven?(problem: string): void;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent, PGlite at `pgliteDir`. */
  url?: string | undefined;
  pgliteDir?: string;
  /**
   * PGlite in a directory: what this process is (`server`, `npm run seed`…), named to any other
   * process refused the directory while this one holds it. Default: the script's path.
   */
  holder?: string;
  /** PGlite only: starts from this dump of a data directory (`dumpDataDir`) instead of an empty one (tests' migrated template). */
  pgliteData?: Blob;
  poolMax?: number;
  /**
   * PostgreSQL only: how long a query may wait for a free pool connection before it fails
   * (`isDatabaseBusy`, answered 090503). Bounded so an exhausted pool sheds load instead of
   * queueing requests without end. Default 2000 ms.
   */
  poolWaitMs?: number;
  migrate?: boolean;
  /** PostgreSQL only: streaming standbys for page reads (DATABASE_READ_URL), and how they are used (ADR 0052). */
  standbys?: StandbyOptions | undefined;
  /**
   * PostgreSQL only: the primary itself, or a session-mode pooler, for what needs a whole session
   * (DATABASE_DIRECT_URL). When set, DATABASE_URL is taken for a transaction-mode pooler, and its
   * connections are opened without startup options, which PgBouncer refuses.
   */
  directUrl?: string | undefined;
  /** PostgreSQL only: how long a session proof waits for its notification (tests shorten it). Default SESSION_PROOF_TIMEOUT_MS. */
  sessionProofTimeoutMs?: number;
  /**
   * Sees every statement with its parameters before it runs (Drizzle and raw). For the benchmark,
   * which replays an endpoint's SQL alone, and the query-plan test; never set in production.
   */
  onQuery?: QueryObserver;
}

export interface StandbyOptions {
  urls: readonly string[];
  /** DATABASE_READ_MAX_LAG_MS */
  maxLagMs: number;
  /** tuning.ts's standbyReadWaitMs */
  waitMs: number;
  /** How long a statement may take on a standby (tuning.ts's standbyReadTimeoutMs). Default 2000 ms. */
  timeoutMs?: number;
  /** Between two looks at every server (tests shorten it). Default 250 ms. */
  monitorIntervalMs?: number;
}

/** `prepared`: run as a named statement, so PostgreSQL may reuse a generic plan (see `preparedRunnerOf`). */
export type QueryObserver = (text: string, params: readonly unknown[], prepared?: boolean) => void;

const DEFAULT_POOL_WAIT_MS = 2000;

/** What pg-pool rejects with when no connection became free within `connectionTimeoutMillis`. */
const POOL_WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

/**
 * True when `error` (or anything in its `cause` chain: Drizzle wraps driver errors) means every
 * pool connection stayed busy for the whole bounded wait, i.e. the server is overloaded rather
 * than broken. The error handler answers these 090503 with Retry-After.
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current.message === POOL_WAIT_TIMEOUT_MESSAGE) return true;
  }
  return false;
}

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
      // A standby may not have replayed the DDL yet: a read there would meet a missing column or table.
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
