import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOf, statCustomers } from '@broker/contract';
import {
  testDatabases,
  startTestApp,
  signInAs,
  apiClient,
  seededStaff,
  customerIdsOf,
  type RunningTestApp,
  type ApiClient,
} from '../testing';
import type { DatabaseHandle } from './client';
import { refreshCustomerSummaries } from './customer-summary';
import { seedDemoData } from './seed';

type StatInput = RequestOf<typeof statCustomers>;

/**
 * `staff_book_summary` (migration 0006) answers the client list's header for a whole book. It is
 * kept by triggers on `customer`, so every kind of write must leave it equal to a recount.
 */

/** Summary rows that disagree with a recount of `customer` (empty when in step). */
const drift = (database: DatabaseHandle) =>
  database.query<Record<string, unknown>>(
    `with counted as (
       select corp_id, staff_id, channel, status, held_markets, count(*)::int as clients, sum(total_assets_hkd) as assets
         from customer group by corp_id, staff_id, channel, status, held_markets
     ),
     kept as (
       select corp_id, staff_id, channel, status, held_markets, clients, total_assets_hkd as assets
         from staff_book_summary where clients <> 0 or total_assets_hkd <> 0
     )
     select coalesce(counted.staff_id, kept.staff_id) as staff_id, coalesce(counted.channel, kept.channel) as channel,
            coalesce(counted.status, kept.status) as status, coalesce(counted.held_markets, kept.held_markets) as held_markets,
            counted.clients as counted, kept.clients as kept, counted.assets::text as counted_assets, kept.assets::text as kept_assets
       from counted full join kept using (corp_id, staff_id, channel, status, held_markets)
      where counted.clients is distinct from kept.clients or counted.assets is distinct from kept.assets`,
  );

