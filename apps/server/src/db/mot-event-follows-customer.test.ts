import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, startTestApp, signInAs, apiClient, seededStaff, type ApiClient, type RunningTestApp } from '../testing';
import type { DatabaseHandle } from './client';
import { seedDemoData } from './seed';
import { runMotRules } from '../modules/mot';
import { hongKongDay } from '@broker/domain';

/**
 * The MOT counts trust `mot_event.staff_id` (no join to customer), so a reassignment must move a
 * customer's pending events at once — the trigger of migration 0008 — while handled events stay
 * with the manager who handled them.
 */
const TODAY = hongKongDay();

for (const engine of testDatabases()) {
  describe(`pending MOT events follow a reassigned customer (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let chan: ApiClient;
    let lee: ApiClient;
    let staffIds: Record<string, number>;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 200, seed: 9, asOf: TODAY });
      await runMotRules(database, { asOf: TODAY });
      server = await startTestApp(database);
      chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
      lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying', { agentCode: 'mot' }));
      ({ staffIds } = await seededStaff(database));
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const pendingTotal = async (caller: ApiClient) => (await caller.ok.getTodoTaskCount()).total;

    it('moves pending events with the customer in the same statement, and leaves handled ones', async () => {
      const [customer] = await database.query<{ customerId: number; events: number }>(
        `select e.customer_id::float8 as "customerId", count(*)::int as events from mot_event e
          where e.staff_id = $1 and e.status <> 'handled' group by e.customer_id having count(*) >= 2 order by e.customer_id limit 1`,
        [staffIds.chanwaiman],
      );
      expect(customer, 'the seed gives chanwaiman a customer with two pending events').toBeDefined();
      const [handled] = await database.query<{ id: number }>(
        `update mot_event set status = 'handled', handled_at = now()
          where id = (select min(id) from mot_event where customer_id = $1) returning id::float8 as id`,
        [customer!.customerId],
      );
      const chanBefore = await pendingTotal(chan);
      const leeBefore = await pendingTotal(lee);

      await database.query('update customer set staff_id = $1 where id = $2', [staffIds.leekaying, customer!.customerId]);

      const events = await database.query<{ id: number; staffId: number }>(
        'select id::float8 as id, staff_id as "staffId" from mot_event where customer_id = $1',
        [customer!.customerId],
      );
      for (const event of events) expect(event.staffId).toBe(event.id === handled!.id ? staffIds.chanwaiman : staffIds.leekaying);
      const moved = customer!.events - 1;
      expect(await pendingTotal(chan)).toBe(chanBefore - moved);
      expect(await pendingTotal(lee)).toBe(leeBefore + moved);
    });
  });
}
