import type { DatabaseHandle } from './client';

type Queryable = Pick<DatabaseHandle, 'query'>;

/**
 * Recomputes the denormalised summary on `customer` (cash, market value and total assets in HKD,
 * last trade date, markets held) from the detail tables. Rows whose summary is already right are not touched,
 * so running it twice changes nothing. HKD value = amount / rate, since rates are units per HKD.
 */
export async function refreshCustomerSummaries(database: Queryable, customerIds?: number[]): Promise<number> {
  const scoped = customerIds !== undefined;
  if (scoped && customerIds.length === 0) return 0;
  const only = (column: string) => (scoped ? `where ${column} = any($1::bigint[])` : '');
  const rows = await database.query<{ id: number }>(
    `with rate as (
       select distinct on (currency) currency, rate from exchange_rate order by currency, rate_date desc
     ),
     cash as (
       select a.customer_id, sum(cb.balance / coalesce(r.rate, 1)) as value
       from cash_balance cb join account a on a.id = cb.account_id left join rate r on r.currency = cb.currency
       ${only('a.customer_id')} group by a.customer_id
     ),
     market as (
       select h.customer_id, sum(h.quantity * s.last_price / coalesce(r.rate, 1)) as value
       from holding h join security s on s.id = h.security_id left join rate r on r.currency = s.currency
       ${only('h.customer_id')} group by h.customer_id
     ),
     last_trade as (
       select customer_id, max(traded_at) as at from trade ${only('customer_id')} group by customer_id
     ),
     held as (
       select h.customer_id, array_agg(distinct s.market order by s.market) as markets
       from holding h join security s on s.id = h.security_id
       where h.quantity > 0 ${scoped ? 'and h.customer_id = any($1::bigint[])' : ''} group by h.customer_id
     ),
     summary as (
       select c.id,
              round(coalesce(cash.value, 0), 2) as cash_hkd,
              round(coalesce(market.value, 0), 2) as market_value_hkd,
              (last_trade.at at time zone 'Asia/Hong_Kong')::date as last_trade_date,
              coalesce(held.markets, '{}') as held_markets
       from customer c
       left join cash on cash.customer_id = c.id
       left join market on market.customer_id = c.id
       left join last_trade on last_trade.customer_id = c.id
       left join held on held.customer_id = c.id
       ${only('c.id')}
     )
     update customer c
        set cash_hkd = s.cash_hkd,
            market_value_hkd = s.market_value_hkd,
            total_assets_hkd = s.cash_hkd + s.market_value_hkd,
            last_trade_date = s.last_trade_date,
            held_markets = s.held_markets
       from summary s
      where s.id = c.id
        and (c.cash_hkd, c.market_value_hkd, c.total_assets_hkd, c.last_trade_date, c.held_markets)
            is distinct from (s.cash_hkd, s.market_value_hkd, s.cash_hkd + s.market_value_hkd, s.last_trade_date, s.held_markets)
     returning c.id`,
    scoped ? [customerIds] : [],
  );
  return rows.length;
}
