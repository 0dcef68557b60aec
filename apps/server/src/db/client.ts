import { join } from 'node:path';
import { SERVER_ROOT } from '../server-root';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from './pglite-options';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import * as schema from './schema';
import { lockPgliteDir } from './pglite-lock';
import { databaseConnectionError } from './connection-failure';
import { Probe, Standby, StandbyMonitor } from './standby-monitor';
import { createReadRouter, RoutedPool, type ReadRouter } from './read-routing';

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
  /** DATABASE_READ_WAIT_MS */
  waitMs: number;
  /** DATABASE_READ_TIMEOUT_MS: how long a statement may take on a standby. Default 2000 ms. */
  timeoutMs?: number;
  /** Between two looks at every server (tests shorten it). Default 250 ms. */
  monitorIntervalMs?: number;
}

/** `prepared`: run as a named statement, so PostgreSQL may reuse a generic plan (see `preparedRunnerOf`). */
export type QueryObserver = (text: string, params: readonly unknown[], prepared?: boolean) => void;

export const MIGRATIONS_FOLDER = join(SERVER_ROOT, 'drizzle');

export const DEFAULT_POOL_WAIT_MS = 2000;

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

/** Any stable number: every replica takes this lock before migrating. */
const MIGRATION_LOCK_KEY = 727_001;

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
    : await openPglite(
        options.pgliteDir ?? 'memory://',
        { holder: options.holder ?? defaultHolder(), data: options.pgliteData },
        observe,
      );
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

const loggerOf = (observe: QueryObserver | undefined) => (observe ? { logger: { logQuery: observe } } : {});

const defaultHolder = () => process.argv.slice(1, 2).join(' ') || 'node';

