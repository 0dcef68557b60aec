import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, TIMELINE_KINDS, type TimelineItem, type TimelineKind } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { createClientFixture, KNOWN, type ClientFixture } from './client.fixture';

/** A WeCom contact chanwaiman follows in the emulator (bindable through the real KYC endpoints). */
const HO = 'wmEmu0001HoKwokLeung';
/** Three rows of three sources at one instant, and two trades at another: ties the cursor must keep apart. */
const TIE = '2026-10-10 10:00:00.123456+08';
const TRADE_TIE = '2026-10-12 10:00:00+08';

for (const engine of testDatabases()) {
  describe(`client timeline (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let api: ApiClient;
    let mot: ApiClient;
    let fixture: ClientFixture;
    let eventId: number;
    let contactRecordId: number;

    beforeAll(async () => {
      database = await engine.create();
      fixture = await createClientFixture(database);
      server = await startTestApp(database);
      api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      mot = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
      const id = fixture.knownId;
      const [account] = await database.query<{ id: number }>('select id::float8 as id from account where customer_id = $1', [id]);
      const [security] = await database.query<{ id: number }>(`select id from security where symbol = 'TST1.HK'`);
      // Large (≥ 100,000 HKD, the default threshold): 150,000 HKD in, 20,000 USD (160,000 HKD) out; and a small one.
      await database.query(
        `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at) values
           ($1, $2, 'deposit', 'HKD', 150000, 'fps', '2026-10-01 09:00+08'),
           ($1, $2, 'withdrawal', 'USD', 20000, 'bank_transfer', '2026-10-03 09:00+08'),
           ($1, $2, 'deposit', 'HKD', 99999, 'fps', $3),
           ($1, $2, 'deposit', 'HKD', 300000, 'fps', $3)`,
        [account!.id, id, TIE],
      );
      await database.query(
        `insert into stock_transfer (account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at)
         values ($1, $2, $3, 'in', 100, 'Tie Securities', $4)`,
        [account!.id, id, security!.id, TIE],
      );
      await database.query(
        `insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date) values
           ($1, $2, $3, 'buy', 100, 10, 1000, 1, 'HKD', $4, '2026-10-14'),
           ($1, $2, $3, 'buy', 200, 10, 2000, 1, 'HKD', $5, '2026-10-14'),
           ($1, $2, $3, 'sell', 300, 10, 3000, 1, 'HKD', $5, '2026-10-14')`,
        [account!.id, id, security!.id, TIE, TRADE_TIE],
      );
      // An MOT event of the client, seen and handled through the MOT endpoints.
      const [event] = await database.query<{ id: number }>(
        `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts, customer_name_en, created_at)
         values ($1, 'birthday', $2, $3, 'timeline-test', '2026-11-18', '{"birthday":"1980-11-18"}', $4, now() - interval '3 hours')
         returning id::float8 as id`,
        [fixture.corpId, id, fixture.staffIds.chanwaiman, KNOWN.nameEn],
      );
      eventId = event!.id;
      await mot.ok.markEventsSeen({ eventIds: [eventId] });
      await mot.ok.handleEvent({ eventId, channel: 'phone', note: 'Called with birthday wishes' });
      // KYC: the fixture's binding is replaced by one made through the API, then undone and made again.
      await database.query('delete from kyc_binding where customer_id = $1 or external_user_id = $2', [id, HO]);
      await api.ok.kycBind({ externalUserId: HO, customerId: id });
      await api.ok.kycUnbind({ externalUserId: HO });
      await api.ok.kycBind({ externalUserId: HO, customerId: id });
      // A contact logged without an event, with a long note, then edited before it locks: one item, as it stands.
      const logged = await api.ok.addContactRecord({
        customerId: id,
        channel: 'meeting',
        purpose: 'review',
        note: `Portfolio review at the branch. ${'x'.repeat(300)}`,
        servedAt: Date.parse('2026-10-20T03:00:00Z'),
      });
      await api.ok.reviseContactRecord({
        recordId: logged.recordId,
        edits: logged.edits,
        channel: 'meeting',
        purpose: 'recommendation',
        suitability: 'Risk level 3; the fund is rated 3',
        note: `Portfolio review at the branch. ${'y'.repeat(300)}`,
        servedAt: Date.parse('2026-10-20T03:00:00Z'),
      });
      contactRecordId = logged.recordId;
      const { version } = await api.ok.getBaseInfo({ customerId: id });
      await api.ok.updateProfile({ customerId: id, version, phone: '+852 6123 4567', remark: 'timeline' });
    }, 180_000);
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    /** Every item of the kinds asked for, page by page (`limit` a page). */
    async function walk(limit: number, kinds?: TimelineKind[]) {
      const items: TimelineItem[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 200; page++) {
        const answer = await api.ok.getTimeline({
          customerId: fixture.knownId,
          limit,
          ...(kinds ? { kinds } : {}),
          ...(cursor ? { cursor } : {}),
        });
        expect(answer.list.length).toBeLessThanOrEqual(limit);
        items.push(...answer.list);
        if (!answer.nextCursor) return items;
        expect(answer.list).toHaveLength(limit);
        cursor = answer.nextCursor;
      }
      throw new Error('the timeline did not end');
    }

    it('shows every kind but trades by default, newest first, each item with its own details', async () => {
      const { list, nextCursor } = await api.ok.getTimeline({ customerId: fixture.knownId, limit: 50 });
      expect(nextCursor).toBeNull();
      expect(new Set(list.map((item) => item.kind))).toEqual(new Set(['contact', 'mot', 'kyc', 'profileEdit', 'money', 'transfer']));
      expect(list.map((item) => item.at)).toEqual([...list.map((item) => item.at)].sort((a, b) => b - a));
      for (const item of list) expect(item[item.kind], item.key).toBeDefined();

      // The event's three stages, the handled one by the manager, the raised one by the system.
      const stages = list.filter((item) => item.mot?.eventId === eventId);
      expect(stages.map((item) => item.mot!.stage)).toEqual(['handled', 'seen', 'raised']);
      expect(stages.map((item) => item.staffName)).toEqual([expect.any(String), expect.any(String), null]);
      expect(stages[0]!.mot).toMatchObject({ rule: 'birthday', dueDate: '2026-11-18' });

      // Contacts: the one the event's handling wrote, and the one logged on its own, as it stands after its edit.
      const contacts = list.filter((item) => item.kind === 'contact');
      expect(contacts.map((item) => [item.contact!.channel, item.contact!.purpose])).toEqual([
        ['phone', expect.any(String)],
        ['meeting', 'recommendation'],
      ]);
      expect(contacts[0]!.contact!.note).toBe('Called with birthday wishes');
      const logged = contacts[1]!;
      expect(logged.contact!.recordId).toBe(contactRecordId);
      expect(logged.contact!.note).toHaveLength(140);
      expect(logged.contact!.note).toMatch(/^Portfolio review at the branch\. y+$/);
      expect(logged.at).toBe(Date.parse('2026-10-20T03:00:00Z'));

      expect(list.filter((item) => item.kind === 'kyc').map((item) => item.kyc!.action)).toEqual(['bind', 'unbind', 'bind']);
      const edit = list.find((item) => item.kind === 'profileEdit')!;
      expect(edit.profileEdit!.changes).toEqual(
        expect.arrayContaining([
          { field: 'phone', before: '+852 4000 ****', after: '+852 6123 ****' },
          { field: 'remark', before: 'hand-made test client', after: 'timeline' },
        ]),
      );

      // Large movements only, in HKD at the latest rate (USD 0.125): the 99,999 HKD deposit and the fixture's small ones are left out.
      const money = list.filter((item) => item.kind === 'money').map((item) => [item.money!.direction, item.money!.amountHkd]);
      expect(money).toEqual([
        ['deposit', 300_000],
        ['withdrawal', 160_000],
        ['deposit', 150_000],
      ]);
      expect(new Set(list.map((item) => item.key)).size).toBe(list.length);
    });

    it('pages by cursor without losing or repeating an item, also among items of the same microsecond', async () => {
      const whole = await walk(50, [...TIMELINE_KINDS]);
      expect(whole.filter((item) => item.kind === 'trade').length).toBeGreaterThanOrEqual(7);
      for (const limit of [1, 2, 3, 7]) {
        expect(
          (await walk(limit, [...TIMELINE_KINDS])).map((item) => item.key),
          `limit ${limit}`,
        ).toEqual(whole.map((item) => item.key));
      }
      // The tie: deposit, transfer and trade at one instant, in the sources' fixed order.
      const tied = whole.filter((item) => item.at === Date.parse('2026-10-10T02:00:00.123Z')).map((item) => item.kind);
      expect(tied).toEqual(['money', 'transfer', 'trade']);
    });

    it('filters by kind: trades alone, or events and bindings together', async () => {
      const trades = await walk(3, ['trade']);
      expect(trades.length).toBeGreaterThanOrEqual(7);
      expect(new Set(trades.map((item) => item.kind))).toEqual(new Set(['trade']));
      expect(trades.find((item) => item.trade!.side === 'sell' && item.trade!.amount === 3000)?.trade).toMatchObject({
        symbol: 'TST1.HK',
        quantity: 300,
        amountHkd: 3000,
      });
      const some = await walk(2, ['mot', 'kyc']);
      expect(new Set(some.map((item) => item.kind))).toEqual(new Set(['mot', 'kyc']));
      expect(some).toHaveLength(6);
      expect((await walk(1, ['contact'])).map((item) => item.contact!.recordId)).toHaveLength(2);
    });

    it("follows the manager's large cash in/out threshold", async () => {
      await mot.ok.setMinCashIO({ minCashIO: 50_000 });
      try {
        const money = (await walk(50, ['money'])).map((item) => item.money!.amountHkd);
        expect(money).toContain(99_999);
        expect(money).toContain(50_000);
      } finally {
        await mot.ok.setMinCashIO({ minCashIO: 100_000 });
      }
    });

    it('refuses a cursor it did not make and a kind it does not know, naming the field', async () => {
      for (const cursor of ['abc', '1.2', '1.99.1', '99999999999999999.1.1', "1.1.1'; drop table trade; --"]) {
        const answer = await api.call('getTimeline', { customerId: fixture.knownId, cursor });
        expect(answer.status, cursor).toBe(400);
        expect(answer.body.code).toBe(ErrorCode.VALIDATION);
        expect(answer.body.msg).toMatch(/cursor/);
      }
      const kind = await api.call('getTimeline', { customerId: fixture.knownId, kinds: ['trade', 'gossip'] });
      expect(kind.status).toBe(400);
      expect(kind.body.msg).toMatch(/kinds/);
    });

    it("answers 090403 for another manager's client and 090404 for no client", async () => {
      expect((await api.call('getTimeline', { customerId: fixture.foreignId })).body.code).toBe(ErrorCode.FORBIDDEN);
      expect((await api.call('getTimeline', { customerId: 987_654_321 })).body.code).toBe(ErrorCode.NOT_FOUND);
    });

    it('getDynamic, served by the same query, still lists every deposit and withdrawal, paged by time', async () => {
      const first = await api.ok.getDynamic({ customerId: fixture.knownId, limit: 4 });
      const rest = await api.ok.getDynamic({ customerId: fixture.knownId, limit: 50, before: first.list.at(-1)!.at });
      const all = [...first.list, ...rest.list];
      expect(all.filter((item) => item.kind === 'deposit' || item.kind === 'withdrawal')).toHaveLength(7);
      expect(all.some((item) => item.kind === 'deposit' && item.amountHkd === 99_999)).toBe(true);
      expect(new Set(all.map((item) => item.key)).size).toBe(all.length);
    });
  });
}
