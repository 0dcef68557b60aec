import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type getMyAuditTrail, type RequestOf, type ResponseOf } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, seededStaff, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { runMotRules } from '../mot/mot-engine';
import { insertQuietCustomer } from '../mot/mot-test-fixtures';
import { addDays, hongKongDay } from '@broker/domain';

type Trail = ResponseOf<typeof getMyAuditTrail>;
const TODAY = hongKongDay();
// Emulator contact 0001 何国良 is followed by chanwaiman.
const HO = 'wmEmu0001HoKwokLeung';
const NEW_PHONE = '+852 6789 0123';

for (const engine of testDatabases()) {
  describe(`audit trail (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let chan: ApiClient;
    let lee: ApiClient;
    let staffIds: Record<string, number>;
    let edited: { id: number; nameCn: string; phone: string };
    let bound: { id: number; nameCn: string };
    let handledEventId: number;
    let mot: { customerId: number };

    const trail = (caller: ApiClient, params: RequestOf<typeof getMyAuditTrail> = {}) => caller.ok.getMyAuditTrail(params);

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 40, seed: 17, asOf: TODAY });
      mot = await insertQuietCustomer(database, TODAY, { id_doc_expiry: addDays(TODAY, 10), name_cn: '证件到期客户' });
      await runMotRules(database, { asOf: TODAY });
      server = await startTestApp(database);
      chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying'));
      ({ staffIds } = await seededStaff(database));
      const customersOf = (userid: string) =>
        database.query<{ id: number; nameCn: string; phone: string; version: number }>(
          `select c.id::float8 as id, c.name_cn as "nameCn", c.phone, c.version from customer c join staff s on s.id = c.staff_id
            where s.wecom_user_id = $1 and c.phone is not null order by c.id limit 2`,
          [userid],
        );
      const [first, second] = await customersOf('chanwaiman');
      edited = first!;
      bound = second!;
      const [leeCustomer] = await customersOf('leekaying');

      // Every audited action, by chanwaiman, in a known order; and one by leekaying.
      await chan.ok.updateProfile({ customerId: edited.id, version: first!.version, phone: NEW_PHONE, remark: 'audit check' });
      await chan.ok.kycBind({ externalUserId: HO, customerId: bound.id });
      await chan.ok.kycUnbind({ externalUserId: HO });
      const [event] = await database.query<{ id: number }>('select id::float8 as id from mot_event where customer_id = $1 limit 1', [
        mot.customerId,
      ]);
      handledEventId = event!.id;
      await chan.ok.handleEvent({ eventId: handledEventId, channel: 'phone', note: 'reminded to renew' });
      await chan.ok.setMinCashIO({ minCashIO: 150_000 });
      await chan.ok.setFold({ isFold: true });
      await lee.ok.updateProfile({ customerId: leeCustomer!.id, version: leeCustomer!.version, remark: 'lee was here' });
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('every audited action wrote one row with who, when, before and after', async () => {
      const rows = await database.query<{ action: string; actor: number; at: Date; before: unknown; after: unknown }>(
        `select action, actor_staff_id as actor, at, before, after from audit_log where actor_staff_id = $1 order by id`,
        [staffIds.chanwaiman],
      );
      expect(rows.map((row) => row.action)).toEqual([
        'customer.update',
        'kyc.bind',
        'kyc.unbind',
        // Handling an event writes a contact record (ADR 0038): both are on the record.
        'contact.add',
        'mot.handle',
        'mot.setMinCashIO',
        'mot.setFold',
      ]);
      for (const row of rows) {
        expect(row.at).toBeInstanceOf(Date);
        // A bind or a new contact record has nothing before and an unbind nothing after; every other action has both.
        if (row.action !== 'kyc.bind' && row.action !== 'contact.add') expect(row.before, row.action).toBeTruthy();
        if (row.action !== 'kyc.unbind') expect(row.after, row.action).toBeTruthy();
      }
      expect(rows.find((row) => row.action === 'mot.setMinCashIO')).toMatchObject({
        before: { minCashIO: 100000 },
        after: { minCashIO: 150000 },
      });
      expect(rows.find((row) => row.action === 'mot.handle')!.before).toEqual({ status: 'new' });
    });

    it('GET /api/audit/mine: only my entries, newest first, each tied to its customer, phones masked', async () => {
      const mine = await trail(chan);
      expect(mine.nextCursor).toBeNull();
      expect(mine.list.map((entry) => entry.action)).toEqual([
        'mot.setFold',
        'mot.setMinCashIO',
        'mot.handle',
        'contact.add',
        'kyc.unbind',
        'kyc.bind',
        'customer.update',
      ]);
      const ats = mine.list.map((entry) => entry.at);
      expect(ats).toEqual([...ats].sort((a, b) => b - a));
      expect(JSON.stringify(mine)).not.toContain('lee was here');

      const edit = mine.list.find((entry) => entry.action === 'customer.update')!;
      expect(edit.customer).toMatchObject({ customerId: edited.id, nameCn: edited.nameCn });
      const phone = edit.changes.find((change) => change.field === 'phone')!;
      expect(phone.after).toBe('+852 6789 ****');
      expect(phone.before).toMatch(/\*{4}$/);
      expect(JSON.stringify(mine)).not.toContain(NEW_PHONE);
      expect(JSON.stringify(mine)).not.toContain(edited.phone);
      expect(edit.changes.find((change) => change.field === 'remark')).toMatchObject({ after: 'audit check' });

      for (const action of ['kyc.bind', 'kyc.unbind']) {
        expect(mine.list.find((entry) => entry.action === action)).toMatchObject({ entityId: HO, customer: { customerId: bound.id } });
      }
      expect(mine.list.find((entry) => entry.action === 'mot.handle')).toMatchObject({
        entityId: String(handledEventId),
        eventRule: 'id_expiry',
        customer: { customerId: mot.customerId, nameCn: '证件到期客户' },
        changes: expect.arrayContaining([{ field: 'status', before: 'new', after: 'handled' }]),
      });
      // The record's entry names the same client, found through the customerId it records.
      expect(mine.list.find((entry) => entry.action === 'contact.add')).toMatchObject({
        entity: 'contact_record',
        customer: { customerId: mot.customerId },
        changes: expect.arrayContaining([{ field: 'channel', before: null, after: 'phone' }]),
      });
      expect(mine.list.find((entry) => entry.action === 'mot.setMinCashIO')).toMatchObject({
        customer: null,
        changes: [{ field: 'minCashIO', before: 100000, after: 150000 }],
      });

      const leeTrail = await trail(lee);
      expect(leeTrail.list.map((entry) => entry.action)).toEqual(['customer.update']);
    });

    it('pages with a cursor, without gaps or repeats, and filters by entity', async () => {
      const all = (await trail(chan)).list.map((entry) => entry.id);
      const walked: number[] = [];
      let cursor: number | null = null;
      do {
        const page: Trail = await trail(chan, { limit: 4, ...(cursor === null ? {} : { cursor }) });
        expect(page.list.length).toBeLessThanOrEqual(4);
        walked.push(...page.list.map((entry) => entry.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(walked).toEqual(all);

      const bindings = await trail(chan, { entity: 'kyc_binding' });
      expect(bindings.list.map((entry) => entry.action)).toEqual(['kyc.unbind', 'kyc.bind']);
      // Another staff member's entry as a cursor reveals nothing of theirs.
      const leeEntry = (await trail(lee)).list[0]!;
      expect((await trail(chan, { cursor: leeEntry.id })).list.every((entry) => entry.id !== leeEntry.id)).toBe(true);
    });

    it('refuses bad input naming the field, and callers without a session', async () => {
      const badEntity = await chan.call('getMyAuditTrail', { entity: 'staff_salary' });
      expect(badEntity.body.code).toBe(ErrorCode.VALIDATION);
      expect(badEntity.body.msg).toMatch(/^query\.entity: must be one of customer, kyc_binding, mot_event, staff/);
      const badLimit = await chan.call('getMyAuditTrail', { limit: 51 });
      expect(badLimit.body.msg).toMatch(/query\.limit: must be at most 50/);
      const anonymous = await apiClient(server.baseUrl).getMyAuditTrail();
      expect(anonymous.body.code).toBe(ErrorCode.LOGIN_INVALID);
    });
  });
}
