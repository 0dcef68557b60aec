import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { MotRule } from '@broker/contract';
import { customers, exchangeRates, holdings, moneyMovements, securities, staff, stockTransfers } from '../../db/schema';
import { tableAlias, tableAs } from '../../db/sql-rows';
import { MOT_THRESHOLDS as T } from './mot-thresholds';

/**
 * Each rule is one set-based SELECT yielding the rows of `mot_event` it wants to exist:
 * (customer_name_en, corp_id, rule, customer_id, staff_id, fact_key, due_date, facts) — the name
 * first, as the to-do list's sort key (migration 0009), read here with the customer it already joins. The engine wraps it in
 * INSERT … ON CONFLICT (rule, customer_id, fact_key) DO NOTHING (`insertMotEvents`), so a fact fires
 * exactly once no matter how often or by how many processes the rules run.
 *
 * `asOf` is the as-of day (Hong Kong), a date. `scope` is a predicate on the customer alias `c`
 * (`ruleCustomer`: restricting a run to some customers) or `true`. Thresholds are constants, inlined.
 */
export interface MotRuleDefinition {
  rule: MotRule;
  select(on: { asOf: SQL; scope: SQL }): SQL;
}

/** The customer every rule fires for: a run's scope is written over it. */
export const ruleCustomer = tableAlias(customers, 'c');
const c = ruleCustomer;
const s = tableAlias(staff, 's');
const m = tableAlias(moneyMovements, 'm');
const t = tableAlias(stockTransfers, 't');
const sec = tableAlias(securities, 'sec');
const er = tableAlias(exchangeRates, 'er');
const h = tableAlias(holdings, 'h');
const hc = tableAlias(holdings, 'hc');
const sc = tableAlias(securities, 'sc');

/** A constant of this file written into the text (thresholds, rule names), as the rules always had them. */
const literal = (value: number | string) => {
  if (typeof value === 'number') return sql.raw(String(value));
  if (!/^[a-zA-Z_]+$/.test(value)) throw new Error(`not a rule constant: ${value}`);
  return sql.raw(`'${value}'`);
};

const LIVE = sql`${c.status} <> 'closed'`;
const hkDate = (column: AnyColumn | SQL) => sql`(${column} at time zone 'Asia/Hong_Kong')::date`;
const hkDayStart = (day: SQL) => sql`((${day})::timestamp at time zone 'Asia/Hong_Kong')`;
const hkTime = (column: AnyColumn) => sql`to_char(${column} at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI')`;
/** The first five columns of every event: the customer's name, corp, the rule, the customer and their current manager. */
const firedFor = (rule: MotRule) => sql`${c.nameEn}, ${c.corpId}, ${literal(rule)}, ${c.id}, ${c.staffId}`;

/** The next occurrence (on or after the as-of day) of the yearly date `column`; Feb 29 falls on Feb 28 in other years. */
const nextYearly = (column: AnyColumn, asOf: SQL) => {
  const yearsThisYear = sql`(extract(year from ${asOf}) - extract(year from ${column}))::int`;
  const thisYear = sql`(${column} + make_interval(years => ${yearsThisYear}))::date`;
  return sql`case when ${thisYear} >= ${asOf} then ${thisYear} else (${column} + make_interval(years => ${yearsThisYear} + 1))::date end`;
};

/** Units per HKD of `currency` on `day` (the newest rate on or before it, else the newest), 1 for HKD. */
const rateOn = (currency: AnyColumn | SQL, day: SQL) => sql`coalesce(
  (select ${er.rate} from ${tableAs(er)} where ${er.currency} = ${currency} and ${er.rateDate} <= ${day} order by ${er.rateDate} desc limit 1),
  (select ${er.rate} from ${tableAs(er)} where ${er.currency} = ${currency} order by ${er.rateDate} desc limit 1),
  case when ${currency} = 'HKD' then 1 end)`;

const yearlyRule = (
  rule: 'birthday' | 'anniversary',
  column: AnyColumn,
  lookaheadDays: number,
  minYears: number,
  factName: string,
): MotRuleDefinition => ({
  rule,
  select: ({ asOf, scope }) => sql`
    select ${firedFor(rule)}, extract(year from y.next_date)::int::text, y.next_date,
           jsonb_build_object(${literal(factName)}, ${column}, 'date', y.next_date, 'years', y.years, 'lookaheadDays', ${literal(lookaheadDays)})
      from ${tableAs(c)}
      cross join lateral (select n.next_date, (extract(year from n.next_date) - extract(year from ${column}))::int as years
                            from (select ${nextYearly(column, asOf)} as next_date) n) y
     where ${LIVE} and ${scope} and ${column} is not null
       and y.next_date <= ${asOf} + ${literal(lookaheadDays)} and y.years >= ${literal(minYears)}`,
});

