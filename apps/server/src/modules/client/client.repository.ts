import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { CustomerBaseInfo, getTrade, getTransfer, getWithdrawalDeposit } from '@broker/contract';
import type { StaffScope } from '../../http/caller';
import {
  asText,
  columnName,
  epochMs,
  float8,
  hkDays,
  renderedOnce,
  rowsQuery,
  selection,
  selectQuery,
  tableAlias,
  tableAs,
  textArrayLiteral,
  type RowOf,
} from '../../db/sql-rows';
import {
  accounts,
  cashBalances,
  customers,
  exchangeRates,
  holdings,
  kycBindings,
  moneyMovements,
  securities,
  stockTransfers,
  trades,
} from '../../db/schema';

/** Every query here joins `customer` on both corp and staff. */
export type Scope = StaffScope;

const c = tableAlias(customers, 'c');
const a = tableAlias(accounts, 'a');
const k = tableAlias(kycBindings, 'k');
const cb = tableAlias(cashBalances, 'cb');
const h = tableAlias(holdings, 'h');
const s = tableAlias(securities, 's');
const t = tableAlias(trades, 't');
const m = tableAlias(moneyMovements, 'm');
const x = tableAlias(stockTransfers, 'x');
const rate = tableAlias(exchangeRates, 'e');

// Rendered once: every client query carries the scope.
const customerIdIs = renderedOnce(sql`${c.id} =`);
const corpIdIs = renderedOnce(sql`${c.corpId} =`);
const staffIdIs = renderedOnce(sql`${c.staffId} =`);
const inScope = (scope: Scope, customerId: number) =>
  sql`${customerIdIs} ${customerId} and ${corpIdIs} ${scope.corpId} and ${staffIdIs} ${scope.staffId}`;

const and = (parts: SQL[]) => sql.join(parts, sql` and `);
const hkToday = sql`(now() at time zone 'Asia/Hong_Kong')::date`;
const count = sql<number>`count(*)::int`;
const sumFloat8 = (value: AnyColumn | SQL) => sql<number>`sum(${value})::float8`;

// Whole ms, rounded down, so an `at` handed back as a `before` cursor excludes its own row.
const customerColumns = selection({
  id: float8(c.id),
  customerNo: c.customerNo,
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  gender: c.gender,
  birthday: asText(c.birthday),
  phone: c.phone,
  email: c.email,
  idDocType: c.idDocType,
  idDocMasked: c.idDocMasked,
  idDocExpiry: asText(c.idDocExpiry),
  riskLevel: c.riskLevel,
  riskAssessedOn: asText(c.riskAssessedOn),
  status: c.status,
  channel: c.channel,
  openDate: asText(c.openDate),
  closedDate: asText(c.closedDate),
  tags: c.tags,
  remark: c.remark,
  version: c.version,
  updatedAt: epochMs(c.updatedAt),
  totalAssetsHkd: float8(c.totalAssetsHkd),
  lastTradeDate: asText(c.lastTradeDate),
  kycBound: sql<boolean>`exists (select 1 from ${tableAs(k)} where ${k.customerId} = ${c.id} and ${k.corpId} = ${c.corpId})`,
  kycStale: sql<boolean>`exists (select 1 from ${tableAs(k)} where ${k.customerId} = ${c.id} and ${k.corpId} = ${c.corpId} and ${k.staleAt} is not null)`,
  accounts: sql<
    CustomerBaseInfo['accounts']
  >`coalesce((select json_agg(json_build_object('accountNo', ${a.accountNo}, 'type', ${a.type}, 'status', ${a.status}, 'openDate', ${a.openDate}::text) order by ${a.id})
            from ${tableAs(a)} where ${a.customerId} = ${c.id}), '[]'::json)`,
});
export type CustomerRow = RowOf<typeof customerColumns>;

/** The phone is masked by the service. */
const reachColumns = selection({
  id: float8(c.id),
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  phone: c.phone,
  externalUserId: sql<
    string | null
  >`(select ${k.externalUserId} from ${tableAs(k)} where ${k.customerId} = ${c.id} and ${k.corpId} = ${c.corpId})`,
  wecomStale: sql<boolean>`exists (select 1 from ${tableAs(k)} where ${k.customerId} = ${c.id} and ${k.corpId} = ${c.corpId} and ${k.staleAt} is not null)`,
});

const securityColumns = { symbol: s.symbol, nameCn: s.nameCn, nameHk: s.nameHk, nameEn: s.nameEn, market: s.market };

export type Paging = Pick<TradeFilter, 'pageNum' | 'pageSize'>;
const pageOf = (paging: Paging) => sql`limit ${paging.pageSize} offset ${(paging.pageNum - 1) * paging.pageSize}`;

export type TradeFilter = z.output<typeof getTrade.request>;
export type MoneyFilter = z.output<typeof getWithdrawalDeposit.request>;
export type TransferFilter = z.output<typeof getTransfer.request>;

