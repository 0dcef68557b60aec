import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, seededStaff } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { createManageRepository, type ListRow, type ManageRepository } from '../manage/manage.repository';
import { BookIndexStore, bookIndexCounters } from './book-index-store';
import type { CustomerCriteria } from './customer-filters';
import { interpretKeyword } from './customer-keyword';
import type { SortField, SortOrder } from './customer-search.repository';

/**
 * The in-memory book indexes are held across writes (ADR 0035): after every kind of write that can
 * change a search, the next answer from memory must be the SQL answer and show the write. A write
 * of a few clients is caught up from the book's change log (migration 0022) without reading the
 * book again; a bulk write, a gap in the log and a TRUNCATE read the book again; a book that no
 * longer fits the index's columns is answered by SQL.
 */

/** Criteria as a test writes them: the keyword as typed. */
type Filters = Omit<CustomerCriteria, 'corpId' | 'staffId' | 'keyword'> & { keyword?: string };
interface View {
  sortBy: SortField;
  sortOrder: SortOrder;
  pageNum: number;
  pageSize: number;
}
const FIRST_PAGE: View = { sortBy: 'totalAssets', sortOrder: 'desc', pageNum: 1, pageSize: 50 };

/** What the store did while `action` ran. */
async function countersDuring(action: () => Promise<unknown>) {
  const before = { ...bookIndexCounters };
  await action();
  return {
    loads: bookIndexCounters.loads - before.loads,
    refreshes: bookIndexCounters.refreshes - before.refreshes,
    reloads: bookIndexCounters.reloads - before.reloads,
    askedSql: bookIndexCounters.askedSql - before.askedSql,
  };
}

/** True when `row` passes the concurrent searches' criteria, read from the row as returned. */
const isActiveQuokka = (row: ListRow) => row.nameEn.toLowerCase().includes('quokka') && row.status === 'active';

/** The list's order (`customerOrder`) over rows as returned: key, then id. */
function inListOrder(rows: ListRow[], view: View): boolean {
  const key = (row: ListRow) =>
    view.sortBy === 'totalAssets' ? row.totalAssetsHkd : view.sortBy === 'openDate' ? row.openDate : (row.lastTradeDate ?? '');
  for (let at = 1; at < rows.length; at += 1) {
    const [a, b] = [rows[at - 1]!, rows[at]!];
    const [ka, kb] = [key(a), key(b)];
    const descending = ka > kb || (ka === kb && a.id < b.id);
    if (view.sortOrder === 'desc' ? !descending : descending) return false;
  }
  return true;
}