const largeMoneyRule = (rule: 'large_deposit' | 'large_withdrawal', direction: 'deposit' | 'withdrawal'): MotRuleDefinition => ({
  rule,
  select: ({ asOf, scope }) => sql`
    select ${firedFor(rule)}, ${m.id}::text, ${hkDate(m.occurredAt)},
           jsonb_build_object('movementId', ${m.id}, 'amount', ${m.amount}, 'currency', ${m.currency}, 'rate', x.rate,
                              'amountHkd', round(${m.amount} / x.rate, 2), 'thresholdHkd', ${s.minCashIo},
                              'method', ${m.method}, 'occurredAt', ${hkTime(m.occurredAt)})
      from ${tableAs(m)}
      join ${tableAs(c)} on ${c.id} = ${m.customerId}
      join ${tableAs(s)} on ${s.id} = ${c.staffId}
      cross join lateral (select ${rateOn(m.currency, hkDate(m.occurredAt))} as rate) x
     where ${m.direction} = ${literal(direction)}
       and ${m.occurredAt} >= ${hkDayStart(sql`${asOf} - ${literal(T.movementLookbackDays)}`)}
       and ${m.occurredAt} < ${hkDayStart(sql`${asOf} + 1`)}
       and ${LIVE} and ${scope}
       and ${m.amount} / x.rate >= ${s.minCashIo}`,
});

const transferRule = (rule: 'transfer_in' | 'transfer_out', direction: 'in' | 'out'): MotRuleDefinition => ({
  rule,
  select: ({ asOf, scope }) => sql`
    select ${firedFor(rule)}, ${t.id}::text, ${hkDate(t.occurredAt)},
           jsonb_build_object('transferId', ${t.id}, 'symbol', ${sec.symbol}, 'securityNameCn', ${sec.nameCn}, 'securityNameEn', ${sec.nameEn},
                              'quantity', ${t.quantity}, 'counterparty', ${t.counterparty}, 'currency', ${sec.currency}, 'lastPrice', ${sec.lastPrice},
                              'valueHkd', round(${t.quantity} * ${sec.lastPrice} / x.rate, 2), 'occurredAt', ${hkTime(t.occurredAt)})
      from ${tableAs(t)}
      join ${tableAs(c)} on ${c.id} = ${t.customerId}
      join ${tableAs(sec)} on ${sec.id} = ${t.securityId}
      cross join lateral (select ${rateOn(sec.currency, asOf)} as rate) x
     where ${t.direction} = ${literal(direction)}
       and ${t.occurredAt} >= ${hkDayStart(sql`${asOf} - ${literal(T.movementLookbackDays)}`)}
       and ${t.occurredAt} < ${hkDayStart(sql`${asOf} + 1`)}
       and ${LIVE} and ${scope}`,
});

const expiryRule = (rule: 'id_expiry' | 'risk_expiry', expiry: SQL, extraFacts: SQL): MotRuleDefinition => ({
  rule,
  select: ({ asOf, scope }) => sql`
    select ${firedFor(rule)}, e.expiry::text, ${asOf},
           jsonb_build_object('expiryDate', e.expiry, 'daysToExpiry', e.expiry - ${asOf}, 'lookaheadDays', ${literal(T.expiryLookaheadDays)}${extraFacts})
      from ${tableAs(c)}
      cross join lateral (select ${expiry} as expiry) e
     where ${LIVE} and ${scope}
       and e.expiry between ${asOf} - ${literal(T.expiryLookbackDays)} and ${asOf} + ${literal(T.expiryLookaheadDays)}`,
});

/** Positions at most this fraction of their average cost: the loss threshold as a price ratio. */
const LOSS_PRICE_RATIO = literal((100 - T.positionLossPct) / 100);

