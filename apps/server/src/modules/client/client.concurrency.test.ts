import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { testDatabases, startTwoReplicas, expectOk, isOk, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';

const EDITORS = 8;

type CustomerRow = Record<string, unknown> & { version: number };

/** The editable fields as stored, plus some nobody can edit, to prove nothing else moved. */
const readCustomer = async (database: DatabaseHandle, id: number) =>
  (
    await database.query<CustomerRow>(
      `select name_cn, name_en, phone, phone_digits, email, tags, remark, status, id_doc_masked, birthday::text as birthday,
              staff_id, risk_level, version from customer where id = $1`,
      [id],
    )
  )[0]!;

/** Each editor changes a different mix of fields of the same version. */
const editOf = (index: number): Record<string, unknown> => {
  switch (index % 3) {
    case 0:
      return { remark: `remark from device ${index}` };
    case 1:
      return { email: `device${index}@example.com`, phone: `+852 6${String(index).padStart(3, '0')} 1234` };
    default:
      return { tags: [`设备${index}`], remark: `remark and tags from device ${index}` };
  }
};

/** What an accepted edit does to the stored columns. */
const columnsOf = (edit: Record<string, unknown>): Record<string, unknown> => ({
  ...('remark' in edit ? { remark: edit.remark } : {}),
  ...('email' in edit ? { email: edit.email } : {}),
  ...('phone' in edit ? { phone: edit.phone, phone_digits: String(edit.phone).replace(/\D/g, '') } : {}),
  ...('tags' in edit ? { tags: edit.tags } : {}),
});

for (const engine of testDatabases()) {
  describe(`concurrent profile edits (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    /** Two replicas on one database: the editors' requests alternate between them. */
    let replicas: RunningTestApp[];
    let sessions: ApiClient[];
    let customerId: number;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 30, seed: 8, asOf: '2026-11-20' });
      ({ replicas, sessions } = await startTwoReplicas(database, 'chanwaiman'));
      const [row] = await database.query<{ id: number }>(
        `select c.id::float8 as id from customer c join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman' order by c.id limit 1`,
      );
      customerId = row!.id;
    });
    afterAll(async () => {
      for (const replica of replicas ?? []) await replica.close();
      await database?.drop();
    });

    const update = async (index: number, version: number) => ({
      index,
      ...(await sessions[index % 2]!.updateProfile({ customerId, version, ...editOf(index) })),
    });

    it(`${EDITORS} simultaneous edits of one version: one wins, the rest get 090409, no update is lost`, async () => {
      const before = await readCustomer(database, customerId);
      const audits = await database.query(`select id from audit_log where entity = 'customer' and entity_id = $1`, [String(customerId)]);

      const results = await Promise.all(Array.from({ length: EDITORS }, (_, index) => update(index, before.version)));

      const winners = results.filter(isOk);
      expect(winners).toHaveLength(1);
      const losers = results.filter((result) => result.body.code !== '0');
      for (const loser of losers) {
        expect(loser.status).toBe(409);
        expect(loser.body.code).toBe(ErrorCode.CONFLICT);
        expect(loser.body.msg).toContain(`now version ${before.version + 1}`);
      }
      const winner = winners[0]!;
      expect(winner.body.data.version).toBe(before.version + 1);

      // The row is exactly the winner's edit over what was there: every field nobody won stays as it was.
      const after = await readCustomer(database, customerId);
      expect(after).toEqual({ ...before, ...columnsOf(editOf(winner.index)), version: before.version + 1 });
      const newAudits = await database.query<{ after: Record<string, unknown> }>(
        `select after from audit_log where entity = 'customer' and entity_id = $1 order by id`,
        [String(customerId)],
      );
      expect(newAudits).toHaveLength(audits.length + 1);
      expect(Object.keys(newAudits.at(-1)!.after).sort()).toEqual(Object.keys(editOf(winner.index)).sort());

      // Each loser reloads and applies their edit on the new version, one after another: all of it lands.
      let version = before.version + 1;
      for (const loser of losers) {
        const retried = await update(loser.index, version);
        expectOk(retried);
        version = retried.body.data.version;
      }
      const final = await readCustomer(database, customerId);
      const expected = [...losers.map((loser) => loser.index)].reduce((row, index) => ({ ...row, ...columnsOf(editOf(index)) }), {
        ...before,
        ...columnsOf(editOf(winner.index)),
      } as Record<string, unknown>);
      expect(final).toEqual({ ...expected, version: before.version + EDITORS });
    });
  });
}
