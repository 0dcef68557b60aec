import { WriteOnStandbyError } from './write-on-standby';

/**
 * Failures a retry a second later resolves (a failover, a cut connection, a lost deadlock): answered 090503
 * with Retry-After rather than 090500 (docs/deployment.md, "Failover").
 */

const TRANSIENT_SQLSTATES: Readonly<Record<string, string>> = {
  '40001': 'a concurrent change conflicted with this one (serialization failure)',
  '40P01': 'a concurrent change conflicted with this one (deadlock)',
  '57P01': 'the database is restarting or failing over',
  '57P02': 'the database is restarting or failing over',
  '57P03': 'the database is starting up or shutting down',
  '25006': 'the database is read-only for the moment (a standby during a failover)',
  '53300': 'the database has no free connection',
};

/** 08: connection exceptions (PgBouncer's own failures are 08P01); 57P: operator intervention. */
const TRANSIENT_SQLSTATE_CLASSES: ReadonlyArray<readonly [prefix: string, reason: string]> = [
  ['08', 'the connection to the database was lost or refused'],
  ['57P', 'the database is restarting or failing over'],
];

/** pg-pool's error when no connection became free within connectionTimeoutMillis. */
export const POOL_WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

/** Node's socket errors and node-postgres's own messages when the server went away under a query. */
const LOST_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const LOST_CONNECTION_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'terminating connection due to administrator command',
];

export function isLostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (typeof code === 'string' && LOST_CONNECTION_CODES.has(code)) ||
    LOST_CONNECTION_MESSAGES.some((message) => error.message.startsWith(message))
  );
}

/** `error` and its causes, five deep: Drizzle wraps driver errors. */
export function* causeChain(error: unknown): Generator<Error> {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) yield current;
}

/** Why `error` (or its `cause` chain) passes by itself; null when it does not. */
export function transientDatabaseFailure(error: unknown): string | null {
  for (const current of causeChain(error)) {
    // Its cause (25006) looks like a failover's read-only primary: a routing bug.
    if (current instanceof WriteOnStandbyError) return null;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (TRANSIENT_SQLSTATES[code]) return TRANSIENT_SQLSTATES[code];
      const inClass = /^[0-9A-Z]{5}$/.test(code) ? TRANSIENT_SQLSTATE_CLASSES.find(([prefix]) => code.startsWith(prefix)) : undefined;
      if (inClass) return inClass[1];
    }
    if (isLostConnection(current)) return 'the connection to the database was lost';
  }
  return null;
}