export const MOT_RULE_DEFINITIONS: readonly MotRuleDefinition[] = [
  yearlyRule('birthday', c.birthday, T.birthdayLookaheadDays, 0, 'birthday'),
  largeMoneyRule('large_deposit', 'deposit'),
  largeMoneyRule('large_withdrawal', 'withdrawal'),
  transferRule('transfer_in', 'in'),
  transferRule('transfer_out', 'out'),
  {
    rule: 'dormant',
    // Fires when a client *becomes* dormant (within the look-back), not for every client long gone quiet.
    // Fact: the last trade day (or `never`), so a client who trades again and goes quiet again fires again.
    select: ({ asOf, scope }) => sql`
      select ${firedFor('dormant')}, coalesce(${c.lastTradeDate}::text, 'never'), ${asOf},
             jsonb_build_object('lastTradeDate', ${c.lastTradeDate}, 'openDate', ${c.openDate},
                                'daysWithoutTrade', ${asOf} - coalesce(${c.lastTradeDate}, ${c.openDate}), 'dormantDays', ${literal(T.dormantDays)})
        from ${tableAs(c)}
       where ${LIVE} and ${scope}
         and coalesce(${c.lastTradeDate}, ${c.openDate}) between ${asOf} - ${literal(T.dormantDays + T.dormantLookbackDays)} and ${asOf} - ${literal(T.dormantDays)}`,
  },
  {
    rule: 'position_loss',
    // Fact: security and month, so a loss that lasts is raised at most once a month, not daily.
    // `p`, `q`, `k`, `r` and `cur` are subqueries of this statement: their columns are named here, not in the schema.
    select: ({ asOf, scope }) => sql`
      select ${firedFor('position_loss')}, p.symbol || '@' || to_char(${asOf}, 'YYYY-MM'), ${asOf},
             jsonb_build_object('symbol', p.symbol, 'securityNameCn', p.name_cn, 'securityNameEn', p.name_en, 'currency', p.currency,
                                'quantity', p.quantity, 'avgCost', round(p.avg_cost, 4), 'lastPrice', p.last_price, 'priceDate', p.price_date,
                                'lossPct', round(p.loss_pct, 2), 'lossHkd', round(p.loss_hkd, 2),
                                'minLossPct', ${literal(T.positionLossPct)}, 'minLossHkd', ${literal(T.positionLossMinHkd)})
        from (
          select q.*, (q.avg_cost - q.last_price) / q.avg_cost * 100 as loss_pct,
                 (q.avg_cost - q.last_price) * q.quantity / r.rate as loss_hkd
            from (
              select ${h.customerId}, ${sec.symbol}, ${sec.nameCn}, ${sec.nameEn}, ${sec.currency}, ${sec.lastPrice}, ${sec.priceDate},
                     sum(${h.quantity}) as quantity, sum(${h.quantity} * ${h.avgCost}) / sum(${h.quantity}) as avg_cost
                -- Candidates first: a position's average cost is at most its dearest holding's, so
                -- only positions with a holding that far under water can qualify.
                from (select distinct ${hc.customerId}, ${hc.securityId}
                        from ${tableAs(hc)} join ${tableAs(sc)} on ${sc.id} = ${hc.securityId}
                       where ${hc.quantity} > 0 and ${sc.lastPrice} <= ${hc.avgCost} * ${LOSS_PRICE_RATIO}) k
                join ${tableAs(h)} on ${h.customerId} = k.customer_id and ${h.securityId} = k.security_id
                join ${tableAs(sec)} on ${sec.id} = ${h.securityId}
                join ${tableAs(c)} on ${c.id} = ${h.customerId}
               where ${h.quantity} > 0 and ${LIVE} and ${scope}
               group by ${h.customerId}, ${sec.id}
            ) q
            -- One rate per currency, not one lookup per position.
            -- (offset 0 keeps the planner from pulling the lookup up into every row.)
            join (select cur.currency, ${rateOn(sql`cur.currency`, asOf)} as rate from (select distinct ${securities.currency} from ${securities}) cur offset 0) r on r.currency = q.currency
           where q.avg_cost > 0 and q.last_price <= q.avg_cost * ${LOSS_PRICE_RATIO}
        ) p
        join ${tableAs(c)} on ${c.id} = p.customer_id
       where p.loss_hkd >= ${literal(T.positionLossMinHkd)}`,
  },
  {
    rule: 'unfunded',
    select: ({ asOf, scope }) => sql`
      select ${firedFor('unfunded')}, ${c.openDate}::text, ${asOf},
             jsonb_build_object('openDate', ${c.openDate}, 'daysSinceOpen', ${asOf} - ${c.openDate}, 'afterDays', ${literal(T.unfundedAfterDays)})
        from ${tableAs(c)}
       where ${LIVE} and ${scope}
         and ${c.openDate} between ${asOf} - ${literal(T.unfundedMaxAgeDays)} and ${asOf} - ${literal(T.unfundedAfterDays)}
         and not exists (select 1 from ${tableAs(m)} where ${m.customerId} = ${c.id} and ${m.direction} = 'deposit')
         and not exists (select 1 from ${tableAs(t)} where ${t.customerId} = ${c.id} and ${t.direction} = 'in')`,
  },
  yearlyRule('anniversary', c.openDate, T.anniversaryLookaheadDays, 1, 'openDate'),
  expiryRule('id_expiry', sql`${c.idDocExpiry}`, sql`, 'idDocType', ${c.idDocType}`),
  expiryRule(
    'risk_expiry',
    sql`(${c.riskAssessedOn} + make_interval(years => ${literal(T.riskAssessmentValidYears)}))::date`,
    sql`, 'assessedOn', ${c.riskAssessedOn}, 'riskLevel', ${c.riskLevel}, 'validYears', ${literal(T.riskAssessmentValidYears)}`,
  ),
];
