import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData, type DatabaseHandle } from '@broker/server';
import { testDatabases } from '@broker/server/testing';
import { ensureLongHistoryClient, LONG_HISTORY_YEARS } from './long-history';
import { loadBookSample } from './param-generator';

const AS_OF = '2026-11-20';

for (const engine of testDatabases()) {
  describe(`the bench's long-history client (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let staffId: number;
    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 60, seed: 3, asOf: AS_OF });
      const [row] = await database.query<{ id: number }>(
        'select staff_id as id from customer group by staff_id order by count(*) desc, staff_id limit 1',
      );
      staffId = row!.id;
    });
    afterAll(() => database.drop());

    it('reaches five years back with three times the activity, once', async () => {
      const tradesOf = async (customerId: number) =>
        (await database.query<{ n: number }>('select count(*)::int as n from trade where customer_id = $1', [customerId]))[0]!.n;
      const [busiest] = await database.query<{ id: number }>(
        `select t.customer_id::float8 as id from trade t join customer c on c.id = t.customer_id where c.staff_id = $1
          group by 1 order by count(*) desc, 1 limit 1`,
        [staffId],
      );
      const tradesBefore = await tradesOf(busiest!.id);
      const first = await ensureLongHistoryClient(database, staffId, AS_OF);
      expect(first.customerId).toBe(busiest!.id);
      expect(first.trades).toBe(3 * tradesBefore);
      expect(first.written).toBe(true);
      expect(first.firstAt <= `${Number(AS_OF.slice(0, 4)) - LONG_HISTORY_YEARS}${AS_OF.slice(4)}`).toBe(true);
      expect(first.contactRecords).toBeGreaterThanOrEqual(72);
      expect(first.profileEdits).toBe(24);
      expect(first.kycChanges).toBe(3);
      const [owner] = await database.query<{ staffId: number; openDate: string }>(
        `select staff_id as "staffId", open_date::text as "openDate" from customer where id = $1`,
        [first.customerId],
      );
      expect(owner).toEqual({ staffId, openDate: expect.any(String) });
      expect(owner!.openDate <= first.firstAt).toBe(true);
      // Every row written years back is in its month's partition: none is left in a default one (ADR 0053).
      for (const table of ['trade', 'money_movement', 'stock_transfer', 'audit_log'])
        expect(await database.query(`select count(*)::int as rows from ${table}_default`), table).toEqual([{ rows: 0 }]);

      const again = await ensureLongHistoryClient(database, staffId, AS_OF);
      expect(again).toEqual({ ...first, written: false });

      // The MOT sweep measurement truncates contact records: they come back, nothing else doubles.
      await database.query('truncate contact_record_event, contact_record restart identity');
      const afterTruncate = await ensureLongHistoryClient(database, staffId, AS_OF);
      expect(afterTruncate).toEqual({ ...first, contactRecords: 72, written: true });

      // The timeline scenario pages through the book's longest history: this one.
      const book = await loadBookSample(database, staffId, AS_OF);
      expect(book.timelineCustomer?.id).toBe(first.customerId);
    });
  });
}
