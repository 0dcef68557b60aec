import type pg from 'pg';
import type { DatabaseHandle } from './client';

/** What a session lock's work came to: it ran, another process held the lock, or this process has no session to hold one on. */
export type SessionLockOutcome<T> = { status: 'ran'; value: T } | { status: 'busy' } | { status: 'no-session' };

type SessionDatabase = Pick<DatabaseHandle, 'sessionPool' | 'keepsSessions'>;

/**
 * Runs `work` while this process holds the session advisory lock `key` on a connection of its
 * session pool, or answers `busy` at once when another process holds it (try-lock: replicas take
 * turns, none waits). The lock's connection is handed to `work` for statements that must run under
 * it (a pool of one would otherwise wait for itself); the lock is released, and the connection
 * returned, whatever happens. `no-session` when the session pool's connections are not proven to be
 * sessions of their own (`keepsSessions`): through a transaction-mode pooler the lock and its unlock
 * would land on different server connections, and the lock would outlive this process (ADR 0052).
 */
export async function withTrySessionLock<T>(
  database: SessionDatabase,
  key: number,
  work: (lockClient: pg.PoolClient) => Promise<T>,
): Promise<SessionLockOutcome<T>> {
  if (!database.sessionPool || !(await database.keepsSessions())) return { status: 'no-session' };
  const lockClient = await database.sessionPool.connect();
  try {
    const [lock] = (await lockClient.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key])).rows;
    if (!lock?.locked) return { status: 'busy' };
    try {
      return { status: 'ran', value: await work(lockClient) };
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
    }
  } finally {
    lockClient.release();
  }
}

/** As `withTrySessionLock`, but waits for the lock instead of answering `busy`. */
export async function withSessionLock<T>(
  database: SessionDatabase,
  key: number,
  work: (lockClient: pg.PoolClient) => Promise<T>,
): Promise<Exclude<SessionLockOutcome<T>, { status: 'busy' }>> {
  if (!database.sessionPool || !(await database.keepsSessions())) return { status: 'no-session' };
  const lockClient = await database.sessionPool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [key]);
    try {
      return { status: 'ran', value: await work(lockClient) };
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
    }
  } finally {
    lockClient.release();
  }
}

/**
 * Runs `work` in one transaction on one connection of `pool` under the transaction advisory lock
 * `key`, or answers `busy` at once when another process holds it. COMMIT (or ROLLBACK, or the
 * connection's loss) releases the lock, on the one server connection the transaction ran on: safe
 * through a transaction-mode pooler, which keeps a client on one server connection for a whole
 * transaction. For work that fits in one transaction.
 */
export async function withTryTransactionLock<T>(
  pool: pg.Pool,
  key: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<{ status: 'ran'; value: T } | { status: 'busy' }> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    const [lock] = (await client.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [key])).rows;
    if (!lock?.locked) {
      await client.query('rollback');
      return { status: 'busy' };
    }
    const value = await work(client);
    await client.query('commit');
    return { status: 'ran', value };
  } catch (error) {
    // A connection that cannot even roll back is not handed to the next statement.
    await client.query('rollback').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
