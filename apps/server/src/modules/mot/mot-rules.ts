import type { MotRule } from '@broker/contract';
import { MOT_THRESHOLDS as T } from './mot-thresholds';

/**
 * Each rule is one set-based SELECT yielding the rows of `mot_event` it wants to exist:
 * (customer_name_en, corp_id, rule, customer_id, staff_id, fact_key, due_date, facts) — the name
 * first, as the to-do list's sort key (migration 0009), read here with the customer it already joins. The engine wraps it in
 * INSERT … ON CONFLICT (rule, customer_id, fact_key) DO NOTHING, so a fact fires exactly once no
 * matter how often or by how many processes the rules run.
 *
 * Parameters: `$1` the as-of day (Hong Kong). `scope` is a predicate on the customer alias `c`
 * (restricting a run to some customers) or `true`. Thresholds are constants, inlined.
 */
export interface MotRuleDefinition {
  rule: MotRule;
  select(scope: string): string;
}

const AS_OF = '$1::date';
const LIVE = `c.status <> 'closed'`;
const hkDate = (column: string) => `(${column} at time zone 'Asia/Hong_Kong')::date`;
const hkDayStart = (day: string) => `((${day})::timestamp at time zone 'Asia/Hong_Kong')`;
const hkTime = (column: string) => `to_char(${column} at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI')`;

/** The next occurrence (on or after the as-of day) of the yearly date `column`; Feb 29 falls on Feb 28 in other years. */
const nextYearly = (column: string) => {
  const yearsThisYear = `(extract(year from ${AS_OF}) - extract(year from ${column}))::int`;
  const thisYear = `(${column} + make_interval(years => ${yearsThisYear}))::date`;
  return `case when ${thisYear} >= ${AS_OF} then ${thisYear} else (${column} + make_interval(years => ${yearsThisYear} + 1))::date end`;
};

/** Units per HKD of `currency` on `day` (the newest rate on or before it, else the newest), 1 for HKD. */
const rateOn = (currency: string, day: string) => `coalesce(
  (select er.rate from exchange_rate er where er.currency = ${currency} and er.rate_date <= ${day} order by er.rate_date desc limit 1),
  (select er.rate from exchange_rate er where er.currency = ${currency} order by er.rate_date desc limit 1),
  case when ${currency} = 'HKD' then 1 end)`;

const yearlyRule = (
  rule: 'birthday' | 'anniversary',
  column: string,
  lookaheadDays: number,
  minYears: number,
  factName: string,
): MotRuleDefinition => ({
  rule,
  select: (scope) => `
    select c.name_en, c.corp_id, '${rule}', c.id, c.staff_id, extract(year from y.next_date)::int::text, y.next_date,
           jsonb_build_object('${factName}', c.${column}, 'date', y.next_date, 'years', y.years, 'lookaheadDays', ${lookaheadDays})
      from customer c
      cross join lateral (select n.next_date, (extract(year from n.next_date) - extract(year from c.${column}))::int as years
                            from (select ${nextYearly(`c.${column}`)} as next_date) n) y
     where ${LIVE} and ${scope} and c.${column} is not null
       and y.next_date <= ${AS_OF} + ${lookaheadDays} and y.years >= ${minYears}`,
});

const largeMoneyRule = (rule: 'large_deposit' | 'large_withdrawal', direction: 'deposit' | 'withdrawal'): MotRuleDefinition => ({
  rule,
  select: (scope) => `
    select c.name_en, c.corp_id, '${rule}', c.id, c.staff_id, m.id::text, ${hkDate('m.occurred_at')},
           jsonb_build_object('movementId', m.id, 'amount', m.amount, 'currency', m.currency, 'rate', x.rate,
                              'amountHkd', round(m.amount / x.rate, 2), 'thresholdHkd', s.min_cash_io,
                              'method', m.method, 'occurredAt', ${hkTime('m.occurred_at')})
      from money_movement m
      join customer c on c.id = m.customer_id
      join staff s on s.id = c.staff_id
      cross join lateral (select ${rateOn('m.currency', hkDate('m.occurred_at'))} as rate) x
     where m.direction = '${direction}'
       and m.occurred_at >= ${hkDayStart(`${AS_OF} - ${T.movementLookbackDays}`)}
       and m.occurred_at < ${hkDayStart(`${AS_OF} + 1`)}
       and ${LIVE} and ${scope}
       and m.amount / x.rate >= s.min_cash_io`,
});

