import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MAX_SNOOZE_DAYS } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiAnswer, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { insertMoneyMovement, insertQuietCustomer } from './mot-test-fixtures';
import { addDays, hongKongDay } from '@broker/domain';
import { defaultCorps } from '../../corps';
import { motRankConfigSchema } from '../../mot-rank-config';

const TODAY = hongKongDay();

/**
 * The ranked day and snoozing (issue 24 parts 1 and 3, ADR 0041), on both engines. The demo book is seeded
 * without running the MOT rules, so chanwaiman's only events are the ones written here, with known facts.
 */
for (const engine of testDatabases()) {
  describe(`MOT ranked day and snooze (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let chan: ApiClient;
    let lee: ApiClient;
    const ids: Record<'riskExpiry' | 'withdrawal' | 'staleBirthday' | 'comingBirthday' | 'tomorrowLoss' | 'foreign', number> = {
      riskExpiry: 0,
      withdrawal: 0,
      staleBirthday: 0,
      comingBirthday: 0,
      tomorrowLoss: 0,
      foreign: 0,
    };

    async function customer(assetsHkd: number, lastContactDaysAgo: number | null, staffUserId = 'chanwaiman') {
      const inserted = await insertQuietCustomer(database, TODAY, {}, staffUserId);
      await database.query('update customer set total_assets_hkd = $2 where id = $1', [inserted.customerId, assetsHkd]);
      if (lastContactDaysAgo !== null)
        await database.query(
          `insert into contact_record (corp_id, customer_id, staff_id, channel, purpose, note, served_at, locks_at)
           select corp_id, id, staff_id, 'phone', 'service', 'called', now() - make_interval(days => $2), now() + interval '1 day'
             from customer where id = $1`,
          [inserted.customerId, lastContactDaysAgo],
        );
      return inserted;
    }

    async function event(
      target: { customerId: number },
      rule: string,
      dueDate: string,
      createdDaysAgo: number,
      facts: Record<string, unknown> = {},
    ) {
      const [row] = await database.query<{ id: number }>(
        `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts, created_at)
         select corp_id, $2, id, staff_id, $3, $4::date, $5::jsonb, now() - make_interval(days => $6) from customer where id = $1
         returning id::float8 as id`,
        [target.customerId, rule, `rank-${rule}-${dueDate}`, dueDate, JSON.stringify(facts), createdDaysAgo],
      );
      return Number(row!.id);
    }

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 20, seed: 24, asOf: TODAY, contactRecords: false });
      // Changing the threshold re-runs the money rules over the book: only this suite's movements may fire.
      await database.query('delete from money_movement');
      // Weight 5 × tier 3 (HKD 10 M: × 2) × due today (× 1) × never contacted (× 2) = 20.
      ids.riskExpiry = await event(await customer(10_000_000, null), 'risk_expiry', TODAY, 1);
      // Weight 4 × tier 2 (HKD 2 M: × 1.5) × 3 days overdue (× 1.3) × contacted 30 days ago (× 1.5) = 11.7; raised today.
      ids.withdrawal = await event(await customer(2_000_000, 30), 'large_withdrawal', addDays(TODAY, -3), 0, { amountHkd: 500_000 });
      // Weight 1.5 × tier 1 × 5 days overdue (× 1.5) × contacted today (× 1) = 2.25.
      ids.staleBirthday = await event(await customer(10_000, 0), 'birthday', addDays(TODAY, -5), 6);
      // Due in 5 days but raised today: in today's list. Weight 1.5 × tier 1 × not overdue × never contacted (× 2) = 3.
      ids.comingBirthday = await event(await customer(500, null), 'birthday', addDays(TODAY, 5), 0);
      // Due tomorrow, raised yesterday: not today's.
      ids.tomorrowLoss = await event(await customer(50_000_000, null), 'position_loss', addDays(TODAY, 1), 1);
      ids.foreign = await event(await customer(100, null, 'leekaying'), 'id_expiry', TODAY, 1);
      server = await startTestApp(database);
      chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
      lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying', { agentCode: 'mot' }));
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const expectError = (result: ApiAnswer<unknown>, code: string, status: number, field?: string) => {
      expect(result.body.code, result.body.msg).toBe(code);
      expect(result.status).toBe(status);
      if (field) expect(result.body.msg).toContain(field);
    };
    const rankedIds = async () => (await chan.ok.getRankedToday({ pageSize: 50 })).list.map((row) => row.event.eventId);

    it('ranks today (overdue, due today, raised today) by the rule score, each factor given', async () => {
      const ranked = await chan.ok.getRankedToday({});
      expect(ranked.list.map((row) => row.event.eventId)).toEqual([ids.riskExpiry, ids.withdrawal, ids.comingBirthday, ids.staleBirthday]);
      expect(ranked.list.map((row) => row.position)).toEqual([1, 2, 3, 4]);
      expect(ranked.total).toBe(4);
      expect(ranked.progress).toEqual({ date: TODAY, handled: 0, total: 4 });
      expect(ranked.byRule).toEqual([
        { rule: 'birthday', count: 2 },
        { rule: 'large_withdrawal', count: 1 },
        { rule: 'risk_expiry', count: 1 },
      ]);
      const [top, second, third, fourth] = ranked.list;
      expect(top!.rank).toEqual({
        score: 20,
        typeWeight: 5,
        tier: 3,
        tierFactor: 2,
        totalAssetsHkd: 10_000_000,
        overdueDays: 0,
        overdueFactor: 1,
        daysSinceContact: null,
        contactFactor: 2,
        raisedToday: false,
      });
      expect(second!.rank).toMatchObject({
        typeWeight: 4,
        tier: 2,
        tierFactor: 1.5,
        overdueDays: 3,
        daysSinceContact: 30,
        raisedToday: true,
      });
      expect(second!.rank.overdueFactor).toBeCloseTo(1.3);
      expect(second!.rank.contactFactor).toBeCloseTo(1.5);
      expect(second!.rank.score).toBeCloseTo(11.7);
      expect(third!.rank).toMatchObject({ overdueDays: 0, raisedToday: true, contactFactor: 2, score: 3 });
      expect(third!.event.dueDate).toBe(addDays(TODAY, 5));
      expect(fourth!.rank).toMatchObject({ overdueDays: 5, daysSinceContact: 0, contactFactor: 1 });
      expect(fourth!.rank.score).toBeCloseTo(2.25);
      expect(top!.phone).toMatch(/\*{4}$/);
      expect(ranked.list.every((row) => row.event.snoozed === false)).toBe(true);
    });

    it('is computed again as soon as anything it was scored from changes, whoever wrote it (the day kept in memory, migration 0028)', async () => {
      const usual = [ids.riskExpiry, ids.withdrawal, ids.comingBirthday, ids.staleBirthday];
      expect(await rankedIds()).toEqual(usual);
      const customerOf = async (eventId: number) =>
        (await database.query<{ id: number }>('select customer_id::float8 as id from mot_event where id = $1', [eventId]))[0]!.id;
      // The client's assets (the tier): 2.25 × 2 = 4.5 puts the stale birthday above the coming one (3).
      const stale = await customerOf(ids.staleBirthday);
      await database.query('update customer set total_assets_hkd = 10000000 where id = $1', [stale]);
      expect(await rankedIds()).toEqual([ids.riskExpiry, ids.withdrawal, ids.staleBirthday, ids.comingBirthday]);
      await database.query('update customer set total_assets_hkd = 10000 where id = $1', [stale]);
      expect(await rankedIds()).toEqual(usual);
      // A contact record today (the contact factor: 2 → 1): the expired assessment, 20 → 10, falls below the withdrawal (11.7).
      const expired = await customerOf(ids.riskExpiry);
      await database.query(
        `insert into contact_record (corp_id, customer_id, staff_id, channel, purpose, note, served_at, locks_at)
         select corp_id, id, staff_id, 'phone', 'service', 'rank cache', now(), now() + interval '1 day' from customer where id = $1`,
        [expired],
      );
      expect(await rankedIds()).toEqual([ids.withdrawal, ids.riskExpiry, ids.comingBirthday, ids.staleBirthday]);
      await database.query(`update contact_record set superseded_by = id, superseded_at = now() where note = 'rank cache'`);
      expect(await rankedIds()).toEqual(usual);
      // The manager's threshold hides the withdrawal; an event raised meanwhile shows.
      await database.query(`update staff set min_cash_io = 1000000000 where wecom_user_id = 'chanwaiman'`);
      expect(await rankedIds()).toEqual([ids.riskExpiry, ids.comingBirthday, ids.staleBirthday]);
      await database.query(`update staff set min_cash_io = 100000 where wecom_user_id = 'chanwaiman'`);
      const raised = await event({ customerId: stale }, 'dormant', TODAY, 0);
      expect(await rankedIds()).toEqual([...usual, raised]);
      await database.query('delete from mot_event where id = $1', [raised]);
      expect(await rankedIds()).toEqual(usual);
    });

    it('pages and filters in the database, positions counting the whole day', async () => {
      const second = await chan.ok.getRankedToday({ pageNum: 2, pageSize: 2 });
      expect(second.list.map((row) => [row.event.eventId, row.position])).toEqual([
        [ids.comingBirthday, 3],
        [ids.staleBirthday, 4],
      ]);
      expect(second.hasMore).toBe(false);
      const withdrawals = await chan.ok.getRankedToday({ rule: 'large_withdrawal' });
      expect(withdrawals.list.map((row) => row.event.eventId)).toEqual([ids.withdrawal]);
      expect(withdrawals.total).toBe(1);
      // The day's figure is the whole day's, whatever the filter.
      expect(withdrawals.progress.total).toBe(4);
      // Another manager sees only theirs.
      expect((await lee.ok.getRankedToday({})).list.map((row) => row.event.eventId)).toEqual([ids.foreign]);
    });

    it("a corp's weights (motRank in the corps file) change the order; what it leaves out keeps the defaults", async () => {
      const corps = [{ ...defaultCorps[0]!, motRank: { typeWeights: { birthday: 50 } } }];
      const configured = await startTestApp(database, {}, { corps });
      try {
        const client = apiClient(configured.baseUrl, await signInAs(configured.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
        const ranked = await client.ok.getRankedToday({});
        expect(ranked.list.map((row) => row.event.eventId)).toEqual([
          ids.comingBirthday,
          ids.staleBirthday,
          ids.riskExpiry,
          ids.withdrawal,
        ]);
        expect(ranked.list[0]!.rank).toMatchObject({ typeWeight: 50, score: 100 });
        expect(ranked.list[2]!.rank).toMatchObject({ typeWeight: 5, score: 20 });
      } finally {
        await configured.close();
      }
      expect(() => motRankConfigSchema.parse({ tiers: [{ minAssetsHkd: 5, factor: 1 }] })).toThrow(/minAssetsHkd 0/);
      expect(() => motRankConfigSchema.parse({ typeWeights: { birthday: -1 } })).toThrow(/at least 0/);
      expect(() => motRankConfigSchema.parse({ typeWeights: { nap: 1 } })).toThrow();
    });

    it('a large withdrawal raised today by lowering the threshold is in today, though it moved days ago', async () => {
      const late = await customer(300_000, null);
      await insertMoneyMovement(database, late, { direction: 'withdrawal', currency: 'HKD', amount: 70_000, day: addDays(TODAY, -4) });
      expect(await rankedIds()).toHaveLength(4);
      await chan.ok.setMinCashIO({ minCashIO: 50_000 });
      const ranked = await chan.ok.getRankedToday({ pageSize: 50 });
      const raised = ranked.list.find((row) => row.customerId === late.customerId);
      expect(raised?.event).toMatchObject({ rule: 'large_withdrawal', dueDate: addDays(TODAY, -4) });
      expect(raised?.rank).toMatchObject({ raisedToday: true, overdueDays: 4 });
      // Raising the threshold again hides it from today as from every other view.
      await chan.ok.setMinCashIO({ minCashIO: 100_000 });
      expect(await rankedIds()).not.toContain(raised!.event.eventId);
    });

    it("getEventRank: the event's factors, its snoozes; another manager's event 090403, an unknown one 090404", async () => {
      const answer = await chan.ok.getEventRank({ eventId: ids.riskExpiry });
      expect(answer.rank).toMatchObject({ score: 20, typeWeight: 5, tier: 3 });
      expect(answer.snoozes).toEqual([]);
      // A pending event not in today's list is ranked too (as of today).
      expect((await chan.ok.getEventRank({ eventId: ids.tomorrowLoss })).rank).toMatchObject({ typeWeight: 3, tier: 3, overdueDays: 0 });
      expectError(await chan.call('getEventRank', { eventId: ids.foreign }), ErrorCode.FORBIDDEN, 403, 'eventId');
      expectError(await chan.call('getEventRank', { eventId: 987_654_321 }), ErrorCode.NOT_FOUND, 404, 'eventId');
    });

    it('snooze: the event leaves today, comes back on its day marked snoozed; the history and the audit log keep it', async () => {
      const tomorrow = addDays(TODAY, 1);
      const snoozed = await chan.ok.snoozeEvent({ eventId: ids.withdrawal, until: tomorrow, reason: 'client_unavailable' });
      expect(snoozed).toMatchObject({
        eventId: ids.withdrawal,
        dueDate: tomorrow,
        snooze: { fromDate: addDays(TODAY, -3), toDate: tomorrow, reason: 'client_unavailable', note: null, staffName: expect.any(String) },
      });
      const today = await chan.ok.getRankedToday({});
      expect(today.list.map((row) => row.event.eventId)).not.toContain(ids.withdrawal);
      expect(today.progress).toEqual({ date: TODAY, handled: 0, total: 3 });
      // On its new day it is listed, marked.
      const onTheDay = await chan.ok.getTodoClients({ date: tomorrow, pageSize: 50 });
      const back = onTheDay.list.flatMap((row) => row.events).find((candidate) => candidate.eventId === ids.withdrawal);
      expect(back).toMatchObject({ dueDate: tomorrow, snoozed: true });
      expect((await chan.ok.getTodoTaskDetail({ eventId: ids.withdrawal })).event).toMatchObject({ dueDate: tomorrow, snoozed: true });
      // The date strip shows the day it went to.
      const later = addDays(TODAY, 45);
      await chan.ok.snoozeEvent({ eventId: ids.withdrawal, until: later, reason: 'other', note: 'client abroad until next month' });
      const dates = await chan.ok.getTodoDates({ dateFrom: addDays(TODAY, -60), dateTo: addDays(TODAY, 90) });
      expect(dates.find((day) => day.date === later)?.count).toBe(1);
      const { snoozes } = await chan.ok.getEventRank({ eventId: ids.withdrawal });
      expect(snoozes.map((entry) => [entry.fromDate, entry.toDate, entry.reason, entry.note])).toEqual([
        [tomorrow, later, 'other', 'client abroad until next month'],
        [addDays(TODAY, -3), tomorrow, 'client_unavailable', null],
      ]);
      const audit = await database.query<{ entity_id: string; before: unknown; after: unknown }>(
        "select entity_id, before, after from audit_log where action = 'mot.snooze' order by id",
      );
      expect(audit).toEqual([
        {
          entity_id: String(ids.withdrawal),
          before: { dueDate: addDays(TODAY, -3) },
          after: { dueDate: tomorrow, reason: 'client_unavailable', note: null },
        },
        {
          entity_id: String(ids.withdrawal),
          before: { dueDate: tomorrow },
          after: { dueDate: later, reason: 'other', note: 'client abroad until next month' },
        },
      ]);
    });

    it('handling counts toward the day; a handled event cannot be snoozed (090409)', async () => {
      await chan.ok.handleEvent({ eventId: ids.staleBirthday, channel: 'phone', note: 'wished a happy birthday' });
      const today = await chan.ok.getRankedToday({});
      expect(today.progress).toEqual({ date: TODAY, handled: 1, total: 3 });
      expect((await chan.ok.getEventRank({ eventId: ids.staleBirthday })).rank).toBeNull();
      expectError(
        await chan.call('snoozeEvent', { eventId: ids.staleBirthday, until: addDays(TODAY, 2), reason: 'client_asked' }),
        ErrorCode.CONFLICT,
        409,
        'eventId',
      );
    });

    it('snooze refuses bad input, naming the field, and other managers', async () => {
      const input = { eventId: ids.comingBirthday, reason: 'client_asked' };
      for (const until of [TODAY, addDays(TODAY, -1), addDays(TODAY, MAX_SNOOZE_DAYS + 1)])
        expectError(await chan.call('snoozeEvent', { ...input, until }), ErrorCode.VALIDATION, 400, 'until');
      expectError(await chan.call('snoozeEvent', { ...input, until: '2026-02-30' }), ErrorCode.VALIDATION, 400, 'until');
      expectError(
        await chan.call('snoozeEvent', { ...input, until: addDays(TODAY, 1), reason: 'bored' }),
        ErrorCode.VALIDATION,
        400,
        'reason',
      );
      expectError(
        await chan.call('snoozeEvent', { ...input, until: addDays(TODAY, 1), reason: 'other' }),
        ErrorCode.VALIDATION,
        400,
        'note',
      );
      expectError(
        await chan.call('snoozeEvent', { eventId: ids.foreign, until: addDays(TODAY, 1), reason: 'client_asked' }),
        ErrorCode.FORBIDDEN,
        403,
      );
      expectError(await lee.call('snoozeEvent', { ...input, until: addDays(TODAY, 1) }), ErrorCode.FORBIDDEN, 403);
      // The furthest day allowed is fine, and nothing was written by the refusals.
      expect(await chan.ok.snoozeEvent({ ...input, reason: 'client_asked', until: addDays(TODAY, MAX_SNOOZE_DAYS) })).toMatchObject({
        dueDate: addDays(TODAY, MAX_SNOOZE_DAYS),
      });
      expect((await chan.ok.getEventRank({ eventId: ids.comingBirthday })).snoozes).toHaveLength(1);
    });
  });
}
