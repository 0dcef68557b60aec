import type pg from 'pg';

/**
 * Runs `work` while this process holds the session advisory lock `key` on its own pooled connection, or
 * answers `{ locked: false }` at once when another process holds it (try-lock: replicas take turns, none
 * waits). The lock's connection is handed to `work` for statements that must run under it (a pool of one
 * would otherwise wait for itself); the lock is released, and the connection returned, whatever happens.
 */
export async function withTryAdvisoryLock<T>(
  pool: pg.Pool,
  key: number,
  work: (lockClient: pg.PoolClient) => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  const lockClient = await pool.connect();
  try {
    const [lock] = (await lockClient.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key])).rows;
    if (!lock?.locked) return { locked: false };
    try {
      return { locked: true, value: await work(lockClient) };
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
    }
  } finally {
    lockClient.release();
  }
}
