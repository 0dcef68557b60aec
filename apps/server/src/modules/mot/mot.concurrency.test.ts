import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { testDatabases, startTwoReplicas, isOk, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { runMotRules } from './mot-engine';
import { insertQuietCustomer } from './mot-test-fixtures';
import { addDays, hongKongDay } from '@broker/domain';

const TODAY = hongKongDay();
const HANDLERS = 10;

for (const engine of testDatabases()) {
  describe(`concurrent handling of one MOT event (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    /** Two replicas on one database, as in production: the handles alternate between them. */
    let replicas: RunningTestApp[];
    let sessions: ApiClient[];
    let eventIds: number[];

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 20, seed: 31, asOf: TODAY });
      const customers = [
        await insertQuietCustomer(database, TODAY, { id_doc_expiry: addDays(TODAY, 10) }),
        await insertQuietCustomer(database, TODAY, { id_doc_expiry: addDays(TODAY, 12) }),
      ];
      await runMotRules(database, { asOf: TODAY });
      eventIds = (
        await database.query<{ id: number }>(`select id::float8 as id from mot_event where customer_id = any($1::bigint[]) order by id`, [
          customers.map((customer) => customer.customerId),
        ])
      ).map((row) => row.id);
      expect(eventIds.length).toBeGreaterThanOrEqual(2);
      ({ replicas, sessions } = await startTwoReplicas(database, 'chanwaiman', { agentCode: 'mot' }));
    });
    afterAll(async () => {
      for (const replica of replicas ?? []) await replica.close();
      await database?.drop();
    });

    const handle = async (index: number, eventId: number) => ({
      index,
      ...(await sessions[index % 2]!.handleEvent({ eventId, channel: 'phone', note: `called from device ${index}` })),
    });

    it(`${HANDLERS} simultaneous handles on two replicas: one service record, one audit row, the rest 090409`, async () => {
      const [eventId] = eventIds;
      const results = await Promise.all(Array.from({ length: HANDLERS }, (_, index) => handle(index, eventId!)));
      const winners = results.filter(isOk);
      expect(winners).toHaveLength(1);
      for (const loser of results.filter((result) => result.body.code !== '0')) {
        expect(loser.status).toBe(409);
        expect(loser.body.code).toBe(ErrorCode.CONFLICT);
      }
      const records = await database.query<{ id: number; note: string }>(
        'select r.id::float8 as id, r.note from contact_record r join contact_record_event l on l.record_id = r.thread_id where l.mot_event_id = $1',
        [eventId],
      );
      expect(records).toEqual([{ id: winners[0]!.body.data.recordId, note: `called from device ${winners[0]!.index}` }]);
      const audits = await database.query<{ before: { status: string }; after: { status: string; serviceRecordId: number } }>(
        `select before, after from audit_log where action = 'mot.handle' and entity_id = $1`,
        [String(eventId)],
      );
      expect(audits).toHaveLength(1);
      expect(audits[0]!.before.status).toMatch(/^(new|seen)$/);
      expect(audits[0]!.after).toMatchObject({ status: 'handled', serviceRecordId: winners[0]!.body.data.recordId });
    });

    it('simultaneous handles of different events all succeed (the lock is per event)', async () => {
      const rest = eventIds.slice(1);
      const results = await Promise.all(rest.map((eventId, index) => handle(index, eventId)));
      expect(results.map((result) => result.body.code)).toEqual(rest.map(() => '0'));
      const [row] = await database.query<{ count: number }>(
        'select count(*)::int as count from contact_record_event where mot_event_id = any($1::bigint[])',
        [rest],
      );
      expect(row!.count).toBe(rest.length);
    });
  });
}
