import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { hongKongDay } from '@broker/domain';
import { testDatabases } from '../testing';
import { MIGRATIONS_FOLDER, runMigrations, type DatabaseHandle } from './client';
import { ensureMonthPartitions } from './partitions';

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

/** Every table range-partitioned by month (migrations 0034 and 0035, ADR 0053), with its partition key. */
const MONTH_PARTITIONED_TABLES = [
  ['audit_log', 'at'],
  ['money_movement', 'occurred_at'],
  ['stock_transfer', 'occurred_at'],
  ['trade', 'traded_at'],
] as const;

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
        'audit_log_kyc_customer_idx',
      ]) {
        expect(names).toContain(name);
      }
    });

    it('range-partitions by month exactly the tables that grow with time and may (ADR 0053)', async () => {
      const rows = await database.query<{ name: string; key: string }>(
        `select c.relname as name, a.attname as key
           from pg_partitioned_table p join pg_class c on c.oid = p.partrelid
           join pg_attribute a on a.attrelid = c.oid and a.attnum = p.partattrs[0]
          where p.partstrat = 'r' and not c.relispartition and c.relnamespace = current_schema()::regnamespace order by 1`,
      );
      expect(rows.map((row) => [row.name, row.key])).toEqual(MONTH_PARTITIONED_TABLES.map(([table, key]) => [table, key]));
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

/** A copy of the migrations folder that ends at `lastTag`: a database as it was before the later migrations. */
function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'broker-migrations-'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(last).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, last + 1);
  mkdirSync(join(folder, 'meta'));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) copyFileSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return folder;
}

async function migrateFrom(database: DatabaseHandle, migrationsFolder: string) {
  if (database.kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder });
  else await migratePg(database.db as never, { migrationsFolder });
}

