import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { parseLsn } from './lsn';
import { MEMBER_WROTE_CHANNEL } from './member-positions';
import { isLostConnection } from './transient-errors';
import { tagWriteOnStandby } from './write-on-standby';
import type { PrimaryProbeChange, Standby, StandbyChange, StandbyMonitor, StandbyReport } from './standby-monitor';

/**
 * Where the statements of one request go (ADR 0052). Outside any request (background jobs, the
 * search index, sign-in and the session check, which run before the handler) there is none: the
 * primary.
 */
interface Route {
  /** The standby this request reads from; cleared (the primary from then on) if it fails. */
  standby: Standby | undefined;
  /** On the primary: whether a statement may have written, so the reader's next reads must see it. */
  wrote: boolean;
}

const routes = new AsyncLocalStorage<Route>();

/** Runs `work` with its statements on the primary, whatever request it serves (ADR 0052: the search index). */
export const onPrimary = <T>(work: () => T): T => routes.exit(work);

/** pg-pool's error when no connection became free within connectionTimeoutMillis. */
const POOL_WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';
/** node-postgres's own words for a server that answered nothing: query_timeout, or a closed client. */
const STANDBY_SILENT_MESSAGES = new Set(['Query read timeout', 'Client was closed and is not queryable', 'Connection terminated']);
/** Socket errors beyond the ones a lost primary shows: a standby's name or route gone. */
const LOST_SOCKET_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTDOWN', 'ECONNABORTED']);

/**
 * How a statement that failed on a standby is answered (ADR 0052):
 * - `down`: the standby failed, not the statement: the connection was refused, lost or never
 *   answered (a socket error, node-postgres's lost-connection messages, no answer within
 *   standbyReadTimeoutMs), or the server says it is unusable (class 08 connection exception,
 *   57P0x shutting down or starting, 58 system error). Repeated on the primary, the standby marked down.
 * - `busy`: the standby is alive but could not take this statement: no connection free in its pool
 *   within databasePoolWaitMs, its connection slots full or another resource short (class 53, 53300
 *   among them), or the statement cancelled for a conflict with recovery (40001, 40P01) or for running
 *   past its statement_timeout (57014). Repeated on the primary; the standby stays up.
 * - undefined: the statement's own error, or a fault of the code (a TypeError has no SQLSTATE either):
 *   thrown as it is, never run twice, the standby untouched. A write refused by a standby (25006) is
 *   one: a routing bug (WriteOnStandbyError: 500, logged as an error).
 */
export function standbyFailure(error: unknown): 'down' | 'busy' | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.message === POOL_WAIT_TIMEOUT_MESSAGE) return 'busy';
  if (isLostConnection(error) || STANDBY_SILENT_MESSAGES.has(error.message)) return 'down';
  const { severity, code } = error as { severity?: unknown; code?: unknown };
  if (typeof code !== 'string') return undefined;
  if (typeof severity !== 'string') return LOST_SOCKET_CODES.has(code) ? 'down' : undefined;
  if (/^(08|57P|58)/.test(code)) return 'down';
  if (code.startsWith('53') || ['40001', '40P01', '57014'].includes(code)) return 'busy';
  return undefined;
}

/**
 * Only a statement that is plainly a read leaves `wrote` unset: one starting with SELECT or WITH
 * (or a parenthesised SELECT) that names no INSERT, UPDATE, DELETE or MERGE (a WITH may hide one).
 * Anything else, and every transaction, counts as a write: a wrong guess costs one cookie, never a
 * stale read.
 */
