import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ErrorCode, type ContactRecord } from '@broker/contract';
import { addDays, hongKongDay } from '@broker/domain';
import {
  testDatabases,
  startTestApp,
  signInAs,
  apiClient,
  expectOk,
  isOk,
  type ApiAnswer,
  type ApiClient,
  type RunningTestApp,
} from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { insertQuietCustomer } from '../mot/mot-test-fixtures';

const TODAY = hongKongDay();
/** A lock of about a second and a half, so a test can watch a record lock. */
const SHORT_LOCK_HOURS = 1.5 / 3600;

for (const engine of testDatabases()) {
  describe(`contact log API (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let quickLock: RunningTestApp;
    let chan: ApiClient;
    let chanQuick: ApiClient;
    let lee: ApiClient;
    let client: Awaited<ReturnType<typeof insertQuietCustomer>>;
    let other: Awaited<ReturnType<typeof insertQuietCustomer>>;
    let leeClient: Awaited<ReturnType<typeof insertQuietCustomer>>;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 30, seed: 23, asOf: TODAY });
      client = await insertQuietCustomer(database, TODAY, { name_cn: '聯絡客戶', open_date: '2021-01-04' });
      other = await insertQuietCustomer(database, TODAY, { name_cn: '另一客戶' });
      leeClient = await insertQuietCustomer(database, TODAY, {}, 'leekaying');
      server = await startTestApp(database);
      quickLock = await startTestApp(database, { CONTACT_RECORD_LOCK_HOURS: String(SHORT_LOCK_HOURS) });
      const chanSession = await signInAs(server.baseUrl, 'chanwaiman');
      chan = apiClient(server.baseUrl, chanSession);
      chanQuick = apiClient(quickLock.baseUrl, chanSession);
      lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying'));
    });
    afterAll(async () => {
      await quickLock?.close();
      await server?.close();
      await database?.drop();
    });

    const expectError = (result: ApiAnswer<unknown>, code: string, status: number, mentions?: string) => {
      expect(result.body.code, result.body.msg).toBe(code);
      expect(result.status).toBe(status);
      if (mentions) expect(result.body.msg).toContain(mentions);
    };
    const pendingEvent = async (customerId: number, rule = 'birthday', dueDate = TODAY) => {
      const [row] = await database.query<{ id: number }>(
        `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts)
         select corp_id, $2, id, staff_id, $3, $4::date, '{}'::jsonb from customer where id = $1 returning id::float8 as id`,
        [customerId, rule, `contact-test-${randomUUID()}`, dueDate],
      );
      return row!.id;
    };
    const add = (caller: ApiClient, fields: Record<string, unknown> = {}) =>
      caller.call('addContactRecord', {
        customerId: client.customerId,
        channel: 'phone',
        purpose: 'service',
        note: 'Called about the dividend',
        ...fields,
      });
    const added = async (caller: ApiClient = chan, fields: Record<string, unknown> = {}) => {
      const result = await add(caller, fields);
      expectOk(result);
      return result.body.data as ContactRecord;
    };
    const revise = (caller: ApiClient, record: ContactRecord, fields: Record<string, unknown> = {}) =>
      caller.call('reviseContactRecord', {
        recordId: record.recordId,
        edits: record.edits,
        channel: record.channel,
        purpose: record.purpose,
        note: record.note,
        ...fields,
      });
    const auditOf = (action: string, entityId: string) =>
      database.query<{ before: Record<string, unknown> | null; after: Record<string, unknown> }>(
        'select before, after from audit_log where action = $1 and entity_id = $2 order by id',
        [action, entityId],
      );

    it('add: writes version 1 of a record, unlocked for 24 hours by default, and audits it', async () => {
      const before = Date.now();
      const record = await added(chan, { outcome: 'Will call back', servedAt: before - 3_600_000 });
      expect(record).toMatchObject({
        threadId: record.recordId,
        version: 1,
        latest: true,
        locked: false,
        customerId: client.customerId,
        customerName: '聯絡客戶',
        staffName: expect.any(String),
        channel: 'phone',
        purpose: 'service',
        outcome: 'Will call back',
        events: [],
        edits: 0,
        correctionReason: null,
        followUpEventId: null,
      });
      expect(record.locksAt - record.createdAt).toBeGreaterThan(24 * 3_600_000 - 5_000);
      expect(record.locksAt - record.createdAt).toBeLessThan(24 * 3_600_000 + 5_000);
      expect(Math.abs(record.servedAt - (before - 3_600_000))).toBeLessThan(1_000);
      const [audit] = await auditOf('contact.add', String(record.recordId));
      expect(audit!.after).toMatchObject({ customerId: client.customerId, channel: 'phone', purpose: 'service' });
    });

    it('add: the rules that tie fields together and to the client answer 090400 naming the field', async () => {
      expectError(await add(chan, { purpose: 'recommendation' }), ErrorCode.VALIDATION, 400, 'suitability');
      expectError(await add(chan, { nextStepDate: addDays(TODAY, 3) }), ErrorCode.VALIDATION, 400, 'nextStep');
      expectError(await add(chan, { servedAt: Date.now() + 3_600_000 }), ErrorCode.VALIDATION, 400, 'servedAt');
      expectError(await add(chan, { servedAt: Date.parse('2020-06-01T00:00:00Z') }), ErrorCode.VALIDATION, 400, 'servedAt');
      expectError(
        await add(chan, { servedAt: Date.now() - 3 * 86_400_000, nextStep: 'Call', nextStepDate: addDays(TODAY, -5) }),
        ErrorCode.VALIDATION,
        400,
        'nextStepDate',
      );
      expectError(await add(chan, { eventIds: [await pendingEvent(other.customerId)] }), ErrorCode.VALIDATION, 400, 'eventIds');
      expectError(await add(chan, { eventIds: [Number.MAX_SAFE_INTEGER] }), ErrorCode.NOT_FOUND, 404, 'eventIds');
      const recommended = await added(chan, { purpose: 'recommendation', suitability: 'Risk level 3 client; a low-volatility bond fund' });
      expect(recommended.suitability).toBe('Risk level 3 client; a low-volatility bond fund');
    });

    it("another manager's client is 090403, an unknown one 090404", async () => {
      expectError(await add(chan, { customerId: leeClient.customerId }), ErrorCode.FORBIDDEN, 403, 'customerId');
      expectError(await add(chan, { customerId: Number.MAX_SAFE_INTEGER }), ErrorCode.NOT_FOUND, 404, 'customerId');
      const record = await added();
      expectError(await lee.call('getContactRecord', { recordId: record.recordId }), ErrorCode.FORBIDDEN, 403, 'recordId');
      expectError(await revise(lee, record, { note: 'not mine' }), ErrorCode.FORBIDDEN, 403);
      expectError(await lee.call('listContactRecords', { customerId: client.customerId }), ErrorCode.FORBIDDEN, 403);
      expectError(await lee.call('exportContactRecords', { customerId: client.customerId }), ErrorCode.FORBIDDEN, 403);
    });

    it('add with events: pending events become handled and linked (each audited as MOT handles are); a handled one is 090409', async () => {
      const first = await pendingEvent(client.customerId, 'birthday');
      const second = await pendingEvent(client.customerId, 'id_expiry');
      const record = await added(chan, { channel: 'email', eventIds: [second, first] });
      expect(record.events.map((event) => event.eventId)).toEqual([first, second].sort((a, b) => a - b));
      expect(record.events.map((event) => event.rule).sort()).toEqual(['birthday', 'id_expiry']);
      const statuses = await database.query<{ status: string }>('select status from mot_event where id = any($1::bigint[])', [
        [first, second],
      ]);
      expect(statuses.map((row) => row.status)).toEqual(['handled', 'handled']);
      expect(await auditOf('mot.handle', String(first))).toHaveLength(1);
      expectError(await add(chan, { eventIds: [first] }), ErrorCode.CONFLICT, 409, String(first));
      // MOT reads the same record: the event's detail shows it, email and all.
      const detail = await apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' })).call(
        'getTodoTaskDetail',
        { eventId: first },
      );
      expectOk(detail);
      expect((detail.body.data as { event: { serviceRecord: { recordId: number; channel: string } } }).event.serviceRecord).toMatchObject({
        recordId: record.recordId,
        channel: 'email',
      });
    });

    it('a retry with the same requestId answers the first record and writes nothing more; the id for another client is 090409', async () => {
      const requestId = randomUUID();
      const attempts = await Promise.all([1, 2, 3].map(() => add(chan, { requestId, note: 'Retried after a crash' })));
      const ids = attempts.map((attempt) => {
        expectOk(attempt);
        return (attempt.body.data as ContactRecord).recordId;
      });
      expect(new Set(ids).size).toBe(1);
      const [row] = await database.query<{ count: number }>(
        "select count(*)::int as count from contact_record where note = 'Retried after a crash'",
      );
      expect(row!.count).toBe(1);
      expect(await auditOf('contact.add', String(ids[0]))).toHaveLength(1);
      expectError(await add(chan, { requestId, customerId: other.customerId }), ErrorCode.CONFLICT, 409, 'requestId');
    });

    it('revise before the lock: the author edits in place (same id, edits + 1, audited before → after); a stale edit is 090409', async () => {
      const record = await added(chan, { note: 'First words' });
      const edited = await revise(chan, record, { note: 'Better words', outcome: 'Agreed' });
      expectOk(edited);
      const now = edited.body.data as ContactRecord;
      expect(now).toMatchObject({
        recordId: record.recordId,
        version: 1,
        edits: 1,
        note: 'Better words',
        outcome: 'Agreed',
        correctionReason: null,
      });
      const [audit] = await auditOf('contact.edit', String(record.recordId));
      expect(audit!.before).toEqual({ note: 'First words', outcome: null });
      expect(audit!.after).toMatchObject({ note: 'Better words', outcome: 'Agreed' });
      expectError(await revise(chan, record, { note: 'From a stale page' }), ErrorCode.CONFLICT, 409, 'recordId');
      const got = await chan.call('getContactRecord', { recordId: record.recordId });
      expectOk(got);
      expect((got.body.data as { record: ContactRecord; versions: ContactRecord[] }).versions).toEqual([]);
    });

    it('two revises of the same version at once: one wins, the other is 090409', async () => {
      const record = await added(chan, { note: 'Raced' });
      const results = await Promise.all([revise(chan, record, { note: 'Device A' }), revise(chan, record, { note: 'Device B' })]);
      expect(results.filter(isOk)).toHaveLength(1);
      const loser = results.find((result) => !isOk(result))!;
      expectError(loser, ErrorCode.CONFLICT, 409);
      const [row] = await database.query<{ edits: number; count: number }>(
        'select max(edits)::int as edits, count(*)::int as count from contact_record where thread_id = $1',
        [record.recordId],
      );
      expect(row).toEqual({ edits: 1, count: 1 });
    });

    it('after the lock: a correction needs a reason, adds version 2 and keeps version 1; the old version is 090409', async () => {
      const record = await added(chanQuick, { note: 'Locks soon', nextStep: 'Send the form', nextStepDate: addDays(TODAY, 2) });
      expect(record.locked).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, SHORT_LOCK_HOURS * 3_600_000 + 300));
      const got = await chanQuick.call('getContactRecord', { recordId: record.recordId });
      expectOk(got);
      expect((got.body.data as { record: ContactRecord }).record.locked).toBe(true);
      expectError(await revise(chanQuick, record, { note: 'Too late to edit' }), ErrorCode.VALIDATION, 400, 'correctionReason');
      const corrected = await revise(chanQuick, record, {
        note: 'Locks soon (the client asked for the Chinese form)',
        nextStep: 'Send the form',
        nextStepDate: addDays(TODAY, 4),
        correctionReason: 'Wrong form noted',
      });
      expectOk(corrected);
      const v2 = corrected.body.data as ContactRecord;
      expect(v2).toMatchObject({
        threadId: record.recordId,
        version: 2,
        latest: true,
        correctionReason: 'Wrong form noted',
        locked: false,
      });
      expect(v2.recordId).not.toBe(record.recordId);
      const both = await chanQuick.call('getContactRecord', { recordId: record.recordId });
      expectOk(both);
      const { record: latest, versions } = both.body.data as { record: ContactRecord; versions: ContactRecord[] };
      expect(latest.recordId).toBe(v2.recordId);
      expect(versions.map((version) => [version.version, version.latest, version.note])).toEqual([[1, false, 'Locks soon']]);
      expectError(await revise(chanQuick, record, { correctionReason: 'again' }), ErrorCode.CONFLICT, 409, String(v2.recordId));
      const [audit] = await auditOf('contact.correct', String(v2.recordId));
      expect(audit!.after).toMatchObject({ correctionReason: 'Wrong form noted', nextStepDate: addDays(TODAY, 4) });
      // The correction moved the pending follow-up.
      const [followUp] = await database.query<{ due: string }>(
        "select due_date::text as due from mot_event where rule = 'follow_up' and customer_id = $1 and fact_key = $2",
        [client.customerId, String(record.recordId)],
      );
      expect(followUp!.due).toBe(addDays(TODAY, 4));
    });

    it('the database itself refuses to delete a record or change a locked or superseded version', async () => {
      const record = await added(chanQuick, { note: 'Evidence' });
      await expect(database.query('delete from contact_record where id = $1', [record.recordId])).rejects.toThrow(/never deleted/);
      await expect(
        database.query('update contact_record set customer_id = $2 where id = $1', [record.recordId, other.customerId]),
      ).rejects.toThrow(/never change/);
      await new Promise((resolve) => setTimeout(resolve, SHORT_LOCK_HOURS * 3_600_000 + 300));
      await expect(database.query("update contact_record set note = 'rewritten' where id = $1", [record.recordId])).rejects.toThrow(
        /locked/,
      );
      const [row] = await database.query<{ note: string }>('select note from contact_record where id = $1', [record.recordId]);
      expect(row!.note).toBe('Evidence');
    });

    it("a record's next step puts a follow-up on the MOT list that day; completing it links the new record to the old", async () => {
      const day = addDays(TODAY, 1);
      const record = await added(chan, { nextStep: 'Send the prospectus', nextStepDate: day });
      expect(record.followUpEventId).not.toBeNull();
      const [event] = await database.query<{ due: string; status: string; facts: Record<string, unknown>; staff_id: number }>(
        "select due_date::text as due, status, facts, staff_id from mot_event where id = $1 and rule = 'follow_up'",
        [record.followUpEventId],
      );
      expect(event).toMatchObject({ due: day, status: 'new', facts: { recordId: record.recordId, nextStep: 'Send the prospectus' } });
      const next = await added(chan, { purpose: 'follow_up', note: 'Sent it', eventIds: [record.followUpEventId] });
      expect(next.followsRecordId).toBe(record.recordId);
      const [handled] = await database.query<{ status: string }>('select status from mot_event where id = $1', [record.followUpEventId]);
      expect(handled!.status).toBe('handled');
      // A cleared date removes a pending follow-up.
      const cleared = await added(chan, { nextStep: 'Maybe', nextStepDate: day });
      const edit = await revise(chan, cleared, { nextStep: null, nextStepDate: null });
      expectOk(edit);
      expect((edit.body.data as ContactRecord).followUpEventId).toBeNull();
    });

    it("MOT's handle and history read and write the same records: the log lists a handled event's record, history finds one logged without an event", async () => {
      const fresh = await insertQuietCustomer(database, TODAY, { name_cn: '共用紀錄客戶' });
      const mot = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
      const eventId = await pendingEvent(fresh.customerId, 'id_expiry');
      const marker = randomUUID().slice(0, 8);
      const handled = await mot.ok.handleEvent({ eventId, channel: 'meeting', note: `Handled from MOT ${marker}` });
      const logged = await added(chan, { customerId: fresh.customerId, channel: 'email', note: `Logged on its own ${marker}` });

      // The client's log (issue 23.2) holds the record MOT's handle wrote, linked to its event.
      const log = await chan.call('listContactRecords', { customerId: fresh.customerId });
      expectOk(log);
      const records = (log.body.data as { list: ContactRecord[] }).list;
      expect(records.map((record) => record.recordId).sort((a, b) => a - b)).toEqual(
        [handled.recordId, logged.recordId].sort((a, b) => a - b),
      );
      expect(records.find((record) => record.recordId === handled.recordId)).toMatchObject({
        channel: 'meeting',
        events: [expect.objectContaining({ eventId, rule: 'id_expiry' })],
      });

      // MOT's history (its contract unchanged) finds both, the one without an event as such.
      const history = await mot.ok.searchServiceHistory({ keyword: marker });
      expect(history.total).toBe(2);
      expect(history.list.find((record) => record.recordId === logged.recordId)).toMatchObject({
        eventId: null,
        rule: null,
        channel: 'email',
        customerId: fresh.customerId,
      });
      expect(history.list.find((record) => record.recordId === handled.recordId)).toMatchObject({ eventId, rule: 'id_expiry' });
    });

    it("list: the client's log, newest contact first, keyset pages without gaps or repeats, filtered by channel", async () => {
      const fresh = await insertQuietCustomer(database, TODAY, { name_cn: '翻頁客戶' });
      const written: number[] = [];
      for (let index = 0; index < 7; index += 1) {
        const record = await added(chan, {
          customerId: fresh.customerId,
          channel: index % 2 === 0 ? 'phone' : 'wecom',
          servedAt: Date.now() - (10 - index) * 60_000,
          note: `Contact ${index}`,
        });
        written.push(record.recordId);
      }
      const seen: number[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await chan.call('listContactRecords', { customerId: fresh.customerId, limit: 3, ...(cursor ? { cursor } : {}) });
        expectOk(page);
        const data = page.body.data as { list: ContactRecord[]; nextCursor: string | null };
        seen.push(...data.list.map((record) => record.recordId));
        cursor = data.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...written].reverse());
      const wecom = await chan.call('listContactRecords', { customerId: fresh.customerId, channel: 'wecom' });
      expectOk(wecom);
      expect((wecom.body.data as { list: ContactRecord[] }).list.map((record) => record.channel)).toEqual(['wecom', 'wecom', 'wecom']);
      expectError(
        await chan.call('listContactRecords', { customerId: fresh.customerId, cursor: 'abc' }),
        ErrorCode.VALIDATION,
        400,
        'cursor',
      );
    });

    it('export: every version as CSV a spreadsheet cannot run, with a BOM; the export is audited', async () => {
      const fresh = await insertQuietCustomer(database, TODAY, { name_cn: '導出客戶' });
      await added(chan, {
        customerId: fresh.customerId,
        note: '=HYPERLINK("http://evil.example","click")',
        outcome: '+1 call',
        nextStep: '@boss',
        nextStepDate: addDays(TODAY, 9),
      });
      await added(chan, { customerId: fresh.customerId, note: 'Said "hello",\nthen left', outcome: '-10%' });
      const result = await chan.call('exportContactRecords', { customerId: fresh.customerId });
      expectOk(result);
      const data = result.body.data as { fileName: string; csv: string; records: number };
      expect(data.records).toBe(2);
      expect(data.fileName).toMatch(/^contact-log-T\d+-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(data.csv.startsWith('\uFEFF"record_id"')).toBe(true);
      expect(data.csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(data.csv).toContain(`"'+1 call"`);
      expect(data.csv).toContain(`"'@boss"`);
      expect(data.csv).toContain(`"'-10%"`);
      expect(data.csv).toContain('"Said ""hello"",\nthen left"');
      expect(data.csv).not.toMatch(/(^|,)"[=+\-@]/m);
      const [audit] = await auditOf('contact.export', `customer:${fresh.customerId}`);
      expect(audit!.after).toMatchObject({ customerId: fresh.customerId, records: 2 });
      expectError(
        await chan.call('exportContactRecords', { customerId: fresh.customerId, dateFrom: TODAY, dateTo: addDays(TODAY, -1) }),
        ErrorCode.VALIDATION,
        400,
        'dateTo',
      );
    });
  });
}
