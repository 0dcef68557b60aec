import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rowsQuery, selectRows, selectRowSets, type RowSets, type RowsQuery } from '../../db/sql-rows';

/**
 * The caller's reach: their own clients in their corp. Every query here joins `customer` on both,
 * so a forgotten check in a service still cannot leak another manager's client.
 */
export interface Scope {
  corpId: number;
  staffId: number;
}

/** `c` is the customer alias every query uses. */
const inScope = (scope: Scope, customerId: number) =>
  sql`c.id = ${customerId} and c.corp_id = ${scope.corpId} and c.staff_id = ${scope.staffId}`;

/** Hong Kong calendar days → the instants that bound them (`dateTo` inclusive). */
const timeRange = (column: SQL, range: { dateFrom?: string | undefined; dateTo?: string | undefined }) => {
  const parts: SQL[] = [];
  if (range.dateFrom) parts.push(sql`${column} >= (${range.dateFrom}::date)::timestamp at time zone 'Asia/Hong_Kong'`);
  if (range.dateTo) parts.push(sql`${column} < (${range.dateTo}::date + 1)::timestamp at time zone 'Asia/Hong_Kong'`);
  return parts;
};
const and = (parts: SQL[]) => sql.join(parts, sql` and `);
/** Whole milliseconds, rounded down, so an `at` handed back as a `before` cursor excludes its own row. */
const epochMs = (column: SQL) => sql`floor(extract(epoch from ${column}) * 1000)::float8`;
const hkToday = sql`(now() at time zone 'Asia/Hong_Kong')::date`;

export interface CustomerRow {
  id: number;
  customerNo: string;
  nameCn: string;
  nameEn: string;
  gender: string | null;
  birthday: string | null;
  phone: string | null;
  email: string | null;
  idDocType: string;
  idDocMasked: string;
  idDocExpiry: string | null;
  riskLevel: number;
  riskAssessedOn: string | null;
  status: string;
  channel: string;
  openDate: string;
  closedDate: string | null;
  tags: string[];
  remark: string | null;
  version: number;
  updatedAt: number;
  totalAssetsHkd: number;
  lastTradeDate: string | null;
  kycBound: boolean;
  kycStale: boolean;
  accounts: { accountNo: string; type: string; status: string; openDate: string }[];
}

const customerColumns = sql`
  c.id::float8 as "id", c.customer_no as "customerNo", c.name_cn as "nameCn", c.name_en as "nameEn", c.gender,
  c.birthday::text as "birthday", c.phone, c.email, c.id_doc_type as "idDocType", c.id_doc_masked as "idDocMasked",
  c.id_doc_expiry::text as "idDocExpiry", c.risk_level as "riskLevel", c.risk_assessed_on::text as "riskAssessedOn",
  c.status, c.channel, c.open_date::text as "openDate", c.closed_date::text as "closedDate", c.tags, c.remark, c.version,
  ${epochMs(sql`c.updated_at`)} as "updatedAt", c.total_assets_hkd::float8 as "totalAssetsHkd", c.last_trade_date::text as "lastTradeDate",
  exists (select 1 from kyc_binding k where k.customer_id = c.id and k.corp_id = c.corp_id) as "kycBound",
  exists (select 1 from kyc_binding k where k.customer_id = c.id and k.corp_id = c.corp_id and k.stale_at is not null) as "kycStale",
  coalesce((select json_agg(json_build_object('accountNo', a.account_no, 'type', a.type, 'status', a.status, 'openDate', a.open_date::text) order by a.id)
            from account a where a.customer_id = c.id), '[]'::json) as "accounts"`;

export interface SecurityColumns {
  symbol: string;
  nameCn: string;
  nameEn: string;
  market: string;
}

export interface HoldingRow extends SecurityColumns {
  accountNo: string;
  currency: string;
  quantity: number;
  avgCost: number;
  lastPrice: number;
  prevClose: number;
  priceDate: string;
}

export interface TradeRow extends SecurityColumns {
  id: number;
  accountNo: string;
  side: string;
  quantity: number;
  price: number;
  amount: number;
  fee: number;
  currency: string;
  tradedAt: number;
  settleDate: string;
  settled: boolean;
}

