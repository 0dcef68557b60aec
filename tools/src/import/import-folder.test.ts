import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_TABLES, searchTerms, seedDemoData, type DatabaseHandle } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { testDatabases } from '@broker/server/testing';
import { importFolder } from './import-folder';

const SAMPLE = fileURLToPath(new URL('../../fixtures/import-sample', import.meta.url));

const countAll = async (database: DatabaseHandle) => {
  const counts: Record<string, number> = {};
  // What the importer writes: the tables the seed generates per customer, and the reference data.
  for (const table of [...SEED_TABLES, 'security', 'exchange_rate']) {
    counts[table] = Number((await database.query<{ n: string }>(`select count(*)::text as n from ${table}`))[0]!.n);
  }
  return counts;
};

function folderWith(files: Record<string, string | Buffer>) {
  const folder = mkdtempSync(join(tmpdir(), 'broker-import-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return folder;
}

for (const engine of testDatabases()) {
  describe(`back-office importer (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    const folders: string[] = [];

    beforeAll(async () => {
      database = await engine.create();
      // A few generated customers alongside, so the import must leave them alone; also creates corp and staff.
      await seedDemoData(database, { customers: 10, seed: 3, asOf: '2026-11-20' });
    });
    afterAll(async () => {
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
      await database?.drop();
    });

    it('imports the sample folder without a single rejected row', async () => {
      const report = await importFolder(database, SAMPLE, { corpCode: 'fxhl' });
      expect(report.errors).toEqual([]);
      expect(report.files.map((file) => file.file)).toEqual([
        'exchange_rates.csv',
        'prices.csv',
        'customers.csv',
        'cash_balances.csv',
        'holdings.csv',
        'trades.csv',
        'money_movements.csv',
        'transfers.csv',
      ]);
      expect(report.files.find((file) => file.file === 'customers.csv')).toMatchObject({ rows: 4, inserted: 4, rejected: 0 });
      expect(report.files.find((file) => file.file === 'trades.csv')).toMatchObject({ rows: 6, inserted: 6 });

      const [customer] = await database.query<Record<string, unknown>>(
        `select c.*, s.wecom_user_id from customer c join staff s on s.id = c.staff_id where customer_no = 'B00001'`,
      );
      expect(customer).toMatchObject({
        wecom_user_id: 'chanwaiman',
        name_en: 'CHAN Tai Man',
        phone: '+852 9123 4567',
        phone_digits: '85291234567',
        id_doc_masked: 'A1**4563',
        id_doc_last4: '4563',
        tags: ['VIP', '长线投资'],
        version: 1,
      });
      // 152,300.50 cash + 100 × 518 + 800 × 98.50 + 1,000 × 26.14, all HKD.
      expect(customer!.total_assets_hkd).toBe('309040.50');
      expect(customer!.last_trade_date).toBeTruthy();
      // A bare 8-digit number is a Hong Kong number.
      const [karen] = await database.query<{ phone: string }>(`select phone from customer where customer_no = 'B00003'`);
      expect(karen!.phone).toBe('+852 6123 4567');
      // The full identity number is never stored.
      const leaked = await database.query(`select 1 from customer where id_doc_masked like '%123456%' or id_doc_masked like '%K987654%'`);
      expect(leaked).toHaveLength(0);
    });

    it('converts foreign-currency positions to HKD by dividing by the rate (units per HKD)', async () => {
      const [row] = await database.query<{ total_assets_hkd: string }>(
        `select total_assets_hkd from customer where customer_no = 'B00002'`,
      );
      const expected = -20000 + 1500 / 0.1285 + 10000 / 0.931 + (50 * 268.4) / 0.1285 + (100 * 1452) / 0.931;
      expect(Number(row!.total_assets_hkd)).toBeCloseTo(expected, 1);
    });

    it('changes nothing when the same files are imported again', async () => {
      const before = await countAll(database);
      const versions = await database.query('select customer_no, version, updated_at from customer order by customer_no');
      const report = await importFolder(database, SAMPLE, { corpCode: 'fxhl' });
      expect(report.errors).toEqual([]);
      for (const file of report.files) expect(file).toMatchObject({ inserted: 0, updated: 0, unchanged: file.rows });
      expect(report.summariesRefreshed).toBe(0);
      expect(await countAll(database)).toEqual(before);
      expect(await database.query('select customer_no, version, updated_at from customer order by customer_no')).toEqual(versions);
    });

    it('takes a security’s Hong Kong Traditional name when given, and keeps it when a later file has none', async () => {
      const header = 'symbol,market,name_cn,name_en,currency,lot_size,last_price,prev_close,price_date';
      const named = folderWith({
        'prices.csv': `${header},name_hk\nZZHK.HK,HK,测试汇丰,Test HSBC,HKD,400,98.50,97.85,2026-11-20,測試滙豐\n`,
      });
      const unnamed = folderWith({ 'prices.csv': `${header}\nZZHK.HK,HK,测试汇丰,Test HSBC,HKD,400,99.00,98.50,2026-11-21\n` });
      folders.push(named, unnamed);
      expect((await importFolder(database, named, { corpCode: 'fxhl' })).errors).toEqual([]);
      expect((await importFolder(database, unnamed, { corpCode: 'fxhl' })).errors).toEqual([]);
      const [row] = await database.query<{ name_hk: string | null; last_price: string }>(
        `select name_hk, last_price from security where symbol = 'ZZHK.HK'`,
      );
      expect(row).toEqual({ name_hk: '測試滙豐', last_price: '99.0000' });
    });

    it('reports bad rows with file, line and reason and still imports the good ones', async () => {
      const header =
        'customer_no,staff_userid,channel,name_cn,name_en,gender,phone,email,id_doc_type,id_doc_number,id_doc_expiry,birthday,risk_level,risk_assessed_on,status,open_date,closed_date,tags,remark,account_no,account_type';
      const folder = folderWith({
        'customers.csv': [
          header,
          'B10001,leekaying,branch,林美玲,LAM Mei Ling,F,+852 9876 5432,,hkid,C668668(8),,1970-01-30,2,,active,2020-01-02,,,,700010001,cash',
          'B10002,nobody,branch,林志强,LAM Chi Keung,M,+852 9876 0000,,hkid,C123123(4),,1970-01-30,2,,active,2020-01-02,,,,700010002,cash',
          'B10003,leekaying,branch,,LAM Nobody,M,+852 9876 0001,,hkid,C123124(4),,1970-01-30,2,,active,2020-01-02,,,,700010003,cash',
          'B10004,leekaying,branch,林一,LAM Yat,M,+852 9876 0002,,hkid,C123125(4),,1970-02-30,7,,active,2020-01-02,,,,700010004,cash',
          'B10005,leekaying,branch,林二,LAM Yi,M,+852 9876 0003,,hkid,C123126(4),,1970-01-30,2,,closed,2020-01-02,,,,700010005,cash',
          'B10006,leekaying,branch,林三,LAM Sam,M,+852 9876 0004,,hkid,C123127(4),,1970-01-30,2,,active,2020-01-02,,,,700000001,cash',
        ].join('\n'),
        'cash_balances.csv': 'account_no,currency,balance\n700010001,HKD,-5.00\n700010001,USD,12.50\n799999999,HKD,1\n',
        'trades.csv': [
          'trade_ref,account_no,symbol,side,quantity,price,amount,fee,currency,traded_at,settle_date',
          'X1,700010001,0700.HK,buy,100,500,50000,65,HKD,2026-01-05 10:00,2026-01-07',
          'X2,700010001,ZZZZ,buy,100,500,50000,65,HKD,2026-01-05 10:00,2026-01-07',
          'X3,700010001,AAPL,buy,1,200,200,1,HKD,2026-01-05 22:00,2026-01-06',
          'X4,700010001,0700.HK,buy,100,500,50000,65,HKD,yesterday,2026-01-07',
        ].join('\n'),
        'transfers.csv': 'account_no,symbol\n700010001,0700.HK\n',
      });
      folders.push(folder);
      const report = await importFolder(database, folder, { corpCode: 'fxhl' });
      const reasons = report.errors.map((error) => `${error.file}:${error.line}: ${error.reason}`);
      expect(reasons).toEqual([
        'customers.csv:3: staff_userid nobody is not a staff member of this corp',
        expect.stringMatching(/^customers\.csv:4: name_cn/),
        expect.stringMatching(
          /^customers\.csv:5: .*birthday.*risk_level|^customers\.csv:5: .*risk_level.*birthday|^customers\.csv:5: birthday/,
        ),
        'customers.csv:6: closed_date: a closed customer needs closed_date',
        'customers.csv:7: account_no 700000001 belongs to customer B00001',
        'cash_balances.csv:2: balance -5.00 is negative on cash account 700010001',
        'cash_balances.csv:4: account_no 799999999 does not exist (import it in customers.csv first)',
        'trades.csv:3: symbol ZZZZ is not in the security master (add it in prices.csv)',
        "trades.csv:4: currency HKD does not match AAPL's trading currency USD",
        expect.stringMatching(/^trades\.csv:5: traded_at/),
        expect.stringMatching(/^transfers\.csv:1: missing columns: transfer_ref, direction/),
      ]);
      expect(report.files.find((file) => file.file === 'customers.csv')).toMatchObject({ rows: 6, inserted: 1, rejected: 5 });
      const imported = await database.query<{ customer_no: string }>(`select customer_no from customer where customer_no like 'B1%'`);
      expect(imported.map((row) => row.customer_no)).toEqual(['B10001']);
      expect(
        await database.query(`select balance from cash_balance b join account a on a.id = b.account_id where a.account_no = '700010001'`),
      ).toEqual([{ balance: '12.50' }]);
      expect(await database.query(`select external_ref from trade where external_ref like 'X%'`)).toEqual([{ external_ref: 'X1' }]);
    });

    it('refuses a time or day no clock or calendar shows (year 0, 9999, 30 February, 25:00) by line, and takes the rows after it', async () => {
      const header = 'trade_ref,account_no,symbol,side,quantity,price,amount,fee,currency,traded_at,settle_date';
      const trade = (ref: string, at: string, settle = '2026-01-07') => `${ref},700010001,0700.HK,buy,100,500,50000,65,HKD,${at},${settle}`;
      const folder = folderWith({
        'trades.csv': [
          header,
          trade('T0', '0000-01-05 10:00'),
          trade('T1', '9999-01-05 10:00'),
          trade('T2', '2026-02-30 10:00'),
          trade('T3', '2026-01-05 25:00'),
          trade('T4', '2026-01-05 10:00+99:00'),
          trade('T5', '2026-01-05 10:00', '0000-01-07'),
          trade('T6', '2026-01-05 10:00'),
        ].join('\n'),
        'money_movements.csv':
          'movement_ref,account_no,direction,currency,amount,method,occurred_at\nMT0,700010001,deposit,HKD,10,fps,1899-12-31 10:00\nMT1,700010001,deposit,HKD,10,fps,2026-01-05 10:00\n',
      });
      folders.push(folder);
      const report = await importFolder(database, folder, { corpCode: 'fxhl' });
      expect(report.errors.map((error) => `${error.file}:${error.line}: ${error.reason}`)).toEqual([
        ...[2, 3, 4, 5, 6].map((line) => expect.stringMatching(new RegExp(`^trades\\.csv:${line}: traded_at: must be`))),
        expect.stringMatching(/^trades\.csv:7: settle_date: must be a real calendar day between 1900-01-01 and 2999-12-31/),
        expect.stringMatching(/^money_movements\.csv:2: occurred_at: must be a real calendar day between 1900-01-01 and 2999-12-31/),
      ]);
      expect(await database.query(`select external_ref from trade where external_ref like 'T_'`)).toEqual([{ external_ref: 'T6' }]);
      expect(await database.query(`select external_ref from money_movement where external_ref like 'MT_'`)).toEqual([
        { external_ref: 'MT1' },
      ]);
    });

    it('keeps one row per reference when the back office moves it to another month (partitioned tables, ADR 0053)', async () => {
      const header = 'trade_ref,account_no,symbol,side,quantity,price,amount,fee,currency,traded_at,settle_date';
      const tradeAt = (at: string, settle: string) => `M1,700010001,0700.HK,buy,100,500,50000,65,HKD,${at},${settle}`;
      const movementAt = (at: string) =>
        `movement_ref,account_no,direction,currency,amount,method,occurred_at\nMM1,700010001,deposit,HKD,10,fps,${at}\n`;
      const importAt = async (at: string, settle: string) => {
        const folder = folderWith({ 'trades.csv': `${header}\n${tradeAt(at, settle)}\n`, 'money_movements.csv': movementAt(at) });
        folders.push(folder);
        const report = await importFolder(database, folder, { corpCode: 'fxhl' });
        expect(report.errors).toEqual([]);
        return report.files.map(({ file, inserted, updated, unchanged }) => ({ file, inserted, updated, unchanged }));
      };
      const stored = async () => [
        ...(await database.query(`select id::int, tableoid::regclass::text as partition from trade where external_ref = 'M1'`)),
        ...(await database.query(`select id::int, tableoid::regclass::text as partition from money_movement where external_ref = 'MM1'`)),
      ];
      const counts = (inserted: number, updated: number, unchanged: number) =>
        ['trades.csv', 'money_movements.csv'].map((file) => ({ file, inserted, updated, unchanged }));

      expect(await importAt('2026-01-30 10:00', '2026-02-03')).toEqual(counts(1, 0, 0));
      const [trade, movement] = (await stored()) as { id: number; partition: string }[];
      expect([trade!.partition, movement!.partition]).toEqual(['trade_p2026_01', 'money_movement_p2026_01']);
      expect(await importAt('2026-01-30 10:00', '2026-02-03')).toEqual(counts(0, 0, 1));
      // Corrected into February: the same rows (same ids), now in February's partitions.
      expect(await importAt('2026-02-02 10:00', '2026-02-04')).toEqual(counts(0, 1, 0));
      expect(await stored()).toEqual([
        { id: trade!.id, partition: 'trade_p2026_02' },
        { id: movement!.id, partition: 'money_movement_p2026_02' },
      ]);
    });

    it('refuses lines that are not UTF-8 as file:line, stores no U+FFFD, and takes the good rows (BOM or not)', async () => {
      const header =
        'customer_no,staff_userid,channel,name_cn,name_en,gender,phone,email,id_doc_type,id_doc_number,id_doc_expiry,birthday,risk_level,risk_assessed_on,status,open_date,closed_date,tags,remark,account_no,account_type';
      const bytes = (text: string | Buffer) => (Buffer.isBuffer(text) ? text : Buffer.from(text));
      const row = (no: string, nameCn: string | Buffer, remark: string | Buffer = '') =>
        Buffer.concat([
          bytes(`${no},leekaying,branch,`),
          bytes(nameCn),
          bytes(`,LAM ${no},M,+852 9876 ${no.slice(-4)},,hkid,C${no.slice(-4)}12(3),,1970-01-30,2,,active,2020-01-02,,,`),
          bytes(remark),
          bytes(`,8${no.slice(-4)}0001,cash\n`),
        ]);
      const gbk = Buffer.from('c1d6c3c0c1e1', 'hex'); // 林美玲 saved as GBK
      const folder = folderWith({
        'customers.csv': Buffer.concat([
          Buffer.from(`\ufeff${header}\n`),
          row('B20001', '林一'),
          row('B20002', gbk),
          // A quoted remark over two lines, the second with a stray byte: the record is refused, by that line.
          row('B20003', '林三', Buffer.concat([bytes('"first line\nsecond '), Buffer.from([0xe9]), bytes(' line"')])),
          row('B20004', '林四'),
        ]),
        'trades.csv': Buffer.concat([Buffer.from('trade_ref,account_no,symbol,side,quantity,'), gbk, Buffer.from('\nX9,1,2\n')]),
      });
      folders.push(folder);
      const report = await importFolder(database, folder, { corpCode: 'fxhl' });
      expect(report.errors.map((error) => `${error.file}:${error.line}: ${error.reason}`)).toEqual([
        'customers.csv:3: not UTF-8',
        'customers.csv:5: not UTF-8',
        'trades.csv:1: not UTF-8; file skipped',
      ]);
      expect(report.files.find((file) => file.file === 'customers.csv')).toMatchObject({ rows: 4, inserted: 2, rejected: 2 });
      const imported = await database.query<{ customer_no: string; name_cn: string }>(
        `select customer_no, name_cn from customer where customer_no like 'B2%' order by customer_no`,
      );
      expect(imported).toEqual([
        { customer_no: 'B20001', name_cn: '林一' },
        { customer_no: 'B20004', name_cn: '林四' },
      ]);
      const replacementChars = await database.query(
        `select customer_no from customer where name_cn like '%' || chr(65533) || '%' or coalesce(remark, '') like '%' || chr(65533) || '%'`,
      );
      expect(replacementChars).toEqual([]);
    });

    it('bumps the version only when a customer really changed', async () => {
      const folder = folderWith({
        'customers.csv': [
          'customer_no,staff_userid,channel,name_cn,name_en,gender,phone,email,id_doc_type,id_doc_number,id_doc_expiry,birthday,risk_level,risk_assessed_on,status,open_date,closed_date,tags,remark,account_no,account_type',
          'B00001,chanwaiman,branch,陈大文,CHAN Tai Man,M,+852 9123 4567,taiman.chan@gmail.com,hkid,A123456(3),,1975-03-12,4,2026-11-01,active,2019-05-20,,VIP;长线投资,偏好蓝筹股,700000001,cash',
        ].join('\n'),
      });
      folders.push(folder);
      const report = await importFolder(database, folder, { corpCode: 'fxhl' });
      expect(report.files[0]).toMatchObject({ updated: 1, rejected: 0 });
      const [row] = await database.query<{ version: number; risk_level: number }>(
        `select version, risk_level from customer where customer_no = 'B00001'`,
      );
      expect(row).toEqual({ version: 2, risk_level: 4 });
    });

    it('writes every customer’s search terms with the name, and new ones when the name changes (ADR 0046)', async () => {
      const rows = await database.query<{ name_cn: string; search_terms: string | null }>('select name_cn, search_terms from customer');
      for (const row of rows) expect(row.search_terms, row.name_cn).toBe(searchTerms(row.name_cn));
      const folder = folderWith({
        'customers.csv': [
          'customer_no,staff_userid,channel,name_cn,name_en,gender,phone,email,id_doc_type,id_doc_number,id_doc_expiry,birthday,risk_level,risk_assessed_on,status,open_date,closed_date,tags,remark,account_no,account_type',
          'B00001,chanwaiman,branch,黃大文,CHAN Tai Man,M,+852 9123 4567,taiman.chan@gmail.com,hkid,A123456(3),,1975-03-12,4,2026-11-01,active,2019-05-20,,VIP;长线投资,偏好蓝筹股,700000001,cash',
        ].join('\n'),
      });
      folders.push(folder);
      expect((await importFolder(database, folder, { corpCode: 'fxhl' })).files[0]).toMatchObject({ updated: 1, rejected: 0 });
      const [row] = await database.query<{ search_terms: string }>(`select search_terms from customer where customer_no = 'B00001'`);
      expect(row!.search_terms).toBe(searchTerms('黃大文'));
      expect(row!.search_terms).toMatch(/^黄大文 wong /);
    });

    it('runs the MOT rules on what it imported: a large deposit raises one event, once', async () => {
      const today = hongKongDay();
      const folder = folderWith({
        'money_movements.csv': `movement_ref,account_no,direction,currency,amount,method,occurred_at\nD-MOT-1,700000001,deposit,HKD,880000.00,fps,${today} 10:15:00+08:00\n`,
      });
      folders.push(folder);
      const report = await importFolder(database, folder, { corpCode: 'fxhl' });
      expect(report.errors).toEqual([]);
      expect(report.motEventsCreated).toBeGreaterThanOrEqual(1);
      const events = await database.query<{ rule: string; facts: { amount?: number } }>(
        `select e.rule, e.facts from mot_event e join customer c on c.id = e.customer_id
          where c.customer_no = 'B00001' and e.rule = 'large_deposit' and e.due_date = $1`,
        [today],
      );
      expect(events).toHaveLength(1);
      expect(JSON.stringify(events[0]!.facts)).toContain('880000');
      // The events it raised are queued for their manager's WeCom card (ADR 0042).
      expect(report.motCardsQueued).toBeGreaterThanOrEqual(1);
      const announced = await database.query<{ status: string; reason: string }>(
        `select p.status, p.reason from mot_push_event pe join mot_push p on p.id = pe.push_id
           join mot_event e on e.id = pe.event_id join customer c on c.id = e.customer_id
          where c.customer_no = 'B00001' and e.rule = 'large_deposit' and e.due_date = $1`,
        [today],
      );
      expect(announced).toEqual([{ status: 'pending', reason: 'import' }]);
      const again = await importFolder(database, folder, { corpCode: 'fxhl' });
      expect(again.motEventsCreated).toBe(0);
      expect(again.motCardsQueued).toBe(0);
    });
  });
}
