import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import {
  asText,
  columnName,
  epochMs,
  float8,
  renderedOnce,
  rowsQuery,
  selection,
  selectQuery,
  selectRows,
  selectRowSets,
  tableAlias,
  tableAs,
  type RowOf,
  type RowSets,
  type RowsQuery,
} from '../../db/sql-rows';
import {
  accounts,
  auditLog,
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

/** The caller's reach; every query here joins `customer` on both corp and staff. */
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

// Every client query carries the scope: its column references are rendered once (`renderedOnce`).
const customerIdIs = renderedOnce(sql`${c.id} =`);
const corpIdIs = renderedOnce(sql`${c.corpId} =`);
const staffIdIs = renderedOnce(sql`${c.staffId} =`);
/** `c` is the customer alias every query uses. */
const inScope = (scope: Scope, customerId: number) =>
  sql`${customerIdIs} ${customerId} and ${corpIdIs} ${scope.corpId} and ${staffIdIs} ${scope.staffId}`;

/** Hong Kong calendar days → the instants that bound them (`dateTo` inclusive). */
const timeRange = (column: AnyColumn, range: { dateFrom?: string | undefined; dateTo?: string | undefined }) => {
  const parts: SQL[] = [];
  if (range.dateFrom) parts.push(sql`${column} >= (${range.dateFrom}::date)::timestamp at time zone 'Asia/Hong_Kong'`);
  if (range.dateTo) parts.push(sql`${column} < (${range.dateTo}::date + 1)::timestamp at time zone 'Asia/Hong_Kong'`);
  return parts;
};
const and = (parts: SQL[]) => sql.join(parts, sql` and `);
const hkToday = sql`(now() at time zone 'Asia/Hong_Kong')::date`;
const count = sql<number>`count(*)::int`;
const sumFloat8 = (value: AnyColumn | SQL) => sql<number>`sum(${value})::float8`;

/** One account of a client, as `customerColumns` builds it in JSON. */
interface AccountJson {
  accountNo: string;
  type: string;
  status: string;
  openDate: string;
}

// Whole milliseconds (`epochMs`), rounded down, so an `at` handed back as a `before` cursor excludes its own row.
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
    AccountJson[]
  >`coalesce((select json_agg(json_build_object('accountNo', ${a.accountNo}, 'type', ${a.type}, 'status', ${a.status}, 'openDate', ${a.openDate}::text) order by ${a.id})
            from ${tableAs(a)} where ${a.customerId} = ${c.id}), '[]'::json)`,
});
export type CustomerRow = RowOf<typeof customerColumns>;

/** How to reach a client: names, the phone (masked by the service) and the bound WeCom contact, if any. */
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
export type ReachRow = RowOf<typeof reachColumns>;

const securityColumns = { symbol: s.symbol, nameCn: s.nameCn, nameHk: s.nameHk, nameEn: s.nameEn, market: s.market };

export interface Paging {
  pageNum: number;
  pageSize: number;
}
const pageOf = (paging: Paging) => sql`limit ${paging.pageSize} offset ${(paging.pageNum - 1) * paging.pageSize}`;

export interface TradeFilter {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  market?: string | undefined;
  side?: string | undefined;
  status?: 'settled' | 'unsettled' | undefined;
}
export interface MoneyFilter {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  direction?: string | undefined;
  currency?: string | undefined;
}
export interface TransferFilter {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  market?: string | undefined;
  direction?: string | undefined;
}

/** Editable columns, by contract field name. */
export interface ProfileChanges {
  nameEn?: string;
  phone?: string | null;
  phoneDigits?: string | null;
  email?: string | null;
  tags?: string[];
  remark?: string | null;
}

const ownerColumns = selection({ staffId: c.staffId });

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

