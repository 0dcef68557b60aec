import type { DatabaseHandle } from '../../db/client';
import { refreshCustomerSummaries } from '../../db/customer-summary';
import { seedDemoData } from '../../db/seed';

/**
 * Test data for the client and manage suites: generated customers, one client of chanwaiman whose every figure
 * is known, and rates dated after the generated ones so conversions are exact (USD 0.125, CNY 0.8).
 */
export const KNOWN = {
  nameCn: '测试甲乙',
  nameEn: 'Zebulon Quintrell',
  phone: '+852 4000 7531',
  phoneDigits: '85240007531',
  idDocMasked: 'K1***9876',
  idDocLast4: '9876',
  accountNo: 'T0000001',
  externalUserId: 'wmKnownClient01',
  /** 100,000 HKD + 1,000 USD (8,000 HKD). */
  cashHkd: 108_000,
  /** 1000 × 10 HKD + 100 × 20 USD (16,000 HKD) + 500 × 8 CNY (5,000 HKD). */
  marketValueHkd: 31_000,
  totalAssetsHkd: 139_000,
  /** 1000 × +0.5 HKD + 100 × −1 USD (−800 HKD) + 500 × 0 CNY. */
  todayPnlHkd: -300,
} as const;

export interface ClientFixture {
  staffIds: Record<string, number>;
  corpId: number;
  knownId: number;
  /** A customer of another staff member (leekaying). */
  foreignId: number;
}

export async function createClientFixture(database: DatabaseHandle, customers = 300): Promise<ClientFixture> {
  await seedDemoData(database, { customers, seed: 5, asOf: '2026-11-20' });
  const staffRows = await database.query<{ id: number; wecom_user_id: string; corp_id: number }>(
    'select id, wecom_user_id, corp_id from staff',
  );
  const staffIds = Object.fromEntries(staffRows.map((row) => [row.wecom_user_id, row.id]));
  const corpId = staffRows[0]!.corp_id;
  const staffId = staffIds.chanwaiman!;

  await database.query(
    `insert into exchange_rate (currency, rate_date, rate, source) values ('USD', '2030-01-01', 0.125, 'test'), ('CNY', '2030-01-01', 0.8, 'test'), ('HKD', '2030-01-01', 1, 'test')`,
  );
  // A Hong Kong name for the Hong Kong security only: the others show that none is a null.
  const security = async (symbol: string, market: string, currency: string, last: number, prev: number) => {
    const [row] = await database.query<{ id: number }>(
      `insert into security (symbol, market, name_cn, name_en, currency, lot_size, last_price, prev_close, price_date, name_hk)
       values ($1, $2, $3, $4, $5, 100, $6, $7, '2026-11-20', $8) returning id`,
      [symbol, market, `测试${symbol}`, `Test ${symbol}`, currency, last, prev, market === 'HK' ? `測試${symbol}` : null],
    );
    return row!.id;
  };
  const hk = await security('TST1.HK', 'HK', 'HKD', 10, 9.5);
  const us = await security('TST2', 'US', 'USD', 20, 21);
  const sh = await security('TST3.SH', 'SH', 'CNY', 8, 8);

  const [customer] = await database.query<{ id: number }>(
    `insert into customer (corp_id, staff_id, customer_no, channel, name_cn, name_en, gender, phone, phone_digits, email,
       id_doc_type, id_doc_masked, id_doc_last4, birthday, risk_level, status, open_date, tags, remark)
     values ($1, $2, 'CTEST0001', 'branch', $3, $4, 'M', $5, $6, 'zq@example.com', 'passport', $7, $8, '1980-05-06', 3, 'active',
       '2026-09-01', array['VIP'], 'hand-made test client') returning id`,
    [corpId, staffId, KNOWN.nameCn, KNOWN.nameEn, KNOWN.phone, KNOWN.phoneDigits, KNOWN.idDocMasked, KNOWN.idDocLast4],
  );
  const knownId = Number(customer!.id);
  const [account] = await database.query<{ id: number }>(
    `insert into account (corp_id, customer_id, account_no, type, status, open_date) values ($1, $2, $3, 'cash', 'active', '2026-09-01') returning id`,
    [corpId, knownId, KNOWN.accountNo],
  );
  const accountId = Number(account!.id);
  await database.query(`insert into cash_balance (account_id, currency, balance) values ($1, 'HKD', 100000), ($1, 'USD', 1000)`, [
    accountId,
  ]);
  await database.query(
    `insert into holding (account_id, customer_id, security_id, quantity, avg_cost) values ($1, $2, $3, 1000, 9), ($1, $2, $4, 100, 18), ($1, $2, $5, 500, 7)`,
    [accountId, knownId, hk, us, sh],
  );
  // Buys of 9,000 HKD, 1,800 USD and 4,200 CNY; one sell of 800 CNY today, settling in two days.
  await database.query(
    `insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date) values
       ($1, $2, $3, 'buy', 1000, 9, 9000, 10, 'HKD', '2026-10-05 10:00+08', '2026-10-07'),
       ($1, $2, $4, 'buy', 100, 18, 1800, 2, 'USD', '2026-10-20 22:30+08', '2026-10-22'),
       ($1, $2, $5, 'buy', 600, 7, 4200, 4, 'CNY', '2026-11-02 10:00+08', '2026-11-04'),
       ($1, $2, $5, 'sell', 100, 8, 800, 1, 'CNY', now() - interval '1 minute', (now() at time zone 'Asia/Hong_Kong')::date + 2)`,
    [accountId, knownId, hk, us, sh],
  );
  await database.query(
    `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at) values
       ($1, $2, 'deposit', 'HKD', 50000, 'fps', '2026-09-01 09:00+08'),
       ($1, $2, 'deposit', 'USD', 1000, 'bank_transfer', '2026-09-02 09:00+08'),
       ($1, $2, 'withdrawal', 'CNY', 800, 'bank_transfer', '2026-11-01 09:00+08')`,
    [accountId, knownId],
  );
  await database.query(
    `insert into stock_transfer (account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at) values
       ($1, $2, $3, 'in', 200, 'Other Securities Ltd', '2026-09-15 09:00+08'),
       ($1, $2, $4, 'out', 10, 'US Custodian Inc', '2026-11-05 09:00+08')`,
    [accountId, knownId, hk, us],
  );
  await database.query(`insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id) values ($1, $2, $3, $4)`, [
    corpId,
    KNOWN.externalUserId,
    knownId,
    staffId,
  ]);
  await refreshCustomerSummaries(database, [knownId]);

  const [foreign] = await database.query<{ id: number }>('select id from customer where staff_id = $1 order by id limit 1', [
    staffIds.leekaying,
  ]);
  return { staffIds, corpId, knownId, foreignId: Number(foreign!.id) };
}
