import { sql, type AnyColumn } from 'drizzle-orm';
import type { DatabaseHandle } from './client';
import { accounts, cashBalances, customers, exchangeRates, holdings, securities, trades } from './schema';
import { columnName, rowsQuery, selection, selectRows, tableAlias, tableAs, type RowOf } from './sql-rows';

type Queryable = Pick<DatabaseHandle, 'db'>;

const c = tableAlias(customers, 'c');
const a = tableAlias(accounts, 'a');
const cb = tableAlias(cashBalances, 'cb');
const h = tableAlias(holdings, 'h');
const s = tableAlias(securities, 's');
const updated = selection({ id: c.id });

/**
 * Recomputes the denormalised summary on `customer` (HKD cash, market value, total assets, last trade, markets
 * held) from the detail tables, touching only rows that differ. HKD = amount / rate (rates are units per HKD).
 */
export async function refreshCustomerSummaries(database: Queryable, customerIds?: number[]): Promise<number> {
  const scoped = customerIds !== undefined;
  if (scoped && customerIds.length === 0) return 0;
  const isScoped = (column: AnyColumn) => sql`${column} = any(${sql.param(customerIds)}::bigint[])`;
  const only = (column: AnyColumn) => (scoped ? sql`where ${isScoped(column)}` : sql``);
  const rows = await selectRows(
    database.db,
    rowsQuery<RowOf<typeof updated>>(
      sql`with rate as (
            select distinct on (${exchangeRates.currency}) ${exchangeRates.currency}, ${exchangeRates.rate} from ${exchangeRates}
             order by ${exchangeRates.currency}, ${exchangeRates.rateDate} desc
          ),
          cash as (
            select ${a.customerId}, sum(${cb.balance} / coalesce(r.rate, 1)) as value
            from ${tableAs(cb)} join ${tableAs(a)} on ${a.id} = ${cb.accountId} left join rate r on r.currency = ${cb.currency}
            ${only(a.customerId)} group by ${a.customerId}
          ),
          market as (
            select ${h.customerId}, sum(${h.quantity} * ${s.lastPrice} / coalesce(r.rate, 1)) as value
            from ${tableAs(h)} join ${tableAs(s)} on ${s.id} = ${h.securityId} left join rate r on r.currency = ${s.currency}
            ${only(h.customerId)} group by ${h.customerId}
          ),
          last_trade as (
            select ${trades.customerId}, max(${trades.tradedAt}) as at from ${trades} ${only(trades.customerId)} group by ${trades.customerId}
          ),
          held as (
            select ${h.customerId}, array_agg(distinct ${s.market} order by ${s.market}) as markets
            from ${tableAs(h)} join ${tableAs(s)} on ${s.id} = ${h.securityId}
            where ${h.quantity} > 0 ${scoped ? sql`and ${isScoped(h.customerId)}` : sql``} group by ${h.customerId}
          ),
          summary as (
            select ${c.id},
                   round(coalesce(cash.value, 0), 2) as cash_hkd,
                   round(coalesce(market.value, 0), 2) as market_value_hkd,
                   (last_trade.at at time zone 'Asia/Hong_Kong')::date as last_trade_date,
                   coalesce(held.markets, '{}') as held_markets
            from ${tableAs(c)}
            left join cash on cash.customer_id = ${c.id}
            left join market on market.customer_id = ${c.id}
            left join last_trade on last_trade.customer_id = ${c.id}
            left join held on held.customer_id = ${c.id}
            ${only(c.id)}
          )
          update ${tableAs(c)}
             set ${columnName(c.cashHkd)} = s.cash_hkd,
                 ${columnName(c.marketValueHkd)} = s.market_value_hkd,
                 ${columnName(c.totalAssetsHkd)} = s.cash_hkd + s.market_value_hkd,
                 ${columnName(c.lastTradeDate)} = s.last_trade_date,
                 ${columnName(c.heldMarkets)} = s.held_markets
            from summary s
           where s.id = ${c.id}
             and (${c.cashHkd}, ${c.marketValueHkd}, ${c.totalAssetsHkd}, ${c.lastTradeDate}, ${c.heldMarkets})
                 is distinct from (s.cash_hkd, s.market_value_hkd, s.cash_hkd + s.market_value_hkd, s.last_trade_date, s.held_markets)
          returning ${updated}`,
    ),
  );
  return rows.length;
}
