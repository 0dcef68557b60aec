import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testDatabases } from '../testing';
import type { DatabaseHandle } from './client';
import { hkDays, rowsQuery, selectRows, selectRowSets } from './sql-rows';

for (const engine of testDatabases()) {
  describe(`selectRowSets and prepared statements (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    const observed: Array<{ text: string; prepared: boolean }> = [];

    beforeAll(async () => {
      database = await engine.create({ onQuery: (text, _params, prepared) => observed.push({ text, prepared: prepared === true }) });
    });
    afterAll(async () => {
      await database?.drop();
    });

    const numbers = (from: number, to: number) =>
      rowsQuery<{ n: number; label: string; even: boolean; tags: string[] }>(
        sql`select g::float8 as n, 'n' || g as label, g % 2 = 0 as even, array['a', 'b' || g] as tags
              from generate_series(${from}::int, ${to}::int) g order by g desc`,
      );

    it('counts a Hong Kong day as 24 hours on a session TimeZone with daylight saving (New York, 8 March 2026)', async () => {
      const served = sql`'2026-03-08 23:30+08'::timestamptz`;
      const [row] = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local timezone = 'America/New_York'`);
        const within = sql.join(hkDays(served, { dateFrom: '2026-03-08', dateTo: '2026-03-08' }), sql` and `);
        const nextDay = sql.join(hkDays(served, { dateFrom: '2026-03-09' }), sql` and `);
        return selectRows(tx, rowsQuery<{ within: boolean; nextDay: boolean }>(sql`select ${within} as within, ${nextDay} as "nextDay"`));
      });
      expect(row).toEqual({ within: true, nextDay: false });
    });

    it('returns every set in one statement, in each query’s order, with the values selectRows would give', async () => {
      observed.length = 0;
      const sets = await selectRowSets(database.db, { high: numbers(3, 5), none: numbers(2, 1), one: numbers(7, 7) });
      expect(observed).toHaveLength(1);
      expect(sets.high).toEqual(await selectRows(database.db, numbers(3, 5)));
      expect(sets.high).toEqual([
        { n: 5, label: 'n5', even: false, tags: ['a', 'b5'] },
        { n: 4, label: 'n4', even: true, tags: ['a', 'b4'] },
        { n: 3, label: 'n3', even: false, tags: ['a', 'b3'] },
      ]);
      expect(sets.none).toEqual([]);
      expect(sets.one.map((row) => row.n)).toEqual([7]);
    });

    it(
      engine.kind === 'postgres'
        ? 'runs `prepare: true` as a named statement, with the same rows, and reuses it across calls'
        : 'runs `prepare: true` as an ordinary query (PGlite has no plan cache to reuse), reported as prepared',
      async () => {
        observed.length = 0;
        const first = await selectRowSets(database.db, { high: numbers(3, 5) }, { prepare: true });
        const second = await selectRowSets(database.db, { high: numbers(1, 2) }, { prepare: true });
        expect(first.high.map((row) => row.n)).toEqual([5, 4, 3]);
        expect(second.high.map((row) => row.n)).toEqual([2, 1]);
        expect(observed.map((entry) => entry.prepared)).toEqual([true, true]);
        // Same text, different values: one statement name for both calls.
        expect(new Set(observed.map((entry) => entry.text)).size).toBe(1);
      },
    );

    if (engine.kind === 'postgres') {
      it('runs the app’s statements without parallel workers, on every pooled connection; prepared ones always on their generic plan', async () => {
        // Several at once, so each pool opens more than one connection.
        const settingsOf = (prepare: boolean) =>
          Promise.all(
            Array.from({ length: 4 }, async () => {
              const [row] = await selectRows<{ workers: string; planCache: string }>(
                database.db,
                sql`select current_setting('max_parallel_workers_per_gather') as workers,
                           current_setting('plan_cache_mode') as "planCache", pg_sleep(0.05)::text as slept`,
                { prepare },
              );
              return row!;
            }),
          );
        expect(await settingsOf(false)).toEqual(Array(4).fill({ workers: '0', planCache: 'auto', slept: '' }));
        expect(await settingsOf(true)).toEqual(Array(4).fill({ workers: '0', planCache: 'force_generic_plan', slept: '' }));
      });
    }
  });
}
