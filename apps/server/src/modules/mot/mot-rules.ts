import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { MotRule } from '@broker/contract';
import {
  auditLog,
  customers,
  exchangeRates,
  holdings,
  moneyMovements,
  motEvents,
  securities,
  staff,
  stockTransfers,
  trades,
} from '../../db/schema';
import { tableAlias, tableAs } from '../../db/sql-rows';
import { MOT_THRESHOLDS as T } from './mot-thresholds';

/**
 * Each rule is one set-based SELECT of the `mot_event` rows it wants (the columns in `insertMotEvents`' order);
 * the engine inserts them ON CONFLICT DO NOTHING, so a fact fires once however often and wherever the rules run.
 * What each rule means: docs/mot.md. `scope` is a predicate on `c` or `true`; thresholds are inlined.
 */
export interface MotRuleDefinition {
  rule: MotRule;
  select(on: { asOf: SQL; scope: SQL }): SQL;
}

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
const al = tableAlias(auditLog, 'al');
const actor = tableAlias(staff, 'actor');
const pe = tableAlias(motEvents, 'pe');
const tr = tableAlias(trades, 'tr');
const tp = tableAlias(trades, 'tp');
const sp = tableAlias(securities, 'sp');

/** Inlined into the text (thresholds, rule names), as the rules always had them. */
const literal = (value: number | string) => {
  if (typeof value === 'number') return sql.raw(String(value));
  if (!/^[a-zA-Z_]+$/.test(value)) throw new Error(`not a rule constant: ${value}`);
  return sql.raw(`'${value}'`);
};

const LIVE = sql`${c.status} <> 'closed'`;
const hkDate = (column: AnyColumn | SQL) => sql`(${column} at time zone 'Asia/Hong_Kong')::date`;
const hkDayStart = (day: SQL) => sql`((${day})::timestamp at time zone 'Asia/Hong_Kong')`;
const hkTime = (column: AnyColumn) => sql`to_char(${column} at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI')`;
/** Within the movement look-back, to the end of the as-of day. */
const inLookback = (column: AnyColumn, asOf: SQL) => sql`${column} >= ${hkDayStart(sql`${asOf} - ${literal(T.movementLookbackDays)}`)}
  and ${column} < ${hkDayStart(sql`${asOf} + 1`)}`;
/** A large cash movement's facts; the statement joins its rate as `x`. */
const movementFacts = sql`'movementId', ${m.id}, 'amount', ${m.amount}, 'currency', ${m.currency}, 'rate', x.rate,
  'amountHkd', round(${m.amount} / x.rate, 2), 'thresholdHkd', ${s.minCashIo},
  'method', ${m.method}, 'occurredAt', ${hkTime(m.occurredAt)}`;
/** The name first: the to-do list's sort key (migration 0009). */
const firedFor = (rule: MotRule) => sql`${c.nameEn}, ${c.corpId}, ${literal(rule)}, ${c.id}, ${c.staffId}`;

/** On or after the as-of day; Feb 29 falls on Feb 28 in other years. */
const nextYearly = (column: AnyColumn, asOf: SQL) => {
  const yearsThisYear = sql`(extract(year from ${asOf}) - extract(year from ${column}))::int`;
  const thisYear = sql`(${column} + make_interval(years => ${yearsThisYear}))::date`;
  return sql`case when ${thisYear} >= ${asOf} then ${thisYear} else (${column} + make_interval(years => ${yearsThisYear} + 1))::date end`;
};