const transferRule = (rule: 'transfer_in' | 'transfer_out', direction: 'in' | 'out'): MotRuleDefinition => ({
  rule,
  select: (scope) => `
    select c.name_en, c.corp_id, '${rule}', c.id, c.staff_id, t.id::text, ${hkDate('t.occurred_at')},
           jsonb_build_object('transferId', t.id, 'symbol', sec.symbol, 'securityNameCn', sec.name_cn, 'securityNameEn', sec.name_en,
                              'quantity', t.quantity, 'counterparty', t.counterparty, 'currency', sec.currency, 'lastPrice', sec.last_price,
                              'valueHkd', round(t.quantity * sec.last_price / x.rate, 2), 'occurredAt', ${hkTime('t.occurred_at')})
      from stock_transfer t
      join customer c on c.id = t.customer_id
      join security sec on sec.id = t.security_id
      cross join lateral (select ${rateOn('sec.currency', AS_OF)} as rate) x
     where t.direction = '${direction}'
       and t.occurred_at >= ${hkDayStart(`${AS_OF} - ${T.movementLookbackDays}`)}
       and t.occurred_at < ${hkDayStart(`${AS_OF} + 1`)}
       and ${LIVE} and ${scope}`,
});

const expiryRule = (rule: 'id_expiry' | 'risk_expiry', expiry: string, extraFacts: string): MotRuleDefinition => ({
  rule,
  select: (scope) => `
    select c.name_en, c.corp_id, '${rule}', c.id, c.staff_id, e.expiry::text, ${AS_OF},
           jsonb_build_object('expiryDate', e.expiry, 'daysToExpiry', e.expiry - ${AS_OF}, 'lookaheadDays', ${T.expiryLookaheadDays}${extraFacts})
      from customer c
      cross join lateral (select ${expiry} as expiry) e
     where ${LIVE} and ${scope}
       and e.expiry between ${AS_OF} - ${T.expiryLookbackDays} and ${AS_OF} + ${T.expiryLookaheadDays}`,
});