for (const engine of testDatabases()) {
  describe(`the in-memory book indexes follow every write (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let corpId: number;
    /** Book A (chanwaiman, over a thousand clients) and book B (leekaying). */
    let bookA: number;
    let bookB: number;
    let store: BookIndexStore;
    let memory: ManageRepository;
    let sql: ManageRepository;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 2400, staff: 4, seed: 41, asOf: '2026-11-20' });
      const seeded = await seededStaff(database);
      corpId = seeded.corpId;
      bookA = seeded.staffIds.chanwaiman!;
      bookB = seeded.staffIds.leekaying!;
      // Over a thousand clients in book A, so one statement can change more of them than the log lists.
      await database.query('update customer set staff_id = $1 where staff_id = $2', [bookA, seeded.staffIds.wongchishing]);
      store = new BookIndexStore(database.db, 1_000_000);
      memory = createManageRepository(database.db, store);
      sql = createManageRepository(database.db);
    }, 180_000);
    afterAll(async () => {
      await database?.drop();
    });

    const criteriaOf = (staffId: number, filters: Filters): CustomerCriteria => ({
      corpId,
      staffId,
      ...filters,
      keyword: interpretKeyword(filters.keyword),
    });
    /** The page and stat from memory, expected equal to SQL's; memory must have answered unless `bySql`. */
    const answer = async (staffId: number, filters: Filters = {}, view: View = FIRST_PAGE, bySql = false) => {
      const criteria = criteriaOf(staffId, filters);
      let fromMemory!: { page: Awaited<ReturnType<ManageRepository['search']>>; stat: Awaited<ReturnType<ManageRepository['stat']>> };
      const counted = await countersDuring(async () => {
        fromMemory = { page: await memory.search(criteria, view), stat: await memory.stat(criteria) };
      });
      expect(counted.askedSql).toBe(bySql ? 2 : 0);
      const fromSql = { page: await sql.search(criteria, view), stat: await sql.stat(criteria) };
      expect(fromMemory).toEqual(fromSql);
      return { ids: fromMemory.page.rows.map((row) => row.id), total: fromMemory.page.total, stat: fromMemory.stat };
    };
    const ids = async (staffId: number, filters: Filters = {}, view: View = FIRST_PAGE) => (await answer(staffId, filters, view)).ids;
    const clientsOf = (stat: { clients: number }[]) => stat.reduce((sum, row) => sum + row.clients, 0);
    const someClient = async (staffId: number, offset = 0) => {
      const [row] = await database.query<{ id: number }>(
        'select id::float8 as id from customer where staff_id = $1 and status = $2 order by id offset $3 limit 1',
        [staffId, 'active', offset],
      );
      return row!.id;
    };
    const insertClient = async (staffId: number, customerNo: string, nameEn: string, fields: { nameCn?: string; assets?: string } = {}) => {
      const [row] = await database.query<{ id: number }>(
        `insert into customer (corp_id, staff_id, customer_no, channel, name_cn, name_en, phone_digits, id_doc_type, id_doc_masked,
                               id_doc_last4, risk_level, status, open_date, total_assets_hkd)
         values ($1, $2, $3, 'online', $4, $5, '85260001234', 'hkid', 'Q1**0000', 'QQ00', 3, 'active', '2026-11-02', $6)
         returning id::float8 as id`,
        [corpId, staffId, customerNo, fields.nameCn ?? '新客户', nameEn, fields.assets ?? '1000.00'],
      );
      return row!.id;
    };
    const bookVersion = async (staffId: number) =>
      (
        await database.query<{ version: string }>(
          'select version::text as version from staff_book_version where corp_id = $1 and staff_id = $2',
          [corpId, staffId],
        )
      )[0]!.version;

    it('loads each book once, then answers from memory while nothing changes', async () => {
      const loaded = await countersDuring(async () => {
        expect((await answer(bookA)).total).toBeGreaterThan(1000);
        expect((await answer(bookB)).total).toBeGreaterThan(300);
        await store.settled(corpId, bookA);
        await store.settled(corpId, bookB);
      });
      expect(loaded).toEqual({ loads: 2, refreshes: 0, reloads: 0, askedSql: 0 });
      const again = await countersDuring(() => answer(bookA, { keyword: '陈' }));
      expect(again).toEqual({ loads: 0, refreshes: 0, reloads: 0, askedSql: 0 });
    });

    it('finds a client by a new English and Chinese name and phone, and no longer by the old ones', async () => {
      const client = await someClient(bookA);
      const [old] = await database.query<{ name_en: string; name_cn: string; phone_digits: string }>(
        'select name_en, name_cn, phone_digits from customer where id = $1',
        [client],
      );
      expect(await ids(bookA, { keyword: 'quokka' })).toEqual([]);
      expect(await ids(bookA, { keyword: old!.name_en })).toContain(client);
      // Three writes, three versions, one catch-up from the log.
      await database.query(`update customer set name_en = 'Quentin QUOKKA' where id = $1`, [client]);
      await database.query(`update customer set name_cn = '袋鼠龟' where id = $1`, [client]);
      await database.query(`update customer set phone_digits = '85277700077' where id = $1`, [client]);
      const counted = await countersDuring(async () => {
        expect(await ids(bookA, { keyword: 'quokka' })).toEqual([client]);
      });
      expect(counted).toEqual({ loads: 0, refreshes: 1, reloads: 0, askedSql: 0 });
      expect(await ids(bookA, { keyword: '袋鼠' })).toEqual([client]);
      expect(await ids(bookA, { keyword: '777 000' })).toEqual([client]);
      expect(await ids(bookA, { keyword: old!.name_en })).not.toContain(client);
      expect(await ids(bookA, { keyword: old!.name_cn })).not.toContain(client);
      expect(await ids(bookA, { keyword: old!.phone_digits.slice(-8) })).not.toContain(client);
    });

    it('follows a change of total assets, status and channel', async () => {
      const client = await someClient(bookA, 1);
      const before = await answer(bookA, { channels: ['vip_9'] });
      expect(before.total).toBe(0);
      await database.query(`update customer set total_assets_hkd = 987654321.09 where id = $1`, [client]);
      expect(await ids(bookA, {}, { ...FIRST_PAGE, pageSize: 1 })).toEqual([client]);
      expect(await ids(bookA, { assetMinHkd: 987654321.09, assetMaxHkd: 987654321.09 })).toEqual([client]);
      await database.query(`update customer set status = 'closed', channel = 'vip_9' where id = $1`, [client]);
      expect(await ids(bookA, { statuses: ['active'] }, { ...FIRST_PAGE, pageSize: 1 })).not.toEqual([client]);
      expect(await ids(bookA, { statuses: ['closed'] }, { ...FIRST_PAGE, pageSize: 1 })).toEqual([client]);
      const vip = await answer(bookA, { channels: ['vip_9'] });
      expect(vip.ids).toEqual([client]);
      expect(vip.stat).toEqual([expect.objectContaining({ channel: 'vip_9', clients: 1, totalAssetsHkd: '987654321.09', active: 0 })]);
    });

    it('moves a reassigned client from one loaded book to the other, and back', async () => {
      const client = await someClient(bookA, 2);
      await database.query(`update customer set name_en = 'Wandering Wombat' where id = $1`, [client]);
      expect(await ids(bookA, { keyword: 'wombat' })).toEqual([client]);
      expect(await ids(bookB, { keyword: 'wombat' })).toEqual([]);
      const totals = { a: (await answer(bookA)).total, b: (await answer(bookB)).total };
      const moved = await countersDuring(async () => {
        await database.query('update customer set staff_id = $1 where id = $2', [bookB, client]);
        expect(await ids(bookA, { keyword: 'wombat' })).toEqual([]);
        expect(await ids(bookB, { keyword: 'wombat' })).toEqual([client]);
        expect((await answer(bookA)).total).toBe(totals.a - 1);
        expect((await answer(bookB)).total).toBe(totals.b + 1);
      });
      expect(moved).toEqual({ loads: 0, refreshes: 2, reloads: 0, askedSql: 0 });
      // There and back between two searches of A: A's log names it twice; it is in A again.
      await database.query('update customer set staff_id = $1 where id = $2', [bookA, client]);
      await database.query(`update customer set name_en = 'Wandering Wombat Returned' where id = $1`, [client]);
      expect(await ids(bookA, { keyword: 'wombat returned' })).toEqual([client]);
      expect(await ids(bookB, { keyword: 'wombat' })).toEqual([]);
      expect((await answer(bookA)).total).toBe(totals.a);
    });

    it('shows an inserted client, and not once it is deleted', async () => {
      const before = await answer(bookA);
      const client = await insertClient(bookA, 'FRESH-1', 'Newcomer Numbat', { nameCn: '新来的', assets: '123.45' });
      const after = await answer(bookA, { keyword: 'numbat' });
      expect(after.ids).toEqual([client]);
      expect(clientsOf((await answer(bookA)).stat)).toBe(clientsOf(before.stat) + 1);
      expect(await ids(bookA, { keyword: '新来' })).toEqual([client]);
      expect(await ids(bookA, { assetMinHkd: 123.45, assetMaxHkd: 123.45 })).toContain(client);
      // A seeded client owns accounts, holdings and trades whose foreign keys do not cascade; the
      // inserted one, which owns nothing, stands for any deleted client.
      await database.query('delete from customer where id = $1', [client]);
      expect(await ids(bookA, { keyword: 'numbat' })).toEqual([]);
      expect(await ids(bookA, { assetMinHkd: 123.45, assetMaxHkd: 123.45 })).not.toContain(client);
      expect((await answer(bookA)).total).toBe(before.total);
    });

    it('finds a client by a new account number in any case, follows the account to another client, and forgets it', async () => {
      const [first, second] = [await someClient(bookA, 3), await someClient(bookA, 4)];
      expect(await ids(bookA, { keyword: 'qa12bc34' })).toEqual([]);
      await database.query(
        `insert into account (corp_id, customer_id, account_no, type, open_date) values ($1, $2, 'QA12BC34', 'cash', '2026-11-01')`,
        [corpId, first],
      );
      expect(await ids(bookA, { keyword: 'qa12bc34' })).toEqual([first]);
      expect(await ids(bookA, { keyword: 'Qa12Bc34' })).toEqual([first]);
      await database.query(`update account set customer_id = $1 where account_no = 'QA12BC34'`, [second]);
      expect(await ids(bookA, { keyword: 'QA12BC34' })).toEqual([second]);
      await database.query(`delete from account where account_no = 'QA12BC34'`);
      expect(await ids(bookA, { keyword: 'QA12BC34' })).toEqual([]);
    });

    it('follows a KYC binding, a rebinding and an unbinding', async () => {
      const [first, second] = [await someClient(bookA, 5), await someClient(bookA, 6)];
      const bound = async () => (await answer(bookA, { kycBound: true }, { ...FIRST_PAGE, pageSize: 50 })).ids;
      const unbound = async () => (await answer(bookA, { kycBound: false }, { ...FIRST_PAGE, pageSize: 50 })).total;
      const before = { bound: await bound(), unbound: await unbound() };
      expect(before.bound).not.toContain(first);
      await database.query(
        `insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id) values ($1, 'wmFreshness01', $2, $3)`,
        [corpId, first, bookA],
      );
      expect(await bound()).toContain(first);
      expect(await unbound()).toBe(before.unbound - 1);
      await database.query(`update kyc_binding set customer_id = $1 where external_user_id = 'wmFreshness01'`, [second]);
      expect(await bound()).toEqual(expect.arrayContaining([second]));
      expect(await bound()).not.toContain(first);
      await database.query(`delete from kyc_binding where external_user_id = 'wmFreshness01'`);
      expect(await bound()).toEqual(before.bound);
      expect(await unbound()).toBe(before.unbound);
    });

    it('reads the book again after one statement changed more than a thousand of its clients', async () => {
      const changed = await database.query<{ id: number }>(
        `update customer set total_assets_hkd = total_assets_hkd + 0.01, name_en = name_en || ' Bulk' where staff_id = $1 returning id`,
        [bookA],
      );
      expect(changed.length).toBeGreaterThan(1000);
      const version = await bookVersion(bookA);
      // The log says "the whole book" rather than listing the clients.
      expect(
        await database.query('select customer_id from staff_book_change where corp_id = $1 and staff_id = $2 and version = $3', [
          corpId,
          bookA,
          version,
        ]),
      ).toEqual([{ customer_id: null }]);
      const counted = await countersDuring(async () => {
        expect((await answer(bookA, { keyword: 'bulk' })).total).toBe(changed.length);
      });
      expect(counted).toMatchObject({ loads: 1, reloads: 1, askedSql: 0 });
      expect(await ids(bookA, { keyword: 'quokka bulk' })).toHaveLength(1);
    });

    it('reads the book again when the log has a gap', async () => {
      const [first, second, third] = [await someClient(bookA, 7), await someClient(bookA, 8), await someClient(bookA, 9)];
      await answer(bookA);
      for (const [client, name] of [
        [first, 'Gapped Alpha'],
        [second, 'Gapped Beta'],
        [third, 'Gapped Gamma'],
      ] as const)
        await database.query('update customer set name_en = $1 where id = $2', [name, client]);
      // The middle write's entry is lost (as if pruned): the log no longer accounts for every version.
      const middle = BigInt(await bookVersion(bookA)) - 1n;
      await database.query('delete from staff_book_change where corp_id = $1 and staff_id = $2 and version = $3', [
        corpId,
        bookA,
        middle.toString(),
      ]);
      const counted = await countersDuring(async () => {
        expect(await ids(bookA, { keyword: 'gapped' }, { ...FIRST_PAGE, sortBy: 'openDate', sortOrder: 'asc' })).toHaveLength(3);
      });
      expect(counted).toMatchObject({ loads: 1, reloads: 1, askedSql: 0 });
      expect(await ids(bookA, { keyword: 'gapped beta' })).toEqual([second]);
    });

    it('catches up on a client changed after others were logged many times over', async () => {
      await answer(bookA);
      const client = await someClient(bookA, 10);
      // Six statements of 900 clients each: 5,400 log entries for 900 clients, then one more client.
      for (let statement = 0; statement < 6; statement += 1)
        await database.query(
          `update customer set total_assets_hkd = total_assets_hkd + 1 where id in (select id from customer where staff_id = $1 and id <> $2 order by id limit 900)`,
          [bookA, client],
        );
      await database.query(`update customer set name_en = 'Yabby Last' where id = $1`, [client]);
      const counted = await countersDuring(async () => {
        expect(await ids(bookA, { keyword: 'yabby' })).toEqual([client]);
      });
      expect(counted).toEqual({ loads: 0, refreshes: 1, reloads: 0, askedSql: 0 });
      expect((await answer(bookA)).total).toBeGreaterThan(1000);
    });

    it('reads the books again after a TRUNCATE of KYC bindings', async () => {
      const [client] = [await someClient(bookB, 0)];
      await database.query(
        `insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id) values ($1, 'wmFreshness02', $2, $3)`,
        [corpId, client, bookB],
      );
      expect(await ids(bookB, { kycBound: true })).toContain(client);
      await database.query('truncate kyc_binding');
      const counted = await countersDuring(async () => {
        expect(await ids(bookB, { kycBound: true })).toEqual([]);
        expect(await ids(bookA, { kycBound: true })).toEqual([]);
      });
      expect(counted).toMatchObject({ loads: 2, reloads: 2, askedSql: 0 });
    });

    it('never answers concurrent searches with a row that does not match, and settles on the SQL answer', async () => {
      const quokkas = (
        await database.query<{ id: number }>(
          `select id::float8 as id from customer where staff_id = $1 and status = 'active' order by id desc limit 40`,
          [bookA],
        )
      ).map((row) => row.id);
      await database.query(`update customer set name_en = 'Quokka ' || id where id = any($1::bigint[])`, [quokkas]);
      const others = (
        await database.query<{ id: number }>(
          `select id::float8 as id from customer where staff_id = $1 and status = 'active' and name_en not ilike '%quokka%' order by id limit 10`,
          [bookA],
        )
      ).map((row) => row.id);
      const filters: Filters = { keyword: 'quokka', statuses: ['active'] };
      const views: View[] = (['totalAssets', 'openDate', 'lastTrade'] as const).flatMap((sortBy) =>
        (['desc', 'asc'] as const).map((sortOrder) => ({ sortBy, sortOrder, pageNum: 1, pageSize: 50 })),
      );
      const writes: (() => Promise<unknown>)[] = [
        ...quokkas.slice(0, 10).map((id) => () => database.query(`update customer set name_en = 'Renamed Away' where id = $1`, [id])),
        ...others.map((id) => () => database.query(`update customer set name_en = 'Quokka Newly ' || id where id = $1`, [id])),
        ...quokkas.slice(10, 16).map((id) => () => database.query(`update customer set status = 'dormant' where id = $1`, [id])),
        ...quokkas.slice(16, 22).map((id) => () => database.query(`update customer set total_assets_hkd = $1 where id = $2`, [id % 7, id])),
        ...quokkas
          .slice(22, 26)
          .map((id) => () => database.query(`update customer set staff_id = $1, name_en = 'Moved Away' where id = $2`, [bookB, id])),
        ...quokkas
          .slice(26, 30)
          .map((id) => () => database.query(`update customer set last_trade_date = null, open_date = '2001-01-01' where id = $1`, [id])),
      ];
      const answers: { view: View; rows: ListRow[]; total: number }[] = [];
      const served = bookIndexCounters.served;
      const search = async (view: View) => {
        const page = await createManageRepository(database.db, store).search(criteriaOf(bookA, filters), view);
        answers.push({ view, ...page });
      };
      const jobs: Promise<unknown>[] = [];
      for (let at = 0; at < Math.max(writes.length, 40); at += 1) {
        if (writes[at]) jobs.push(writes[at]!());
        jobs.push(search(views[at % views.length]!));
      }
      await Promise.all(jobs);
      expect(answers.length).toBeGreaterThanOrEqual(40);
      for (const { view, rows, total } of answers) {
        // Each page is of one version of the book: its rows, read with that version, match and are in order,
        // and its total is of the same version (from memory, or SQL's one statement).
        expect(rows.filter((row) => !isActiveQuokka(row))).toEqual([]);
        expect(inListOrder(rows, view)).toBe(true);
        expect(rows.length).toBe(Math.min(total, view.pageSize));
      }
      // Memory answered despite the writes (each answer catches up and tries again before SQL does).
      expect(bookIndexCounters.served).toBeGreaterThan(served);
      const [expected] = await database.query<{ n: number }>(
        `select count(*)::int as n from customer where staff_id = $1 and status = 'active' and name_en ilike '%quokka%'`,
        [bookA],
      );
      expect(expected!.n).toBeGreaterThanOrEqual(30);
      for (const view of views) expect((await answer(bookA, filters, view)).total).toBe(expected!.n);
    });

    it('leaves a book that no longer fits the index to SQL', async () => {
      const clients = (
        await database.query<{ id: number }>('select id::float8 as id from customer where staff_id = $1 order by id limit 31', [bookA])
      ).map((row) => row.id);
      // 31 different markets held: more than a book's bit set of markets holds.
      await database.query(
        `update customer c set held_markets = array['Z' || t.n] from (select id, row_number() over (order by id) as n from customer where id = any($1::bigint[])) t
          where c.id = t.id`,
        [clients],
      );
      const counted = await countersDuring(async () => {
        await answer(bookA, { markets: ['Z3'] }, FIRST_PAGE, true);
        await answer(bookA, { keyword: 'quokka' }, FIRST_PAGE, true);
      });
      expect(counted).toMatchObject({ loads: 0, reloads: 1 });
      // Book B is unaffected.
      await answer(bookB, { keyword: 'wombat' });
    });
  });
}
