import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STAFF } from './reference-data';
import { testDatabases } from '../../testing';
import type { DatabaseHandle } from '../client';
import { seedDemoData, SeedRefusedError } from './seed-demo-data';
import { seedDemoDataIfEmpty } from './seed-on-start';

type TestDb = DatabaseHandle & { drop(): Promise<void> };

const AS_OF = '2026-11-20';
const CUSTOMERS = 400;

/** One digest per generated table, over every column, in a stable order. */
async function fingerprint(database: DatabaseHandle) {
  const tables: Record<string, string> = {
    customer: 'id',
    account: 'id',
    cash_balance: 'account_id, currency',
    holding: 'account_id, security_id',
    trade: 'id',
    money_movement: 'id',
    stock_transfer: 'id',
    security: 'symbol',
    exchange_rate: 'currency, rate_date',
  };
  const digests: Record<string, string> = {};
  for (const [table, order] of Object.entries(tables)) {
    // created_at/updated_at are wall-clock; everything else must be reproducible.
    const [row] = await database.query<{ digest: string }>(
      `select md5(coalesce(string_agg((to_jsonb(t) - 'created_at' - 'updated_at')::text, '|' order by ${order}), '')) as digest from ${table} t`,
    );
    digests[table] = row!.digest;
  }
  return digests;
}

const count = async (database: DatabaseHandle, sql: string, params: unknown[] = []) =>
  Number((await database.query<{ n: string }>(sql, params))[0]!.n);

