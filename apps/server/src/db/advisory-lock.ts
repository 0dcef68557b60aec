import type pg from 'pg';
import type { DatabaseHandle } from './client';

export type SessionLockOutcome<T> = { status: 'ran'; value: T } | { status: 'busy' } | { status: 'no-session' };

type SessionDatabase = Pick<DatabaseHandle, 'sessionPool' | 'keepsSessions'>;

/**
 * Runs `work` under the session advisory lock `key`: `wait` until it is free, or `try` and answer `busy` when
 * another process holds it; `work` gets the lock's connection. `no-session` unless `keepsSessions`: through a
 * transaction-mode pooler the lock and its unlock would land on different server connections (ADR 0052).
 */
export async function withSessionLock<T>(
  database: SessionDatabase,
  key: number,
  mode: 'try' | 'wait',
  work: (lockClient: pg.PoolClient) => Promise<T>,
): Promise<SessionLockOutcome<T>> {
  if (!database.sessionPool || !(await database.keepsSessions())) return { status: 'no-session' };
  const lockClient = await database.sessionPool.connect();
  try {
    if (mode === 'wait') await lockClient.query('select pg_advisory_lock($1)', [key]);
    else {
      const [lock] = (await lockClient.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key])).rows;
      if (!lock?.locked) return { status: 'busy' };
    }
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
 * Runs `work` in one transaction under the transaction advisory lock `key`, or answers `busy`. The commit
 * releases it on the server connection it ran on: safe through a transaction-mode pooler.
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
