import type { DatabaseHandle } from '../../db/client';
import { addDays } from '@broker/domain';

/** Test helper: a customer of `staffUserId` on whom, as of `asOf`, no MOT rule fires; tests then change one thing. */
export async function insertQuietCustomer(
  database: Pick<DatabaseHandle, 'query'>,
  asOf: string,
  overrides: Partial<
    Record<'birthday' | 'open_date' | 'last_trade_date' | 'id_doc_expiry' | 'risk_assessed_on' | 'status' | 'name_cn', string | null>
  > = {},
  staffUserId = 'chanwaiman',
) {
  const values = {
    birthday: '1980-05-15',
    open_date: '2020-03-10',
    last_trade_date: addDays(asOf, -3),
    id_doc_expiry: addDays(asOf, 2000),
    risk_assessed_on: addDays(asOf, -100),
    status: 'active',
    name_cn: '測試客戶',
    ...overrides,
  };
  const [staffRow] = await database.query<{ id: number; corp_id: number }>('select id, corp_id from staff where wecom_user_id = $1', [
    staffUserId,
  ]);
  if (!staffRow) throw new Error(`no staff ${staffUserId}: seed first`);
  const customerNo = `T${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const [customer] = await database.query<{ id: number }>(
    `insert into customer (corp_id, staff_id, customer_no, channel, name_cn, name_en, phone, phone_digits, id_doc_type, id_doc_masked, id_doc_last4,
                           id_doc_expiry, birthday, risk_level, risk_assessed_on, status, open_date, last_trade_date)
     values ($1, $2, $3, 'branch', $4, 'Quiet Client', '+852 9123 4567', '85291234567', 'passport', 'P12****', '1234',
             $5, $6, 3, $7, $8, $9, $10)
     returning id::float8 as id`,
    [
      staffRow.corp_id,
      staffRow.id,
      customerNo,
      values.name_cn,
      values.id_doc_expiry,
      values.birthday,
      values.risk_assessed_on,
      values.status,
      values.open_date,
      values.last_trade_date,
    ],
  );
  const [account] = await database.query<{ id: number }>(
    `insert into account (corp_id, customer_id, account_no, type, open_date) values ($1, $2, $3, 'cash', $4) returning id::float8 as id`,
    [staffRow.corp_id, customer!.id, `A${customerNo}`, values.open_date],
  );
  return { customerId: customer!.id, accountId: account!.id, staffId: staffRow.id, corpId: staffRow.corp_id };
}

/** A money movement at noon Hong Kong time on `day`. */
export async function insertMoneyMovement(
  database: Pick<DatabaseHandle, 'query'>,
  target: { customerId: number; accountId: number },
  movement: { direction: 'deposit' | 'withdrawal'; currency: string; amount: number; day: string },
) {
  const [row] = await database.query<{ id: number }>(
    `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
     values ($1, $2, $3, $4, $5, 'fps', ($6::date + time '12:00') at time zone 'Asia/Hong_Kong') returning id::float8 as id`,
    [target.accountId, target.customerId, movement.direction, movement.currency, movement.amount, movement.day],
  );
  return row!.id;
}
