import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTestDatabase, testDatabases } from '../testing';
import { runDailyMotSweep } from '../modules/mot';
import { openDatabase, type DatabaseHandle } from './client';
import { withSessionLock, withTryTransactionLock } from './advisory-lock';
import { seedDemoDataIfEmpty } from './seed';

/*
 * ADR 0052: a session advisory lock is taken only on connections proven to keep their session (a
 * NOTIFY sent through DATABASE_URL reaches a LISTEN on them), and the session cache's LISTEN is live
 * only once it has heard such a notification itself. A transaction-mode pooler is stood in for by a
 * DATABASE_DIRECT_URL naming another database: a LISTEN there succeeds and never hears what is sent
 * through DATABASE_URL, just as through PgBouncer (the replication process test has the real one).
 */
const postgres = testDatabases().filter((engine) => engine.kind === 'postgres');
const PROOF_MS = 300;

describe('session locks and LISTEN (pglite)', () => {
  it('one process, one connection: its session is proven by construction, and its LISTEN is live at once', async () => {
    const handle = await pgliteTestDatabase.create({ migrate: false });
    try {
      expect(await handle.keepsSessions()).toBe(true);
      const live: boolean[] = [];
      const stop = await handle.listen('broker_session_changed', { onNotify: () => undefined, onLive: (state) => live.push(state) });
      expect(live).toEqual([true]);
      await stop();
    } finally {
      await handle.close();
    }
  });
});

for (const engine of postgres) {
  describe(`session locks and LISTEN only on proven sessions (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void>; url?: string };
    let elsewhere: DatabaseHandle & { drop(): Promise<void>; url?: string };
    const opened: DatabaseHandle[] = [];
    const open = async (options: { directUrl?: string } = {}) => {
      const handle = await openDatabase({ url: database.url!, migrate: false, poolMax: 2, sessionProofTimeoutMs: PROOF_MS, ...options });
      opened.push(handle);
      return handle;
    };
    /** Advisory locks anyone holds on the database right now. */
    const advisoryLocks = () =>
      database.query<{ objid: number }>(
        `select objid::int as objid from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );

    beforeAll(async () => {
      database = await engine.create();
      elsewhere = await engine.create({ migrate: false });
    });
    afterAll(async () => {
      for (const handle of opened) await handle.close();
      await elsewhere?.drop();
      await database?.drop();
    });

    it('a direct connection proves its session: locks are taken, and the LISTEN goes live', async () => {
      const handle = await open();
      expect(await handle.keepsSessions()).toBe(true);
      expect(await withSessionLock(handle, 4242, 'try', async () => 'done')).toEqual({ status: 'ran', value: 'done' });
      const live: boolean[] = [];
      const stop = await handle.listen('broker_session_changed', { onNotify: () => undefined, onLive: (state) => live.push(state) });
      expect(live).toEqual([true]);
      await stop();
      expect(await advisoryLocks()).toEqual([]);
    });

    it('a connection that does not hear DATABASE_URL takes no session lock and never goes live', async () => {
      const handle = await open({ directUrl: elsewhere.url! });
      const started = performance.now();
      expect(await handle.keepsSessions()).toBe(false);
      expect(performance.now() - started).toBeGreaterThanOrEqual(PROOF_MS - 10);
      expect(await withSessionLock(handle, 4242, 'try', async () => 'done')).toEqual({ status: 'no-session' });
      expect(await withSessionLock(handle, 4242, 'wait', async () => 'done')).toEqual({ status: 'no-session' });

      const live: boolean[] = [];
      const problems: string[] = [];
      const stop = await handle.listen('broker_session_changed', {
        onNotify: () => undefined,
        onLive: (state) => live.push(state),
        onUnproven: (problem) => problems.push(problem),
      });
      try {
        expect(live).not.toContain(true);
        expect(problems[0]).toMatch(/LISTEN on DATABASE_DIRECT_URL .* did not hear a notification sent through DATABASE_URL within 300 ms/);
      } finally {
        await stop();
      }
    });

    it('without a session, the MOT sweep and the demo seed run nothing, and leave no lock', async () => {
      const handle = await open({ directUrl: elsewhere.url! });
      expect(await runDailyMotSweep(handle, { asOf: '2026-11-21' })).toEqual({ status: 'no-session', asOf: '2026-11-21' });
      const said: string[] = [];
      const seeded = await seedDemoDataIfEmpty(handle, {
        customers: 20,
        corpCode: 'demo',
        asOf: '2026-11-21',
        log: (line) => said.push(line),
      });
      expect(seeded).toBeNull();
      expect(said.join('\n')).toMatch(/no session to seed under/);
      const [{ customers } = { customers: -1 }] = await database.query<{ customers: number }>(
        'select count(*)::int as customers from customer',
      );
      expect(customers).toBe(0);
      const [{ runs } = { runs: -1 }] = await database.query<{ runs: number }>('select count(*)::int as runs from mot_sweep_run');
      expect(runs).toBe(0);
      expect(await advisoryLocks()).toEqual([]);
    });

    it('a transaction lock is released with its transaction, and a second taker meanwhile is told busy', async () => {
      const handle = await open();
      const outcome = await withTryTransactionLock(handle.pool!, 4343, async () => {
        const locks = await advisoryLocks();
        const other = await withTryTransactionLock(database.pool!, 4343, async () => 'should not run');
        return { locks: locks.map((lock) => lock.objid), other };
      });
      expect(outcome).toEqual({ status: 'ran', value: { locks: [4343], other: { status: 'busy' } } });
      expect(await advisoryLocks()).toEqual([]);
      await expect(withTryTransactionLock(handle.pool!, 4343, async () => Promise.reject(new Error('failed inside')))).rejects.toThrow(
        'failed inside',
      );
      expect(await advisoryLocks()).toEqual([]);
    });

    it('replicas migrating an empty database together apply each migration once, and hold no lock afterwards', async () => {
      const fresh = await engine.create({ migrate: false });
      try {
        const replicas = await Promise.all(
          [0, 1, 2].map(() => openDatabase({ url: fresh.url!, poolMax: 1, sessionProofTimeoutMs: PROOF_MS })),
        );
        for (const replica of replicas) await replica.close();
        const [{ applied, distinct } = { applied: 0, distinct: 0 }] = await fresh.query<{ applied: number; distinct: number }>(
          'select count(*)::int as applied, count(distinct created_at)::int as distinct from drizzle.__drizzle_migrations',
        );
        expect(applied).toBeGreaterThan(30);
        expect(distinct).toBe(applied);
        const locks = await fresh.query(
          `select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
        );
        expect(locks).toEqual([]);
      } finally {
        await fresh.drop();
      }
    });
  });
}
