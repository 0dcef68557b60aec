import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerStat, RequestOf, statCustomers } from '@broker/contract';
import {
  testDatabases,
  startTestApp,
  signInAs,
  seededStaff,
  customerIdsOf,
  apiClient,
  type RunningTestApp,
  type ApiClient,
} from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { refreshCustomerSummaries } from '../../db/customer-summary';
import { seedDemoData } from '../../db/seed';
import { BookResultCache } from './book-result-cache';
import { createCustomerSearch } from './customer-search.repository';
import { interpretKeyword } from './customer-keyword';
import type { CustomerCriteria } from './customer-filters';
import { c } from './customer-tables';

type StatInput = RequestOf<typeof statCustomers>;

/**
 * The client list caches totals and stats of live filters per book version (migration 0013). A
 * repeated request must not count again, and after every kind of write that can change a result
 * the next request must equal a fresh computation: a stale figure here would be a wrong header.
 */

/** `countLive`: the book version and a count of its customers, read in one statement. */
const LIVE_TOTAL = /as "version",\s+\(select count\(\*\) from "customer" "c" where/;
const LIVE_STAT = /^select "c"\."channel" as "channel",\s+count\(\*\)::int as "clients"/;
const VERSION_LOOKUP = /from "staff_book_version" "v" where/;

/** Criteria as a test writes them: the keyword as typed. */
type Filters = Omit<CustomerCriteria, 'corpId' | 'staffId' | 'keyword'> & { keyword?: string };

for (const engine of testDatabases()) {
  describe(`client list totals and stats are cached per book version (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let khgl: ApiClient;
    let khzl: ApiClient;
    let leeKhgl: ApiClient;
    let corpId: number;
    let chanId: number;
    let leeId: number;
    let chanCustomers: number[];
    const statements: string[] = [];

    beforeAll(async () => {
      database = await engine.create({ onQuery: (text) => statements.push(text.trim()) });
      await seedDemoData(database, { customers: 300, seed: 17, asOf: '2026-11-20' });
      // The cache serves the SQL path: a book too large for memory, or none kept in memory (ADR 0035).
      server = await startTestApp(database, { SEARCH_INDEX_MAX_ROWS: '0' });
      khgl = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'khgl' }));
      khzl = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'khzl' }));
      leeKhgl = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying', { agentCode: 'khgl' }));
      const seeded = await seededStaff(database);
      chanId = seeded.staffIds.chanwaiman!;
      corpId = seeded.corpId;
      leeId = seeded.staffIds.leekaying!;
      chanCustomers = await customerIdsOf(database, chanId);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const total = async (body: StatInput, headers = khgl) => (await headers.ok.searchCustomers(body)).total;
    const stat = (body: StatInput, headers = khgl) => headers.ok.statCustomers(body);
    /** Statements the app sends while `action` runs. */
    const sentDuring = async (action: () => Promise<unknown>) => {
      const from = statements.length;
      await action();
      return statements.slice(from);
    };
    /** The same figures from the same code with an empty cache: what a first request would answer. */
    const fresh = async (filters: Filters, staffId = chanId) => {
      const repository = createCustomerSearch(database.db, { id: c.id }, new BookResultCache());
      const criteria = { corpId, staffId, ...filters, keyword: interpretKeyword(filters.keyword) };
      const { total } = await repository.search(criteria, { sortBy: 'totalAssets', sortOrder: 'desc', pageNum: 1, pageSize: 1 });
      const rows = await repository.stat(criteria);
      return {
        total,
        clients: rows.reduce((sum, row) => sum + row.clients, 0),
        totalAssetsHkd: rows.reduce((sum, row) => sum + Math.round(Number(row.totalAssetsHkd) * 100), 0) / 100,
      };
    };
    /** Asks the API for a total and a stat, and expects both to equal a fresh computation. */
    const expectFresh = async (filters: Filters, body: StatInput, headers = khgl) => {
      const expected = await fresh(filters, headers === leeKhgl ? leeId : chanId);
      const header = await stat(body, headers);
      expect({ total: await total(body, headers), clients: header.clients, totalAssetsHkd: header.totalAssetsHkd }).toEqual(expected);
      return expected;
    };

    it('serves a repeated live total and stat without counting again, whatever the order of list filters', async () => {
      const body = { keyword: '陈', channels: ['online', 'branch'] };
      const expected = await fresh({ keyword: '陈', channels: ['online', 'branch'] });
      expect(expected.total).toBeGreaterThan(0);
      let firstStat: CustomerStat | undefined;
      const first = await sentDuring(async () => {
        expect(await total(body)).toBe(expected.total);
        firstStat = await stat(body);
      });
      expect(first.filter((text) => LIVE_TOTAL.test(text))).toHaveLength(1);
      expect(first.filter((text) => LIVE_STAT.test(text))).toHaveLength(1);
      const again = await sentDuring(async () => {
        expect(await total({ ...body, channels: ['branch', 'online'] })).toBe(expected.total);
        expect(await stat({ ...body, channels: ['branch', 'online', 'branch'] })).toEqual(firstStat);
      });
      expect(again.filter((text) => LIVE_TOTAL.test(text))).toEqual([]);
      expect(again.filter((text) => LIVE_STAT.test(text))).toEqual([]);
      expect(again.filter((text) => VERSION_LOOKUP.test(text))).toHaveLength(2);
    });

    it('does not cache what the summary answers', async () => {
      await total({ channels: ['online'] });
      const sent = await sentDuring(() => total({ channels: ['online'] }));
      expect(sent.filter((text) => LIVE_TOTAL.test(text))).toEqual([]);
      // The total comes with the page, in its one statement, from the summary each time.
      expect(sent.filter((text) => /from "staff_book_summary" "b"/.test(text))).toHaveLength(1);
    });

    it('recounts after a profile edit through the API changes a searched field', async () => {
      const body = { keyword: 'Quokka' };
      expect(await expectFresh({ keyword: 'Quokka' }, body)).toMatchObject({ total: 0 });
      const [row] = await database.query<{ version: number }>('select version from customer where id = $1', [chanCustomers[0]]);
      await khzl.ok.updateProfile({ customerId: chanCustomers[0]!, version: row!.version, nameEn: 'Quokka Lam' });
      // The cached "nothing matches" skips reading the page; the new version sends the search back for it.
      const page = await khgl.ok.searchCustomers(body);
      expect({ ids: page.list.map((row) => row.customerId), total: page.total }).toEqual({ ids: [chanCustomers[0]], total: 1 });
      expect(await expectFresh({ keyword: 'Quokka' }, body)).toMatchObject({ total: 1 });
    });

    it('recounts both books after a reassignment', async () => {
      const filters = { assetMinHkd: 1 };
      const body = { assetMin: 1 };
      const chanBefore = await expectFresh(filters, body);
      const leeBefore = await expectFresh(filters, body, leeKhgl);
      const moved = (
        await database.query<{ id: number }>(
          'select id::float8 as id from customer where staff_id = $1 and total_assets_hkd >= 1 order by id limit 3',
          [chanId],
        )
      ).map((row) => row.id);
      await database.query('update customer set staff_id = $1 where id = any($2::bigint[])', [leeId, moved]);
      expect((await expectFresh(filters, body)).total).toBe(chanBefore.total - 3);
      expect((await expectFresh(filters, body, leeKhgl)).total).toBe(leeBefore.total + 3);
      await database.query('update customer set staff_id = $1 where id = any($2::bigint[])', [chanId, moved]);
      expect(await expectFresh(filters, body)).toEqual(chanBefore);
    });

    it('recounts after a price change and the summary refresh', async () => {
      const filters = { assetMinHkd: 100_000 };
      const body = { assetMin: 100_000 };
      const before = await expectFresh(filters, body);
      await database.query(`update security set last_price = last_price * 3 where market = 'HK'`);
      expect(await refreshCustomerSummaries(database)).toBeGreaterThan(0);
      const after = await expectFresh(filters, body);
      expect(after.totalAssetsHkd).toBeGreaterThan(before.totalAssetsHkd);
    });

    it('recounts after a KYC binding, a rebinding to another client and an unbinding', async () => {
      const filters = { kycBound: true };
      const body = { kycBound: true };
      const before = await expectFresh(filters, body);
      const [unbound] = await database.query<{ id: number }>(
        'select id::float8 as id from customer where staff_id = $1 and id not in (select customer_id from kyc_binding) order by id limit 1',
        [chanId],
      );
      await database.query(
        `insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id) values ($1, 'wmCacheTest', $2, $3)`,
        [corpId, unbound!.id, chanId],
      );
      const bound = await expectFresh(filters, body);
      expect(bound.total).toBe(before.total + 1);
      // The same contact bound to another client of the book: the same count, other assets.
      const [other] = await database.query<{ id: number }>(
        `select id::float8 as id from customer where staff_id = $1 and id not in (select customer_id from kyc_binding)
            and total_assets_hkd <> (select total_assets_hkd from customer where id = $2) order by id limit 1`,
        [chanId, unbound!.id],
      );
      await database.query(`update kyc_binding set customer_id = $1 where external_user_id = 'wmCacheTest'`, [other!.id]);
      expect((await expectFresh(filters, body)).totalAssetsHkd).not.toBe(bound.totalAssetsHkd);
      await database.query(`delete from kyc_binding where external_user_id = 'wmCacheTest'`);
      expect(await expectFresh(filters, body)).toEqual(before);
    });

    it('recounts after an account is opened (the keyword matches account numbers)', async () => {
      const body = { keyword: 'QZ900001' };
      expect(await expectFresh({ keyword: 'QZ900001' }, body)).toMatchObject({ total: 0 });
      await database.query(
        `insert into account (corp_id, customer_id, account_no, type, open_date) values ($1, $2, 'QZ900001', 'cash', '2026-11-01')`,
        [corpId, chanCustomers[2]],
      );
      expect(await expectFresh({ keyword: 'QZ900001' }, body)).toMatchObject({ total: 1 });
      await database.query(`update account set account_no = 'QZ900002' where account_no = 'QZ900001'`);
      expect(await expectFresh({ keyword: 'QZ900001' }, body)).toMatchObject({ total: 0 });
      expect(await expectFresh({ keyword: 'QZ900002' }, { keyword: 'QZ900002' })).toMatchObject({ total: 1 });
      await database.query(`delete from account where account_no = 'QZ900002'`);
      expect(await expectFresh({ keyword: 'QZ900002' }, { keyword: 'QZ900002' })).toMatchObject({ total: 0 });
    });

    it('recounts after the importer’s upsert, a delete and a truncation', async () => {
      const filters = { keyword: '陈' };
      const body = { keyword: '陈' };
      const before = await expectFresh(filters, body);
      const columns = `corp_id, staff_id, customer_no, channel, name_cn, name_en, id_doc_type, id_doc_masked, id_doc_last4, risk_level, status, open_date, total_assets_hkd`;
      const [existing] = await database.query<{ customer_no: string }>(
        `select customer_no from customer where staff_id = $1 and name_cn like '%陈%' order by id limit 1`,
        [chanId],
      );
      // One new 陈 for this book and one existing 陈 moved to another manager, as the importer writes them.
      await database.query(
        `insert into customer (${columns}) values
           ($1, $2, 'CACHE-NEW', 'wealth', '陈新客', 'New Client', 'hkid', 'A1**0001', '0001', 3, 'active', '2026-11-01', 123456.78),
           ($1, $3, $4, 'wealth', '陈旧客', 'Old Client', 'hkid', 'A1**0002', '0002', 3, 'active', '2020-01-01', 0)
         on conflict (corp_id, customer_no) do update set staff_id = excluded.staff_id`,
        [corpId, chanId, leeId, existing!.customer_no],
      );
      expect((await expectFresh(filters, body)).total).toBe(before.total);
      // A plain insert (the upsert above also fired the update trigger, for both books).
      await database.query(
        `insert into customer (${columns}) values ($1, $2, 'CACHE-NEW-2', 'online', '陈又新', 'Another Client', 'hkid', 'A1**0003', '0003', 3, 'active', '2026-11-02', 10)`,
        [corpId, chanId],
      );
      expect((await expectFresh(filters, body)).total).toBe(before.total + 1);
      await database.query(`delete from customer where customer_no in ('CACHE-NEW', 'CACHE-NEW-2')`);
      expect((await expectFresh(filters, body)).total).toBe(before.total - 1);
      await database.query('truncate customer restart identity cascade');
      expect(await expectFresh(filters, body)).toEqual({ total: 0, clients: 0, totalAssetsHkd: 0 });
    });
  });
}

describe('BookResultCache', () => {
  it('serves an entry only under the version it was stored with, and keeps the newer of two', async () => {
    const cache = new BookResultCache(2);
    let computed = 0;
    const compute = async () => ++computed;
    expect(await cache.getOrCompute('a', '1', compute)).toBe(1);
    expect(await cache.getOrCompute('a', '1', compute)).toBe(1);
    expect(await cache.getOrCompute('a', '2', compute)).toBe(2);
    // A slow request that read version 1 computes, but does not replace the entry of version 2.
    expect(await cache.getOrCompute('a', '1', compute)).toBe(3);
    expect(await cache.getOrCompute('a', '2', compute)).toBe(2);
  });

  it('drops the least recently used entry beyond its capacity', async () => {
    const cache = new BookResultCache(2);
    let computed = 0;
    const compute = async () => ++computed;
    await cache.getOrCompute('a', '1', compute);
    await cache.getOrCompute('b', '1', compute);
    await cache.getOrCompute('a', '1', compute);
    await cache.getOrCompute('c', '1', compute);
    expect(cache.size).toBe(2);
    expect(await cache.getOrCompute('a', '1', compute)).toBe(1);
    expect(await cache.getOrCompute('b', '1', compute)).toBe(4);
  });
});