export interface MoneyRow {
  id: number;
  accountNo: string;
  direction: string;
  currency: string;
  amount: number;
  method: string;
  occurredAt: number;
}

export interface TransferRow extends SecurityColumns {
  id: number;
  accountNo: string;
  direction: string;
  currency: string;
  quantity: number;
  lastPrice: number;
  counterparty: string;
  occurredAt: number;
}

export interface AuditRow {
  id: number;
  at: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  staffName: string | null;
}

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

/** One row, or none: who serves a customer of this corp (tells 403 from 404 in `read`). */
const ownerQuery = (corpId: number, customerId: number) =>
  rowsQuery<{ staffId: number }>(sql`select c.staff_id as "staffId" from customer c where c.id = ${customerId} and c.corp_id = ${corpId}`);

/**
 * The queries behind the client pages. They are built here and run by `read`, which sends them
 * together with the ownership check as one statement.
 */
export const clientQueries = {
  customer: (scope: Scope, customerId: number) =>
    rowsQuery<CustomerRow>(sql`select ${customerColumns} from customer c where ${inScope(scope, customerId)}`),

  /** Newest rate per currency: units of that currency per 1 HKD. */
  rates: () =>
    rowsQuery<{ currency: string; rate: number }>(
      // A skip scan over the primary key (currency, rate_date): one index probe per currency instead
      // of reading every day's rate, as DISTINCT ON did on every detail call (ADR 0029, docs/benchmarks.md).
      sql`with recursive currencies as (
            (select currency from exchange_rate order by currency limit 1)
            union all
            select (select e.currency from exchange_rate e where e.currency > currencies.currency order by e.currency limit 1)
              from currencies where currencies.currency is not null
          )
          select cur.currency, (select e.rate from exchange_rate e where e.currency = cur.currency order by e.rate_date desc limit 1)::float8 as rate
            from currencies cur where cur.currency is not null`,
    ),

  cashByCurrency: (scope: Scope, customerId: number) =>
    rowsQuery<{ currency: string; balance: number }>(
      sql`select cb.currency, sum(cb.balance)::float8 as balance
          from cash_balance cb join account a on a.id = cb.account_id join customer c on c.id = a.customer_id
          where ${inScope(scope, customerId)} group by cb.currency order by cb.currency`,
    ),

  /** All holdings of one client (a client holds tens of lines at most, so no paging here). */
  holdings: (scope: Scope, customerId: number, market?: string) =>
    rowsQuery<HoldingRow>(
      sql`select a.account_no as "accountNo", s.symbol, s.name_cn as "nameCn", s.name_en as "nameEn", s.market, s.currency,
                 h.quantity::float8 as quantity, h.avg_cost::float8 as "avgCost", s.last_price::float8 as "lastPrice",
                 s.prev_close::float8 as "prevClose", s.price_date::text as "priceDate"
          from holding h join customer c on c.id = h.customer_id join account a on a.id = h.account_id join security s on s.id = h.security_id
          where ${inScope(scope, customerId)} and h.quantity > 0 ${market ? sql`and s.market = ${market}` : sql``}
          order by s.symbol, a.account_no`,
    ),

  trades: (scope: Scope, customerId: number, filter: TradeFilter, paging: Paging) => {
    const where = and([
      inScope(scope, customerId),
      ...timeRange(sql`t.traded_at`, filter),
      ...(filter.market ? [sql`s.market = ${filter.market}`] : []),
      ...(filter.side ? [sql`t.side = ${filter.side}`] : []),
      ...(filter.status ? [filter.status === 'settled' ? sql`t.settle_date <= ${hkToday}` : sql`t.settle_date > ${hkToday}`] : []),
    ]);
    const from = sql`from trade t join customer c on c.id = t.customer_id join security s on s.id = t.security_id`;
    return {
      list: rowsQuery<TradeRow>(
        sql`select t.id::float8 as id, a.account_no as "accountNo", s.symbol, s.name_cn as "nameCn", s.name_en as "nameEn", s.market,
                   t.side, t.quantity::float8 as quantity, t.price::float8 as price, t.amount::float8 as amount, t.fee::float8 as fee,
                   t.currency, ${epochMs(sql`t.traded_at`)} as "tradedAt", t.settle_date::text as "settleDate", t.settle_date <= ${hkToday} as settled
            ${from} join account a on a.id = t.account_id
            where ${where} order by t.traded_at desc, t.id desc ${pageOf(paging)}`,
      ),
      totals: rowsQuery<{ side: string; currency: string; count: number; amount: number; fee: number }>(
        sql`select t.side, t.currency, count(*)::int as count, sum(t.amount)::float8 as amount, sum(t.fee)::float8 as fee
            ${from} where ${where} group by t.side, t.currency`,
      ),
    };
  },

  moneyMovements: (scope: Scope, customerId: number, filter: MoneyFilter, paging: Paging) => {
    const where = and([
      inScope(scope, customerId),
      ...timeRange(sql`m.occurred_at`, filter),
      ...(filter.direction ? [sql`m.direction = ${filter.direction}`] : []),
      ...(filter.currency ? [sql`m.currency = ${filter.currency}`] : []),
    ]);
    const from = sql`from money_movement m join customer c on c.id = m.customer_id`;
    return {
      list: rowsQuery<MoneyRow>(
        sql`select m.id::float8 as id, a.account_no as "accountNo", m.direction, m.currency, m.amount::float8 as amount, m.method,
                   ${epochMs(sql`m.occurred_at`)} as "occurredAt"
            ${from} join account a on a.id = m.account_id
            where ${where} order by m.occurred_at desc, m.id desc ${pageOf(paging)}`,
      ),
      totals: rowsQuery<{ direction: string; currency: string; count: number; amount: number }>(
        sql`select m.direction, m.currency, count(*)::int as count, sum(m.amount)::float8 as amount ${from} where ${where} group by m.direction, m.currency`,
      ),
    };
  },

  transfers: (scope: Scope, customerId: number, filter: TransferFilter, paging: Paging) => {
    const where = and([
      inScope(scope, customerId),
      ...timeRange(sql`x.occurred_at`, filter),
      ...(filter.market ? [sql`s.market = ${filter.market}`] : []),
      ...(filter.direction ? [sql`x.direction = ${filter.direction}`] : []),
    ]);
    const from = sql`from stock_transfer x join customer c on c.id = x.customer_id join security s on s.id = x.security_id`;
    return {
      list: rowsQuery<TransferRow>(
        sql`select x.id::float8 as id, a.account_no as "accountNo", x.direction, s.symbol, s.name_cn as "nameCn", s.name_en as "nameEn", s.market,
                   s.currency, x.quantity::float8 as quantity, s.last_price::float8 as "lastPrice", x.counterparty,
                   ${epochMs(sql`x.occurred_at`)} as "occurredAt"
            ${from} join account a on a.id = x.account_id
            where ${where} order by x.occurred_at desc, x.id desc ${pageOf(paging)}`,
      ),
      totals: rowsQuery<{ direction: string; currency: string; count: number; value: number }>(
        sql`select x.direction, s.currency, count(*)::int as count, sum(x.quantity * s.last_price)::float8 as value
            ${from} where ${where} group by x.direction, s.currency`,
      ),
    };
  },

  /** The newest `limit` of each kind of activity before `before`; the service merges them. */
  recentActivity: (scope: Scope, customerId: number, before: number | undefined, limit: number) => {
    const cut = (column: SQL) =>
      before === undefined ? sql`` : sql`and ${column} < timestamptz 'epoch' + ${before}::bigint * interval '1 millisecond'`;
    return {
      tradeRows: rowsQuery<TradeRow>(
        sql`select t.id::float8 as id, s.symbol, s.name_cn as "nameCn", s.name_en as "nameEn", s.market, t.side, t.quantity::float8 as quantity,
                   t.price::float8 as price, t.amount::float8 as amount, t.currency, ${epochMs(sql`t.traded_at`)} as "tradedAt"
            from trade t join customer c on c.id = t.customer_id join security s on s.id = t.security_id
            where ${inScope(scope, customerId)} ${cut(sql`t.traded_at`)} order by t.traded_at desc, t.id desc limit ${limit}`,
      ),
      moneyRows: rowsQuery<MoneyRow>(
        sql`select m.id::float8 as id, m.direction, m.currency, m.amount::float8 as amount, m.method, ${epochMs(sql`m.occurred_at`)} as "occurredAt"
            from money_movement m join customer c on c.id = m.customer_id
            where ${inScope(scope, customerId)} ${cut(sql`m.occurred_at`)} order by m.occurred_at desc, m.id desc limit ${limit}`,
      ),
      transferRows: rowsQuery<TransferRow>(
        sql`select x.id::float8 as id, x.direction, s.symbol, s.name_cn as "nameCn", s.name_en as "nameEn", s.market, s.currency,
                   x.quantity::float8 as quantity, ${epochMs(sql`x.occurred_at`)} as "occurredAt"
            from stock_transfer x join customer c on c.id = x.customer_id join security s on s.id = x.security_id
            where ${inScope(scope, customerId)} ${cut(sql`x.occurred_at`)} order by x.occurred_at desc, x.id desc limit ${limit}`,
      ),
      auditRows: rowsQuery<AuditRow>(
        sql`select l.id::float8 as id, ${epochMs(sql`l.at`)} as at, l.before, l.after, st.name as "staffName"
            from audit_log l join customer c on l.entity_id = c.id::text left join staff st on st.id = l.actor_staff_id
            where l.entity = 'customer' and l.entity_id = ${String(customerId)} and l.action = 'customer.update' and ${inScope(scope, customerId)} ${cut(sql`l.at`)}
            order by l.at desc, l.id desc limit ${limit}`,
      ),
    };
  },
};

