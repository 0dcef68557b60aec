import { BUILT_IN_CORP } from '../../corps';
import type { DatabaseHandle } from '../client';
import { refreshCustomerSummaries } from '../customer-summary';
import { ensureMonthPartitions } from '../partitions';
import { formatDay, parseDay, weekdaysBetween } from './calendar';
import { bulkLoaderFor, dropSecondaryStructures, restoreSecondaryStructures } from './bulk-loader';
import {
  buildContext,
  emptyBatch,
  generateCustomer,
  SEED_COLUMNS,
  SEED_TABLES,
  type IdCounters,
  type StaffRef,
} from './customer-generator';
import { Prng } from './prng';
import { DEMO_STAFF, EXTRA_STAFF, LATEST_RATES, CHANNELS, type StaffSeed } from './reference-data';

export interface SeedOptions {
  customers: number;
  seed: number;
  /** Default 10 (at least the emulator's four). */
  staff?: number;
  /** YYYY-MM-DD: same seed and as-of date give identical data. */
  asOf: string;
  corpCode?: string;
  /** Default true; false for a suite that counts the records it writes itself. */
  contactRecords?: boolean;
  onProgress?: (done: number, total: number) => void;
  log?: (message: string) => void;
}

export type SeedResult = Awaited<ReturnType<typeof seedDemoData>>;

export class SeedRefusedError extends Error {}

/** One TRUNCATE with the customers, the MOT runs too: else the scheduler would skip today over a reset database. */
export const CUSTOMER_DATA_TABLES = [...SEED_TABLES, 'kyc_binding', 'mot_event', 'contact_record_event', 'contact_record', 'mot_sweep_run'];

export async function hasCustomers(handle: DatabaseHandle): Promise<boolean> {
  const [row] = await handle.query<{ present: boolean }>('select exists (select 1 from customer) as present');
  return row?.present === true;
}

export async function clearCustomerData(handle: DatabaseHandle) {
  await handle.query(`truncate ${CUSTOMER_DATA_TABLES.join(', ')} restart identity cascade`);
}

