import { sql, type SQL } from 'drizzle-orm';
import { TIMELINE_KINDS, type TimelineCursor, type TimelineItem, type TimelineKind } from '@broker/contract';
import { renderedOnce, renderedTemplate, rowsQuery, tableAlias, tableAs, type RowsQuery } from '../../db/sql-rows';
import {
  auditLog,
  contactRecords,
  customers,
  exchangeRates,
  moneyMovements,
  motEvents,
  securities,
  staff,
  stockTransfers,
  trades,
} from '../../db/schema';
import type { Scope } from './client.repository';

/**
 * One client's timeline (ADR 0040) and the profile's activity feed, as a keyset merge: each source read by its
 * (customer, time) index from the cursor down, a page each, so a page costs the same however deep. History rows
 * are then fetched by (id, time), their partitioned primary key (ADR 0053). Order: (instant, rank, id), newest
 * first; the cursor is the last item's triple.
 */
/** Orders the sources among items of the same instant; MOT's stages take three. */
export const SOURCE_RANK = {
  trade: 0,
  transfer: 1,
  money: 2,
  profileEdit: 3,
  kyc: 4,
  motRaised: 5,
  motSeen: 6,
  motHandled: 7,
  contact: 8,
} as const;

/** 2^53 µs is in the year 2255. */
export const TIMELINE_TOP: TimelineCursor = { atMicros: Number.MAX_SAFE_INTEGER, rank: 99, id: Number.MAX_SAFE_INTEGER };

export interface TimelineOptions {
  sources: ReadonlySet<TimelineKind>;
  /** Items strictly below this (instant in µs, rank, id) come next. */
  cut: TimelineCursor;
  /** A page and one more, to tell whether another page follows. */
  rows: number;
  /** At or above the manager's large cash threshold (the timeline), or all (getDynamic). */
  largeMoneyOnly: boolean;
}