export function createClientRepository(db: Database) {
  return {
    /** Who owns a customer of this corp (null: no such customer here). Tells 403 from 404. */
    async ownerOf(corpId: number, customerId: number): Promise<number | null> {
      const [row] = await selectRows<{ staffId: number }>(db, ownerQuery(corpId, customerId), { prepare: true });
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
        const [current] = await selectRows<CustomerRow>(
          tx,
          sql`select ${customerColumns} from customer c where ${inScope(scope, customerId)} for update of c`,
        );
        if (!current) return { outcome: 'missing' as const };
        if (current.version !== version) return { outcome: 'stale' as const, currentVersion: current.version };
        const { changes, before, after } = diff(current);
        if (Object.keys(changes).length === 0) return { outcome: 'unchanged' as const, customer: current };
        const assignments: SQL[] = [];
        if ('nameEn' in changes) assignments.push(sql`name_en = ${changes.nameEn}`);
        if ('phone' in changes) assignments.push(sql`phone = ${changes.phone}`, sql`phone_digits = ${changes.phoneDigits ?? null}`);
        if ('email' in changes) assignments.push(sql`email = ${changes.email}`);
        if ('tags' in changes)
          assignments.push(
            sql`tags = ${sql`${`{${(changes.tags ?? []).map((tag) => `"${tag.replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',')}}`}::text[]`}`,
          );
        if ('remark' in changes) assignments.push(sql`remark = ${changes.remark}`);
        await tx.execute(
          sql`update customer c set ${sql.join(assignments, sql`, `)}, version = c.version + 1, updated_at = now() where ${inScope(scope, customerId)} and c.version = ${version}`,
        );
        await tx.execute(
          sql`insert into audit_log (corp_id, actor_staff_id, action, entity, entity_id, before, after)
              values (${scope.corpId}, ${scope.staffId}, 'customer.update', 'customer', ${String(customerId)}, ${JSON.stringify(before)}::jsonb, ${JSON.stringify(after)}::jsonb)`,
        );
        const [saved] = await selectRows<CustomerRow>(
          tx,
          sql`select ${customerColumns} from customer c where ${inScope(scope, customerId)}`,
        );
        return { outcome: 'saved' as const, customer: saved! };
      });
    },
  };
}

export type ClientRepository = ReturnType<typeof createClientRepository>;