async function openPglite(
  dir: string,
  how: { holder: string; data?: Blob | undefined },
  observe?: QueryObserver,
): Promise<DatabaseHandle> {
  const inMemory = dir.startsWith('memory://');
  if (!inMemory) mkdirSync(dir, { recursive: true });
  // One process per directory: a second PGlite on the same files corrupts them without a word (ADR 0020).
  const lock = inMemory ? null : lockPgliteDir(dir, how.holder);
  let client: PGlite;
  try {
    client = await PGlite.create(pgliteOptions(dir, how.data ? { loadDataDir: how.data } : {}));
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite({ client, schema, ...loggerOf(observe) }) as unknown as Database;
  if (observe) {
    // PGlite has no plan cache, so a prepared statement is an ordinary query; it is still reported as
    // prepared (by a Drizzle without the logger, else it would be seen twice), so the SQL snapshots
    // show which statements PostgreSQL runs prepared.
    const unobserved = drizzlePglite({ client, schema }) as unknown as Database;
    const dialect = new PgDialect();
    const runPrepared: PreparedRunner = async (query) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      observe(text, params, true);
      return ((await unobserved.execute(query)) as unknown as { rows: unknown[] }).rows;
    };
    Object.defineProperty(db, PREPARED_RUNNER, { value: runPrepared });
  }
  return {
    db,
    kind: 'pglite',
    pglite: client,
    // One process, one connection: its session is the only one.
    keepsSessions: async () => true,
    async query<Row>(text: string, params: unknown[] = []) {
      observe?.(text, params);
      const result = await client.query<Row>(text, params);
      return result.rows;
    },
    async listen(channel, handlers) {
      // One process, one connection: nothing can be missed.
      const unsubscribe = await client.listen(checkedChannel(channel), handlers.onNotify);
      handlers.onLive(true);
      return async () => {
        handlers.onLive(false);
        await unsubscribe().catch(() => undefined);
      };
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

const checkedChannel = (channel: string) => {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`listen: not a channel name: ${channel}`);
  return channel;
};

/** Retry delays of a lost or unproven listening connection: from half a second, doubling, at most 30 s. */
const LISTEN_RETRY_MS = { first: 500, max: 30_000 };

/**
 * How long a session proof waits for its own notification: a server reached directly (or through a
 * session-mode pooler) delivers it within milliseconds, even loaded; through a transaction-mode
 * pooler it never arrives.
 */
export const SESSION_PROOF_TIMEOUT_MS = 2000;
const SESSION_PROOF_CHANNEL = 'broker_session_proof';
/** A failed proof is the answer for this long (a transaction-mode pooler stays one); then it is tried again. */
const SESSION_PROOF_RETRY_MS = 60_000;

/** Sends `payload` on the session-proof channel from another connection than the one listening. */
type ProofNotifier = (payload: string) => Promise<unknown>;

/**
 * LISTENs on `client` and has `notify` send a fresh nonce from another connection: true once the
 * nonce arrives within `timeoutMs`. Through a transaction-mode pooler `client` holds no server
 * connection between statements, so the LISTEN "succeeds" on a server connection that is handed to
 * someone else, and the notification never reaches `client`. No false positive is possible: only a
 * session that is still listening hears it.
 */
async function hearsOwnNotification(client: pg.Client, notify: ProofNotifier, timeoutMs: number): Promise<boolean> {
  const nonce = randomUUID();
  let heard = () => {};
  const arrived = new Promise<boolean>((resolve) => {
    heard = () => resolve(true);
  });
  const onNotification = (message: pg.Notification) => {
    if (message.channel === SESSION_PROOF_CHANNEL && message.payload === nonce) heard();
  };
  client.on('notification', onNotification);
  let timer: NodeJS.Timeout | undefined;
  try {
    await client.query(`listen ${SESSION_PROOF_CHANNEL}`);
    await notify(nonce);
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    const proven = await Promise.race([arrived, timedOut]);
    // Other processes' proofs are not this connection's business (through a pooler the UNLISTEN could land elsewhere).
    if (proven) await client.query(`unlisten ${SESSION_PROOF_CHANNEL}`);
    return proven;
  } finally {
    clearTimeout(timer);
    client.off('notification', onNotification);
  }
}

/** Whether connections to `url` keep their session: `hearsOwnNotification` on a connection of its own, closed afterwards. */
async function proveSession(url: string, notify: ProofNotifier, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({ ...connectionConfig(url, ''), connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await hearsOwnNotification(client, notify, timeoutMs);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other statements), opened
 * again whenever it is lost, with TCP keepalive so a silent network loss is noticed. Live only once
 * the connection has heard a notification of its own (`hearsOwnNotification`): a LISTEN through a
 * transaction-mode pooler succeeds and hears nothing, and a cache trusting it would serve revoked
 * sessions until its entries expire.
 */
async function listenPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
  proof: { notify: ProofNotifier; timeoutMs: number; where: string; settled(proven: boolean): void },
): Promise<() => Promise<void>> {
  const name = checkedChannel(channel);
  let stopped = false;
  let current: pg.Client | null = null;
  let retryMs = LISTEN_RETRY_MS.first;
  let retry: NodeJS.Timeout | undefined;
  const scheduleRetry = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MS.max);
  };
  const open = async () => {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    current = client;
    const lost = () => {
      if (current !== client) return;
      current = null;
      handlers.onLive(false);
      client.end().catch(() => undefined);
      scheduleRetry();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === name) handlers.onNotify(message.payload ?? '');
    });
    let proven: boolean;
    try {
      await client.connect();
      // Proven first, then listening: the same session keeps both.
      proven = await hearsOwnNotification(client, proof.notify, proof.timeoutMs);
      if (proven) await client.query(`listen ${name}`);
    } catch {
      lost();
      return;
    }
    if (current !== client) return;
    proof.settled(proven);
    if (!proven) {
      handlers.onUnproven?.(
        `the LISTEN on ${proof.where} did not hear a notification sent through DATABASE_URL within ${proof.timeoutMs} ms ` +
          '(a transaction-mode pooler?): sessions are read from the database on every request until it does; ' +
          'set DATABASE_DIRECT_URL to the primary or a session-mode pooler entry, or SESSION_CACHE=false (ADR 0052)',
      );
      lost();
      return;
    }
    retryMs = LISTEN_RETRY_MS.first;
    handlers.onLive(true);
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = null;
    handlers.onLive(false);
    await client?.end().catch(() => undefined);
  };
}

/**
 * No parallel workers for the app's statements: each is a page of a few milliseconds, and a worker
 * costs a process start and a core that the other requests are waiting for: a generic plan that
 * over-estimated a keyword's matches went parallel and took many times longer (ADR 0029,
 * docs/benchmarks.md round five). The MOT sweep's INSERT … SELECT never runs in parallel anyway.
 */
const SESSION_SETTINGS = '-c max_parallel_workers_per_gather=0';
/**
 * Where prepared statements run: PostgreSQL's own choice kept planning the client list's keyword
 * pages for every call (ADR 0008), because their generic plan's estimate (a GIN match of
 * 5,000 rows, the default for an unknown array) always looked dearer than a custom plan. The
 * statements are written so that one plan suits every value (ADR 0008/0009), and the plan-guard
 * test compares each one's generic plan with its custom plans.
 */
const PREPARED_SESSION_SETTINGS = `${SESSION_SETTINGS} -c plan_cache_mode=force_generic_plan`;

/**
 * `url`'s connection settings with `settings` added to the startup options it may carry itself (a
 * URL's `options` would otherwise replace ours: pg reads the URL last).
 */
export function connectionConfig(url: string, settings: string): { connectionString: string; options?: string } {
  const parsed = new URL(url);
  const own = parsed.searchParams.get('options');
  if (own === null) return settings ? { connectionString: url, options: settings } : { connectionString: url };
  parsed.searchParams.delete('options');
  const options = [own, settings].filter(Boolean).join(' ');
  return { connectionString: parsed.toString(), ...(options ? { options } : {}) };
}

