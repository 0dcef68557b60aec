import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing';
import { openDatabase, type DatabaseHandle } from './client';
import { seedDemoData } from './seed';
import { fillAllSearchTerms, fillSearchTermsStep, searchTerms, SEARCH_TERMS_FILL_LOCK_KEY, startSearchTermsFill } from './search-terms';

/**
 * The background fill of `customer.search_terms` (ADR 0046 §4): a keyset cursor through the ids that
 * starts again from the first once it reaches the end, and one batch at a time across the replicas of
 * one PostgreSQL database.
 */
for (const engine of testDatabases())
  describe(`search terms fill (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void>; url?: string };
    let customers = 0;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 120, seed: 46, asOf: '2026-11-20' });
      customers = (await missingIds()).length + (await filledCount());
    }, 120_000);
    afterAll(async () => {
      await database?.drop();
    });
    /** Every customer without terms, as a database migrated with rows has them. */
    beforeEach(async () => {
      await database.query('update customer set search_terms = null');
    });

    const missingIds = async () =>
      (await database.query<{ id: string }>('select id::text as id from customer where search_terms is null order by customer.id')).map(
        (row) => row.id,
      );
    const filledCount = async () =>
      (await database.query<{ count: number }>('select count(*)::int as count from customer where search_terms is not null'))[0]!.count;
    const expectAllFilledTrue = async () => {
      const rows = await database.query<{ name_cn: string; search_terms: string | null }>('select name_cn, search_terms from customer');
      for (const row of rows) expect(row.search_terms, row.name_cn).toBe(searchTerms(row.name_cn));
    };

    it('walks a cursor: each batch reads the missing rows after the last one read, and the end sends it back to the first', async () => {
      const ids = await missingIds();
      const first = await fillSearchTermsStep(database, '0', 50);
      expect(first).toEqual({ status: 'filled', read: 50, written: 50, nextAfterId: ids[49] });
      const second = await fillSearchTermsStep(database, ids[49], 50);
      expect(second).toEqual({ status: 'filled', read: 50, written: 50, nextAfterId: ids[99] });
      const last = await fillSearchTermsStep(database, ids[99], 50);
      expect(last).toEqual({ status: 'filled', read: customers - 100, written: customers - 100, nextAfterId: '0' });
      expect(await missingIds()).toEqual([]);
      await expectAllFilledTrue();
    });

    it('fills a row renamed behind the cursor in the next round, not before', async () => {
      const ids = await missingIds();
      await fillSearchTermsStep(database, '0', 50);
      const renamed = ids[10]!;
      await database.query(`update customer set name_cn = '何家輝' where id = $1`, [renamed]);
      expect(await missingIds()).toContain(renamed);
      const rest = await fillSearchTermsStep(database, ids[49], customers);
      expect(rest).toMatchObject({ status: 'filled', read: customers - 50, nextAfterId: '0' });
      expect(await missingIds()).toEqual([renamed]);
      expect(await fillSearchTermsStep(database, '0', 50)).toEqual({ status: 'filled', read: 1, written: 1, nextAfterId: '0' });
      expect(
        (await database.query<{ search_terms: string }>('select search_terms from customer where id = $1', [renamed]))[0]!.search_terms,
      ).toBe(searchTerms('何家輝'));
    });

    it('the background fill writes every row, then idles', async () => {
      const heard: number[] = [];
      const stop = startSearchTermsFill(database, { pauseMs: 5, batchSize: 40, onProgress: ({ written }) => heard.push(written) });
      try {
        await expect.poll(missingIds, { timeout: 20_000 }).toEqual([]);
      } finally {
        await stop();
      }
      expect(heard.reduce((sum, written) => sum + written, 0)).toBe(customers);
      await expectAllFilledTrue();
    });

    if (engine.kind === 'postgres') {
      it('answers busy while another replica holds the fill, and fills once it lets go', async () => {
        const other = await openDatabase({ url: database.url!, poolMax: 1, migrate: false });
        try {
          const lockClient = await other.pool!.connect();
          try {
            await lockClient.query('select pg_advisory_lock($1)', [SEARCH_TERMS_FILL_LOCK_KEY]);
            expect(await fillSearchTermsStep(database, '0', 50)).toEqual({ status: 'busy' });
            expect(await filledCount()).toBe(0);
            await lockClient.query('select pg_advisory_unlock($1)', [SEARCH_TERMS_FILL_LOCK_KEY]);
          } finally {
            lockClient.release();
          }
        } finally {
          await other.close();
        }
        expect(await fillSearchTermsStep(database, '0', 50)).toMatchObject({ status: 'filled', written: 50 });
      });

      it('two replicas filling one database compute each row once between them', async () => {
        const replicas = [database, await openDatabase({ url: database.url!, poolMax: 2, migrate: false })];
        const read = [0, 0];
        const stops = replicas.map((replica, index) =>
          startSearchTermsFill(replica, {
            pauseMs: 1,
            batchSize: 30,
            onProgress: (batch) => {
              read[index]! += batch.read;
            },
          }),
        );
        try {
          await expect.poll(missingIds, { timeout: 20_000 }).toEqual([]);
        } finally {
          for (const stop of stops) await stop();
          await replicas[1]!.close();
        }
        // Without the lock, both read the same first rows and compute their terms twice.
        expect(read[0]! + read[1]!).toBe(customers);
        await expectAllFilledTrue();
      });
    }

    it('fills everything at once for tools and tests', async () => {
      expect(await fillAllSearchTerms(database, 7)).toBe(customers);
      expect(await missingIds()).toEqual([]);
    });
  });