for (const engine of testDatabases()) {
  describe(`demo data generator (${engine.kind})`, () => {
    let first: TestDb;
    let second: TestDb;
    let other: TestDb;

    beforeAll(async () => {
      [first, second, other] = await Promise.all([engine.create(), engine.create(), engine.create()]);
      await seedDemoData(first, { customers: CUSTOMERS, seed: 7, asOf: AS_OF });
      await seedDemoData(second, { customers: CUSTOMERS, seed: 7, asOf: AS_OF });
      await seedDemoData(other, { customers: CUSTOMERS, seed: 8, asOf: AS_OF });
    });
    afterAll(async () => {
      await Promise.all([first?.drop(), second?.drop(), other?.drop()]);
    });

    it('gives identical data for the same seed and different data for another seed', async () => {
      const a = await fingerprint(first);
      expect(await fingerprint(second)).toEqual(a);
      const c = await fingerprint(other);
      expect(c.customer).not.toBe(a.customer);
      expect(c.trade).not.toBe(a.trade);
    });

    it('creates realistic volumes: every customer has an account, most have history', async () => {
      expect(await count(first, 'select count(*) as n from customer')).toBe(CUSTOMERS);
      expect(
        await count(first, 'select count(*) as n from customer c where not exists (select 1 from account a where a.customer_id = c.id)'),
      ).toBe(0);
      expect(await count(first, 'select count(*) as n from trade')).toBeGreaterThan(CUSTOMERS * 3);
      expect(await count(first, 'select count(*) as n from money_movement')).toBeGreaterThan(CUSTOMERS);
      expect(await count(first, 'select count(*) as n from stock_transfer')).toBeGreaterThan(0);
      const statuses = await first.query<{ status: string }>('select distinct status from customer order by status');
      expect(statuses.map((row) => row.status)).toEqual(['active', 'closed', 'dormant']);
    });

    it('writes a few contact records, every channel and purpose among them, all locked and each a first version', async () => {
      const records = await first.query<{ channel: string; purpose: string; locked: boolean; first: boolean; suits: boolean }>(
        `select channel, purpose, locks_at <= now() as locked, thread_id = id and version = 1 as first,
                (purpose <> 'recommendation' or suitability is not null) as suits
           from contact_record`,
      );
      expect(records.length).toBeGreaterThan(40);
      expect(records.length).toBeLessThanOrEqual(200);
      expect(new Set(records.map((record) => record.channel))).toEqual(new Set(['phone', 'wecom', 'meeting', 'email', 'other']));
      expect(new Set(records.map((record) => record.purpose)).size).toBe(8);
      expect(records.every((record) => record.locked && record.first && record.suits)).toBe(true);
    });

    it('holds exactly what trades and transfers add up to', async () => {
      const mismatches = await count(
        first,
        `with movements as (
           select account_id, security_id, case side when 'buy' then quantity else -quantity end as q from trade
           union all
           select account_id, security_id, case direction when 'in' then quantity else -quantity end from stock_transfer
         ), net as (select account_id, security_id, sum(q) as q from movements group by 1, 2)
         select count(*) as n from net full join holding h using (account_id, security_id)
         where coalesce(net.q, 0) <> coalesce(h.quantity, 0)`,
      );
      expect(mismatches).toBe(0);
      expect(await count(first, 'select count(*) as n from holding where quantity <= 0')).toBe(0);
    });

    it('never lets a cash account go negative; only margin accounts borrow', async () => {
      expect(
        await count(
          first,
          `select count(*) as n from cash_balance b join account a on a.id = b.account_id where b.balance < 0 and a.type <> 'margin'`,
        ),
      ).toBe(0);
      expect(
        await count(
          first,
          `select count(*) as n from cash_balance b join account a on a.id = b.account_id where b.balance < 0 and b.currency <> 'HKD'`,
        ),
      ).toBe(0);
    });

    it('assigns every customer to a staff member of the same corp, including the emulator users', async () => {
      expect(
        await count(first, 'select count(*) as n from customer c join staff s on s.id = c.staff_id where s.corp_id <> c.corp_id'),
      ).toBe(0);
      const rows = await first.query<{ wecom_user_id: string; n: string }>(
        'select s.wecom_user_id, count(c.id)::text as n from staff s left join customer c on c.staff_id = s.id group by 1',
      );
      expect(rows).toHaveLength(10);
      for (const member of DEMO_STAFF) expect(Number(rows.find((row) => row.wecom_user_id === member.userid)?.n)).toBeGreaterThan(0);
    });

    it('keeps the business story straight: closed customers are emptied, dormant ones went quiet', async () => {
      expect(
        await count(first, `select count(*) as n from holding h join customer c on c.id = h.customer_id where c.status = 'closed'`),
      ).toBe(0);
      expect(await count(first, `select count(*) as n from customer where status = 'closed' and total_assets_hkd <> 0`)).toBe(0);
      expect(
        await count(first, `select count(*) as n from customer where status = 'dormant' and last_trade_date > date '${AS_OF}' - 180`),
      ).toBe(0);
      expect(
        await count(first, 'select count(*) as n from trade where settle_date < traded_at::date or traded_at::date > $1::date', [AS_OF]),
      ).toBe(0);
      expect(await count(first, `select count(*) as n from trade where abs(amount - round(quantity * price, 2)) > 0.01`)).toBe(0);
      expect(
        await count(
          first,
          'select count(*) as n from trade t join security s on s.id = t.security_id where t.quantity % s.lot_size <> 0 and t.side = $1',
          ['buy'],
        ),
      ).toBe(0);
    });

    it('stores only masked identity documents, with the last four characters for search', async () => {
      const rows = await first.query<{ id_doc_masked: string; id_doc_last4: string }>('select id_doc_masked, id_doc_last4 from customer');
      for (const row of rows) {
        expect(row.id_doc_masked).toMatch(/\*/);
        expect(row.id_doc_masked.endsWith(row.id_doc_last4)).toBe(true);
      }
    });

    it('keeps the denormalised summaries equal to the detail rows', async () => {
      const wrong = await count(
        first,
        `with rate as (select distinct on (currency) currency, rate from exchange_rate order by currency, rate_date desc),
         cash as (select a.customer_id, sum(b.balance / r.rate) as v from cash_balance b join account a on a.id = b.account_id join rate r using (currency) group by 1),
         mv as (select h.customer_id, sum(h.quantity * s.last_price / r.rate) as v from holding h join security s on s.id = h.security_id join rate r on r.currency = s.currency group by 1),
         lt as (select customer_id, max((traded_at at time zone 'Asia/Hong_Kong')::date) as d from trade group by 1)
         select count(*) as n from customer c left join cash on cash.customer_id = c.id left join mv on mv.customer_id = c.id left join lt on lt.customer_id = c.id
         where abs(c.total_assets_hkd - (coalesce(cash.v, 0) + coalesce(mv.v, 0))) > 0.02 or c.last_trade_date is distinct from lt.d`,
      );
      expect(wrong).toBe(0);
    });

    it('uses the documented exchange-rate convention (units per HKD)', async () => {
      const rates = await first.query<{ currency: string; rate: string }>(
        `select distinct on (currency) currency, rate::text from exchange_rate order by currency, rate_date desc`,
      );
      expect(Object.fromEntries(rates.map((row) => [row.currency, Number(row.rate)]))).toEqual({ CNY: 0.931, HKD: 1, USD: 0.1285 });
    });

    it('refuses to seed over existing customers, and the start-up seed then does nothing', async () => {
      await expect(seedDemoData(first, { customers: 5, seed: 1, asOf: AS_OF })).rejects.toBeInstanceOf(SeedRefusedError);
      const result = await seedDemoDataIfEmpty(first, { customers: 5, corpCode: 'fxhl', asOf: AS_OF, log: () => undefined });
      expect(result).toBeNull();
      expect(await count(first, 'select count(*) as n from customer')).toBe(CUSTOMERS);
    });
  });
}
