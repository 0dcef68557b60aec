import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { MotRankedRow } from '@broker/contract';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import { hkDayStart, rowsQuery, selectRowSets, selectRows, tableAlias, tableAs } from '../../db/sql-rows';
import { contactRecords, customers, motEvents, motRankVersion, staff, staffBookVersion } from '../../db/schema';
import { pending } from './mot.repository';
import type { MotRankWeights } from '../../mot-rank-config';

/**
 * The ranked "today" list (ADR 0041): score = typeWeight × tierFactor(assets) × overdueFactor × contactFactor,
 * computed in SQL so the database sorts and pages. Weights are per corp (`src/mot-rank-config.ts`).
 */

const e = tableAlias(motEvents, 'e');
const c = tableAlias(customers, 'c');
const r = tableAlias(contactRecords, 'r');
const s = tableAlias(staff, 's');
const rv = tableAlias(motRankVersion, 'rv');
const bv = tableAlias(staffBookVersion, 'bv');

/** As text: both drivers pass a string the same way. */
const float8Array = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::float8[]`;

/** Every weight is a parameter, so every corp shares one prepared statement; `lc`: the latest contact. */
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

/** From contact_record_customer_latest_idx. */
const lastContact = sql`cross join lateral (select max(${r.servedAt}) as last_served from ${tableAs(r)}
  where ${r.customerId} = ${e.customerId} and ${r.supersededBy} is null) lc`;

/** The one order of events by importance (score, earliest due, oldest): the ranked day and the WeCom cards (ADR 0042). */
export function eventRanking(weights: MotRankWeights, today: string) {
  const rank = rankColumns(weights, today);
  return {
    e,
    c,
    rank,
    joins: sql`join ${tableAs(c)} on ${c.id} = ${e.customerId}
      ${lastContact}`,
    order: sql`${rank.score} desc, ${e.dueDate}, ${e.id}`,
  };
}

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

/** The contract's ranked row flat, as stored: the phone in full, the rule and status as text. */
export type RankedSqlRow = RankSqlRow &
  Omit<MotRankedRow, 'phone' | 'position' | 'event' | 'rank'> &
  Omit<MotRankedRow['event'], 'rule' | 'status'> & { phone: string | null; rule: string; status: string };

interface RankedDay {
  stamp: string;
  rows: RankedSqlRow[];
  /** Computed once with the day, not per page. */
  byRule: Map<string, RankedSqlRow[]>;
  counts: { rule: string; count: number }[];
}

function rankedDay(stamp: string, rows: RankedSqlRow[]): RankedDay {
  const byRule = new Map<string, RankedSqlRow[]>();
  for (const row of rows) {
    const ofRule = byRule.get(row.rule);
    if (ofRule) ofRule.push(row);
    else byRule.set(row.rule, [row]);
  }
  const counts = [...byRule].map(([rule, ofRule]) => ({ rule, count: ofRule.length })).sort((a, b) => (a.rule < b.rule ? -1 : 1));
  return { stamp, rows, byRule, counts };
}

/** Least recently used out beyond this many event rows in all (~1 KB each). */
const RANKED_DAY_MAX_ROWS = 200_000;

/** Their events' and book's versions, and today's handled count. */
const dayStateOf = (scope: StaffScope, today: string) =>
  rowsQuery<{ rankVersion: string; bookVersion: string; handled: number }>(
    sql`select coalesce((select ${rv.version} from ${tableAs(rv)} where ${rv.corpId} = ${scope.corpId} and ${rv.staffId} = ${scope.staffId}), 0)::text as "rankVersion",
               coalesce((select ${bv.version} from ${tableAs(bv)} where ${bv.corpId} = ${scope.corpId} and ${bv.staffId} = ${scope.staffId}), 0)::text as "bookVersion",
               (select count(*)::int from ${motEvents}
                 where ${motEvents.staffId} = ${scope.staffId} and ${motEvents.corpId} = ${scope.corpId}
                   and ${motEvents.status} = 'handled' and ${motEvents.handledAt} >= ${hkDayStart(today)}) as handled`,
  );

const stampOf = (today: string, weights: MotRankWeights, state: { rankVersion: string; bookVersion: string }) =>
  `${today}|${state.rankVersion}|${state.bookVersion}|${JSON.stringify(weights)}`;

export function createMotRankRepository(db: Database) {
  const days = new LRUCache<string, RankedDay>({ maxSize: RANKED_DAY_MAX_ROWS, sizeCalculation: (day) => Math.max(1, day.rows.length) });
  /** Concurrent first views share one computation. */
  const computing = new Map<string, { stamp: string; day: Promise<RankedDay> }>();

  /**
   * The versions are read in the same statement, so a write committed meanwhile makes it another stamp's day.
   * Today = pending and (due by today, or raised today and not put off since).
   */
  async function computeDay(scope: StaffScope, weights: MotRankWeights, today: string): Promise<RankedDay> {
    const ownEvents = sql`${tableAs(e)} join ${tableAs(s)} on ${s.id} = ${scope.staffId}`;
    const ofToday = sql`${e.staffId} = ${scope.staffId} and ${e.corpId} = ${scope.corpId} and ${pending}
      and (${e.dueDate} <= ${today}::date or (${e.createdAt} >= ${hkDayStart(today)} and ${e.snoozedAt} is null))`;
    const { rank, joins, order } = eventRanking(weights, today);
    const { rows, state } = await selectRowSets(
      db,
      {
        rows: rowsQuery<RankedSqlRow>(
          sql`select ${c.id}::float8 as "customerId", ${c.customerNo} as "customerNo", ${c.nameCn} as "nameCn", ${c.nameEn} as "nameEn",
                     ${c.phone} as phone, ${e.id}::float8 as "eventId", ${e.rule} as rule, ${e.status} as status,
                     ${e.dueDate}::text as "dueDate", ${e.facts} as facts, ${e.snoozedAt} is not null as snoozed, ${rank.list}
                from ${ownEvents}
                ${joins}
               where ${ofToday}
               order by ${order}`,
        ),
        state: dayStateOf(scope, today),
      },
      { prepare: true },
    );
    return rankedDay(stampOf(today, weights, state[0]!), rows);
  }

  return {
    /** The day is scored once per change (ADR 0041): a page reads its versions and slices the day in memory. */
    async rankedPage(
      scope: StaffScope,
      weights: MotRankWeights,
      input: { today: string; rule?: string | undefined; pageNum: number; pageSize: number },
    ) {
      const [state] = await selectRows(db, dayStateOf(scope, input.today), { prepare: true });
      const key = `${scope.corpId}:${scope.staffId}`;
      const stamp = stampOf(input.today, weights, state!);
      let day = days.get(key);
      if (day?.stamp !== stamp) {
        let running = computing.get(key);
        if (running?.stamp !== stamp) {
          const promise = computeDay(scope, weights, input.today).finally(() => {
            if (computing.get(key)?.day === promise) computing.delete(key);
          });
          running = { stamp, day: promise };
          computing.set(key, running);
        }
        day = await running.day;
        days.set(key, day);
      }
      const listed = input.rule ? (day.byRule.get(input.rule) ?? []) : day.rows;
      const first = (input.pageNum - 1) * input.pageSize;
      return { rows: listed.slice(first, first + input.pageSize), byRule: day.counts, handled: state!.handled };
    },

    /** None once handled. The caller has checked the event is theirs. */
    async eventRank(corpId: number, eventId: number, weights: MotRankWeights, today: string) {
      const { rank, joins } = eventRanking(weights, today);
      const [row] = await selectRows(
        db,
        rowsQuery<RankSqlRow>(
          sql`select ${rank.list} from ${tableAs(e)} ${joins}
               where ${e.corpId} = ${corpId} and ${e.id} = ${eventId} and ${e.status} <> 'handled'`,
        ),
        { prepare: true },
      );
      return row ? toRank(row) : null;
    },
  };
}

export type MotRankRepository = ReturnType<typeof createMotRankRepository>;
