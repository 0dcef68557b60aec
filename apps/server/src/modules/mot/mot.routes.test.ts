import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MOT_RULES, type getTodoClients, type RequestOf, type searchServiceHistory } from '@broker/contract';
import {
  testDatabases,
  startTestApp,
  signInAs,
  apiClient,
  expectOk,
  type ApiAnswer,
  type ApiClient,
  type RunningTestApp,
} from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { runMotRules } from './mot-engine';
import { insertMoneyMovement, insertQuietCustomer } from './mot-test-fixtures';
import { addDays, hongKongDay } from '@broker/domain';

const TODAY = hongKongDay();

for (const engine of testDatabases()) {
  describe(`MOT API (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let chan: ApiClient;
    let lee: ApiClient;
    /** A customer of chanwaiman with, today: an ID expiring (due today), a birthday in 2 days, a HKD 120,000 deposit today. */
    let star: Awaited<ReturnType<typeof insertQuietCustomer>>;
    let leeCustomer: Awaited<ReturnType<typeof insertQuietCustomer>>;
    let chanCustomerIds: Set<number>;

    beforeAll(async () => {
      database = await engine.create();
      // No demo contact records: the history test counts the records this suite writes.
      await seedDemoData(database, { customers: 60, seed: 21, asOf: TODAY, contactRecords: false });
      star = await insertQuietCustomer(database, TODAY, {
        id_doc_expiry: addDays(TODAY, 10),
        birthday: `1985-${addDays(TODAY, 2).slice(5)}`,
        name_cn: '星級客戶',
      });
      await insertMoneyMovement(database, star, { direction: 'deposit', currency: 'HKD', amount: 120_000, day: TODAY });
      await insertMoneyMovement(database, star, { direction: 'deposit', currency: 'HKD', amount: 60_000, day: TODAY });
      leeCustomer = await insertQuietCustomer(database, TODAY, { id_doc_expiry: addDays(TODAY, 5) }, 'leekaying');
      await runMotRules(database, { asOf: TODAY });
      server = await startTestApp(database);
      chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
      lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying', { agentCode: 'mot' }));
      chanCustomerIds = new Set(
        (
          await database.query<{ id: number }>(
            "select c.id::float8 as id from customer c join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman'",
          )
        ).map((row) => row.id),
      );
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const setFold = (caller: ApiClient, value: string) => caller.call('setFold', { isFold: value });
    const todo = (caller: ApiClient, query: RequestOf<typeof getTodoClients> = {}) => caller.ok.getTodoClients(query);
    const starEvents = async (caller = chan) =>
      (await todo(caller, { date: TODAY, pageSize: 50 })).list.filter((row) => row.customerId === star.customerId);
    const expectError = (result: ApiAnswer<unknown>, code: string, status: number) => {
      expect(result.body.code, result.body.msg).toBe(code);
      expect(result.status).toBe(status);
      expect(result.body.msg.length).toBeGreaterThan(10);
    };

    it('todoClient/date: days with pending events and their counts', async () => {
      const result = await chan.getTodoDates({
        dateFrom: addDays(TODAY, -7),
        dateTo: addDays(TODAY, 7),
      });
      expectOk(result);
      const days = result.body.data;
      expect(days.map((day) => day.date)).toEqual([...days.map((day) => day.date)].sort());
      expect(days.find((day) => day.date === TODAY)?.count).toBeGreaterThanOrEqual(2);
      expect(days.find((day) => day.date === addDays(TODAY, 2))?.count).toBeGreaterThanOrEqual(1);
      const [{ pending }] = (await database.query<{ pending: number }>(
        `select count(*)::int as pending from mot_event e join customer c on c.id = e.customer_id join staff s on s.id = c.staff_id
          where s.wecom_user_id = 'chanwaiman' and e.status <> 'handled' and e.due_date between $1 and $2
            and not (e.rule in ('large_deposit', 'large_withdrawal') and (e.facts->>'amountHkd')::numeric < s.min_cash_io)`,
        [addDays(TODAY, -7), addDays(TODAY, 7)],
      )) as [{ pending: number }];
      expect(days.reduce((sum, day) => sum + day.count, 0)).toBe(pending);
      // Defaults to a window around today; a reversed range is refused.
      expect((await chan.getTodoDates()).body.code).toBe('0');
      expectError(await chan.call('getTodoDates', { dateFrom: TODAY, dateTo: addDays(TODAY, -1) }), ErrorCode.VALIDATION, 400);
    });

    it('todoClient: one row per event when unfolded, only own customers, phone masked, unseen marked', async () => {
      const page = await todo(chan, { date: TODAY, pageSize: 50 });
      expect(page.fold).toBe(false);
      expect(page.list.length).toBeGreaterThan(0);
      expect(page.list.every((row) => chanCustomerIds.has(row.customerId))).toBe(true);
      expect(page.list.every((row) => row.events.length === 1 && row.events[0]!.dueDate === TODAY)).toBe(true);
      const rows = await starEvents();
      expect(rows.map((row) => row.events[0]!.rule).sort()).toEqual(['id_expiry', 'large_deposit']);
      expect(rows.every((row) => row.unseen && row.phone === '+852 9123 ****')).toBe(true);
      expect(
        (await todo(chan, { date: TODAY, rule: 'id_expiry', pageSize: 50 })).list.every((row) => row.events[0]!.rule === 'id_expiry'),
      ).toBe(true);
      expect((await todo(lee, { date: TODAY, pageSize: 50 })).list.map((row) => row.customerId)).not.toContain(star.customerId);
    });

    it('setFold takes multipart form-data; folded, the list has one row per client', async () => {
      const folded = await setFold(chan, 'true');
      expect(folded.body).toMatchObject({ code: '0', data: true });
      expect((await chan.isFold()).body.data).toBe(true);
      const page = await todo(chan, { date: TODAY, pageSize: 50 });
      expect(page.fold).toBe(true);
      const ids = page.list.map((row) => row.customerId);
      expect(new Set(ids).size).toBe(ids.length);
      const starRow = page.list.find((row) => row.customerId === star.customerId)!;
      expect(starRow.events.map((event) => event.rule).sort()).toEqual(['id_expiry', 'large_deposit']);
      expectError(await setFold(chan, 'maybe'), ErrorCode.VALIDATION, 400);
      expect((await setFold(chan, '0')).body.data).toBe(false);
      expect((await chan.isFold()).body.data).toBe(false);
      const audit = await database.query<{ before: unknown; after: unknown }>(
        "select before, after from audit_log where action = 'mot.setFold' order by id",
      );
      expect(audit).toEqual([
        { before: { motFold: false }, after: { motFold: true } },
        { before: { motFold: true }, after: { motFold: false } },
      ]);
    });

    it('todoTaskCount: pending events by type', async () => {
      const result = await chan.getTodoTaskCount({ date: TODAY });
      expectOk(result);
      const counts = result.body.data;
      expect(counts.byRule.map((row) => row.rule)).toEqual(MOT_RULES);
      expect(counts.total).toBe((await todo(chan, { date: TODAY, pageSize: 50 })).total);
      expect(counts.byRule.find((row) => row.rule === 'id_expiry')!.count).toBeGreaterThanOrEqual(1);
      const all = await chan.ok.getTodoTaskCount();
      expect(all.total).toBeGreaterThanOrEqual(counts.total + 1);
    });

    it('todoTaskDetail: the event, why it fired, and its client', async () => {
      const [row] = (await starEvents()).filter((candidate) => candidate.events[0]!.rule === 'large_deposit');
      const eventId = row!.events[0]!.eventId;
      const result = await chan.getTodoTaskDetail({ eventId });
      expectOk(result);
      expect(result.body.data.event).toMatchObject({
        rule: 'large_deposit',
        serviceRecord: null,
        facts: { amountHkd: 120000, thresholdHkd: 100000, currency: 'HKD' },
      });
      expect(result.body.data.customer).toMatchObject({ customerId: star.customerId, phone: '+852 9123 ****' });
      expectError(await lee.call('getTodoTaskDetail', { eventId }), ErrorCode.FORBIDDEN, 403);
      expectError(await chan.call('getTodoTaskDetail', { eventId: 987_654_321 }), ErrorCode.NOT_FOUND, 404);
    });

    it('seen: new → seen for own events only', async () => {
      const [row] = (await starEvents()).filter((candidate) => candidate.events[0]!.rule === 'id_expiry');
      const eventId = row!.events[0]!.eventId;
      expectError(await lee.call('markEventsSeen', { eventIds: [eventId] }), ErrorCode.FORBIDDEN, 403);
      expectError(await chan.call('markEventsSeen', { eventIds: [eventId, 987_654_321] }), ErrorCode.NOT_FOUND, 404);
      expect((await chan.markEventsSeen({ eventIds: [eventId] })).body.data).toEqual({ updated: 1 });
      expect((await chan.markEventsSeen({ eventIds: [eventId] })).body.data).toEqual({ updated: 0 });
      const after = (await starEvents()).find((candidate) => candidate.events[0]!.eventId === eventId)!;
      expect(after.unseen).toBe(false);
      expect(after.events[0]!.status).toBe('seen');
    });

    it('handle: writes one service record; handling again is a 090409 conflict; it leaves the to-do list', async () => {
      const [row] = (await starEvents()).filter((candidate) => candidate.events[0]!.rule === 'id_expiry');
      const eventId = row!.events[0]!.eventId;
      const servedAt = Date.now() - 3_600_000;
      expectError(await lee.call('handleEvent', { eventId, channel: 'phone', note: 'x' }), ErrorCode.FORBIDDEN, 403);
      expectError(await chan.call('handleEvent', { eventId, channel: 'fax', note: 'x' }), ErrorCode.VALIDATION, 400);
      expectError(
        await chan.call('handleEvent', { eventId, channel: 'phone', note: 'x', servedAt: Date.now() + 86_400_000 }),
        ErrorCode.VALIDATION,
        400,
      );
      const handled = await chan.handleEvent({
        eventId,
        channel: 'phone',
        note: 'Reminded to renew the passport',
        outcome: 'will renew',
        servedAt,
      });
      expectOk(handled);
      expect(handled.body.data).toMatchObject({
        eventId,
        customerId: star.customerId,
        rule: 'id_expiry',
        channel: 'phone',
        note: 'Reminded to renew the passport',
        outcome: 'will renew',
        servedAt,
        customerName: '星級客戶',
      });
      expectError(await chan.call('handleEvent', { eventId, channel: 'wecom', note: 'again' }), ErrorCode.CONFLICT, 409);
      expect(await database.query('select record_id from contact_record_event where mot_event_id = $1', [eventId])).toHaveLength(1);
      expect((await starEvents()).map((candidate) => candidate.events[0]!.eventId)).not.toContain(eventId);
      const detail = await chan.ok.getTodoTaskDetail({ eventId });
      expect(detail.event.status).toBe('handled');
      expect(detail.event.serviceRecord?.recordId).toBe(handled.body.data.recordId);
      const audit = await database.query<{ after: { status: string } }>(
        "select after from audit_log where action = 'mot.handle' and entity_id = $1",
        [String(eventId)],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]!.after).toMatchObject({ status: 'handled', serviceRecordId: handled.body.data.recordId });
    });

    it('handle: of concurrent handles of one event exactly one wins', async () => {
      const [row] = (await todo(chan, { pageSize: 50 })).list.filter((candidate) => candidate.customerId !== star.customerId);
      const eventId = row!.events[0]!.eventId;
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) => chan.handleEvent({ eventId, channel: 'meeting', note: `attempt ${index}` })),
      );
      expect(results.filter((result) => result.body.code === '0')).toHaveLength(1);
      expect(results.filter((result) => result.body.code === ErrorCode.CONFLICT)).toHaveLength(5);
      expect(await database.query('select record_id from contact_record_event where mot_event_id = $1', [eventId])).toHaveLength(1);
    });

    it('getMinCashIO (no body) and setMinCashIO: the threshold decides which large-money events show', async () => {
      expect((await chan.getMinCashIO()).body).toMatchObject({
        code: '0',
        data: { minCashIO: 100000 },
      });
      const deposits = async () =>
        (await starEvents()).filter((row) => row.events[0]!.rule === 'large_deposit').map((row) => row.events[0]!.eventId);
      expect(await deposits()).toHaveLength(1);
      // Raised above the HKD 120,000 deposit: it no longer shows.
      expect((await chan.setMinCashIO({ minCashIO: 150_000 })).body.data).toEqual({
        minCashIO: 150000,
      });
      expect(await deposits()).toHaveLength(0);
      // Lowered below the HKD 60,000 one: that deposit is re-evaluated and fires, the other shows again.
      expect((await chan.setMinCashIO({ minCashIO: 50_000 })).body.data).toEqual({
        minCashIO: 50000,
      });
      expect(await deposits()).toHaveLength(2);
      expect((await chan.getMinCashIO()).body.data).toEqual({ minCashIO: 50000 });
      // Another staff member's threshold is their own.
      expect((await lee.getMinCashIO()).body.data).toEqual({ minCashIO: 100000 });
      expectError(await chan.call('setMinCashIO', { minCashIO: -5 }), ErrorCode.VALIDATION, 400);
      expectError(await chan.call('setMinCashIO', {}), ErrorCode.VALIDATION, 400);
      const audit = await database.query<{ before: unknown; after: unknown }>(
        "select before, after from audit_log where action = 'mot.setMinCashIO' order by id",
      );
      expect(audit).toEqual([
        { before: { minCashIO: 100000 }, after: { minCashIO: 150000 } },
        { before: { minCashIO: 150000 }, after: { minCashIO: 50000 } },
      ]);
    });

    it('history: service records by keyword (note or client name), type, channel and date; paged; own only', async () => {
      const search = (caller: ApiClient, body: RequestOf<typeof searchServiceHistory>) => caller.ok.searchServiceHistory(body);
      const all = await search(chan, {});
      expect(all.total).toBe(2);
      expect(all.list[0]!.servedAt).toBeGreaterThanOrEqual(all.list[1]!.servedAt);
      expect((await search(chan, { keyword: 'passport' })).list.map((record) => record.rule)).toEqual(['id_expiry']);
      expect((await search(chan, { keyword: '星級' })).total).toBe(1);
      expect((await search(chan, { keyword: '%' })).total).toBe(0);
      expect((await search(chan, { rule: 'id_expiry' })).total).toBe(1);
      expect((await search(chan, { channel: 'meeting' })).total).toBe(1);
      expect((await search(chan, { dateFrom: TODAY, dateTo: TODAY })).total).toBeGreaterThanOrEqual(1);
      expect((await search(chan, { dateFrom: addDays(TODAY, 1) })).total).toBe(0);
      expect(await search(chan, { pageNum: 2, pageSize: 1 })).toMatchObject({ total: 2, pageNum: 2, pageSize: 1, hasMore: false });
      expect((await search(chan, { pageNum: 2, pageSize: 1 })).list).toHaveLength(1);
      expect((await search(lee, {})).total).toBe(0);
      expectError(await chan.call('searchServiceHistory', { dateFrom: TODAY, dateTo: addDays(TODAY, -1) }), ErrorCode.VALIDATION, 400);

      // An outcome picked from a chip is stored as its code; the words a manager sees, in any language, find it.
      const [row] = (await todo(chan, { pageSize: 50 })).list.filter((candidate) => candidate.customerId !== star.customerId);
      const booked = await chan.ok.handleEvent({
        eventId: row!.events[0]!.eventId,
        channel: 'wecom',
        note: 'Asked about the new fund',
        outcome: 'meeting_booked',
      });
      for (const keyword of ['约面谈', '約面談', 'meeting b', 'MEETING BOOKED'])
        expect(
          (await search(chan, { keyword })).list.map((record) => record.recordId),
          keyword,
        ).toEqual([booked.recordId]);
      expect((await search(chan, { keyword: '未能联系' })).total).toBe(0);
    });

    it('clientHistory (at /api/mot//todoEvent/clientHistory): one client’s events and service records, paged', async () => {
      const result = await chan.getClientHistory({
        customerId: star.customerId,
      });
      expectOk(result);
      const history = result.body.data;
      expect(history.customer.customerId).toBe(star.customerId);
      expect(history.list.map((event) => event.rule).sort()).toEqual(['birthday', 'id_expiry', 'large_deposit', 'large_deposit']);
      const handled = history.list.find((event) => event.rule === 'id_expiry')!;
      expect(handled.status).toBe('handled');
      expect(handled.serviceRecord).toMatchObject({ channel: 'phone', note: 'Reminded to renew the passport' });
      expect((await chan.getClientHistory({ customerId: star.customerId, pageSize: 3 })).body.data).toMatchObject({
        total: 4,
        hasMore: true,
      });
      expectError(await chan.call('getClientHistory', { customerId: leeCustomer.customerId }), ErrorCode.FORBIDDEN, 403);
      expectError(await chan.call('getClientHistory', { customerId: 987_654_321 }), ErrorCode.NOT_FOUND, 404);
    });
  });
}