interface RowBase {
  rank: number;
  id: number;
  /** In µs (exact in a float8 until 2255) for the cursor, and in whole ms for the wire. */
  atMicros: number;
  at: number;
  staffName: string | null;
}
export interface SecurityData {
  symbol: string;
  nameCn: string;
  nameHk: string | null;
  nameEn: string;
}
export interface TradeData extends SecurityData {
  side: string;
  quantity: number;
  price: number;
  amount: number;
  currency: string;
}
export interface MoneyData {
  direction: string;
  currency: string;
  amount: number;
  method: string;
}
export interface TransferData extends SecurityData {
  direction: string;
  currency: string;
  quantity: number;
  counterparty: string;
}
export interface AuditData {
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
type MotData = Omit<NonNullable<TimelineItem['mot']>, 'eventId'>;
/** As stored: the channel and purpose are text. */
type ContactData = Omit<NonNullable<TimelineItem['contact']>, 'recordId' | 'channel' | 'purpose'> & { channel: string; purpose: string };
export type TimelineRow =
  | (RowBase & { source: 'contact'; data: ContactData })
  | (RowBase & { source: 'trade'; data: TradeData })
  | (RowBase & { source: 'money'; data: MoneyData })
  | (RowBase & { source: 'transfer'; data: TransferData })
  | (RowBase & { source: 'profileEdit' | 'kyc'; data: AuditData })
  | (RowBase & { source: 'mot'; data: MotData });

const c = tableAlias(customers, 'c');
const me = tableAlias(staff, 'me');
const t = tableAlias(trades, 't');
const tk = tableAlias(trades, 'tk');
const m = tableAlias(moneyMovements, 'm');
const mk = tableAlias(moneyMovements, 'mk');
const x = tableAlias(stockTransfers, 'x');
const xk = tableAlias(stockTransfers, 'xk');
const s = tableAlias(securities, 's');
const l = tableAlias(auditLog, 'l');
const actor = tableAlias(staff, 'actor');
const e = tableAlias(motEvents, 'e');
const rate = tableAlias(exchangeRates, 'er');
const r = tableAlias(contactRecords, 'r');

/**
 * `offset 0` keeps it a subquery run per page row, pruned to its month's partition; a join may become a hash
 * join reading every partition (ADR 0053).
 */
const pageRow = (alias: typeof t | typeof m | typeof x, name: 't' | 'm' | 'x', byKey: SQL) =>
  sql`(select * from ${tableAs(alias)} where ${byKey} offset 0) ${sql.identifier(name)}`;

/** Rounded down, as getDynamic's `before` expects, the same on both drivers. */
const instant = (at: SQL) =>
  sql`(extract(epoch from ${at}) * 1000000)::float8 as "atMicros", floor(extract(epoch from ${at}) * 1000)::float8 as "at"`;

/** The record holds the rest; the contract says 140. */
const NOTE_PREVIEW = sql.raw('140');

const KYC_ACTIONS = renderedOnce(sql`('kyc.bind', 'kyc.unbind', 'kyc.stale', 'kyc.fresh')`);
/** Written as audit_log_kyc_customer_idx (migration 0024) has it. */
const kycCustomer = renderedOnce(sql`coalesce(${l.after}, ${l.before}) ->> 'customerId'`);

/** HKD itself needs none. */
const rateOfMovement = renderedOnce(
  sql`case when ${mk.currency} = 'HKD' then 1 else (select ${rate.rate} from ${tableAs(rate)} where ${rate.currency} = ${mk.currency} order by ${rate.rateDate} desc limit 1) end`,
);

/**
 * One text for every filter (a parameter switches a source off before its scan starts), so one prepared plan
 * serves them all; rendered once at load (`renderedTemplate`). The scope is applied once, on `c`.
 */
export function timelinePage(scope: Scope, customerId: number, options: TimelineOptions): RowsQuery<TimelineRow> {
  const { cut } = options;
  const sourceSwitches = Object.fromEntries(TIMELINE_KINDS.map((source) => [`on_${source}`, options.sources.has(source)]));
  return timelineStatement({
    ...sourceSwitches,
    corpId: scope.corpId,
    staffId: scope.staffId,
    customerId,
    customerIdText: String(customerId),
    cutAtMicros: cut.atMicros,
    cutRank: cut.rank,
    cutId: cut.id,
    rows: options.rows,
    largeMoneyOnly: options.largeMoneyOnly,
  });
}

const timelineStatement = renderedTemplate(buildTimelineStatement());

function buildTimelineStatement(): RowsQuery<TimelineRow> {
  const value = (name: string) => sql.placeholder(name);
  const rows = value('rows');
  const customerId = value('customerId');
  const cutAt = sql`(timestamptz 'epoch' + ${value('cutAtMicros')}::float8 * interval '1 microsecond')`;
  const cutRank = sql`${value('cutRank')}::int`;
  const cutId = sql`${value('cutId')}::bigint`;
  /** `at <= cut` first: the part an index on (customer, at) can seek to. */
  const below = (at: SQL, rank: SQL, id: SQL) =>
    sql`${at} <= ${cutAt} and (${at} < ${cutAt} or ${rank} < ${cutRank} or (${rank} = ${cutRank} and ${id} < ${cutId}))`;
  const on = (source: TimelineKind) => sql`${value(`on_${source}`)}::boolean`;
  const rank = (order: number) => sql.raw(`${order}`);

  const tradeRows = sql`select 'trade' as source, ${rank(SOURCE_RANK.trade)} as rank, ${t.id}::float8 as id, ${instant(sql`${t.tradedAt}`)}, null::text as "staffName",
      json_build_object('side', ${t.side}, 'symbol', ${s.symbol}, 'nameCn', ${s.nameCn}, 'nameHk', ${s.nameHk}, 'nameEn', ${s.nameEn}, 'quantity', ${t.quantity}::float8,
                        'price', ${t.price}::float8, 'amount', ${t.amount}::float8, 'currency', ${t.currency}) as data
      from (select ${tk.id}, ${tk.tradedAt} from ${tableAs(tk)}
             where ${on('trade')} and ${tk.customerId} = ${c.id} and ${below(sql`${tk.tradedAt}`, rank(SOURCE_RANK.trade), sql`${tk.id}`)}
             order by ${tk.tradedAt} desc, ${tk.id} desc limit ${rows}) as trade_page
      join lateral ${pageRow(t, 't', sql`${t.id} = trade_page.id and ${t.tradedAt} = trade_page.traded_at`)} on true join ${tableAs(s)} on ${s.id} = ${t.securityId}`;

  const moneyRows = sql`select 'money' as source, ${rank(SOURCE_RANK.money)} as rank, ${m.id}::float8 as id, ${instant(sql`${m.occurredAt}`)}, null::text as "staffName",
      json_build_object('direction', ${m.direction}, 'currency', ${m.currency}, 'amount', ${m.amount}::float8, 'method', ${m.method}) as data
      from (select ${mk.id}, ${mk.occurredAt} from ${tableAs(mk)}
             where ${on('money')} and ${mk.customerId} = ${c.id} and ${below(sql`${mk.occurredAt}`, rank(SOURCE_RANK.money), sql`${mk.id}`)}
               and (not ${value('largeMoneyOnly')}::boolean or ${mk.amount} >= ${me.minCashIo} * ${rateOfMovement})
             order by ${mk.occurredAt} desc, ${mk.id} desc limit ${rows}) as money_page
      join lateral ${pageRow(m, 'm', sql`${m.id} = money_page.id and ${m.occurredAt} = money_page.occurred_at`)} on true`;

  const transferRows = sql`select 'transfer' as source, ${rank(SOURCE_RANK.transfer)} as rank, ${x.id}::float8 as id, ${instant(sql`${x.occurredAt}`)}, null::text as "staffName",
      json_build_object('direction', ${x.direction}, 'symbol', ${s.symbol}, 'nameCn', ${s.nameCn}, 'nameHk', ${s.nameHk}, 'nameEn', ${s.nameEn}, 'currency', ${s.currency},
                        'quantity', ${x.quantity}::float8, 'counterparty', ${x.counterparty}) as data
      from (select ${xk.id}, ${xk.occurredAt} from ${tableAs(xk)}
             where ${on('transfer')} and ${xk.customerId} = ${c.id} and ${below(sql`${xk.occurredAt}`, rank(SOURCE_RANK.transfer), sql`${xk.id}`)}
             order by ${xk.occurredAt} desc, ${xk.id} desc limit ${rows}) as transfer_page
      join lateral ${pageRow(x, 'x', sql`${x.id} = transfer_page.id and ${x.occurredAt} = transfer_page.occurred_at`)} on true join ${tableAs(s)} on ${s.id} = ${x.securityId}`;

  const auditRows = (
    source: 'profileEdit' | 'kyc',
    match: SQL,
  ) => sql`select ${sql.raw(`'${source}'`)} as source, ${rank(SOURCE_RANK[source])} as rank, ${l.id}::float8 as id, ${instant(sql`${l.at}`)},
      ${actor.name} as "staffName", json_build_object('action', ${l.action}, 'before', ${l.before}, 'after', ${l.after}) as data
      from ${tableAs(l)} left join ${tableAs(actor)} on ${actor.id} = ${l.actorStaffId}
     where ${on(source)} and ${match} and ${below(sql`${l.at}`, rank(SOURCE_RANK[source]), sql`${l.id}`)}
     order by ${l.at} desc, ${l.id} desc limit ${rows}`;
  // Profile edits are the customer's `customer.update` rows (audit_log_entity_idx).
  const editRows = auditRows(
    'profileEdit',
    sql`${l.entity} = 'customer' and ${l.entityId} = ${value('customerIdText')} and ${l.action} = 'customer.update'`,
  );
  const kycRows = auditRows(
    'kyc',
    sql`${l.entity} = 'kyc_binding' and ${kycCustomer} = ${value('customerIdText')} and ${l.action} in ${KYC_ACTIONS}`,
  );

  // A client's MOT events are few: all read through mot_event_customer_idx, each stage an item (three more
  // indexes on the sweep's largest table would cost every sweep more).
  const motRows = sql`select 'mot' as source, stage.rank, ${e.id}::float8 as id, ${instant(sql`stage.at`)},
      case when stage.name = 'raised' then null else ${actor.name} end as "staffName",
      json_build_object('rule', ${e.rule}, 'stage', stage.name, 'dueDate', ${e.dueDate}::text) as data
      from ${tableAs(e)}
      cross join lateral (values (${rank(SOURCE_RANK.motRaised)}, 'raised', ${e.createdAt}), (${rank(SOURCE_RANK.motSeen)}, 'seen', ${e.seenAt}),
                                 (${rank(SOURCE_RANK.motHandled)}, 'handled', ${e.handledAt})) as stage(rank, name, at)
      left join ${tableAs(actor)} on ${actor.id} = ${e.staffId}
     where ${on('mot')} and ${e.customerId} = ${c.id} and stage.at is not null and ${below(sql`stage.at`, sql`stage.rank`, sql`${e.id}`)}
     order by stage.at desc, stage.rank desc, ${e.id} desc limit ${rows}`;

  // The record's latest version, at the time of the contact.
  const contactRows = sql`select 'contact' as source, ${rank(SOURCE_RANK.contact)} as rank, ${r.id}::float8 as id, ${instant(sql`${r.servedAt}`)},
      ${actor.name} as "staffName",
      json_build_object('threadId', ${r.threadId}::float8, 'version', ${r.version}, 'channel', ${r.channel}, 'purpose', ${r.purpose},
                        'note', left(${r.note}, ${NOTE_PREVIEW}), 'outcome', ${r.outcome}, 'nextStep', ${r.nextStep},
                        'nextStepDate', ${r.nextStepDate}::text) as data
      from ${tableAs(r)} left join ${tableAs(actor)} on ${actor.id} = ${r.staffId}
     where ${on('contact')} and ${r.customerId} = ${c.id} and ${r.supersededBy} is null and ${below(sql`${r.servedAt}`, rank(SOURCE_RANK.contact), sql`${r.id}`)}
     order by ${r.servedAt} desc, ${r.id} desc limit ${rows}`;

  const branches = [contactRows, tradeRows, moneyRows, transferRows, editRows, kycRows, motRows];
  return rowsQuery<TimelineRow>(
    sql`select page.* from ${tableAs(c)} join ${tableAs(me)} on ${me.id} = ${c.staffId}
        cross join lateral (${sql.join(
          branches.map((branch) => sql`(${branch})`),
          sql` union all `,
        )}) as page
       where ${c.id} = ${customerId} and ${c.corpId} = ${value('corpId')} and ${c.staffId} = ${value('staffId')}
       order by page."atMicros" desc, page.rank desc, page.id desc limit ${rows}`,
  );
}
