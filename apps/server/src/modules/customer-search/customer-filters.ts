import { sql, type SQL } from 'drizzle-orm';
import type { CustomerKeyword } from './customer-keyword';
import { keywordCondition, type KeywordUse } from './keyword-condition';
import { valueList } from '../../db/sql-rows';
import { b, bookSummaryB, c, k, kycBindingK } from './customer-tables';

/** A search in database terms: the caller's book, amounts already in HKD, the keyword already interpreted. */
export interface CustomerCriteria {
  corpId: number;
  staffId: number;
  keyword?: CustomerKeyword | undefined;
  channels?: string[] | undefined;
  statuses?: string[] | undefined;
  assetMinHkd?: number | undefined;
  assetMaxHkd?: number | undefined;
  openDateFrom?: string | undefined;
  openDateTo?: string | undefined;
  kycBound?: boolean | undefined;
  markets?: string[] | undefined;
  hasHolding?: boolean | undefined;
}

export interface GroupCodes {
  channel: string;
  status: string;
  kycBound: boolean;
  markets: readonly string[];
}

type CodeColumns = Pick<typeof c, 'channel' | 'status' | 'heldMarkets'> | Pick<typeof b, 'channel' | 'status' | 'heldMarkets'>;

/** Every filter of the client list, defined once: its SQL condition beside what it admits in the book index. */
const codeFilters = {
  channels: {
    sql: (values: string[], t: CodeColumns) => sql`${t.channel} in (${valueList(values)})`,
    admits: (values: string[], group: GroupCodes) => values.includes(group.channel),
  },
  statuses: {
    sql: (values: string[], t: CodeColumns) => sql`${t.status} in (${valueList(values)})`,
    admits: (values: string[], group: GroupCodes) => values.includes(group.status),
  },
  // held_markets (kept by refreshCustomerSummaries) answers both without reading holdings (ADR 0006).
  markets: {
    sql: (values: string[], t: CodeColumns) => sql`${t.heldMarkets} && array[${valueList(values)}]::text[]`,
    admits: (values: string[], group: GroupCodes) => group.markets.some((market) => values.includes(market)),
  },
  hasHolding: {
    sql: (has: boolean, t: CodeColumns) => (has ? sql`${t.heldMarkets} <> '{}'` : sql`${t.heldMarkets} = '{}'`),
    admits: (has: boolean, group: GroupCodes) => group.markets.length > 0 === has,
  },
  kycBound: {
    // An uncorrelated IN reads the corp's bindings once into a hash (a correlated NOT EXISTS was a nested loop).
    sql: (bound: boolean, _: CodeColumns, corpId: number) =>
      sql`${c.id} ${bound ? sql`` : sql`not`} in (select ${k.customerId} from ${kycBindingK} where ${k.corpId} = ${corpId})`,
    admits: (bound: boolean, group: GroupCodes) => group.kycBound === bound,
  },
} as const;

/** The range filters' bounds on the index's columns (whole cents, days as yyyymmdd); ±Infinity: none. */
export interface RangeBounds {
  minCents: number;
  maxCents: number;
  fromDay: number;
  toDay: number;
}

const rangeFilters = {
  assetMinHkd: { sql: (hkd: number) => sql`${c.totalAssetsHkd} >= ${hkd}`, bound: (hkd: number) => ({ minCents: boundCents(hkd, 'up') }) },
  assetMaxHkd: {
    sql: (hkd: number) => sql`${c.totalAssetsHkd} <= ${hkd}`,
    bound: (hkd: number) => ({ maxCents: boundCents(hkd, 'down') }),
  },
  openDateFrom: { sql: (day: string) => sql`${c.openDate} >= ${day}::date`, bound: (day: string) => ({ fromDay: dayKey(day) }) },
  openDateTo: { sql: (day: string) => sql`${c.openDate} <= ${day}::date`, bound: (day: string) => ({ toDay: dayKey(day) }) },
} as const;

type CodeFilter = keyof typeof codeFilters;
type RangeFilter = keyof typeof rangeFilters;
const CODE_FILTERS = Object.keys(codeFilters) as CodeFilter[];
const RANGE_FILTERS = Object.keys(rangeFilters) as RangeFilter[];

function setValue<F extends CodeFilter | RangeFilter>(criteria: CustomerCriteria, filter: F): CustomerCriteria[F] | undefined {
  const value = criteria[filter];
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0) ? undefined : value;
}

export const codeFiltersSet = (criteria: CustomerCriteria) => CODE_FILTERS.some((filter) => setValue(criteria, filter) !== undefined);

export function groupAdmitted(criteria: CustomerCriteria, group: GroupCodes): boolean {
  return CODE_FILTERS.every((filter) => {
    const value = setValue(criteria, filter);
    return value === undefined || (codeFilters[filter].admits as (value: unknown, group: GroupCodes) => boolean)(value, group);
  });
}

