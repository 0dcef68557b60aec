import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing';
import { runMigrations, type DatabaseHandle } from './client';

const EXPECTED_TABLES = [
  'corp',
  'staff',
  'auth_session',
  'wecom_credential',
  'customer',
  'account',
  'cash_balance',
  'security',
  'holding',
  'trade',
  'money_movement',
  'stock_transfer',
  'exchange_rate',
  'kyc_binding',
  'mot_event',
  'contact_record',
  'contact_record_event',
  'audit_log',
  'rate_limit_counter',
];

for (const engine of testDatabases()) {
  describe(`migrations (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    beforeAll(async () => {
      database = await engine.create();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('creates every table of the data model', async () => {
      const rows = await database.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = current_schema()`,
      );
      const tables = rows.map((row) => row.table_name);
      for (const table of EXPECTED_TABLES) expect(tables).toContain(table);
    });

    it('loads pg_trgm and builds the trigram search indexes with it', async () => {
      const [extension] = await database.query<{ extname: string }>(`select extname from pg_extension where extname = 'pg_trgm'`);
      expect(extension?.extname).toBe('pg_trgm');
      const indexes = await database.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where indexdef like '%gin_trgm_ops%'`,
      );
      expect(indexes.map((index) => index.indexname).sort()).toEqual([
        'contact_record_note_trgm',
        'customer_name_cn_trgm',
        'customer_name_en_trgm',
        'customer_phone_trgm',
        'customer_staff_name_en_trgm_idx',
      ]);
    });

    it('loads btree_gin so keyword indexes are scoped to one book (staff_id first in the GIN)', async () => {
      const [extension] = await database.query<{ extname: string }>(`select extname from pg_extension where extname = 'btree_gin'`);
      expect(extension?.extname).toBe('btree_gin');
      const indexes = await database.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where indexname like 'customer_staff_%' and indexdef like '%USING gin (staff_id, %'`,
      );
      // customer_staff_phone_trgm_idx was dropped by migration 0021: phones are found by customer_staff_phone_grams_idx.
      expect(indexes.map((index) => index.indexname).sort()).toEqual(['customer_staff_name_en_trgm_idx']);
    });

    it('has the access-path indexes the client list and search rely on', async () => {
      const rows = await database.query<{ indexname: string }>(`select indexname from pg_indexes where schemaname = current_schema()`);
      const names = rows.map((row) => row.indexname);
      for (const name of [
        'customer_corp_no_uq',
        'customer_id_last4_idx',
        'customer_staff_assets_cover_idx',
        'customer_staff_phone_grams_idx',
        'customer_staff_name_cn_grams_idx',
        'customer_staff_name_en_grams_idx',
        'customer_staff_open_idx',
        'customer_staff_last_trade_idx',
        'customer_staff_status_assets_idx',
        'customer_staff_status_open_idx',
        'customer_staff_status_last_trade_idx',
        'account_corp_no_uq',
        'trade_customer_time_idx',
        'money_movement_customer_time_idx',
        'stock_transfer_customer_time_idx',
        'mot_event_fact_uq',
        'kyc_binding_contact_uq',
        'kyc_binding_customer_uq',
      ]) {
        expect(names).toContain(name);
      }
    });

    it('is a no-op when applied again', async () => {
      const before = await database.query<{ count: string }>('select count(*)::text as count from pg_indexes');
      await runMigrations(database);
      const after = await database.query<{ count: string }>('select count(*)::text as count from pg_indexes');
      expect(after).toEqual(before);
    });

    it('enforces one MOT event per (rule, customer, fact)', async () => {
      await database.query(`insert into corp (code, name, wecom_corp_id) values ('mig', 'mig', 'mig')`);
      const [corp] = await database.query<{ id: number }>(`select id from corp where code = 'mig'`);
      const [member] = await database.query<{ id: number }>(
        `insert into staff (corp_id, wecom_user_id, name) values ($1, 'u1', 'U') returning id`,
        [corp!.id],
      );
      const [customer] = await database.query<{ id: number }>(
        `insert into customer (corp_id, staff_id, customer_no, channel, name_cn, name_en, id_doc_type, id_doc_masked, id_doc_last4, risk_level, open_date)
         values ($1, $2, 'X1', 'branch', '测试', 'TEST', 'hkid', 'A1**4563', '4563', 3, '2026-01-01') returning id`,
        [corp!.id, member!.id],
      );
      const insert = () =>
        database.query(
          `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts) values ($1, 'birthday', $2, $3, '2026', '2026-12-01', '{}')
           on conflict (rule, customer_id, fact_key) do nothing returning id`,
          [corp!.id, customer!.id, member!.id],
        );
      expect(await insert()).toHaveLength(1);
      expect(await insert()).toHaveLength(0);
    });
  });
}
