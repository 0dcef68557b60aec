import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { testDatabaseUrlForTools } from '../testing/test-databases';
import { openDatabase } from './client';

const adminUrl = testDatabaseUrlForTools();

/**
 * Seen in the replication process test: PgBouncer's "server conn crashed?" reached a connection that
 * a request held between two statements of a transaction, and the replica died of an unheard 'error'.
 */
describe.skipIf(!adminUrl)('a connection lost while checked out of the pool (postgres)', () => {
  test('fails its next statement and is replaced, and the process carries on (postgres)', async () => {
    const handle = await openDatabase({ url: adminUrl, migrate: false, poolMax: 2 });
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      for (const pool of [handle.pool!, handle.preparedPool!]) {
        const client = await pool.connect();
        const [{ pid }] = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
        // The server ends it while nothing runs on it: a FATAL message, then the socket closes.
        const ended = new Promise((resolve, reject) => {
          client.once('end', resolve);
          setTimeout(() => reject(new Error('the connection did not end within 5 s')), 5000).unref();
        });
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await ended;
        await expect(client.query('select 1')).rejects.toThrow();
        client.release();
        expect((await pool.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
      }
    } finally {
      await admin.end();
      await handle.close();
    }
  });
});