export type ProfileChanges = Partial<Pick<typeof customers.$inferInsert, 'nameEn' | 'phone' | 'phoneDigits' | 'email' | 'tags' | 'remark'>>;

const ownerColumns = selection({ staffId: c.staffId });
const phoneColumns = selection({ phone: c.phone });

const cashColumns = selection({ currency: cb.currency, balance: sumFloat8(cb.balance) });

const holdingColumns = selection({
  accountNo: a.accountNo,
  ...securityColumns,
  currency: s.currency,
  quantity: float8(h.quantity),
  avgCost: float8(h.avgCost),
  lastPrice: float8(s.lastPrice),
  prevClose: float8(s.prevClose),
  priceDate: asText(s.priceDate),
});

const tradeColumns = selection({
  id: float8(t.id),
  accountNo: a.accountNo,
  ...securityColumns,
  side: t.side,
  quantity: float8(t.quantity),
  price: float8(t.price),
  amount: float8(t.amount),
  fee: float8(t.fee),
  currency: t.currency,
  tradedAt: epochMs(t.tradedAt),
  settleDate: asText(t.settleDate),
  settled: sql<boolean>`${t.settleDate} <= ${hkToday}`,
});

const tradeTotalColumns = selection({ side: t.side, currency: t.currency, count, amount: sumFloat8(t.amount), fee: sumFloat8(t.fee) });

const moneyColumns = selection({
  id: float8(m.id),
  accountNo: a.accountNo,
  direction: m.direction,
  currency: m.currency,
  amount: float8(m.amount),
  method: m.method,
  occurredAt: epochMs(m.occurredAt),
});

const moneyTotalColumns = selection({ direction: m.direction, currency: m.currency, count, amount: sumFloat8(m.amount) });

const transferColumns = selection({
  id: float8(x.id),
  accountNo: a.accountNo,
  direction: x.direction,
  ...securityColumns,
  currency: s.currency,
  quantity: float8(x.quantity),
  lastPrice: float8(s.lastPrice),
  counterparty: x.counterparty,
  occurredAt: epochMs(x.occurredAt),
});

const transferTotalColumns = selection({
  direction: x.direction,
  currency: s.currency,
  count,
  value: sumFloat8(sql`${x.quantity} * ${s.lastPrice}`),
});

const tradesFrom = renderedOnce(
  sql`from ${tableAs(t)} join ${tableAs(c)} on ${c.id} = ${t.customerId} join ${tableAs(s)} on ${s.id} = ${t.securityId}`,
);

const moneyFrom = renderedOnce(sql`from ${tableAs(m)} join ${tableAs(c)} on ${c.id} = ${m.customerId}`);

const transfersFrom = renderedOnce(
  sql`from ${tableAs(x)} join ${tableAs(c)} on ${c.id} = ${x.customerId} join ${tableAs(s)} on ${s.id} = ${x.securityId}`,
);

const latestRates = rowsQuery<{ currency: string; rate: number }>(
  renderedOnce(
    // A skip scan over (currency, rate_date): one probe per currency, where DISTINCT ON read every day's rate.
    sql`with recursive currencies as (
            (select ${exchangeRates.currency} from ${exchangeRates} order by ${exchangeRates.currency} limit 1)
            union all
            select (select ${rate.currency} from ${tableAs(rate)} where ${rate.currency} > currencies.currency order by ${rate.currency} limit 1)
              from currencies where currencies.currency is not null
          )
          select cur.currency, (select ${rate.rate} from ${tableAs(rate)} where ${rate.currency} = cur.currency order by ${rate.rateDate} desc limit 1)::float8 as rate
            from currencies cur where cur.currency is not null`,
  ),
);

const cashFrom = renderedOnce(
  sql`from ${tableAs(cb)} join ${tableAs(a)} on ${a.id} = ${cb.accountId} join ${tableAs(c)} on ${c.id} = ${a.customerId}`,
);
const cashGrouped = renderedOnce(sql`group by ${cb.currency} order by ${cb.currency}`);
const holdingsFrom = renderedOnce(
  sql`from ${tableAs(h)} join ${tableAs(c)} on ${c.id} = ${h.customerId} join ${tableAs(a)} on ${a.id} = ${h.accountId} join ${tableAs(s)} on ${s.id} = ${h.securityId}`,
);
const heldOnly = renderedOnce(sql`and ${h.quantity} > 0`);
const securityMarketIs = renderedOnce(sql`${s.market} =`);
const holdingsOrder = renderedOnce(sql`order by ${s.symbol}, ${a.accountNo}`);