/** Host, port and database of a URL: how a standby is named in logs and /readyz (never its password). */
export function serverName(url: string): string {
  const parsed = new URL(url);
  return `${decodeURIComponent(parsed.hostname) || 'localhost'}:${parsed.port || '5432'}${decodeURIComponent(parsed.pathname) || '/'}`;
}

export const DEFAULT_READ_TIMEOUT_MS = 2000;
/** How much longer than the standby's own statement_timeout the app waits for any answer at all. */
const STANDBY_SILENCE_GRACE_MS = 500;

/**
 * A standby's statements are bounded (ADR 0052): the standby cancels one that runs longer than
 * `timeoutMs` (57014, repeated on the primary); and a standby that answers nothing at all — stopped,
 * frozen, behind a network black hole — is given up `STANDBY_SILENCE_GRACE_MS` later by the driver
 * ("Query read timeout": the connection is dropped, the standby marked down, the statement repeated on
 * the primary), instead of holding the request until TCP gives up. TCP keepalive finds idle
 * connections to a vanished standby.
 */
function standbyStatementBounds(timeoutMs: number): { settings: string; pool: pg.PoolConfig } {
  return {
    settings: `-c statement_timeout=${timeoutMs}`,
    pool: { query_timeout: timeoutMs + STANDBY_SILENCE_GRACE_MS, keepAlive: true, keepAliveInitialDelayMillis: 10_000 },
  };
}

/** Session connections behind DATABASE_DIRECT_URL: the migration, demo-seed, MOT-sweep and search-terms locks at once. */
const SESSION_POOL_MAX = 4;

