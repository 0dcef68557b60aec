import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { testDatabases, startTwoReplicas, isOk, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';

// Emulator contacts followed by chanwaiman: 0001 何国良, 0002 谢美仪.
const HO = 'wmEmu0001HoKwokLeung';
const TSE = 'wmEmu0002TseMeiYee';
const BINDERS = 8;

for (const engine of testDatabases()) {
  describe(`concurrent KYC binds (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    /** Two replicas on one database: the binds alternate between them. */
    let replicas: RunningTestApp[];
    let sessions: ApiClient[];
    let customerIds: number[];

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 60, seed: 12, asOf: '2026-11-20' });
      ({ replicas, sessions } = await startTwoReplicas(database, 'chanwaiman'));
      customerIds = (
        await database.query<{ id: number }>(
          `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman' order by c.id limit ${BINDERS}`,
        )
      ).map((row) => row.id);
      expect(customerIds).toHaveLength(BINDERS);
      // Each bind asks WeCom whether the contact is followed; fetch the shared WeCom access token once
      // first, so the burst below is about binding, not about the token cache (the replica suite tests that).
      for (const session of sessions) await session.ok.hasKyc({ externalUserId: HO });
    });
    afterAll(async () => {
      for (const replica of replicas ?? []) await replica.close();
      await database?.drop();
    });

    const bind = (index: number, externalUserId: string, customerId: number) =>
      sessions[index % 2]!.kycBind({ externalUserId, customerId });
    const bindingsOf = (externalUserId: string) =>
      database.query<{ customer_id: number }>('select customer_id::float8 as customer_id from kyc_binding where external_user_id = $1', [
        externalUserId,
      ]);
    const auditsOf = (externalUserId: string) =>
      database.query<{ after: { customerId: number } }>(`select after from audit_log where action = 'kyc.bind' and entity_id = $1`, [
        externalUserId,
      ]);

    it(`${BINDERS} simultaneous binds of one contact to different customers: one binding, one audit row, the rest 091001`, async () => {
      const results = await Promise.all(customerIds.map((customerId, index) => bind(index, HO, customerId)));
      const winners = results.filter(isOk);
      expect(winners).toHaveLength(1);
      for (const loser of results.filter((result) => result.body.code !== '0')) {
        expect(loser.status).toBe(409);
        expect(loser.body.code).toBe(ErrorCode.KYC_CONTACT_ALREADY_BOUND);
      }
      const won = winners[0]!.body.data.customerId;
      expect(await bindingsOf(HO)).toEqual([{ customer_id: won }]);
      expect((await auditsOf(HO)).map((row) => row.after.customerId)).toEqual([won]);
    });

    it(`${BINDERS} simultaneous binds of the same contact to the same customer: one binding`, async () => {
      const customerId = customerIds.at(-1)!;
      const results = await Promise.all(Array.from({ length: BINDERS }, (_, index) => bind(index, TSE, customerId)));
      expect(results.filter((result) => result.body.code === '0')).toHaveLength(1);
      for (const loser of results.filter((result) => result.body.code !== '0')) expect(loser.status).toBe(409);
      expect(await bindingsOf(TSE)).toEqual([{ customer_id: customerId }]);
      expect(await auditsOf(TSE)).toHaveLength(1);
    });
  });
}