/** The first day of the month `months` after the current Hong Kong month, as YYYY-MM. */
function monthFromNow(months: number): string {
  const [year, month] = hongKongDay().split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The partitions of a partitioned table, by name. */
async function partitionsOfTable(database: DatabaseHandle, table: string): Promise<string[]> {
  const rows = await database.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = $1::regclass order by 1`,
    [table],
  );
  return rows.map((row) => row.name);
}

/** The partition that holds the row `id` of `table`. */
function partitionOfRow(database: DatabaseHandle, table: string, id: number) {
  return database.query<{ partition: string }>(`select tableoid::regclass::text as partition from ${table} where id = $1`, [id]);
}

for (const engine of testDatabases()) {
  describe(`history partitioned by month, migration 0034 (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let folder: string;
    // Hong Kong months: 2025-03-31 16:30 UTC is 1 April 00:30 there, so April's partition.
    const tradedAt = [
      '2025-01-15T02:00:00Z',
      '2025-03-31T16:30:00Z',
      '2025-03-31T15:30:00Z',
      '2026-06-10T08:00:00Z',
      '1999-12-31T20:00:00Z',
    ];
    const partitionsOf = (table: string) => partitionsOfTable(database, table);
    const whereIs = (table: string, id: number) => partitionOfRow(database, table, id);

    beforeAll(async () => {
      database = await engine.create({ migrate: false });
      folder = migrationsUpTo('0033_staff_language');
      await migrateFrom(database, folder);
      const [corp] = await database.query<{ id: number }>(
        `insert into corp (code, name, wecom_corp_id) values ('p', 'p', 'p') returning id`,
      );
      const [member] = await database.query<{ id: number }>(
        `insert into staff (corp_id, wecom_user_id, name) values ($1, 'u1', 'U') returning id`,
        [corp!.id],
      );
      const [customer] = await database.query<{ id: number }>(
        `insert into customer (corp_id, staff_id, customer_no, channel, name_cn, name_en, id_doc_type, id_doc_masked, id_doc_last4, risk_level, open_date)
         values ($1, $2, 'P1', 'branch', '测试', 'TEST', 'hkid', 'A1**4563', '4563', 3, '1999-01-01') returning id`,
        [corp!.id, member!.id],
      );
      const [account] = await database.query<{ id: number }>(
        `insert into account (corp_id, customer_id, account_no, type, open_date) values ($1, $2, 'PA1', 'cash', '1999-01-01') returning id`,
        [corp!.id, customer!.id],
      );
      const [security] = await database.query<{ id: number }>(
        `insert into security (symbol, market, name_cn, name_en, currency, lot_size, last_price, prev_close, price_date)
         values ('0700.HK', 'HK', '腾讯', 'Tencent', 'HKD', 100, 400, 399, '2026-01-01') returning id`,
      );
      for (const [n, at] of tradedAt.entries()) {
        await database.query(
          `insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date, external_ref)
           values ($1, $2, $3, 'buy', 100, 400, 40000, 50, 'HKD', $4, ($4::timestamptz)::date + 2, $5)`,
          [account!.id, customer!.id, security!.id, at, `R${n}`],
        );
        await database.query(
          `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at) values ($1, $2, 'deposit', 'HKD', 1000, 'fps', $3)`,
          [account!.id, customer!.id, at],
        );
        await database.query(
          `insert into stock_transfer (account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at) values ($1, $2, $3, 'in', 100, 'X', $4)`,
          [account!.id, customer!.id, security!.id, at],
        );
      }
      await runMigrations(database);
    });
    afterAll(async () => {
      await database?.drop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('keeps every row, id and the id sequence, each row in its Hong Kong month', async () => {
      for (const [table, column] of [
        ['trade', 'traded_at'],
        ['money_movement', 'occurred_at'],
        ['stock_transfer', 'occurred_at'],
      ] as const) {
        const rows = await database.query<{ id: number; at: string; partition: string }>(
          `select id::int, to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at, tableoid::regclass::text as partition
             from ${table} order by id`,
        );
        expect(rows.map((row) => row.at)).toEqual(tradedAt);
        expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);
        expect(rows.map((row) => row.partition)).toEqual(
          ['2025_01', '2025_04', '2025_03', '2026_06', '2000_01'].map((month) => `${table}_p${month}`),
        );
        const [owned] = await database.query<{ sequence: string | null }>(`select pg_get_serial_sequence($1, 'id') as sequence`, [table]);
        expect(owned?.sequence).toBe(`public.${table}_id_seq`);
        // Partitions of the months with rows, not of every month between 2000 and 2026, plus this month and 3 ahead.
        const partitions = await partitionsOf(table);
        expect(partitions).toContain(`${table}_default`);
        for (const month of [0, 1, 2, 3].map(monthFromNow)) expect(partitions).toContain(`${table}_p${month.replace('-', '_')}`);
        expect(partitions).not.toContain(`${table}_p2010_01`);
      }
      // The old tables are gone; the importer's key holds per reference and time.
      expect(await database.query(`select to_regclass('trade_unpartitioned') as gone`)).toEqual([{ gone: null }]);
      await expect(
        database.query(
          `insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date, external_ref)
           select account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date, external_ref from trade where external_ref = 'R0'`,
        ),
      ).rejects.toThrow(/trade_.*account_ref_uq|duplicate key/);
    });

    it('draws new ids from the same sequence, after the moved rows', async () => {
      const [row] = await database.query<{ id: number }>(
        `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
         select account_id, customer_id, direction, currency, amount, method, now() from money_movement limit 1 returning id::int`,
      );
      expect(row!.id).toBe(6);
      expect(await whereIs('money_movement', 6)).toEqual([{ partition: `money_movement_p${monthFromNow(0).replace('-', '_')}` }]);
    });

    it('puts a row of a month without a partition in the default one, and the job moves it into the month it then creates', async () => {
      const month = monthFromNow(60);
      const [row] = await database.query<{ id: number }>(
        `insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date)
         select account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, $1::timestamptz, settle_date from trade limit 1
         returning id::int`,
        [`${month}-15T04:00:00Z`],
      );
      expect(await whereIs('trade', row!.id)).toEqual([{ partition: 'trade_default' }]);
      expect(await ensureMonthPartitions(database)).toBe(1);
      expect(await whereIs('trade', row!.id)).toEqual([{ partition: `trade_p${month.replace('-', '_')}` }]);
      expect(await database.query(`select count(*)::int as rows from trade_default`)).toEqual([{ rows: 0 }]);
      // The moved month has the parent's indexes, as every partition.
      const indexes = await database.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = $1 order by 1`, [
        `trade_p${month.replace('-', '_')}`,
      ]);
      expect(indexes).toHaveLength(3);
    });

    it('creates the coming months once: a second run, or one racing it, creates nothing', async () => {
      const before = await partitionsOf('stock_transfer');
      expect(before).not.toContain(`stock_transfer_p${monthFromNow(5).replace('-', '_')}`);
      const [first, second] = await Promise.all([
        ensureMonthPartitions(database, { monthsAhead: 5 }),
        ensureMonthPartitions(database, { monthsAhead: 5 }),
      ]);
      // Two months ahead more, for each month-partitioned table (audit_log too since migration 0035), created by one of the two runs.
      expect(first + second).toBe(2 * MONTH_PARTITIONED_TABLES.length);
      expect(await ensureMonthPartitions(database, { monthsAhead: 5 })).toBe(0);
      const after = await partitionsOf('stock_transfer');
      expect(after).toEqual([...before, ...[4, 5].map((months) => `stock_transfer_p${monthFromNow(months).replace('-', '_')}`)].sort());
    });
  });
}

for (const engine of testDatabases()) {
  describe(`audit log partitioned by month, migration 0035 (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let folder: string;
    let staffId: number;
    // Hong Kong months, as for the history tables: 2025-03-31 16:30 UTC is 1 April 00:30 there.
    const at = ['2025-01-15T02:00:00Z', '2025-03-31T16:30:00Z', '2025-03-31T15:30:00Z', '2026-06-10T08:00:00Z', '1999-12-31T20:00:00Z'];
    const partitionOf = (month: string) => `audit_log_p${month.replace('-', '_')}`;

    beforeAll(async () => {
      database = await engine.create({ migrate: false });
      folder = migrationsUpTo('0034_history_partitions');
      await migrateFrom(database, folder);
      const [corp] = await database.query<{ id: number }>(
        `insert into corp (code, name, wecom_corp_id) values ('a', 'a', 'a') returning id`,
      );
      const [member] = await database.query<{ id: number }>(
        `insert into staff (corp_id, wecom_user_id, name) values ($1, 'u1', 'U') returning id`,
        [corp!.id],
      );
      staffId = member!.id;
      // A profile edit and a KYC binding of a client at each instant; the KYC row names the client only in its JSON.
      for (const [n, instant] of at.entries()) {
        await database.query(
          `insert into audit_log (corp_id, actor_staff_id, action, entity, entity_id, before, after, at)
           values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)`,
          n % 2 === 0
            ? [
                corp!.id,
                staffId,
                'customer.update',
                'customer',
                '42',
                `{"email": "old${n}@example.com"}`,
                `{"email": "new${n}@example.com"}`,
                instant,
              ]
            : [corp!.id, staffId, 'kyc.bind', 'kyc_binding', `wm${n}`, null, '{"customerId": "42"}', instant],
        );
      }
      // A system row (no actor) written now, as the app writes them: `at` by its default.
      await database.query(`insert into audit_log (corp_id, action, entity, entity_id) values ($1, 'kyc.stale', 'kyc_binding', 'wm9')`, [
        corp!.id,
      ]);
      await runMigrations(database);
    });
    afterAll(async () => {
      await database?.drop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('keeps every row, id, value and the id sequence, each row in its Hong Kong month', async () => {
      const rows = await database.query<{ id: number; at: string; partition: string; action: string; after: unknown }>(
        `select id::int, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at, tableoid::regclass::text as partition, action, after
           from audit_log order by id`,
      );
      expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(rows.slice(0, 5).map((row) => row.at)).toEqual(at);
      expect(rows.map((row) => row.partition)).toEqual(
        ['2025-01', '2025-04', '2025-03', '2026-06', '2000-01', monthFromNow(0)].map(partitionOf),
      );
      expect(rows.map((row) => row.action)).toEqual([
        'customer.update',
        'kyc.bind',
        'customer.update',
        'kyc.bind',
        'customer.update',
        'kyc.stale',
      ]);
      expect(rows[1]!.after).toEqual({ customerId: '42' });
      expect(rows[4]!.after).toEqual({ email: 'new4@example.com' });
      const [owned] = await database.query<{ sequence: string | null }>(`select pg_get_serial_sequence('audit_log', 'id') as sequence`);
      expect(owned?.sequence).toBe('public.audit_log_id_seq');
      expect(await database.query(`select to_regclass('audit_log_unpartitioned') as gone`)).toEqual([{ gone: null }]);
      // The months with rows (not every month between 2000 and 2026), this month and 3 ahead, and the default.
      const partitions = await partitionsOfTable(database, 'audit_log');
      expect(partitions).toContain('audit_log_default');
      for (const month of ['2000-01', '2025-01', '2025-03', '2025-04', '2026-06', ...[0, 1, 2, 3].map(monthFromNow)])
        expect(partitions).toContain(partitionOf(month));
      expect(partitions).not.toContain('audit_log_p2010_01');
    });

    it('draws new ids from the same sequence, after the moved rows, into this month', async () => {
      const [row] = await database.query<{ id: number }>(
        `insert into audit_log (actor_staff_id, action, entity, entity_id) values ($1, 'customer.update', 'customer', '42') returning id::int`,
        [staffId],
      );
      expect(row!.id).toBe(7);
      expect(await partitionOfRow(database, 'audit_log', 7)).toEqual([{ partition: partitionOf(monthFromNow(0)) }]);
    });

    it('has the primary key (id, at), the three indexes and both foreign keys on the partitioned table', async () => {
      const indexes = await database.query<{ name: string; definition: string }>(
        `select indexname as name, indexdef as definition from pg_indexes where tablename = 'audit_log' order by 1`,
      );
      expect(indexes.map((index) => index.name)).toEqual([
        'audit_log_actor_idx',
        'audit_log_entity_idx',
        'audit_log_kyc_customer_idx',
        'audit_log_pkey',
      ]);
      expect(indexes.find((index) => index.name === 'audit_log_pkey')!.definition).toMatch(/\(id, at\)$/);
      expect(indexes.find((index) => index.name === 'audit_log_kyc_customer_idx')!.definition).toMatch(
        /WHERE \(entity = 'kyc_binding'::text\)$/,
      );
      const foreignKeys = await database.query<{ name: string }>(
        `select conname as name from pg_constraint where conrelid = 'audit_log'::regclass and contype = 'f' order by 1`,
      );
      expect(foreignKeys.map((key) => key.name)).toEqual(['audit_log_actor_staff_id_staff_id_fk', 'audit_log_corp_id_corp_id_fk']);
      await expect(
        database.query(`insert into audit_log (actor_staff_id, action, entity, entity_id) values ($1, 'x', 'x', 'x')`, [staffId + 1000]),
      ).rejects.toThrow(/audit_log_actor_staff_id_staff_id_fk|foreign key/);
    });

    it('puts a row of a month without a partition in the default one, and the job moves it into the month it then creates', async () => {
      const month = monthFromNow(60);
      const [row] = await database.query<{ id: number }>(
        `insert into audit_log (actor_staff_id, action, entity, entity_id, at) values ($1, 'mot.handle', 'mot_event', '1', $2) returning id::int`,
        [staffId, `${month}-15T04:00:00Z`],
      );
      expect(await partitionOfRow(database, 'audit_log', row!.id)).toEqual([{ partition: 'audit_log_default' }]);
      expect(await ensureMonthPartitions(database)).toBe(1);
      expect(await partitionOfRow(database, 'audit_log', row!.id)).toEqual([{ partition: partitionOf(month) }]);
      expect(await database.query(`select count(*)::int as rows from audit_log_default`)).toEqual([{ rows: 0 }]);
      // The new month has the parent's primary key and indexes, as every partition.
      const indexes = await database.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = $1`, [
        partitionOf(month),
      ]);
      expect(indexes).toHaveLength(4);
    });

    it('creates audit_log’s coming months with the other tables’', async () => {
      const ahead = partitionOf(monthFromNow(6));
      expect(await partitionsOfTable(database, 'audit_log')).not.toContain(ahead);
      expect(await ensureMonthPartitions(database, { monthsAhead: 6 })).toBe(3 * MONTH_PARTITIONED_TABLES.length);
      expect(await partitionsOfTable(database, 'audit_log')).toContain(ahead);
    });
  });
}