const plainRead = /^\s*\(*\s*(select|with)\b/i;
const writeWord = /\b(insert|update|delete|merge)\b/i;
export const mayWrite = (query: unknown) => {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  return typeof text !== 'string' || !plainRead.test(text) || writeWord.test(text);
};

/** The positions a read must see. */
export interface ReadPositions {
  /** The reader's read-your-writes cookie, as `parseLsn` read it: untrusted (ADR 0052). */
  claimed?: bigint | undefined;
  /** The reader's last write as the primary announced it (MemberPositions), whichever browser made it. */
  member?: bigint | undefined;
}

export interface ReadRouter {
  /** Runs `work` with its statements on a standby that has replayed `positions` (else, after the wait, the primary). */
  onStandby<T>(positions: ReadPositions, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` on the primary; if it may have written, `afterWrite` gets the primary's WAL position
   * after it (whether `work` succeeded or not: a failed request may still have written), and with
   * `announceFor` (a staff id) the primary announces it to every API process (MEMBER_WROTE_CHANNEL),
   * in the same statement.
   */
  onPrimaryNoting<T>(work: () => Promise<T>, afterWrite: (lsn: bigint) => void, announceFor?: number): Promise<T>;
  /**
   * From now on, this process's reads need a standby that has replayed everything the primary holds
   * now: called after the migrations, so no read meets a standby that has not replayed their DDL.
   */
  raiseFloor(): Promise<void>;
  readonly maxLagMs: number;
  standbys(): StandbyReport[];
  watch(listener: (change: StandbyChange) => void): () => void;
  watchPrimary(listener: (change: PrimaryProbeChange) => void): () => void;
}

/**
 * Routes each statement to the pool the current request was given: Drizzle holds this one object
 * (so repositories are built once and never know), and it passes Drizzle's pool check (the class
 * name holds "Pool"), so a transaction checks a connection out of the chosen pool and releases it.
 * A statement that fails because its standby did is run again on the primary, and the standby is
 * marked down; reads can be repeated, and no write is ever sent to a standby.
 */
export class RoutedPool {
  constructor(
    private readonly primary: pg.Pool,
    private readonly monitor: StandbyMonitor,
    private readonly pick: (standby: Standby) => pg.Pool,
  ) {}

  query(...args: unknown[]): Promise<unknown> {
    const route = routes.getStore();
    const standby = route?.standby;
    const onPrimary = () => (this.primary.query as (...a: unknown[]) => Promise<unknown>)(...args);
    if (!route || !standby) {
      if (route && mayWrite(args[0])) route.wrote = true;
      return onPrimary();
    }
    standby.reads += 1;
    return (this.pick(standby).query as (...a: unknown[]) => Promise<unknown>)(...args).catch((error: unknown) => {
      const failure = standbyFailure(error);
      if (!failure) throw tagWriteOnStandby(error);
      this.leave(route, standby, failure, error);
      return onPrimary();
    });
  }

  async connect(): Promise<pg.PoolClient> {
    const route = routes.getStore();
    const standby = route?.standby;
    if (!route || !standby) {
      if (route) route.wrote = true;
      return this.primary.connect();
    }
    standby.reads += 1;
    try {
      return withWritesTagged(await this.pick(standby).connect());
    } catch (error) {
      const failure = standbyFailure(error);
      if (!failure) throw error;
      this.leave(route, standby, failure, error);
      return this.primary.connect();
    }
  }

  /** The rest of the request reads from the primary. */
  private leave(route: Route, standby: Standby, failure: 'down' | 'busy', error: unknown) {
    route.standby = undefined;
    if (failure === 'down') this.monitor.markDown(standby, error);
  }
}

/** A standby's connection for a transaction, whose statements' 25006 are tagged as routing bugs. */
function withWritesTagged(client: pg.PoolClient): pg.PoolClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
      return (...args: unknown[]) => {
        const result = (target.query as (...a: unknown[]) => unknown)(...args);
        return result instanceof Promise
          ? result.catch((error: unknown) => {
              throw tagWriteOnStandby(error);
            })
          : result;
      };
    },
  });
}

/** The insert position: with synchronous_commit = off the commit record may lie past the write position. */
const INSERT_POSITION = 'pg_current_wal_insert_lsn()::text';
/** The same, announced as `<staff id> <position>` (memberWrotePayload) to every process listening. */
const ANNOUNCED_POSITION = `select lsn, pg_notify($1, $2 || lsn) from (select ${INSERT_POSITION} as lsn) as here`;

const furthest = (...positions: Array<bigint | undefined>) =>
  positions.reduce<bigint | undefined>((far, each) => (each !== undefined && (far === undefined || each > far) ? each : far), undefined);

/** A router over `monitor`'s standbys; `primary` answers the WAL position after a write. */
export function createReadRouter(primary: pg.Pool, monitor: StandbyMonitor, maxLagMs: number): ReadRouter {
  /** What every standby read needs, whoever reads (raiseFloor). */
  let floor: bigint | undefined;
  return {
    maxLagMs,
    async onStandby({ claimed, member }, work) {
      const standby = await monitor.standbyFor(furthest(floor, member), claimed);
      // Awaited inside: Drizzle's queries are lazy thenables, run by whoever calls `then`.
      return routes.run({ standby, wrote: false }, async () => await work());
    },
    async onPrimaryNoting(work, afterWrite, announceFor) {
      const route: Route = { standby: undefined, wrote: false };
      try {
        return await routes.run(route, async () => await work());
      } finally {
        if (route.wrote) {
          const position =
            announceFor === undefined
              ? primary.query<{ lsn: string }>(`select ${INSERT_POSITION} as lsn`)
              : primary.query<{ lsn: string }>(ANNOUNCED_POSITION, [MEMBER_WROTE_CHANNEL, `${announceFor} `]);
          const lsn = await position.then(
            ({ rows }) => parseLsn(rows[0]?.lsn),
            () => undefined,
          );
          if (lsn !== undefined) afterWrite(lsn);
        }
      }
    },
    async raiseFloor() {
      const { rows } = await primary.query<{ lsn: string }>(`select ${INSERT_POSITION} as lsn`);
      const lsn = parseLsn(rows[0]?.lsn);
      if (lsn !== undefined && (floor === undefined || lsn > floor)) floor = lsn;
    },
    standbys: () => monitor.report(),
    watch: (listener) => monitor.watch(listener),
    watchPrimary: (listener) => monitor.watchPrimary(listener),
  };
}