for (const engine of testDatabases()) {
  describe(`staff book summary stays equal to the customers (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let khzl: ApiClient;
    let khgl: ApiClient;
    let chanId: number;
    let leeId: number;
    let chanCustomers: number[];

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 300, seed: 11, asOf: '2026-11-20' });
      server = await startTestApp(database);
      khzl = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'khzl' }));
      khgl = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'khgl' }));
      const { staffIds } = await seededStaff(database);
      chanId = staffIds.chanwaiman!;
      leeId = staffIds.leekaying!;
      chanCustomers = await customerIdsOf(database, chanId);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const stat = (body: StatInput = {}) => khgl.ok.statCustomers(body);
    /** The same header computed from the customer rows, as the statistics did before the summary. */
    const recount = async (where = 'true') => {
      const [row] = await database.query<{ clients: number; active: number; assets: string }>(
        `select count(*)::int as clients, (count(*) filter (where status = 'active'))::int as active, coalesce(sum(total_assets_hkd), 0)::text as assets
           from customer where staff_id = $1 and ${where}`,
        [chanId],
      );
      return { clients: row!.clients, active: row!.active, totalAssetsHkd: Number(row!.assets) };
    };

    it('starts equal to a recount, and the header and list total come from it', async () => {
      expect(await drift(database)).toEqual([]);
      const header = await stat();
      expect({ clients: header.clients, active: header.active, totalAssetsHkd: header.totalAssetsHkd }).toEqual(await recount());
      const list = await khgl.ok.searchCustomers({ channels: ['online', 'branch'] });
      expect(list.total).toBe((await recount(`channel in ('online', 'branch')`)).clients);
    });

    it('is untouched by a profile edit through the API', async () => {
      const before = await database.query('select * from staff_book_summary order by staff_id, channel, status');
      const [row] = await database.query<{ version: number }>('select version from customer where id = $1', [chanCustomers[0]]);
      await khzl.ok.updateProfile({
        customerId: chanCustomers[0]!,
        version: row!.version,
        remark: 'summary test',
        tags: ['vip'],
      });
      expect(await database.query('select * from staff_book_summary order by staff_id, channel, status')).toEqual(before);
      expect(await drift(database)).toEqual([]);
    });

    it('follows a reassignment to another manager, both books at once', async () => {
      const moved = chanCustomers.slice(0, 5);
      const chanBefore = await stat();
      await database.query('update customer set staff_id = $1 where id = any($2::bigint[])', [leeId, moved]);
      expect(await drift(database)).toEqual([]);
      const chanAfter = await stat();
      expect(chanAfter.clients).toBe(chanBefore.clients - moved.length);
      expect(chanAfter).toMatchObject(await recount());
      await database.query('update customer set staff_id = $1 where id = any($2::bigint[])', [chanId, moved]);
      expect(await stat()).toEqual(chanBefore);
    });

    it('follows status and channel changes', async () => {
      await database.query(`update customer set status = 'dormant', channel = 'ifa' where id = any($1::bigint[])`, [
        chanCustomers.slice(5, 9),
      ]);
      expect(await drift(database)).toEqual([]);
      expect(await stat({ statuses: ['dormant'] })).toMatchObject({ clients: (await recount(`status = 'dormant'`)).clients });
      expect((await stat({ channels: ['ifa'] })).byChannel).toEqual([
        { channel: 'ifa', ...(({ clients, totalAssetsHkd }) => ({ clients, totalAssetsHkd }))(await recount(`channel = 'ifa'`)) },
      ]);
    });

    it('follows total assets when summaries are refreshed after a price change', async () => {
      const before = await stat();
      await database.query(`update security set last_price = last_price * 2 where market = 'HK'`);
      expect(await refreshCustomerSummaries(database)).toBeGreaterThan(0);
      expect(await drift(database)).toEqual([]);
      const after = await stat();
      expect(after.totalAssetsHkd).toBeGreaterThan(before.totalAssetsHkd);
      expect(after).toMatchObject({ totalAssetsHkd: (await recount()).totalAssetsHkd });
    });

    it('follows the markets a client holds, so the markets and hasHolding filters are summed from it (migration 0012)', async () => {
      const [holder] = await database.query<{ id: number; held_markets: string[] }>(
        `select id::float8 as id, held_markets from customer where staff_id = $1 and 'HK' = any(held_markets) order by id limit 1`,
        [chanId],
      );
      const hkBefore = await stat({ markets: ['HK'] });
      // The client sells every HK position; the nightly refresh drops HK from its markets.
      await database.query(
        `update holding h set quantity = 0 from security s where s.id = h.security_id and s.market = 'HK' and h.customer_id = $1`,
        [holder!.id],
      );
      await refreshCustomerSummaries(database);
      expect(await drift(database)).toEqual([]);
      const hkAfter = await stat({ markets: ['HK'] });
      expect(hkAfter.clients).toBe(hkBefore.clients - 1);
      expect(hkAfter).toMatchObject(await recount(`held_markets && array['HK']`));
      for (const hasHolding of [true, false]) {
        const expected = await recount(hasHolding ? `held_markets <> '{}'` : `held_markets = '{}'`);
        expect(await stat({ hasHolding })).toMatchObject(expected);
        const list = await khgl.ok.searchCustomers({ hasHolding, channels: ['online', 'branch'] });
        expect(list.total).toBe(
          (await recount(`${hasHolding ? `held_markets <> '{}'` : `held_markets = '{}'`} and channel in ('online', 'branch')`)).clients,
        );
      }
    });

    it('follows the importer’s upsert (insert and update in one statement), deletes and truncation', async () => {
      const corpId = (await database.query<{ id: number }>('select id from corp limit 1'))[0]!.id;
      const columns = `corp_id, staff_id, customer_no, channel, name_cn, name_en, id_doc_type, id_doc_masked, id_doc_last4, risk_level, status, open_date, total_assets_hkd`;
      const [existing] = await database.query<{ customer_no: string }>('select customer_no from customer where id = $1', [
        chanCustomers[10],
      ]);
      // One new customer and one existing one moved to another manager and channel, as the importer writes them.
      await database.query(
        `insert into customer (${columns}) values
           ($1, $2, 'SUMMARY-NEW', 'wealth', '新客', 'New Client', 'hkid', 'A1**0001', '0001', 3, 'active', '2026-11-01', 123456.78),
           ($1, $3, $4, 'wealth', '旧客', 'Old Client', 'hkid', 'A1**0002', '0002', 3, 'active', '2020-01-01', 0)
         on conflict (corp_id, customer_no) do update set staff_id = excluded.staff_id, channel = excluded.channel`,
        [corpId, chanId, leeId, existing!.customer_no],
      );
      expect(await drift(database)).toEqual([]);
      await database.query(`delete from customer where customer_no = 'SUMMARY-NEW'`);
      expect(await drift(database)).toEqual([]);
      expect(await stat()).toMatchObject(await recount());
    });

    it('is not changed by a KYC binding, and filters the summary cannot answer are counted live', async () => {
      const before = await database.query('select * from staff_book_summary order by staff_id, channel, status');
      const corpId = (await database.query<{ corp_id: number }>('select corp_id from customer where id = $1', [chanCustomers[1]]))[0]!
        .corp_id;
      await database.query(
        `insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id) values ($1, 'wmSummaryTest', $2, $3)`,
        [corpId, chanCustomers[1], chanId],
      );
      expect(await database.query('select * from staff_book_summary order by staff_id, channel, status')).toEqual(before);
      expect((await stat({ kycBound: true })).clients).toBe(1);
      expect((await stat({ kycBound: false })).clients).toBe((await recount()).clients - 1);
      const list = await khgl.ok.searchCustomers({ kycBound: true });
      expect(list.total).toBe(1);
      // "Not bound" is the summary minus the bound clients: the same figures as a recount, per channel too.
      const unbound = `id not in (select customer_id from kyc_binding) and channel in ('online', 'branch')`;
      const unboundStat = await stat({ kycBound: false, channels: ['online', 'branch'] });
      expect(unboundStat).toMatchObject(await recount(unbound));
      for (const { channel, clients } of unboundStat.byChannel)
        expect(clients).toBe((await recount(`${unbound} and channel = '${channel}'`)).clients);
      const unboundList = await khgl.ok.searchCustomers({
        kycBound: false,
        channels: ['online', 'branch'],
      });
      expect(unboundList.total).toBe((await recount(unbound)).clients);
    });

    it('stays right under concurrent writers to the same book', async () => {
      const ids = chanCustomers.slice(20, 40);
      await Promise.all(
        ids.map((id, index) =>
          database.query(`update customer set status = $1, total_assets_hkd = total_assets_hkd + 1 where id = $2`, [
            index % 2 ? 'dormant' : 'closed',
            id,
          ]),
        ),
      );
      expect(await drift(database)).toEqual([]);
      await database.query('truncate customer restart identity cascade');
      expect(await database.query('select * from staff_book_summary where clients <> 0')).toEqual([]);
      expect((await stat()).clients).toBe(0);
    });
  });
}
