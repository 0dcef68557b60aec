import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, MAX_PINNED_CLIENTS, MAX_RECENT_CLIENTS, MAX_RECENT_SEARCHES } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { customers, staff } from '../../db/schema';

for (const engine of testDatabases()) {
  describe(`Pins, recents and saved filters (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let chan: ApiClient;
    let lee: ApiClient;
    let chanIds: number[];
    let leeIds: number[];

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 600, seed: 22, asOf: '2026-11-20' });
      server = await startTestApp(database);
      chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying'));
      const idsOf = async (userid: string) =>
        database.db
          .select({ id: customers.id })
          .from(customers)
          .innerJoin(staff, eq(staff.id, customers.staffId))
          .where(eq(staff.wecomUserId, userid))
          .orderBy(customers.id)
          .then((rows) => rows.map((row) => row.id));
      chanIds = await idsOf('chanwaiman');
      leeIds = await idsOf('leekaying');
      expect(chanIds.length).toBeGreaterThan(MAX_PINNED_CLIENTS);
      expect(leeIds.length).toBeGreaterThan(0);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('pins your own clients, newest first, for you only, and unpins them', async () => {
      await chan.ok.setClientPin({ customerId: chanIds[0]!, pinned: true });
      const { pinned } = await chan.ok.setClientPin({ customerId: chanIds[1]!, pinned: true });
      expect(pinned.map((client) => client.customerId)).toEqual([chanIds[1], chanIds[0]]);
      expect(pinned[0]).toMatchObject({ customerNo: expect.any(String), nameCn: expect.any(String), at: expect.any(Number) });
      // Pinning again changes nothing.
      expect((await chan.ok.setClientPin({ customerId: chanIds[0]!, pinned: true })).pinned).toHaveLength(2);
      // A new session (a re-login, another device) sees them; another manager does not.
      const again = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      expect((await again.ok.getShortcuts()).pinned.map((client) => client.customerId)).toEqual([chanIds[1], chanIds[0]]);
      expect((await lee.ok.getShortcuts()).pinned).toEqual([]);
      expect((await chan.ok.setClientPin({ customerId: chanIds[1]!, pinned: false })).pinned.map((client) => client.customerId)).toEqual([
        chanIds[0],
      ]);
      await chan.ok.setClientPin({ customerId: chanIds[0]!, pinned: false });
    });

    it("refuses a colleague's client (403) and a client that does not exist (404), as every client endpoint does", async () => {
      const cases: [string, Promise<{ status: number; body: { code: string; msg: string } }>, string, number][] = [
        ['pin a colleague’s client', chan.setClientPin({ customerId: leeIds[0]!, pinned: true }), ErrorCode.FORBIDDEN, 403],
        ['pin nobody', chan.setClientPin({ customerId: 987_654_321, pinned: true }), ErrorCode.NOT_FOUND, 404],
        ['open a colleague’s client', chan.recordClientOpened({ customerId: leeIds[0]! }), ErrorCode.FORBIDDEN, 403],
        ['open nobody', chan.recordClientOpened({ customerId: 987_654_321, search: 'x' }), ErrorCode.NOT_FOUND, 404],
      ];
      for (const [label, call, code, status] of cases) {
        const answer = await call;
        expect(answer.body.code, label).toBe(code);
        expect(answer.status, label).toBe(status);
        expect(answer.body.msg, label).toMatch(/^customerId: /);
      }
      expect((await chan.ok.getShortcuts()).pinned).toEqual([]);
      expect((await chan.ok.getShortcuts()).recentSearches).toEqual([]);
    });

    it(`stops at ${MAX_PINNED_CLIENTS} pins with a clear 409, and unpinning makes room`, async () => {
      for (const customerId of chanIds.slice(0, MAX_PINNED_CLIENTS)) await chan.ok.setClientPin({ customerId, pinned: true });
      const over = await chan.setClientPin({ customerId: chanIds[MAX_PINNED_CLIENTS]!, pinned: true });
      expect(over.body.code).toBe(ErrorCode.CONFLICT);
      expect(over.status).toBe(409);
      expect(over.body.msg).toBe(`pinned: you can pin at most ${MAX_PINNED_CLIENTS} clients; unpin one before pinning another`);
      // Re-pinning one already pinned is not "one more".
      expect((await chan.setClientPin({ customerId: chanIds[0]!, pinned: true })).body.code).toBe(ErrorCode.OK);
      await chan.ok.setClientPin({ customerId: chanIds[0]!, pinned: false });
      expect((await chan.ok.setClientPin({ customerId: chanIds[MAX_PINNED_CLIENTS]!, pinned: true })).pinned).toHaveLength(
        MAX_PINNED_CLIENTS,
      );
      await database.query('delete from staff_pinned_client');
    });

    it('drops a pinned or recent client from the lists once it is handed to a colleague', async () => {
      const moved = chanIds[5]!;
      await chan.ok.setClientPin({ customerId: moved, pinned: true });
      await chan.ok.recordClientOpened({ customerId: moved });
      const [leeStaff] = await database.db.select({ id: staff.id }).from(staff).where(eq(staff.wecomUserId, 'leekaying'));
      await database.db.update(customers).set({ staffId: leeStaff!.id }).where(eq(customers.id, moved));
      try {
        const shortcuts = await chan.ok.getShortcuts();
        expect(shortcuts.pinned.map((client) => client.customerId)).not.toContain(moved);
        expect(shortcuts.recentClients.map((client) => client.customerId)).not.toContain(moved);
        // The new manager does not inherit the old one's pin.
        expect((await lee.ok.getShortcuts()).pinned).toEqual([]);
        // Unpinning what is no longer yours still works (it only removes your own row).
        expect((await chan.setClientPin({ customerId: moved, pinned: false })).body.code).toBe(ErrorCode.OK);
      } finally {
        const [chanStaff] = await database.db.select({ id: staff.id }).from(staff).where(eq(staff.wecomUserId, 'chanwaiman'));
        await database.db.update(customers).set({ staffId: chanStaff!.id }).where(eq(customers.id, moved));
        await database.query('delete from staff_recent');
      }
    });

    it(`keeps the last ${MAX_RECENT_CLIENTS} opened clients and ${MAX_RECENT_SEARCHES} searches, newest first, without repeats`, async () => {
      for (let index = 0; index < MAX_RECENT_CLIENTS + 3; index += 1) {
        await chan.ok.recordClientOpened({ customerId: chanIds[index]!, search: `  word ${index}  ` });
      }
      expect(await chan.ok.recordClientOpened({ customerId: chanIds[2]!, search: 'word 4' })).toEqual({ customerId: chanIds[2] });
      const opened = await chan.ok.getShortcuts();
      expect(opened.recentClients.map((client) => client.customerId)).toEqual(
        [
          chanIds[2],
          ...chanIds
            .slice(3, MAX_RECENT_CLIENTS + 3)
            .reverse()
            .filter((id) => id !== chanIds[2]),
        ].slice(0, MAX_RECENT_CLIENTS),
      );
      expect(opened.recentSearches[0]).toBe('word 4');
      expect(opened.recentSearches).toHaveLength(MAX_RECENT_SEARCHES);
      expect(new Set(opened.recentSearches).size).toBe(MAX_RECENT_SEARCHES);
      const rows = await database.query<{ count: number }>("select count(*)::int as count from staff_recent where kind = 'search'");
      expect(Number(rows[0]!.count)).toBe(MAX_RECENT_SEARCHES);
      // Opening without a search keeps the searches as they are.
      await chan.ok.recordClientOpened({ customerId: chanIds[0]! });
      expect((await chan.ok.getShortcuts()).recentSearches).toEqual(opened.recentSearches);
      expect((await lee.ok.getShortcuts()).recentSearches).toEqual([]);
      expect((await chan.ok.forgetRecentSearches({ search: 'word 4' })).recentSearches).not.toContain('word 4');
      expect((await chan.ok.forgetRecentSearches({})).recentSearches).toEqual([]);
      const empty = await chan.recordClientOpened({ customerId: chanIds[0]!, search: '   ' });
      expect(empty.body.code).toBe(ErrorCode.VALIDATION);
      expect(empty.body.msg).toMatch(/^body\.search: /);
    });

    it('saves, renames and deletes filters, checked by the search schema', async () => {
      const saved = await chan.ok.saveFilter({
        name: ' 大客戶 ',
        filters: { statuses: ['active'], assetMin: 1_000_000, sortBy: 'lastTrade' },
      });
      expect(saved).toEqual({ filterId: expect.any(Number), name: '大客戶' });
      const stored = () =>
        chan.ok.getShortcuts().then(({ savedFilters }) => savedFilters.find((filter) => filter.filterId === saved.filterId));
      const filters = { statuses: ['active'], assetMin: 1_000_000, ccy: 'HKD', sortBy: 'lastTrade', sortOrder: 'desc' };
      expect(await stored()).toMatchObject({ name: '大客戶', filters });
      expect(await chan.ok.saveFilter({ filterId: saved.filterId, name: 'VIP' })).toEqual({ filterId: saved.filterId, name: 'VIP' });
      // Renamed, its filters as they were.
      expect(await stored()).toMatchObject({ name: 'VIP', filters });
      const other = await chan.ok.saveFilter({ name: 'Dormant', filters: { statuses: ['dormant'] } });
      expect((await chan.ok.getShortcuts()).savedFilters.map((filter) => filter.name)).toEqual(['Dormant', 'VIP']);
      expect((await lee.ok.getShortcuts()).savedFilters).toEqual([]);

      const refused: [string, Promise<{ status: number; body: { code: string; msg: string } }>, string, RegExp][] = [
        ['a taken name', chan.saveFilter({ filterId: other.filterId, name: 'VIP' }), ErrorCode.CONFLICT, /^name: .*"VIP"/],
        ['a new filter without filters', chan.saveFilter({ name: 'Empty' }), ErrorCode.VALIDATION, /^body\.filters: /],
        ['an unknown field', chan.call('saveFilter', { name: 'X', filters: { colour: 'red' } }), ErrorCode.VALIDATION, /^body\.filters/],
        [
          'a status search does not know',
          chan.call('saveFilter', { name: 'X', filters: { statuses: ['gone'] } }),
          ErrorCode.VALIDATION,
          /^body\.filters\.statuses/,
        ],
        [
          'min above max',
          chan.saveFilter({ name: 'X', filters: { assetMin: 5, assetMax: 1 } }),
          ErrorCode.VALIDATION,
          /^body\.filters\.assetMin: /,
        ],
        ['a long name', chan.saveFilter({ name: 'x'.repeat(21), filters: {} }), ErrorCode.VALIDATION, /^body\.name: /],
        ["a colleague's filter", lee.saveFilter({ filterId: saved.filterId, name: 'Mine now' }), ErrorCode.NOT_FOUND, /^filterId: /],
        ["deleting a colleague's filter", lee.deleteSavedFilter({ filterId: saved.filterId }), ErrorCode.NOT_FOUND, /^filterId: /],
      ];
      for (const [label, call, code, msg] of refused) {
        const answer = await call;
        expect(answer.body.code, label).toBe(code);
        expect(answer.body.msg, label).toMatch(msg);
      }
      expect(await chan.ok.deleteSavedFilter({ filterId: saved.filterId })).toEqual({ filterId: saved.filterId });
      expect((await chan.deleteSavedFilter({ filterId: saved.filterId })).body.code).toBe(ErrorCode.NOT_FOUND);
      expect((await chan.ok.getShortcuts()).savedFilters.map((filter) => filter.name)).toEqual(['Dormant']);
    });

    it('leaves out a stored filter the search schema no longer accepts, instead of failing the list', async () => {
      await database.query(
        `insert into staff_saved_filter (corp_id, staff_id, name, filters)
         select corp_id, id, 'Tampered', '{"statuses":["nonsense"],"keyword":1}'::jsonb from staff where wecom_user_id = 'chanwaiman'`,
      );
      const names = (await chan.ok.getShortcuts()).savedFilters.map((filter) => filter.name);
      expect(names).not.toContain('Tampered');
      expect(names).toContain('Dormant');
    });
  });
}
