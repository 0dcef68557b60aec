import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import { rowsQuery, selectRowSets, selectRows, tableAlias, tableAs } from '../../db/sql-rows';
import { contactRecords, customers, motEvents, staff } from '../../db/schema';
import { hkDayStart, pending } from './mot.repository';
import type { MotRankWeights } from '../../mot-rank-config';

/**
 * The ranked "today" list (issue 24 part 1, ADR 0041). An event's score is
 *
 *   typeWeight(rule) × tierFactor(client's total assets) × overdueFactor(days past due) × contactFactor(days since the last contact record)
 *
 * computed in SQL, so one statement picks a page of the ranked day and the sorting and paging stay in the
 * database. The weights are per corp (`src/mot-rank-config.ts`).
 */

const e = tableAlias(motEvents, 'e');
const c = tableAlias(customers, 'c');
const r = tableAlias(contactRecords, 'r');
const s = tableAlias(staff, 's');

/** A float8 array parameter, as text: both drivers pass a string the same way. */
const float8Array = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::float8[]`;

/**
 * The four factors and the score of the event `e` of the customer `c`, as of `today`; `lc.last_served` is the
 * customer's latest contact record. Every weight is a parameter, so every corp shares one prepared statement.
 */
function rankColumns(weights: MotRankWeights, today: string) {
  const typeWeight = sql`coalesce((${JSON.stringify(weights.typeWeights)}::jsonb ->> ${e.rule})::float8, 1)`;
  // width_bucket counts the thresholds at or below the assets: the tier's 1-based index (negative assets: tier 1).
  const tier = sql`greatest(width_bucket(${c.totalAssetsHkd}::float8, ${float8Array(weights.tiers.map((t) => t.minAssetsHkd))}), 1)`;
  const tierFactor = sql`(${float8Array(weights.tiers.map((t) => t.factor))})[${tier}]`;
  const overdueDays = sql`greatest(${today}::date - ${e.dueDate}, 0)`;
  const overdueFactor = sql`(1 + ${weights.overduePerDay}::float8 * least(${overdueDays}, ${weights.overdueCapDays}::int))`;
  const daysSinceContact = sql`(${today}::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date)`;
  const contactCap = sql`${weights.contactCapDays}::int`;
  const contactFactor = sql`(1 + ${weights.contactPerDay}::float8 * least(greatest(coalesce(${daysSinceContact}, ${contactCap}), 0), ${contactCap}))`;
  const score = sql`(${typeWeight} * ${tierFactor} * ${overdueFactor} * ${contactFactor})`;
  return {
    score,
    list: sql`${score} as score, ${typeWeight} as type_weight, ${tier}::int as tier, ${tierFactor} as tier_factor,
      ${c.totalAssetsHkd}::float8 as total_assets_hkd, ${overdueDays}::int as overdue_days, ${overdueFactor} as overdue_factor,
      ${daysSinceContact}::int as days_since_contact, ${contactFactor} as contact_factor,
      ${e.createdAt} >= ${hkDayStart(today)} as raised_today`,
  };
}

/** The customer's latest contact record (as it stands now), read from contact_record_customer_latest_idx: `lc`. */
const lastContact = sql`cross join lateral (select max(${r.servedAt}) as last_served from ${tableAs(r)}
  where ${r.customerId} = ${e.customerId} and ${r.supersededBy} is null) lc`;

/** The rank's fields as they come out of SQL (snake case, as `rankColumns` names them). */
interface RankSqlRow {
  score: number;
  type_weight: number;
  tier: number;
  tier_factor: number;
  total_assets_hkd: number;
  overdue_days: number;
  overdue_factor: number;
  days_since_contact: number | null;
  contact_factor: number;
  raised_today: boolean;
}
export const toRank = (row: RankSqlRow) => ({
  score: row.score,
  typeWeight: row.type_weight,
  tier: row.tier,
  tierFactor: row.tier_factor,
  totalAssetsHkd: row.total_assets_hkd,
  overdueDays: row.overdue_days,
  overdueFactor: row.overdue_factor,
  daysSinceContact: row.days_since_contact,
  contactFactor: row.contact_factor,
  raisedToday: row.raised_today,
});

export interface RankedSqlRow extends RankSqlRow {
  customerId: number;
  customerNo: string;
  nameCn: string;
  nameEn: string;
  phone: string | null;
  eventId: number;
  rule: string;
  status: string;
  dueDate: string;
  facts: Record<string, string | number | boolean | null>;
  snoozed: boolean;
}

export function createMotRankRepository(db: Database) {
  return {
    /**
     * One page of the caller's ranked day, the day's counts by type and what they handled today, in one
     * statement. Today = pending and (due on or before today, or raised today and not put off since).
     */
    async rankedPage(
      scope: StaffScope,
      weights: MotRankWeights,
      input: { today: string; rule?: string | undefined; pageNum: number; pageSize: number },
    ) {
      // The caller's pending events (`e`, with their staff row `s` for the threshold `pending` applies) of today.
      const ownEvents = sql`${tableAs(e)} join ${tableAs(s)} on ${s.id} = ${scope.staffId}`;
      const ofToday = sql`${e.staffId} = ${scope.staffId} and ${e.corpId} = ${scope.corpId} and ${pending}
        and (${e.dueDate} <= ${input.today}::date or (${e.createdAt} >= ${hkDayStart(input.today)} and ${e.snoozedAt} is null))`;
      const ruleFilter = input.rule ? sql`and ${e.rule} = ${input.rule}` : sql``;
      const rank = rankColumns(weights, input.today);
      const { rows, byRule, handled } = await selectRowSets(
        db,
        {
          rows: rowsQuery<RankedSqlRow>(
            sql`select ${c.id}::float8 as "customerId", ${c.customerNo} as "customerNo", ${c.nameCn} as "nameCn", ${c.nameEn} as "nameEn",
                       ${c.phone} as phone, ${e.id}::float8 as "eventId", ${e.rule} as rule, ${e.status} as status,
                       ${e.dueDate}::text as "dueDate", ${e.facts} as facts, ${e.snoozedAt} is not null as snoozed, ${rank.list}
                  from ${ownEvents}
                  join ${tableAs(c)} on ${c.id} = ${e.customerId}
                  ${lastContact}
                 where ${ofToday} ${ruleFilter}
                 order by ${rank.score} desc, ${e.dueDate}, ${e.id}
                 limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`,
          ),
          byRule: rowsQuery<{ rule: string; count: number }>(
            sql`select ${e.rule} as rule, count(*)::int as count from ${ownEvents} where ${ofToday} group by ${e.rule} order by ${e.rule}`,
          ),
          handled: rowsQuery<{ count: number }>(
            sql`select count(*)::int as count from ${motEvents}
                 where ${motEvents.staffId} = ${scope.staffId} and ${motEvents.corpId} = ${scope.corpId}
                   and ${motEvents.status} = 'handled' and ${motEvents.handledAt} >= ${hkDayStart(input.today)}`,
          ),
        },
        { prepare: true },
      );
      return { rows, byRule, handled: handled[0]?.count ?? 0 };
    },

    /** One pending event's rank as of today (none once handled). The caller has checked the event is theirs. */
    async eventRank(corpId: number, eventId: number, weights: MotRankWeights, today: string) {
      const rank = rankColumns(weights, today);
      const [row] = await selectRows(
        db,
        rowsQuery<RankSqlRow>(
          sql`select ${rank.list} from ${tableAs(e)} join ${tableAs(c)} on ${c.id} = ${e.customerId} ${lastContact}
               where ${e.corpId} = ${corpId} and ${e.id} = ${eventId} and ${e.status} <> 'handled'`,
        ),
        { prepare: true },
      );
      return row ? toRank(row) : null;
    },
  };
}

export type MotRankRepository = ReturnType<typeof createMotRankRepository>;