export const MOT_RULE_DEFINITIONS: readonly MotRuleDefinition[] = [
  yearlyRule('birthday', 'birthday', T.birthdayLookaheadDays, 0, 'birthday'),
  largeMoneyRule('large_deposit', 'deposit'),
  largeMoneyRule('large_withdrawal', 'withdrawal'),
  transferRule('transfer_in', 'in'),
  transferRule('transfer_out', 'out'),
  {
    rule: 'dormant',
    // Fires when a client *becomes* dormant (within the look-back), not for every client long gone quiet.
    // Fact: the last trade day (or `never`), so a client who trades again and goes quiet again fires again.
    select: (scope) => `
      select c.name_en, c.corp_id, 'dormant', c.id, c.staff_id, coalesce(c.last_trade_date::text, 'never'), ${AS_OF},
             jsonb_build_object('lastTradeDate', c.last_trade_date, 'openDate', c.open_date,
                                'daysWithoutTrade', ${AS_OF} - coalesce(c.last_trade_date, c.open_date), 'dormantDays', ${T.dormantDays})
        from customer c
       where ${LIVE} and ${scope}
         and coalesce(c.last_trade_date, c.open_date) between ${AS_OF} - ${T.dormantDays + T.dormantLookbackDays} and ${AS_OF} - ${T.dormantDays}`,
  },
  {
    rule: 'position_loss',
    // Fact: security and month, so a loss that lasts is raised at most once a month, not daily.
    select: (scope) => `
      select c.name_en, c.corp_id, 'position_loss', c.id, c.staff_id, p.symbol || '@' || to_char(${AS_OF}, 'YYYY-MM'), ${AS_OF},
             jsonb_build_object('symbol', p.symbol, 'securityNameCn', p.name_cn, 'securityNameEn', p.name_en, 'currency', p.currency,
                                'quantity', p.quantity, 'avgCost', round(p.avg_cost, 4), 'lastPrice', p.last_price, 'priceDate', p.price_date,
                                'lossPct', round(p.loss_pct, 2), 'lossHkd', round(p.loss_hkd, 2),
                                'minLossPct', ${T.positionLossPct}, 'minLossHkd', ${T.positionLossMinHkd})
        from (
          select q.*, (q.avg_cost - q.last_price) / q.avg_cost * 100 as loss_pct,
                 (q.avg_cost - q.last_price) * q.quantity / r.rate as loss_hkd
            from (
              select h.customer_id, sec.symbol, sec.name_cn, sec.name_en, sec.currency, sec.last_price, sec.price_date,
                     sum(h.quantity) as quantity, sum(h.quantity * h.avg_cost) / sum(h.quantity) as avg_cost
                -- Candidates first: a position's average cost is at most its dearest holding's, so
                -- only positions with a holding that far under water can qualify.
                from (select distinct hc.customer_id, hc.security_id
                        from holding hc join security sc on sc.id = hc.security_id
                       where hc.quantity > 0 and sc.last_price <= hc.avg_cost * ${(100 - T.positionLossPct) / 100}) k
                join holding h on h.customer_id = k.customer_id and h.security_id = k.security_id
                join security sec on sec.id = h.security_id
                join customer c on c.id = h.customer_id
               where h.quantity > 0 and ${LIVE} and ${scope}
               group by h.customer_id, sec.id
            ) q
            -- One rate per currency, not one lookup per position.
            -- (offset 0 keeps the planner from pulling the lookup up into every row.)
            join (select cur.currency, ${rateOn('cur.currency', AS_OF)} as rate from (select distinct currency from security) cur offset 0) r on r.currency = q.currency
           where q.avg_cost > 0 and q.last_price <= q.avg_cost * ${(100 - T.positionLossPct) / 100}
        ) p
        join customer c on c.id = p.customer_id
       where p.loss_hkd >= ${T.positionLossMinHkd}`,
  },
  {
    rule: 'unfunded',
    select: (scope) => `
      select c.name_en, c.corp_id, 'unfunded', c.id, c.staff_id, c.open_date::text, ${AS_OF},
             jsonb_build_object('openDate', c.open_date, 'daysSinceOpen', ${AS_OF} - c.open_date, 'afterDays', ${T.unfundedAfterDays})
        from customer c
       where ${LIVE} and ${scope}
         and c.open_date between ${AS_OF} - ${T.unfundedMaxAgeDays} and ${AS_OF} - ${T.unfundedAfterDays}
         and not exists (select 1 from money_movement m where m.customer_id = c.id and m.direction = 'deposit')
         and not exists (select 1 from stock_transfer t where t.customer_id = c.id and t.direction = 'in')`,
  },
  yearlyRule('anniversary', 'open_date', T.anniversaryLookaheadDays, 1, 'openDate'),
  expiryRule('id_expiry', 'c.id_doc_expiry', `, 'idDocType', c.id_doc_type`),
  expiryRule(
    'risk_expiry',
    `(c.risk_assessed_on + make_interval(years => ${T.riskAssessmentValidYears}))::date`,
    `, 'assessedOn', c.risk_assessed_on, 'riskLevel', c.risk_level, 'validYears', ${T.riskAssessmentValidYears}`,
  ),
];
