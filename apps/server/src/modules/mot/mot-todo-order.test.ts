import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, startTestApp, signInAs, apiClient, seededStaff, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { runMotRules } from './mot-engine';
import { insertMoneyMovement, insertQuietCustomer } from './mot-test-fixtures';
import { addDays, hongKongDay } from '@broker/domain';

/**
 * The to-do list is read in client-name order from `mot_event_todo_idx`, which holds a copy of the
 * customer's name and manager (migrations 0008/0009). These tests compare every page, folded and
 * unfolded, with the list computed the old way — joined to customer as it is now — after each
 * change that could leave the copy stale: a rename, a reassignment, a handled event, a new event.
 */
const TODAY = hongKongDay();
const PAGE_SIZE = 3;

for (const engine of testDatabases()) {
  describe(`MOT to-do list order and membership stay current (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let clientOf: Record<string, ApiClient>;
    let staffIds: Record<string, number>;
    /** chanwaiman's busiest day: the one with most pending events, so it spans several pages. */
    let busyDay: string;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 400, seed: 17, asOf: TODAY });
      await runMotRules(database, { asOf: TODAY });
      server = await startTestApp(database);
      clientOf = {
        chanwaiman: apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' })),
        leekaying: apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying', { agentCode: 'mot' })),
      };
      ({ staffIds } = await seededStaff(database));
      const [day] = await database.query<{ day: string; events: number }>(
        `select due_date::text as day, count(*)::int as events from mot_event
          where staff_id = $1 and status <> 'handled' group by due_date order by count(*) desc, due_date limit 1`,
        [staffIds.chanwaiman],
      );
      busyDay = day!.day;
      expect(day!.events, 'the busiest day spans several pages').toBeGreaterThan(2 * PAGE_SIZE);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const setFold = (userid: string, fold: boolean) =>
      database.query('update staff set mot_fold = $1 where id = $2', [fold, staffIds[userid]]);

    /** Every page of the list through the API, as (customer, events) pairs in the order shown. */
    async function listThroughApi(userid: string, day: string) {
      const rows: { customerId: number; nameEn: string; eventIds: number[] }[] = [];
      let total = -1;
      for (let pageNum = 1; ; pageNum++) {
        const page = await clientOf[userid]!.ok.getTodoClients({ date: day, pageNum, pageSize: PAGE_SIZE });
        total = page.total;
        rows.push(
          ...page.list.map((row) => ({ customerId: row.customerId, nameEn: row.nameEn, eventIds: row.events.map((e) => e.eventId) })),
        );
        if (!page.hasMore) break;
      }
      expect(rows.length, 'total matches the rows listed').toBe(total);
      return rows;
    }

    /** The same list the way it was computed before the copy existed: joined to customer as it is now. */
    async function listFromCustomerTable(userid: string, day: string, fold: boolean) {
      const events = await database.query<{ customerId: number; nameEn: string; eventId: number }>(
        `select c.id::float8 as "customerId", c.name_en as "nameEn", e.id::float8 as "eventId"
           from mot_event e join customer c on c.id = e.customer_id join staff s on s.id = c.staff_id
          where c.staff_id = $1 and e.status <> 'handled' and e.due_date = $2::date
            and not (e.rule in ('large_deposit', 'large_withdrawal') and (e.facts->>'amountHkd')::numeric < s.min_cash_io)
          order by c.name_en, c.id, e.id`,
        [staffIds[userid], day],
      );
      if (!fold) return events.map(({ customerId, nameEn, eventId }) => ({ customerId, nameEn, eventIds: [eventId] }));
      const folded: { customerId: number; nameEn: string; eventIds: number[] }[] = [];
      for (const event of events) {
        const last = folded.at(-1);
        if (last?.customerId === event.customerId) last.eventIds.push(event.eventId);
        else folded.push({ customerId: event.customerId, nameEn: event.nameEn, eventIds: [event.eventId] });
      }
      return folded;
    }

    /** The per-day and per-rule counts kept by triggers (migration 0010) equal a live count of mot_event. */
    async function expectCountsExact() {
      const [drift] = await database.query<{ rows: number }>(
        `select count(*)::int as rows from (
           select staff_id, due_date, rule, corp_id, count(*)::int as events, (count(*) filter (where status = 'new'))::int as unseen
             from mot_event where status <> 'handled' and rule not in ('large_deposit', 'large_withdrawal')
            group by staff_id, due_date, rule, corp_id) live
         full join (select * from mot_pending_count where events <> 0 or unseen <> 0) kept using (staff_id, due_date, rule, corp_id)
         where live.events is distinct from kept.events or live.unseen is distinct from kept.unseen`,
      );
      expect(drift!.rows, 'mot_pending_count rows differing from a live count').toBe(0);
    }

    /** The date strip and task count through the API equal the same counts taken live, the old way. */
    async function expectApiCountsCurrent(userid: string, day: string) {
      const live = await database.query<{ date: string; rule: string; count: number; unseen: number }>(
        `select e.due_date::text as date, e.rule, count(*)::int as count, (count(*) filter (where e.status = 'new'))::int as unseen
           from mot_event e join customer c on c.id = e.customer_id join staff s on s.id = c.staff_id
          where c.staff_id = $1 and e.status <> 'handled'
            and not (e.rule in ('large_deposit', 'large_withdrawal') and (e.facts->>'amountHkd')::numeric < s.min_cash_io)
          group by e.due_date, e.rule`,
        [staffIds[userid]],
      );
      const api = clientOf[userid]!;
      const strip = await api.ok.getTodoDates({ dateFrom: addDays(day, -30), dateTo: addDays(day, 30) });
      const days = [...new Set(live.map((row) => row.date))].filter((date) => date >= addDays(day, -30) && date <= addDays(day, 30)).sort();
      const sumOf = (rows: typeof live, key: 'count' | 'unseen') => rows.reduce((sum, row) => sum + row[key], 0);
      expect(strip).toEqual(
        days.map((date) => {
          const rows = live.filter((row) => row.date === date);
          return { date, count: sumOf(rows, 'count'), unseen: sumOf(rows, 'unseen') };
        }),
      );
      for (const date of [undefined, day]) {
        const counted = await api.ok.getTodoTaskCount({ date });
        const rows = live.filter((row) => !date || row.date === date);
        expect({ total: counted.total, unseen: counted.unseen }).toEqual({ total: sumOf(rows, 'count'), unseen: sumOf(rows, 'unseen') });
        for (const { rule, count, unseen } of counted.byRule) {
          const ofRule = rows.filter((row) => row.rule === rule);
          expect({ rule, count, unseen }).toEqual({ rule, count: sumOf(ofRule, 'count'), unseen: sumOf(ofRule, 'unseen') });
        }
      }
    }

    async function expectListCurrent(userid: string, day: string) {
      await expectCountsExact();
      await expectApiCountsCurrent(userid, day);
      for (const fold of [false, true]) {
        await setFold(userid, fold);
        expect(await listThroughApi(userid, day), `${userid} ${day} fold=${fold}`).toEqual(await listFromCustomerTable(userid, day, fold));
      }
      await setFold(userid, false);
    }

    /** A customer of chanwaiman with a pending event on the busy day, from the middle of the list. */
    async function customerOnBusyDay(offset: number) {
      const [row] = await database.query<{ customerId: number }>(
        `select e.customer_id::float8 as "customerId" from mot_event e join customer c on c.id = e.customer_id
          where e.staff_id = $1 and e.status <> 'handled' and e.due_date = $2::date
          group by e.customer_id, c.name_en order by c.name_en, e.customer_id limit 1 offset $3`,
        [staffIds.chanwaiman, busyDay, offset],
      );
      expect(row, 'the busy day has enough customers').toBeDefined();
      return row!.customerId;
    }

    it('lists every page in client-name order, folded and unfolded, as the join to customer would', async () => {
      await expectListCurrent('chanwaiman', busyDay);
    });

    it('a renamed customer moves to its new place in the list at once', async () => {
      const customerId = await customerOnBusyDay(3);
      await database.query(`update customer set name_en = 'AAA Renamed First' where id = $1`, [customerId]);
      const first = (await listThroughApi('chanwaiman', busyDay))[0]!;
      expect(first).toMatchObject({ customerId, nameEn: 'AAA Renamed First' });
      await expectListCurrent('chanwaiman', busyDay);

      await database.query(`update customer set name_en = 'zzz Renamed Last' where id = $1`, [customerId]);
      expect((await listThroughApi('chanwaiman', busyDay)).at(-1)).toMatchObject({ customerId, nameEn: 'zzz Renamed Last' });
      await expectListCurrent('chanwaiman', busyDay);
    });

    it('a reassigned customer leaves one list and joins the other in order at once', async () => {
      const customerId = await customerOnBusyDay(4);
      const before = await listThroughApi('chanwaiman', busyDay);
      expect(before.some((row) => row.customerId === customerId)).toBe(true);

      await database.query('update customer set staff_id = $1 where id = $2', [staffIds.leekaying, customerId]);

      const after = await listThroughApi('chanwaiman', busyDay);
      expect(after.some((row) => row.customerId === customerId)).toBe(false);
      expect(after.length).toBe(before.filter((row) => row.customerId !== customerId).length);
      expect((await listThroughApi('leekaying', busyDay)).some((row) => row.customerId === customerId)).toBe(true);
      await expectListCurrent('chanwaiman', busyDay);
      await expectListCurrent('leekaying', busyDay);
    });

    it('a handled event leaves the list and its counts', async () => {
      const customerId = await customerOnBusyDay(1);
      const [event] = await database.query<{ id: number }>(
        `select id::float8 as id from mot_event where customer_id = $1 and due_date = $2::date and status <> 'handled' order by id limit 1`,
        [customerId, busyDay],
      );
      const before = await listThroughApi('chanwaiman', busyDay);
      await clientOf.chanwaiman!.ok.handleEvent({ eventId: event!.id, channel: 'phone', note: 'called' });

      const after = await listThroughApi('chanwaiman', busyDay);
      expect(after.length).toBe(before.length - 1);
      expect(after.flatMap((row) => row.eventIds)).not.toContain(event!.id);
      await expectListCurrent('chanwaiman', busyDay);
    });

    it('an event raised after a rename carries the new name, whoever inserts it', async () => {
      const customerId = await customerOnBusyDay(0);
      await database.query(`update customer set name_en = 'Mid Renamed Client' where id = $1`, [customerId]);
      const [corp] = await database.query<{ corpId: number }>('select corp_id as "corpId" from customer where id = $1', [customerId]);
      await database.query(
        `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts)
         values ($1, 'dormant', $2, $3, 'test-after-rename', $4::date, '{}'::jsonb)`,
        [corp!.corpId, customerId, staffIds.chanwaiman, busyDay],
      );
      const [copy] = await database.query<{ name: string }>(
        `select customer_name_en as name from mot_event where customer_id = $1 and fact_key = 'test-after-rename'`,
        [customerId],
      );
      expect(copy!.name).toBe('Mid Renamed Client');
      await expectListCurrent('chanwaiman', busyDay);
    });

    it('marking events seen moves them from unseen to seen in the counts', async () => {
      const events = await database.query<{ id: number }>(
        `select id::float8 as id from mot_event where staff_id = $1 and due_date = $2::date and status = 'new' order by id limit 3`,
        [staffIds.chanwaiman, busyDay],
      );
      expect(events.length).toBeGreaterThan(0);
      const seen = await clientOf.chanwaiman!.markEventsSeen({ eventIds: events.map((event) => event.id) });
      expect(seen.body.data?.updated).toBe(events.length);
      await expectListCurrent('chanwaiman', busyDay);
    });

    it('a raised threshold hides large movements from the counts at once, a lowered one shows them again', async () => {
      const depositor = await insertQuietCustomer(database, TODAY);
      await insertMoneyMovement(database, depositor, { direction: 'deposit', currency: 'HKD', amount: 250_000, day: TODAY });
      await runMotRules(database, { asOf: TODAY, customerIds: [depositor.customerId] });
      const movement = { staffId: depositor.staffId, day: TODAY };
      const userid = 'chanwaiman';
      await expectListCurrent(userid, movement.day);
      const [raised] = await database.query<{ events: number }>(
        `select count(*)::int as events from mot_event where customer_id = $1 and rule = 'large_deposit'`,
        [depositor.customerId],
      );
      expect(raised!.events, 'the deposit raised a large-money event').toBe(1);
      await database.query('update staff set min_cash_io = 999999999 where id = $1', [movement.staffId]);
      await expectListCurrent(userid, movement.day);
      await database.query('update staff set min_cash_io = 0 where id = $1', [movement.staffId]);
      await expectListCurrent(userid, movement.day);
    });

    it('deleting and truncating events keep the counts exact', async () => {
      await database.query(
        `delete from mot_event where id in (select id from mot_event where staff_id = $1 and status <> 'handled' and id not in (select mot_event_id from contact_record_event) order by id limit 5)`,
        [staffIds.chanwaiman],
      );
      await expectListCurrent('chanwaiman', busyDay);
      await database.query('truncate mot_event cascade');
      await expectCountsExact();
      const [kept] = await database.query<{ events: number }>('select coalesce(sum(events), 0)::int as events from mot_pending_count');
      expect(kept!.events).toBe(0);
    });
  });
}