/** Undefined when a bound cannot be decided exactly in memory (SQL answers then). */
export function rangeBounds(criteria: CustomerCriteria): RangeBounds | undefined {
  const bounds: RangeBounds = { minCents: -Infinity, maxCents: Infinity, fromDay: -Infinity, toDay: Infinity };
  for (const filter of RANGE_FILTERS) {
    const value = setValue(criteria, filter);
    if (value === undefined) continue;
    const bound = (rangeFilters[filter].bound as (value: unknown) => Partial<Record<keyof RangeBounds, number | undefined>>)(value);
    for (const [name, at] of Object.entries(bound)) {
      if (at === undefined) return undefined;
      bounds[name as keyof RangeBounds] = at;
    }
  }
  return bounds;
}

/**
 * `scopeCorp: false` leaves the corp check to an outer query (which checks it on the rows it returns), so a
 * page of ids can be read from the (staff_id, sort column, id) indexes alone.
 */
export function customerWhere(criteria: CustomerCriteria, scopeCorp = true, keywordUse: KeywordUse = 'index'): SQL {
  // With every arm found through the book's own grams, staff_id is only checked: else the planner may read the
  // book from the staff indexes and run the gram functions on each row.
  const staff =
    keywordUse === 'index' && criteria.keyword?.foundThroughOwnArms
      ? sql`${c.staffId} + 0 = ${criteria.staffId}`
      : sql`${c.staffId} = ${criteria.staffId}`;
  const parts: SQL[] = [...(scopeCorp ? [sql`${c.corpId} = ${criteria.corpId}`] : []), staff];
  if (criteria.keyword) parts.push(keywordCondition(criteria.keyword, criteria, keywordUse));
  for (const filter of CODE_FILTERS) {
    const value = setValue(criteria, filter);
    if (value !== undefined)
      parts.push((codeFilters[filter].sql as (value: unknown, t: CodeColumns, corpId: number) => SQL)(value, c, criteria.corpId));
  }
  for (const filter of RANGE_FILTERS) {
    const value = setValue(criteria, filter);
    if (value !== undefined) parts.push((rangeFilters[filter].sql as (value: unknown) => SQL)(value));
  }
  if (CODE_FILTERS.some((filter) => filter !== 'kycBound' && setValue(criteria, filter) !== undefined)) parts.push(someInSummary(criteria));
  return sql.join(parts, sql` and `);
}

/** An uncorrelated probe of the summary, evaluated once: a combination the book lacks costs no scan. */
const someInSummary = (criteria: CustomerCriteria) =>
  sql`exists (select 1 from ${bookSummaryB} where ${summaryWhere(criteria)} and ${b.clients} > 0)`;

/** The criteria narrow by codes only: the book's summary (ADR 0006) holds the count and the sums. */
export const servedBySummary = (criteria: CustomerCriteria) =>
  !criteria.keyword &&
  setValue(criteria, 'kycBound') === undefined &&
  RANGE_FILTERS.every((filter) => setValue(criteria, filter) === undefined);

export function summaryWhere(criteria: CustomerCriteria): SQL {
  const parts: SQL[] = [sql`${b.staffId} = ${criteria.staffId}`, sql`${b.corpId} = ${criteria.corpId}`];
  for (const filter of CODE_FILTERS) {
    const value = setValue(criteria, filter);
    if (filter !== 'kycBound' && value !== undefined)
      parts.push((codeFilters[filter].sql as (value: unknown, t: CodeColumns) => SQL)(value, b));
  }
  return sql.join(parts, sql` and `);
}

export function dayKey(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match ? Number(match[1]) * 10_000 + Number(match[2]) * 100 + Number(match[3]) : undefined;
}

/**
 * A bound in HKD as whole cents, as PostgreSQL compares numeric with it: the drivers send JavaScript's shortest
 * exact decimal (`0.1 + 0.2` is 0.30000000000000004), read exactly here, a finer bound rounded inwards.
 * Undefined for NaN or an infinity: SQL answers.
 */
export function boundCents(hkd: number, inwards: 'up' | 'down'): number | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(hkd));
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = BigInt(whole! + fraction);
  const shift = Number(exponent) - fraction.length + 2;
  if (shift >= 0) return Number((sign ? -digits : digits) * 10n ** BigInt(shift));
  const scale = 10n ** BigInt(-shift);
  const truncated = digits / scale;
  const exact = truncated * scale === digits;
  const away = !exact && (inwards === 'up') === !sign;
  const magnitude = away ? truncated + 1n : truncated;
  return magnitude === 0n ? 0 : Number(sign ? -magnitude : magnitude);
}