/** Fills an empty database with a deterministic brokerage. */
export async function seedDemoData(handle: DatabaseHandle, options: SeedOptions) {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  if (await hasCustomers(handle)) throw new SeedRefusedError('the database already has customers; clear them first (seed --reset)');
  const asOfDay = parseDay(options.asOf);

  const corpId = await ensureCorp(handle, options.corpCode ?? BUILT_IN_CORP.code);
  const staff = await ensureStaff(handle, corpId, Math.max(options.staff ?? 10, DEMO_STAFF.length));
  const context = buildContext({ seed: options.seed, corpId, asOfDay, staff, securityIds: new Map() });
  const lastDate = context.dates[context.lastTi]!;
  for (const security of context.securities) {
    const [row] = await handle.query<{ id: number }>(
      `insert into security (symbol, market, name_cn, name_en, currency, lot_size, last_price, prev_close, price_date, name_hk)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (symbol) do update set market = excluded.market, name_cn = excluded.name_cn, name_en = excluded.name_en,
         name_hk = excluded.name_hk,
         currency = excluded.currency, lot_size = excluded.lot_size, last_price = excluded.last_price,
         prev_close = excluded.prev_close, price_date = excluded.price_date
       returning id`,
      [
        security.symbol,
        security.market,
        security.nameCn,
        security.nameEn,
        security.currency,
        security.lotSize,
        security.closes[context.lastTi],
        security.closes[context.lastTi - 1],
        lastDate,
        security.nameHk,
      ],
    );
    security.id = row!.id;
  }
  await seedExchangeRates(handle, options.seed, asOfDay);

  // Every month of the history gets its partition before the load (ADR 0053).
  await ensureMonthPartitions(handle, { since: context.dates[0]! });
  const load = bulkLoaderFor(handle);
  const deferred = handle.kind === 'postgres' ? await dropSecondaryStructures(handle, SEED_TABLES) : null;
  const ids: IdCounters = { trade: 1, moneyMovement: 1, transfer: 1 };
  // Numbered in order from 1: the next numbers less one are how many were generated.
  const generated = () => ({ trades: ids.trade - 1, moneyMovements: ids.moneyMovement - 1, transfers: ids.transfer - 1 });
  try {
    const chunkSize = handle.kind === 'postgres' ? 5000 : 1000;
    let pending: Promise<unknown> = Promise.resolve();
    for (let first = 1; first <= options.customers; first += chunkSize) {
      const last = Math.min(first + chunkSize - 1, options.customers);
      const batch = emptyBatch();
      for (let id = first; id <= last; id++) {
        generateCustomer(context, id, batch, ids);
        // Let the previous chunk's COPY streams drain.
        if (id % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await pending;
      pending = Promise.all(SEED_TABLES.map((table) => load(table, SEED_COLUMNS[table], batch[table])));
      options.onProgress?.(last, options.customers);
    }
    await pending;
    const totals = generated();
    log(
      `loaded ${options.customers} customers, ${totals.trades} trades, ${totals.moneyMovements} money movements, ${totals.transfers} transfers in ${seconds(started)}`,
    );
    for (const [table, next] of [
      ['customer', options.customers],
      ['account', options.customers],
      ['trade', totals.trades],
      ['money_movement', totals.moneyMovements],
      ['stock_transfer', totals.transfers],
    ] as const) {
      await handle.query(`select setval(pg_get_serial_sequence('${table}', 'id'), greatest($1::bigint, 1), $1::bigint > 0)`, [next]);
    }
    const summaryStarted = performance.now();
    await refreshCustomerSummaries(handle);
    log(`customer summaries in ${seconds(summaryStarted)}`);
  } finally {
    if (deferred) {
      const indexStarted = performance.now();
      await restoreSecondaryStructures(handle, deferred);
      log(`indexes and foreign keys rebuilt in ${seconds(indexStarted)}`);
    }
  }
  if (options.contactRecords !== false) await seedContactRecords(handle, options.asOf);
  await handle.query(`analyze ${SEED_TABLES.join(', ')}, security, exchange_rate, staff`);
  return { customers: options.customers, staff: staff.length, ...generated(), elapsedMs: Math.round(performance.now() - started) };
}

/** A few locked contact records (ADR 0038) on the first clients, every channel and purpose among them; at most 200. */
async function seedContactRecords(handle: DatabaseHandle, asOf: string) {
  await handle.query(
    `with picked as (
       select c.id, c.corp_id, c.staff_id, (c.id / 3) as n,
              ($1::date - ((c.id * 7) % 120)::int + time '10:00') at time zone 'Asia/Hong_Kong' + ((c.id % 5) * interval '1 hour') as served_at
         from customer c where c.id <= 600 and c.id % 3 = 0)
     insert into contact_record (corp_id, customer_id, staff_id, channel, purpose, note, outcome, next_step, suitability, served_at, created_at, locks_at)
     select p.corp_id, p.id, p.staff_id,
            (array['phone', 'wecom', 'meeting', 'email', 'other'])[1 + p.n % 5],
            (array['service', 'review', 'recommendation', 'care', 'document', 'follow_up', 'complaint', 'other'])[1 + (p.n / 5) % 8],
            (array['客户来电询问派息安排，已解释除净日及派息日。', 'Quarterly portfolio review: concentration in tech noted; client will consider diversifying.',
                   '介绍港元货币市场基金，客户有兴趣，将再考虑。', 'Birthday greetings sent; client thanked us.',
                   '提醒客户身份证件即将到期，客户会携带新证件到分行。', 'Followed up on the account transfer form; it has been received.',
                   '客户反映手机应用登录缓慢，已转交技术支持。', 'Client asked about opening a margin account.'])[1 + (p.n / 5) % 8],
            (array['已解答', 'Will decide next week', '有兴趣', null, '已确认', 'Done', '跟进中', null])[1 + (p.n / 5) % 8],
            case when p.n % 4 = 0 then 'Call back with the fund factsheet' end,
            case when (p.n / 5) % 8 = 2 then '客户风险等级 3，投资目标为稳定收益；货币市场基金风险等级 1，年期及流动性均符合。' end,
            p.served_at, p.served_at + interval '1 hour', p.served_at + interval '25 hours'
       from picked p join customer c on c.id = p.id
      where c.open_date <= (p.served_at at time zone 'Asia/Hong_Kong')::date`,
    [asOf],
  );
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function ensureCorp(handle: DatabaseHandle, code: string): Promise<number> {
  // The CLI may run before the server upserts its corps.
  await handle.query(`insert into corp (code, name, wecom_corp_id) values ($1, $2, $3) on conflict (code) do nothing`, [
    code,
    code === BUILT_IN_CORP.code ? BUILT_IN_CORP.name : code,
    code === BUILT_IN_CORP.code ? BUILT_IN_CORP.corpId : code,
  ]);
  const [row] = await handle.query<{ id: number }>('select id from corp where code = $1', [code]);
  return row!.id;
}

/** The demo's WeCom members first (same userids, so signing in shows their customers). */
function staffRoster(count: number): StaffSeed[] {
  const roster: StaffSeed[] = [...DEMO_STAFF, ...EXTRA_STAFF];
  for (let n = roster.length + 1; roster.length < count; n++) {
    roster.push({
      userid: `staff${String(n).padStart(4, '0')}`,
      name: `客户经理${n}`,
      email: `staff${n}@fxhl.example.com`,
      mobile: `+852 5${String(n).padStart(3, '0')} ${String(1000 + (n % 9000))}`,
      position: '客户经理',
      channel: CHANNELS[n % CHANNELS.length]!,
    });
  }
  return roster.slice(0, count);
}

async function ensureStaff(handle: DatabaseHandle, corpId: number, count: number): Promise<StaffRef[]> {
  const refs: StaffRef[] = [];
  for (const member of staffRoster(count)) {
    const [row] = await handle.query<{ id: number }>(
      `insert into staff (corp_id, wecom_user_id, name, email, mobile, position, channel)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (corp_id, wecom_user_id) do update set channel = excluded.channel
       returning id`,
      [corpId, member.userid, member.name, member.email, member.mobile, member.position, member.channel],
    );
    const emulated = DEMO_STAFF.some((demoMember) => demoMember.userid === member.userid);
    refs.push({ id: row!.id, channel: member.channel, weight: emulated ? 1.5 : 1 });
  }
  return refs;
}

/** USD stays inside the HKD peg band. */
async function seedExchangeRates(handle: DatabaseHandle, seed: number, asOfDay: number) {
  const days = weekdaysBetween(asOfDay - 730, asOfDay);
  const rows: [string, string, string][] = [];
  for (const [index, currency] of (['USD', 'CNY'] as const).entries()) {
    const rng = new Prng(seed, 0xfe, index);
    let rate = LATEST_RATES[currency];
    for (let i = days.length - 1; i >= 0; i--) {
      rows.push([currency, formatDay(days[i]!), rate.toFixed(6)]);
      rate =
        currency === 'USD' ? Math.min(1 / 7.75, Math.max(1 / 7.85, rate * (1 + 0.0004 * rng.normal()))) : rate * (1 + 0.002 * rng.normal());
    }
  }
  for (const day of days) rows.push(['HKD', formatDay(day), '1']);
  await handle.query(
    `insert into exchange_rate (currency, rate_date, rate, source)
     select currency, rate_date, rate, 'generator' from unnest($1::text[], $2::date[], $3::numeric[]) as r(currency, rate_date, rate)
     on conflict do nothing`,
    [rows.map((row) => row[0]), rows.map((row) => row[1]), rows.map((row) => row[2])],
  );
}