async function openPostgres(
  url: string,
  limits: { max: number; waitMs: number },
  topology: { directUrl: string | undefined; standbys: StandbyOptions | undefined; sessionProofTimeoutMs: number },
  observe?: QueryObserver,
): Promise<DatabaseHandle> {
  // connectionTimeoutMillis bounds both opening a connection and waiting for a busy pool to free one.
  const poolWith = (at: string, settings: string, max = limits.max, more: pg.PoolConfig = {}) => {
    const created = new pg.Pool({ ...connectionConfig(at, settings), max, connectionTimeoutMillis: limits.waitMs, ...more });
    // An idle client's network error must not crash the process; the pool replaces it.
    created.on('error', () => undefined);
    // Nor a checked-out one's: pg-pool listens to a client only while it is idle, and a connection lost
    // between two statements (the server, or PgBouncer's "server conn crashed?", at a failover) would end
    // the process with an unheard 'error'. Heard, the client's next statement fails and the pool drops it.
    created.on('connect', (client) => client.on('error', () => undefined));
    return created;
  };
  // PgBouncer refuses startup options ("unsupported startup parameter in options"): behind it the
  // settings belong in postgresql.conf or its connect_query, and prepared statements keep
  // plan_cache_mode=auto (ADR 0052).
  const pooled = topology.directUrl !== undefined;
  const pool = poolWith(url, pooled ? '' : SESSION_SETTINGS);
  const pools = [pool];
  // One round trip before anything else, so an unreachable server, a missing database or role is reported
  // as what it is, naming DATABASE_URL, rather than as the first migration's failure.
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw databaseConnectionError(error, url, limits.waitMs);
  }
  // A second pool, since the setting is per connection: every other statement with parameters must
  // keep its custom plan (a count of `陈` and of `Rong` need different ones).
  const preparedPool = poolWith(url, pooled ? '' : PREPARED_SESSION_SETTINGS);
  pools.push(preparedPool);
  const sessionPool = topology.directUrl ? poolWith(topology.directUrl, SESSION_SETTINGS, SESSION_POOL_MAX) : pool;
  if (sessionPool !== pool) pools.push(sessionPool);

  let client: pg.Pool | RoutedPool = pool;
  let preparedClient: pg.Pool | RoutedPool = preparedPool;
  let monitor: StandbyMonitor | undefined;
  let reads: ReadRouter | undefined;
  const standbyUrls = topology.standbys?.urls ?? [];
  if (topology.standbys && standbyUrls.length > 0) {
    const bounds = standbyStatementBounds(topology.standbys.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS);
    const standbys = standbyUrls.map((standbyUrl) => {
      const standby = new Standby(
        serverName(standbyUrl),
        poolWith(standbyUrl, `${SESSION_SETTINGS} ${bounds.settings}`, limits.max, bounds.pool),
        poolWith(standbyUrl, `${PREPARED_SESSION_SETTINGS} ${bounds.settings}`, limits.max, bounds.pool),
        new Probe(connectionConfig(standbyUrl, '')),
      );
      pools.push(standby.pool, standby.preparedPool);
      return standby;
    });
    // Asked where the writes go (through the pooler, if any): after a failover that repoints the pooler,
    // that is the new primary, even while DATABASE_DIRECT_URL still names the old one.
    const primaryProbe = new Probe(connectionConfig(url, ''));
    monitor = new StandbyMonitor(standbys, primaryProbe, {
      maxLagMs: topology.standbys.maxLagMs,
      waitMs: topology.standbys.waitMs,
      ...(topology.standbys.monitorIntervalMs ? { intervalMs: topology.standbys.monitorIntervalMs } : {}),
    });
    await monitor.start();
    client = new RoutedPool(pool, monitor, (standby) => standby.pool);
    preparedClient = new RoutedPool(preparedPool, monitor, (standby) => standby.preparedPool);
    reads = createReadRouter(pool, monitor, topology.standbys.maxLagMs);
  }
  const db = drizzlePg({ client: client as pg.Pool, schema, ...loggerOf(observe) }) as unknown as Database;
  // Sessions (locks, LISTEN) are DATABASE_DIRECT_URL's, else DATABASE_URL's; a proof's nonce is sent
  // through DATABASE_URL, as the session-change triggers' notifications are.
  const sessionUrl = topology.directUrl ?? url;
  const notifyProof: ProofNotifier = (payload) => pool.query('select pg_notify($1, $2)', [SESSION_PROOF_CHANNEL, payload]);
  let sessionsProven = false;
  let lastFailedProofAt = Number.NEGATIVE_INFINITY;
  let sessionProof: Promise<boolean> | undefined;
  const settleSessionProof = (proven: boolean) => {
    if (proven) sessionsProven = true;
    else lastFailedProofAt = performance.now();
  };
  const dialect = new PgDialect();
  const runPrepared: PreparedRunner = async (query) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    observe?.(text, params, true);
    const result = await (preparedClient as pg.Pool).query({ name: preparedStatementName(text), text, values: params });
    return result.rows;
  };
  Object.defineProperty(db, PREPARED_RUNNER, { value: runPrepared });
  return {
    db,
    kind: 'postgres',
    pool,
    preparedPool,
    sessionPool,
    ...(reads ? { reads } : {}),
    async query<Row>(text: string, params: unknown[] = []) {
      observe?.(text, params);
      const result = await pool.query(text, params);
      return result.rows as Row[];
    },
    keepsSessions: async () => {
      if (sessionsProven) return true;
      if (performance.now() - lastFailedProofAt < SESSION_PROOF_RETRY_MS) return false;
      sessionProof ??= proveSession(sessionUrl, notifyProof, topology.sessionProofTimeoutMs).finally(() => {
        sessionProof = undefined;
      });
      settleSessionProof(await sessionProof);
      return sessionsProven;
    },
    // NOTIFY comes from the primary, on a connection of its own: never a standby's, never a transaction-mode pooler's.
    listen: (channel, handlers) =>
      listenPostgres(sessionUrl, channel, handlers, {
        notify: notifyProof,
        timeoutMs: topology.sessionProofTimeoutMs,
        // The LISTEN's own proof is one of the same URL's sessions: it answers keepsSessions too.
        settled: settleSessionProof,
        where: `${topology.directUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL'} (${serverName(sessionUrl)})`,
      }),
    close: async () => {
      monitor?.stop();
      await Promise.all(pools.map((each) => each.end()));
    },
  };
}

type PreparedRunner = (query: SQL) => Promise<unknown[]>;

/** A prepared statement's name: one per distinct text, the same on every connection and process. */
export const preparedStatementName = (text: string) => `s${createHash('sha1').update(text).digest('base64url')}`;
const PREPARED_RUNNER = Symbol('preparedRunner');

/**
 * PostgreSQL (and PGlite with an observer, which only reports it as prepared; else undefined): runs a
 * statement as a named prepared statement, named after
 * its text, on a connection of `preparedPool`, so each connection parses and plans it once and then
 * reuses that generic plan: PostgreSQL spent longer planning a client page's statements than
 * running them (ADR 0008, docs/benchmarks.md round four). Only for statements whose
 * best plan does not depend on their parameter values — lookups by id or by staff member, and
 * keyword searches only in the shapes whose plan the client list chooses itself (`PagePlan` in
 * modules/customer-search/page-plan.ts). Drizzle's `execute` cannot name a statement, hence this.
 */
export function preparedRunnerOf(db: Pick<Database, 'execute'>): PreparedRunner | undefined {
  return (db as { [PREPARED_RUNNER]?: PreparedRunner })[PREPARED_RUNNER];
}

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

export async function pingDatabase(handle: DatabaseHandle) {
  await handle.db.execute(sql`select 1`);
}