/** Newest rate per currency (`rates`): the same text on every detail call, rendered once. */
const latestRates = rowsQuery<{ currency: string; rate: number }>(
  renderedOnce(
    // A skip scan over the primary key (currency, rate_date): one index probe per currency instead
    // of reading every day's rate, as DISTINCT ON did on every detail call (ADR 0029, docs/benchmarks.md).
    // `currencies`: the recursive CTE's rows, one column `currency`.
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

/** One row, or none: who serves a customer of this corp (tells 403 from 404 in `read`). */
const ownerQuery = (corpId: number, customerId: number) =>
  selectQuery(ownerColumns, sql`from ${tableAs(c)} where ${c.id} = ${customerId} and ${c.corpId} = ${corpId}`);

/**
 * The queries behind the client pages. They are built here and run by `read`, which sends them
 * together with the ownership check as one statement.
 */
export const clientQueries = {
  customer: (scope: Scope, customerId: number) => selectQuery(customerColumns, sql`from ${tableAs(c)} where ${inScope(scope, customerId)}`),

  reach: (scope: Scope, customerId: number) => selectQuery(reachColumns, sql`from ${tableAs(c)} where ${inScope(scope, customerId)}`),

  /** Newest rate per currency: units of that currency per 1 HKD. */
  rates: () => latestRates,

  cashByCurrency: (scope: Scope, customerId: number) =>
    selectQuery(cashColumns, sql`${cashFrom} where ${inScope(scope, customerId)} ${cashGrouped}`),

  /** All holdings of one client (a client holds tens of lines at most, so no paging here). */
  holdings: (scope: Scope, customerId: number, market?: string) =>
    selectQuery(
      holdingColumns,
      sql`${holdingsFrom} where ${inScope(scope, customerId)} ${heldOnly} ${market ? sql`and ${securityMarketIs} ${market}` : sql``} ${holdingsOrder}`,
    ),

  trades: (scope: Scope, customerId: number, filter: TradeFilter, paging: Paging) => {
    const where = and([
      inScope(scope, customerId),
      ...timeRange(t.tradedAt, filter),
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
      ...timeRange(m.occurredAt, filter),
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
      ...timeRange(x.occurredAt, filter),
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

/** A text[] literal of `tags`, each quoted, so a tag holding `,` `"` or `{` stays one element. */
const textArrayLiteral = (tags: readonly string[]) =>
  `{${tags.map((tag) => `"${tag.replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',')}}`;

export function createClientRepository(db: Database) {
  return {
    /** Who owns a customer of this corp (null: no such customer here). Tells 403 from 404. */
    async ownerOf(corpId: number, customerId: number): Promise<number | null> {
      const [row] = await selectRows(db, ownerQuery(corpId, customerId), { prepare: true });
      return row?.staffId ?? null;
    },

    /**
     * Who serves the customer (null: none in this corp) and the row sets asked for, read in one
     * statement: one round trip per page view, and the check and the data see one snapshot.
     * Every query in `queries` carries the caller's scope itself, so another manager's client
     * yields empty sets even before the service turns the owner into a 403.
     */
    async read<Queries extends Record<string, RowsQuery<unknown>>>(
      corpId: number,
      customerId: number,
      queries: Queries,
    ): Promise<{ owner: number | null; sets: RowSets<Queries> }> {
      // Prepared: every query here is keyed by the customer, so one plan suits every customer.
      const { owner, ...sets } = await selectRowSets(db, { owner: ownerQuery(corpId, customerId), ...queries }, { prepare: true });
      return { owner: (owner as Array<{ staffId: number }>)[0]?.staffId ?? null, sets: sets as unknown as RowSets<Queries> };
    },

    /**
     * The client's full phone number, and one audit row saying who asked for it, when, and to do what
     * (view: `customer.revealPhone`, call: `customer.callPhone`), in one transaction: no number leaves
     * without its audit row (ADR 0039). A client without a phone yields null and no row: nothing was shown.
     */
    async revealPhone(scope: Scope, customerId: number, purpose: 'view' | 'call'): Promise<{ found: boolean; phone: string | null }> {
      return db.transaction(async (tx) => {
        const [row] = await selectRows(
          tx,
          selectQuery(selection({ phone: c.phone }), sql`from ${tableAs(c)} where ${inScope(scope, customerId)}`),
        );
        if (!row) return { found: false, phone: null };
        if (row.phone === null) return { found: true, phone: null };
        await tx.insert(auditLog).values({
          corpId: scope.corpId,
          actorStaffId: scope.staffId,
          action: purpose === 'call' ? 'customer.callPhone' : 'customer.revealPhone',
          entity: 'customer',
          entityId: String(customerId),
          before: null,
          // The number as it was shown: the trail reads it masked (audit.routes.ts), like every phone.
          after: { phone: row.phone },
        });
        return { found: true, phone: row.phone };
      });
    },

    /**
     * Applies `changes` if the row is still at `version`, bumping it and writing one audit row
     * with only the changed fields, all in one transaction. The row lock makes a concurrent edit
     * of the same version wait and then see the new version.
     */
    async updateProfile(
      scope: Scope,
      customerId: number,
      version: number,
      diff: (current: CustomerRow) => { changes: ProfileChanges; before: Record<string, unknown>; after: Record<string, unknown> },
    ): Promise<
      { outcome: 'missing' } | { outcome: 'stale'; currentVersion: number } | { outcome: 'saved' | 'unchanged'; customer: CustomerRow }
    > {
      return db.transaction(async (tx) => {
        const [current] = await selectRows(
          tx,
          selectQuery(customerColumns, sql`from ${tableAs(c)} where ${inScope(scope, customerId)} for update of c`),
        );
        if (!current) return { outcome: 'missing' as const };
        if (current.version !== version) return { outcome: 'stale' as const, currentVersion: current.version };
        const { changes, before, after } = diff(current);
        if (Object.keys(changes).length === 0) return { outcome: 'unchanged' as const, customer: current };
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
        await tx.execute(
          sql`update ${tableAs(c)} set ${sql.join(assignments, sql`, `)}, ${columnName(c.version)} = ${c.version} + 1, ${columnName(c.updatedAt)} = now()
               where ${inScope(scope, customerId)} and ${c.version} = ${version}`,
        );
        await tx.insert(auditLog).values({
          corpId: scope.corpId,
          actorStaffId: scope.staffId,
          action: 'customer.update',
          entity: 'customer',
          entityId: String(customerId),
          before,
          after,
        });
        const [saved] = await selectRows(tx, clientQueries.customer(scope, customerId));
        return { outcome: 'saved' as const, customer: saved! };
      });
    },
  };
}

export type ClientRepository = ReturnType<typeof createClientRepository>;