/** The queries behind the client pages, sent with the ownership check as one statement (`readOwn`). */
export const clientQueries = {
  /** Tells 403 from 404. */
  owner: (corpId: number, customerId: number) =>
    selectQuery(ownerColumns, sql`from ${tableAs(c)} where ${c.id} = ${customerId} and ${c.corpId} = ${corpId}`),

  customer: (scope: Scope, customerId: number) => selectQuery(customerColumns, sql`from ${tableAs(c)} where ${inScope(scope, customerId)}`),

  /** Locked: a concurrent edit of the same version waits, then sees the new version. */
  customerForUpdate: (scope: Scope, customerId: number) =>
    selectQuery(customerColumns, sql`from ${tableAs(c)} where ${inScope(scope, customerId)} for update of c`),

  phone: (scope: Scope, customerId: number) => selectQuery(phoneColumns, sql`from ${tableAs(c)} where ${inScope(scope, customerId)}`),

  reach: (scope: Scope, customerId: number) => selectQuery(reachColumns, sql`from ${tableAs(c)} where ${inScope(scope, customerId)}`),

  /** Units of each currency per 1 HKD. */
  rates: () => latestRates,

  cashByCurrency: (scope: Scope, customerId: number) =>
    selectQuery(cashColumns, sql`${cashFrom} where ${inScope(scope, customerId)} ${cashGrouped}`),

  /** A client holds tens of lines at most: no paging. */
  holdings: (scope: Scope, customerId: number, market?: string) =>
    selectQuery(
      holdingColumns,
      sql`${holdingsFrom} where ${inScope(scope, customerId)} ${heldOnly} ${market ? sql`and ${securityMarketIs} ${market}` : sql``} ${holdingsOrder}`,
    ),

  trades: (scope: Scope, customerId: number, filter: TradeFilter, paging: Paging) => {
    const where = and([
      inScope(scope, customerId),
      ...hkDays(t.tradedAt, filter),
      ...(filter.market ? [sql`${s.market} = ${filter.market}`] : []),
      ...(filter.side ? [sql`${t.side} = ${filter.side}`] : []),
      ...(filter.status ? [filter.status === 'settled' ? sql`${t.settleDate} <= ${hkToday}` : sql`${t.settleDate} > ${hkToday}`] : []),
    ]);
    return {
      list: selectQuery(
        tradeColumns,
        sql`${tradesFrom} join ${tableAs(a)} on ${a.id} = ${t.accountId}
            where ${where} order by ${t.tradedAt} desc, ${t.id} desc ${pageOf(paging)}`,
      ),
      totals: selectQuery(tradeTotalColumns, sql`${tradesFrom} where ${where} group by ${t.side}, ${t.currency}`),
    };
  },

  moneyMovements: (scope: Scope, customerId: number, filter: MoneyFilter, paging: Paging) => {
    const where = and([
      inScope(scope, customerId),
      ...hkDays(m.occurredAt, filter),
      ...(filter.direction ? [sql`${m.direction} = ${filter.direction}`] : []),
      ...(filter.currency ? [sql`${m.currency} = ${filter.currency}`] : []),
    ]);
    return {
      list: selectQuery(
        moneyColumns,
        sql`${moneyFrom} join ${tableAs(a)} on ${a.id} = ${m.accountId}
            where ${where} order by ${m.occurredAt} desc, ${m.id} desc ${pageOf(paging)}`,
      ),
      totals: selectQuery(moneyTotalColumns, sql`${moneyFrom} where ${where} group by ${m.direction}, ${m.currency}`),
    };
  },

  transfers: (scope: Scope, customerId: number, filter: TransferFilter, paging: Paging) => {
    const where = and([
      inScope(scope, customerId),
      ...hkDays(x.occurredAt, filter),
      ...(filter.market ? [sql`${s.market} = ${filter.market}`] : []),
      ...(filter.direction ? [sql`${x.direction} = ${filter.direction}`] : []),
    ]);
    return {
      list: selectQuery(
        transferColumns,
        sql`${transfersFrom} join ${tableAs(a)} on ${a.id} = ${x.accountId}
            where ${where} order by ${x.occurredAt} desc, ${x.id} desc ${pageOf(paging)}`,
      ),
      totals: selectQuery(transferTotalColumns, sql`${transfersFrom} where ${where} group by ${x.direction}, ${s.currency}`),
    };
  },
};

/** Only while the row is still at `version`; bumps it. */
export function profileUpdate(scope: Scope, customerId: number, version: number, changes: ProfileChanges): SQL {
  const assignments: SQL[] = [];
  const set = (column: AnyColumn, value: unknown) => assignments.push(sql`${columnName(column)} = ${value}`);
  if ('nameEn' in changes) set(c.nameEn, changes.nameEn);
  if ('phone' in changes) {
    set(c.phone, changes.phone);
    set(c.phoneDigits, changes.phoneDigits ?? null);
  }
  if ('email' in changes) set(c.email, changes.email);
  if ('tags' in changes) set(c.tags, sql`${textArrayLiteral(changes.tags ?? [])}::text[]`);
  if ('remark' in changes) set(c.remark, changes.remark);
  return sql`update ${tableAs(c)} set ${sql.join(assignments, sql`, `)}, ${columnName(c.version)} = ${c.version} + 1, ${columnName(c.updatedAt)} = now()
         where ${inScope(scope, customerId)} and ${c.version} = ${version}`;
}
