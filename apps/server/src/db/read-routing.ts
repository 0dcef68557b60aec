import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { parseLsn } from './lsn';
import { MEMBER_WROTE_CHANNEL } from './member-positions';
import { isLostConnection, POOL_WAIT_TIMEOUT_MESSAGE } from './transient-errors';
import { tagWriteOnStandby } from './write-on-standby';
import type { PrimaryProbeChange, Standby, StandbyChange, StandbyMonitor } from './standby-monitor';

/** Where one request's statements go (ADR 0052); outside a request (jobs, the search index, sign-in): the primary. */
interface Route {
  /** Cleared (the primary from then on) if it fails. */
  standby: Standby | undefined;
  /** On the primary: a statement may have written, so the reader's next reads must see it. */
  wrote: boolean;
}

const routes = new AsyncLocalStorage<Route>();

/** Whatever request it serves (the search index, ADR 0052). */
export const onPrimary = <T>(work: () => T): T => routes.exit(work);

/** node-postgres's words for a server that answered nothing: query_timeout, or a closed client. */
const STANDBY_SILENT_MESSAGES = new Set(['Query read timeout', 'Client was closed and is not queryable', 'Connection terminated']);
/** Beyond a lost primary's: a standby's name or route gone. */
const LOST_SOCKET_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTDOWN', 'ECONNABORTED']);

/**
 * `down`: the standby failed, not the statement (lost, silent past standbyReadTimeoutMs, class 08, 57P0x, 58):
 * repeated on the primary, the standby marked down. `busy`: alive but unable to take it (no free connection,
 * class 53, a recovery conflict 40001/40P01, statement_timeout 57014): repeated on the primary. undefined: the
 * statement's own error or a code fault, never run twice; 25006 on a standby is a routing bug (ADR 0052).
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
 * Only SELECT or WITH naming no INSERT, UPDATE, DELETE or MERGE is a read; anything else, and every
 * transaction, counts as a write: a wrong guess costs one cookie, never a stale read.
 */
const plainRead = /^\s*\(*\s*(select|with)\b/i;
const writeWord = /\b(insert|update|delete|merge)\b/i;
export const mayWrite = (query: unknown) => {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  return typeof text !== 'string' || !plainRead.test(text) || writeWord.test(text);
};

export interface ReadPositions {
  /** The read-your-writes cookie: untrusted (ADR 0052). */
  claimed?: bigint | undefined;
  /** The reader's last write as the primary announced it, whichever browser made it. */
  member?: bigint | undefined;
}

/**
 * Drizzle holds this one object and takes it for a pool (the class name holds "Pool"), so a transaction checks
 * a connection out of the request's pool. A statement failed by its standby runs again on the primary.
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

  private leave(route: Route, standby: Standby, failure: 'down' | 'busy', error: unknown) {
    route.standby = undefined;
    if (failure === 'down') this.monitor.markDown(standby, error);
  }
}

/** Its statements' 25006 are tagged as routing bugs. */
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

/** With synchronous_commit = off the commit record may lie past the write position. */
const INSERT_POSITION = 'pg_current_wal_insert_lsn()::text';
/** Announced as `<staff id> <position>` (memberWrotePayload). */
const ANNOUNCED_POSITION = `select lsn, pg_notify($1, $2 || lsn) from (select ${INSERT_POSITION} as lsn) as here`;

const furthest = (...positions: Array<bigint | undefined>) =>
  positions.reduce<bigint | undefined>((far, each) => (each !== undefined && (far === undefined || each > far) ? each : far), undefined);

export type ReadRouter = ReturnType<typeof createReadRouter>;

export function createReadRouter(primary: pg.Pool, monitor: StandbyMonitor, maxLagMs: number) {
  let floor: bigint | undefined;
  return {
    maxLagMs,
    /** Else, after the wait, the primary. */
    async onStandby<T>({ claimed, member }: ReadPositions, work: () => Promise<T>): Promise<T> {
      const standby = await monitor.standbyFor(furthest(floor, member), claimed);
      // Drizzle's queries are lazy thenables, run by whoever calls `then`.
      return routes.run({ standby, wrote: false }, async () => await work());
    },
    /**
     * `afterWrite` gets the primary's WAL position after `work` if it may have written (even if it failed); with
     * `announceFor` (a staff id) the position is announced to every API process in the same statement.
     */
    async onPrimaryNoting<T>(work: () => Promise<T>, afterWrite: (lsn: bigint) => void, announceFor?: number): Promise<T> {
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
    /** Called after the migrations: from now on reads need a standby that has replayed their DDL. */
    async raiseFloor() {
      const { rows } = await primary.query<{ lsn: string }>(`select ${INSERT_POSITION} as lsn`);
      const lsn = parseLsn(rows[0]?.lsn);
      if (lsn !== undefined && (floor === undefined || lsn > floor)) floor = lsn;
    },
    standbys: () => monitor.report(),
    watch: (listener: (change: StandbyChange) => void) => monitor.watch(listener),
    watchPrimary: (listener: (change: PrimaryProbeChange) => void) => monitor.watchPrimary(listener),
  };
}
