import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { parseLsn } from './lsn';
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

/**
 * Errors that say the standby (not the statement) failed: any error PostgreSQL did not answer (the
 * connection refused, reset, timed out, or no answer within DATABASE_READ_TIMEOUT_MS: no `severity`,
 * which pg sets only on a server's error), a connection exception (class 08), the server shutting
 * down or starting (57P0x), no free connection (53300), a query cancelled for a conflict with
 * recovery (40001, 40P01, which a standby raises when replay must remove rows the query still reads)
 * or for running past the standby's statement_timeout (57014). Not 25006: a write sent to a standby
 * is a routing bug, and must fail loudly (WriteOnStandbyError: 500, logged as an error).
 */
export function isStandbyFailure(error: unknown): boolean {
  const { severity, code } = (error ?? {}) as { severity?: unknown; code?: unknown };
  if (typeof severity !== 'string' || typeof code !== 'string') return true;
  return code.startsWith('08') || code.startsWith('57P') || ['53300', '40001', '40P01', '57014'].includes(code);
}

/**
 * Still up: a standby that cancelled a query itself (a conflict with recovery, its statement_timeout),
 * or whose pool had no free connection within DATABASE_POOL_WAIT_MS (pg-pool's message): that read
 * overflows to the primary.
 */
const standbyStillUp = (error: unknown) =>
  ['40001', '40P01', '57014'].includes(String((error as { code?: unknown } | null)?.code)) ||
  (error instanceof Error && error.message === 'timeout exceeded when trying to connect');

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
}

export interface ReadRouter {
  /** Runs `work` with its statements on a standby that has replayed `positions` (else, after the wait, the primary). */
  onStandby<T>(positions: ReadPositions, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` on the primary; if it may have written, `afterWrite` gets the primary's WAL position
   * after it (whether `work` succeeded or not: a failed request may still have written).
   */
  onPrimaryNoting<T>(work: () => Promise<T>, afterWrite: (lsn: bigint) => void): Promise<T>;
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
      if (!isStandbyFailure(error)) throw tagWriteOnStandby(error);
      this.leave(route, standby, error);
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
      if (!isStandbyFailure(error)) throw error;
      this.leave(route, standby, error);
      return this.primary.connect();
    }
  }

  /** The rest of the request reads from the primary. */
  private leave(route: Route, standby: Standby, error: unknown) {
    route.standby = undefined;
    if (!standbyStillUp(error)) this.monitor.markDown(standby, error);
  }
}

/** A standby's connection for a transaction, whose statements' 25006 are tagged as routing bugs. */
function withWritesTagged(client: pg.PoolClient): pg.PoolClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
      return (...args: unknown[]) => {
        const result = (target.query as (...a: unknown[]) => unknown)(...args);
        return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(tagWriteOnStandby(error))) : result;
      };
    },
  });
}

/** A router over `monitor`'s standbys; `primary` answers the WAL position after a write. */
export function createReadRouter(primary: pg.Pool, monitor: StandbyMonitor, maxLagMs: number): ReadRouter {
  /** What every standby read needs, whoever reads (raiseFloor). */
  let floor: bigint | undefined;
  return {
    maxLagMs,
    async onStandby({ claimed }, work) {
      const standby = await monitor.standbyFor(floor, claimed);
      // Awaited inside: Drizzle's queries are lazy thenables, run by whoever calls `then`.
      return routes.run({ standby, wrote: false }, async () => await work());
    },
    async onPrimaryNoting(work, afterWrite) {
      const route: Route = { standby: undefined, wrote: false };
      try {
        return await routes.run(route, async () => await work());
      } finally {
        if (route.wrote) {
          // The insert position: with synchronous_commit = off the commit record may lie past the write position.
          const lsn = await primary.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn').then(
            ({ rows }) => parseLsn(rows[0]?.lsn),
            () => undefined,
          );
          if (lsn !== undefined) afterWrite(lsn);
        }
      }
    },
    async raiseFloor() {
      const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
      const lsn = parseLsn(rows[0]?.lsn);
      if (lsn !== undefined && (floor === undefined || lsn > floor)) floor = lsn;
    },
    standbys: () => monitor.report(),
    watch: (listener) => monitor.watch(listener),
    watchPrimary: (listener) => monitor.watchPrimary(listener),
  };
}