/** The newest rate on or before `day`, else the newest; 1 for HKD. */
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
           jsonb_build_object(${movementFacts})
      from ${tableAs(m)}
      join ${tableAs(c)} on ${c.id} = ${m.customerId}
      join ${tableAs(s)} on ${s.id} = ${c.staffId}
      cross join lateral (select ${rateOn(m.currency, hkDate(m.occurredAt))} as rate) x
     where ${m.direction} = ${literal(direction)}
       and ${inLookback(m.occurredAt, asOf)}
       and ${LIVE} and ${scope}
       and ${m.amount} / x.rate >= ${s.minCashIo}`,
});

const transferRule = (rule: 'transfer_in' | 'transfer_out', direction: 'in' | 'out'): MotRuleDefinition => ({
  rule,
  select: ({ asOf, scope }) => sql`
    select ${firedFor(rule)}, ${t.id}::text, ${hkDate(t.occurredAt)},
           jsonb_build_object('transferId', ${t.id}, 'symbol', ${sec.symbol}, 'securityNameCn', ${sec.nameCn}, 'securityNameHk', ${sec.nameHk}, 'securityNameEn', ${sec.nameEn},
                              'quantity', ${t.quantity}, 'counterparty', ${t.counterparty}, 'currency', ${sec.currency}, 'lastPrice', ${sec.lastPrice},
                              'valueHkd', round(${t.quantity} * ${sec.lastPrice} / x.rate, 2), 'occurredAt', ${hkTime(t.occurredAt)})
      from ${tableAs(t)}
      join ${tableAs(c)} on ${c.id} = ${t.customerId}
      join ${tableAs(sec)} on ${sec.id} = ${t.securityId}
      cross join lateral (select ${rateOn(sec.currency, asOf)} as rate) x
     where ${t.direction} = ${literal(direction)}
       and ${inLookback(t.occurredAt, asOf)}
       and ${LIVE} and ${scope}`,
});

/**
 * Two warnings per expiry (ADR 0043) from one scan: the first, and a final one (`<expiry>@7d`) only if the first
 * came earlier than the last week (a first within it already is the last week's).
 */
const expiryRule = (rule: 'id_expiry' | 'risk_expiry', expiry: SQL, extraFacts: SQL): MotRuleDefinition => ({
  rule,
  select: ({ asOf, scope }) => sql`
    select ${firedFor(rule)}, w.fact_key, ${asOf},
           jsonb_build_object('expiryDate', e.expiry, 'daysToExpiry', e.expiry - ${asOf}, 'lookaheadDays', w.lookahead_days${extraFacts})
             || case when w.is_final then jsonb_build_object('warning', 'final') else '{}'::jsonb end
      from ${tableAs(c)}
      cross join lateral (select ${expiry} as expiry) e
      cross join lateral (values (e.expiry::text, ${literal(T.expiryLookaheadDays)}, false),
                                 (e.expiry::text || '@' || ${literal(T.expiryFinalWarningDays)} || 'd', ${literal(T.expiryFinalWarningDays)}, true))
                         w (fact_key, lookahead_days, is_final)
     where ${LIVE} and ${scope}
       and e.expiry between ${asOf} - ${literal(T.expiryLookbackDays)} and ${asOf} + ${literal(T.expiryLookaheadDays)}
       and (not w.is_final
            or (e.expiry between ${asOf} and ${asOf} + ${literal(T.expiryFinalWarningDays)}
                and exists (select 1 from ${tableAs(pe)}
                             where ${pe.rule} = ${literal(rule)} and ${pe.customerId} = ${c.id} and ${pe.factKey} = e.expiry::text
                               and ${pe.dueDate} < e.expiry - ${literal(T.expiryFinalWarningDays)})))`,
});

/** Re-run when the manager's large cash threshold changes (setMinCashIO). */
export const CASH_THRESHOLD_RULES: readonly MotRule[] = [
  'large_deposit',
  'large_withdrawal',
  'particulars_changed_withdrawal',
  'vulnerable_client',
];

/** The loss threshold as a price ratio. */
const LOSS_PRICE_RATIO = literal((100 - T.positionLossPct) / 100);

export const MOT_RULE_DEFINITIONS: readonly MotRuleDefinition[] = [
  yearlyRule('birthday', c.birthday, T.birthdayLookaheadDays, 0, 'birthday'),
  largeMoneyRule('large_deposit', 'deposit'),
  largeMoneyRule('large_withdrawal', 'withdrawal'),
  transferRule('transfer_in', 'in'),
  transferRule('transfer_out', 'out'),
  {
    rule: 'dormant',
    // Fires when a client *becomes* dormant; the fact is the last trade day, so going quiet again fires again.
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
    // Fact: security and month, so a lasting loss is raised at most monthly. `p`, `q`, `k`, `r`, `cur` are this statement's own.
    select: ({ asOf, scope }) => sql`
      select ${firedFor('position_loss')}, p.symbol || '@' || to_char(${asOf}, 'YYYY-MM'), ${asOf},
             jsonb_build_object('symbol', p.symbol, 'securityNameCn', p.name_cn, 'securityNameHk', p.name_hk, 'securityNameEn', p.name_en, 'currency', p.currency,
                                'quantity', p.quantity, 'avgCost', round(p.avg_cost, 4), 'lastPrice', p.last_price, 'priceDate', p.price_date,
                                'lossPct', round(p.loss_pct, 2), 'lossHkd', round(p.loss_hkd, 2),
                                'minLossPct', ${literal(T.positionLossPct)}, 'minLossHkd', ${literal(T.positionLossMinHkd)})
        from (
          select q.*, (q.avg_cost - q.last_price) / q.avg_cost * 100 as loss_pct,
                 (q.avg_cost - q.last_price) * q.quantity / r.rate as loss_hkd
            from (
              select ${h.customerId}, ${sec.symbol}, ${sec.nameCn}, ${sec.nameHk}, ${sec.nameEn}, ${sec.currency}, ${sec.lastPrice}, ${sec.priceDate},
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
  {
    rule: 'negative_equity',
    // A state, not an event: raised again only when none is pending and the last is `negativeEquityRepeatDays` old.
    // customer_negative_equity_idx (migration 0027) holds just these clients.
    select: ({ asOf, scope }) => sql`
      select ${firedFor('negative_equity')}, ${asOf}::text, ${asOf},
             jsonb_build_object('netAssetsHkd', ${c.totalAssetsHkd}, 'cashHkd', ${c.cashHkd}, 'marketValueHkd', ${c.marketValueHkd},
                                'shortfallHkd', -${c.totalAssetsHkd}, 'repeatDays', ${literal(T.negativeEquityRepeatDays)})
        from ${tableAs(c)}
       where ${c.totalAssetsHkd} < 0 and ${LIVE} and ${scope}
         and not exists (select 1 from ${tableAs(pe)}
                          where ${pe.rule} = 'negative_equity' and ${pe.customerId} = ${c.id}
                            and (${pe.status} <> 'handled' or ${pe.dueDate} > ${asOf} - ${literal(T.negativeEquityRepeatDays)}))`,
  },
  {
    rule: 'concentration',
    // A margin loan is not netted (negative_equity's question); only clients whose market value reaches the minimum are read.
    select: ({ asOf, scope }) => sql`
      select ${firedFor('concentration')}, p.symbol || '@' || to_char(${asOf}, 'YYYY-"Q"Q'), ${asOf},
             jsonb_build_object('symbol', p.symbol, 'securityNameCn', p.name_cn, 'securityNameHk', p.name_hk, 'securityNameEn', p.name_en, 'currency', p.currency,
                                'quantity', p.quantity, 'lastPrice', p.last_price, 'priceDate', p.price_date,
                                'positionHkd', round(p.value_hkd, 2), 'assetsHkd', a.assets_hkd,
                                'sharePct', round(p.value_hkd * 100 / a.assets_hkd, 2),
                                'minSharePct', ${literal(T.concentrationMinSharePct)}, 'minPositionHkd', ${literal(T.concentrationMinPositionHkd)})
        from (
          select ${h.customerId}, ${sec.symbol}, ${sec.nameCn}, ${sec.nameHk}, ${sec.nameEn}, ${sec.currency}, ${sec.lastPrice}, ${sec.priceDate},
                 sum(${h.quantity}) as quantity, sum(${h.quantity}) * ${sec.lastPrice} / r.rate as value_hkd
            from ${tableAs(c)}
            join ${tableAs(h)} on ${h.customerId} = ${c.id}
            join ${tableAs(sec)} on ${sec.id} = ${h.securityId}
            -- One rate per currency (as position_loss; offset 0 keeps the lookup from being pulled into every row).
            join (select cur.currency, ${rateOn(sql`cur.currency`, asOf)} as rate from (select distinct ${securities.currency} from ${securities}) cur offset 0) r
              on r.currency = ${sec.currency}
           where ${c.marketValueHkd} >= ${literal(T.concentrationMinPositionHkd)} and ${LIVE} and ${scope} and ${h.quantity} > 0
           group by ${h.customerId}, ${sec.id}, r.rate
        ) p
        join ${tableAs(c)} on ${c.id} = p.customer_id
        cross join lateral (select ${c.marketValueHkd} + greatest(${c.cashHkd}, 0) as assets_hkd) a
       where p.value_hkd >= ${literal(T.concentrationMinPositionHkd)} and a.assets_hkd > 0
         and p.value_hkd * 100 > a.assets_hkd * ${literal(T.concentrationMinSharePct)}`,
  },
  {
    rule: 'particulars_changed_withdrawal',
    // Driven by the recent large withdrawals; each looks its client's edits up in audit_log_entity_idx. The fields
    // are named, never their values.
    select: ({ asOf, scope }) => sql`
      select ${firedFor('particulars_changed_withdrawal')}, ${m.id}::text, ${hkDate(m.occurredAt)},
             jsonb_build_object(${movementFacts},
                                'changedFields', p.fields, 'changedAt', to_char(p.changed_at at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
                                'changedBy', p.changed_by, 'daysBetween', ${hkDate(m.occurredAt)} - (p.changed_at at time zone 'Asia/Hong_Kong')::date,
                                'withinDays', ${literal(T.particularsChangeWithinDays)})
        from ${tableAs(m)}
        join ${tableAs(c)} on ${c.id} = ${m.customerId}
        join ${tableAs(s)} on ${s.id} = ${c.staffId}
        cross join lateral (select ${rateOn(m.currency, hkDate(m.occurredAt))} as rate) x
        cross join lateral (
          -- The latest qualifying edit before the withdrawal, and every particular changed in the window.
          select max(${al.at}) as changed_at, string_agg(distinct k.field, ',' order by k.field) as fields,
                 (array_agg(${actor.name} order by ${al.at} desc))[1] as changed_by
            from ${tableAs(al)}
            cross join lateral jsonb_object_keys(coalesce(${al.after}, '{}'::jsonb)) k (field)
            left join ${tableAs(actor)} on ${actor.id} = ${al.actorStaffId}
           where ${al.entity} = 'customer' and ${al.entityId} = ${c.id}::text
             and ${al.at} >= ${hkDayStart(sql`${hkDate(m.occurredAt)} - ${literal(T.particularsChangeWithinDays)}`)}
             and ${al.at} <= ${m.occurredAt}
             and ${al.action} = 'customer.update'
             and k.field in (${sql.join(T.particularsFields.map(literal), sql`, `)})
        ) p
       where ${m.direction} = 'withdrawal'
         and ${inLookback(m.occurredAt, asOf)}
         and ${LIVE} and ${scope}
         and ${m.amount} / x.rate >= ${s.minCashIo}
         and p.changed_at is not null`,
  },
  {
    rule: 'vulnerable_client',
    // One scan of `customer` by age; each elderly client's recent movements and trades are index ranges.
    select: ({ asOf, scope }) => sql`
      select ${firedFor('vulnerable_client')}, v.fact_key, v.due_date,
             v.facts || jsonb_build_object('age', g.age, 'minAge', ${literal(T.vulnerableMinAge)})
        from ${tableAs(c)}
        join ${tableAs(s)} on ${s.id} = ${c.staffId}
        cross join lateral (select extract(year from age(${asOf}::timestamp, ${c.birthday}::timestamp))::int as age) g
        cross join lateral (
          select 'withdrawal:' || ${m.id}, ${hkDate(m.occurredAt)},
                 jsonb_build_object('trigger', 'withdrawal', ${movementFacts})
            from ${tableAs(m)}
            cross join lateral (select ${rateOn(m.currency, hkDate(m.occurredAt))} as rate) x
           where ${m.customerId} = ${c.id} and ${m.direction} = 'withdrawal'
             and ${inLookback(m.occurredAt, asOf)}
             and ${m.amount} / x.rate >= ${s.minCashIo}
          union all
          select 'market:' || f.market, ${hkDate(sql`f.traded_at`)},
                 jsonb_build_object('trigger', 'new_market', 'market', f.market, 'tradeId', f.id, 'symbol', f.symbol,
                                    'securityNameCn', f.name_cn, 'securityNameHk', f.name_hk, 'securityNameEn', f.name_en, 'side', f.side, 'quantity', f.quantity,
                                    'occurredAt', to_char(f.traded_at at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
                                    'previousMarkets', coalesce((select string_agg(distinct ${sp.market}, ',' order by ${sp.market})
                                                                   from ${tableAs(tp)} join ${tableAs(sp)} on ${sp.id} = ${tp.securityId}
                                                                  where ${tp.customerId} = ${c.id} and ${tp.tradedAt} < f.traded_at), ''))
            from (
              -- The client's first trade of the look-back in each market.
              select distinct on (${sec.market}) ${tr.id}, ${tr.tradedAt}, ${tr.side}, ${tr.quantity}, ${sec.market}, ${sec.symbol}, ${sec.nameCn}, ${sec.nameHk}, ${sec.nameEn}
                from ${tableAs(tr)} join ${tableAs(sec)} on ${sec.id} = ${tr.securityId}
               where ${tr.customerId} = ${c.id}
                 and ${inLookback(tr.tradedAt, asOf)}
               order by ${sec.market}, ${tr.tradedAt}, ${tr.id}
            ) f
           where not exists (select 1 from ${tableAs(tp)} join ${tableAs(sp)} on ${sp.id} = ${tp.securityId}
                              where ${tp.customerId} = ${c.id} and ${tp.tradedAt} < f.traded_at and ${sp.market} = f.market)
        ) v (fact_key, due_date, facts)
       where ${LIVE} and ${scope}
         and ${c.birthday} <= (${asOf} - make_interval(years => ${literal(T.vulnerableMinAge)}))::date`,
  },
];
