import { CONTACT_CHANNELS } from '@broker/contract';
import { ensureMonthPartitions, type DatabaseHandle } from '@broker/server';

/**
 * The timeline (ADR 0040) is measured for a client with five years of history; the generator writes two. So the busiest
 * client's activity is copied two and four years back, with a contact record a month, a profile edit a quarter and KYC
 * changes, as of the dataset's day. Idempotent part by part: what already reaches that far back is left alone.
 */
export const LONG_HISTORY_YEARS = 5;
const SHIFTS_YEARS = [2, 4] as const;

/** The start of the Hong Kong day `years` before the as-of day ($2). */
const yearsBefore = (years: number) => `(($2::date - make_interval(years => ${years}))::timestamp at time zone 'Asia/Hong_Kong')`;

const CONTACT_PURPOSES = ['service', 'review', 'care', 'document', 'follow_up'] as const;

export async function ensureLongHistoryClient(handle: DatabaseHandle, staffId: number, asOf: string) {
  const [busiest] = await handle.query<{ id: number }>(
    `select t.customer_id::float8 as id from trade t join customer c on c.id = t.customer_id
      where c.staff_id = $1 group by t.customer_id order by count(*) desc, t.customer_id limit 1`,
    [staffId],
  );
  if (!busiest) throw new Error(`staff ${staffId} has no client with trades to give a long history`);
  const customerId = busiest.id;
  // Each part is checked on its own: the MOT sweep measurement truncates contact records, not trades.
  const [reach] = await handle.query<{ activity: boolean; contacts: boolean; audit: boolean }>(
    `select exists (select 1 from trade where customer_id = $1 and traded_at <= ${yearsBefore(LONG_HISTORY_YEARS)}) as activity,
            exists (select 1 from contact_record where customer_id = $1 and served_at <= ${yearsBefore(LONG_HISTORY_YEARS)}) as contacts,
            exists (select 1 from audit_log where entity = 'customer' and entity_id = $1::text and action = 'customer.update'
                       and at <= ${yearsBefore(LONG_HISTORY_YEARS)}) as audit`,
    [customerId, asOf],
  );
  const written = !reach!.activity || !reach!.contacts || !reach!.audit;
  if (!reach!.activity) {
    // One statement of data-modifying CTEs: all of it or none, so an interrupted run cannot half-extend.
    const copies = SHIFTS_YEARS.flatMap((years) => {
      const back = `make_interval(years => ${years})`;
      const recent = yearsBefore(SHIFTS_YEARS[0]);
      return [
        `trades_${years} as (insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date)
           select account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at - ${back}, settle_date - ${back}
             from trade where customer_id = $1 and traded_at > ${recent} returning 1)`,
        `money_${years} as (insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at)
           select account_id, customer_id, direction, currency, amount, method, occurred_at - ${back}
             from money_movement where customer_id = $1 and occurred_at > ${recent} returning 1)`,
        `transfers_${years} as (insert into stock_transfer (account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at)
           select account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at - ${back}
             from stock_transfer where customer_id = $1 and occurred_at > ${recent} returning 1)`,
      ];
    });
    const opened = `($2::date - make_interval(years => ${Math.max(...SHIFTS_YEARS) + SHIFTS_YEARS[0]}))::date`;
    await handle.query(
      `with ${copies.join(',\n')},
       -- The client (and its accounts) must have been open before its first trade.
       opened as (update customer set open_date = least(open_date, ${opened}) where id = $1 returning 1)
       update account set open_date = least(open_date, ${opened}) where customer_id = $1`,
      [customerId, asOf],
    );
  }
  if (!reach!.contacts) {
    // A contact record a month for six years, each locked a day after it was written (as the log locks them).
    await handle.query(
      `insert into contact_record (corp_id, customer_id, staff_id, channel, purpose, note, outcome, served_at, created_at, locks_at)
       select c.corp_id, c.id, c.staff_id, ($3::text[])[1 + n % 5], ($4::text[])[1 + n % 5],
              'Monthly contact ' || n || ': reviewed the portfolio and the market outlook / 每月联络：检视持仓与市况',
              case when n % 3 = 0 then 'Client satisfied' end,
              t.at, t.at + interval '10 minutes', t.at + interval '10 minutes' + interval '24 hours'
         from customer c cross join generate_series(1, 72) as n
              cross join lateral (select ($2::date - make_interval(months => n))::timestamp at time zone 'Asia/Hong_Kong' + interval '10 hours' as at) t
        where c.id = $1`,
      [customerId, asOf, CONTACT_CHANNELS, CONTACT_PURPOSES],
    );
  }
  if (!reach!.audit) {
    await handle.query(
      // A profile edit a quarter (before → after of one field) by the client's manager, and a WeCom contact
      // bound five years ago, unbound and bound again (the rows name the client as the KYC ones do).
      `with edits as (
         insert into audit_log (corp_id, actor_staff_id, action, entity, entity_id, before, after, at)
         select c.corp_id, c.staff_id, 'customer.update', 'customer', c.id::text,
                jsonb_build_object('email', 'client' || (n - 1) || '@example.com'), jsonb_build_object('email', 'client' || n || '@example.com'),
                ($2::date - make_interval(months => 3 * n))::timestamp at time zone 'Asia/Hong_Kong' + interval '15 hours'
           from customer c cross join generate_series(1, 24) as n where c.id = $1 returning 1)
       insert into audit_log (corp_id, actor_staff_id, action, entity, entity_id, before, after, at)
       select c.corp_id, c.staff_id, k.action, 'kyc_binding', 'bench-long-history-' || k.n,
              case when k.action = 'kyc.unbind' then jsonb_build_object('customerId', c.id::text) end,
              case when k.action = 'kyc.bind' then jsonb_build_object('customerId', c.id::text) end,
              ($2::date - make_interval(months => k.months_back))::timestamp at time zone 'Asia/Hong_Kong' + interval '11 hours'
         from customer c cross join (values (1, 'kyc.bind', 60), (2, 'kyc.unbind', 30), (3, 'kyc.bind', 29)) as k(n, action, months_back)
        where c.id = $1`,
      [customerId, asOf],
    );
  }
  // The copied activity's and the audit rows' early months had no partitions: they went to the default ones,
  // moved into their months now (ADR 0053).
  if (!reach!.activity || !reach!.audit) await ensureMonthPartitions(handle);
  if (written) await handle.query('analyze trade, money_movement, stock_transfer, contact_record, audit_log, customer, account');
  const [counts] = await handle.query<{
    trades: number;
    moneyMovements: number;
    transfers: number;
    contactRecords: number;
    profileEdits: number;
    kycChanges: number;
    firstAt: string;
  }>(
    `select (select count(*)::int from trade where customer_id = $1) as trades,
            (select count(*)::int from money_movement where customer_id = $1) as "moneyMovements",
            (select count(*)::int from stock_transfer where customer_id = $1) as transfers,
            (select count(*)::int from contact_record where customer_id = $1) as "contactRecords",
            (select count(*)::int from audit_log where entity = 'customer' and entity_id = $1::text and action = 'customer.update') as "profileEdits",
            (select count(*)::int from audit_log where entity = 'kyc_binding' and coalesce(after, before) ->> 'customerId' = $1::text) as "kycChanges",
            (select min(traded_at)::date::text from trade where customer_id = $1) as "firstAt"`,
    [customerId],
  );
  return { customerId, written, ...counts! };
}
