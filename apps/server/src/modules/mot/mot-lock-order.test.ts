import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { runMotRules } from './mot-engine';

/*
 * Migration 0032: every write to mot_event takes the manager's rank version row before the pending-count rows.
 * Two writers of one manager's events with the same day and rule — one handling an event (its contact record
 * has already bumped the rank version), one marking another event seen — deadlocked when the count trigger
 * fired first. Only PostgreSQL has concurrent sessions (PGlite is one connection).
 */
const AS_OF = '2026-11-20';
const postgres = testDatabases().filter((engine) => engine.kind === 'postgres');

for (const engine of postgres) {
  describe(`mot_event writers take one lock order (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 120, seed: 9, asOf: AS_OF });
      await runMotRules(database, { asOf: AS_OF });
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('a "seen" and a handle of two events sharing a count row both commit (no deadlock)', async () => {
      // Two new events of one manager, one day and one counted rule: they share a mot_pending_count row.
      const [pair] = await database.query<{ corpId: number; staffId: number; first: number; second: number }>(
        `select corp_id as "corpId", staff_id as "staffId", min(id)::float8 as first, max(id)::float8 as second
           from mot_event where status = 'new' and rule not in ('large_deposit', 'large_withdrawal')
          group by corp_id, staff_id, due_date, rule having count(*) >= 2 limit 1`,
      );
      expect(pair, 'two new events sharing a count row').toBeDefined();
      const countOf = async () => {
        const [row] = await database.query<{ unseen: number }>(
          `select p.unseen from mot_pending_count p join mot_event e
             on e.staff_id = p.staff_id and e.due_date = p.due_date and e.rule = p.rule and e.corp_id = p.corp_id
           where e.id = $1`,
          [pair!.first],
        );
        return row!.unseen;
      };
      const unseenBefore = await countOf();

      const handling = await database.pool!.connect();
      const seeing = await database.pool!.connect();
      try {
        // The handle's transaction: its contact record insert has bumped the manager's rank version (the same function).
        await handling.query('begin');
        await handling.query('select mot_rank_version_bump(array[$1::int], array[$2::int])', [pair!.corpId, pair!.staffId]);
        const [{ pid }] = (await seeing.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
        // Another request marks the other event seen, and waits for a lock the handle holds.
        const seen = seeing.query(`update mot_event set status = 'seen', seen_at = now() where id = $1`, [pair!.first]).then(
          (result) => result.rowCount,
          (error: unknown) => error,
        );
        await expect
          .poll(
            async () =>
              (
                await database.query<{ waiting: boolean }>(
                  `select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1`,
                  [pid],
                )
              )[0]?.waiting,
            {
              timeout: 10_000,
            },
          )
          .toBe(true);
        // The handle now updates its own event. With the count trigger first, the "seen" held the count row here
        // and waited for the rank version row: PostgreSQL broke the cycle by failing one of them (40P01).
        await handling.query(
          `update mot_event set status = 'handled', handled_at = now(), seen_at = coalesce(seen_at, now()) where id = $1`,
          [pair!.second],
        );
        await handling.query('commit');
        expect(await seen).toBe(1);
      } finally {
        await handling.query('rollback').catch(() => undefined);
        handling.release();
        seeing.release();
      }
      expect(await countOf()).toBe(unseenBefore - 2);
    });
  });
}
