import { sql, type SQL } from 'drizzle-orm';
import type { CustomerKeyword } from './customer-keyword';
import { keywordCondition, type KeywordUse } from './keyword-condition';
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

/** What a code group of the in-memory index stands for: the codes its customers share (ADR 0035). */
export interface GroupCodes {
  channel: string;
  status: string;
  kycBound: boolean;
  markets: readonly string[];
}

/** The columns the code filters read, on the customer `c` and on the book's summary `b` alike. */
type CodeColumns = Pick<typeof c, 'channel' | 'status' | 'heldMarkets'> | Pick<typeof b, 'channel' | 'status' | 'heldMarkets'>;

const list = (values: string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/**
 * Every filter of the client list, defined once: its SQL condition beside what it admits in memory. The SQL
 * path writes `sql`; the book index decides each code group by `admits` and bounds its columns by `bound`.
 * The equivalence test runs both on random criteria over the same books.
 */
const codeFilters = {
  channels: {
    sql: (values: string[], t: CodeColumns) => sql`${t.channel} in (${list(values)})`,
    admits: (values: string[], group: GroupCodes) => values.includes(group.channel),
  },
  statuses: {
    sql: (values: string[], t: CodeColumns) => sql`${t.status} in (${list(values)})`,
    admits: (values: string[], group: GroupCodes) => values.includes(group.status),
  },
  // held_markets (kept by refreshCustomerSummaries) answers both without reading holdings (ADR 0006).
  markets: {
    sql: (values: string[], t: CodeColumns) => sql`${t.heldMarkets} && array[${list(values)}]::text[]`,
    admits: (values: string[], group: GroupCodes) => group.markets.some((market) => values.includes(market)),
  },
  hasHolding: {
    sql: (has: boolean, t: CodeColumns) => (has ? sql`${t.heldMarkets} <> '{}'` : sql`${t.heldMarkets} = '{}'`),
    admits: (has: boolean, group: GroupCodes) => group.markets.length > 0 === has,
  },
  kycBound: {
    // An uncorrelated IN: the corp's bindings are read once into a hash (a correlated NOT EXISTS became a
    // nested loop over the whole book).
    sql: (bound: boolean, _: CodeColumns, corpId: number) =>
      sql`${c.id} ${bound ? sql`` : sql`not`} in (select ${k.customerId} from ${kycBindingK} where ${k.corpId} = ${corpId})`,
    admits: (bound: boolean, group: GroupCodes) => group.kycBound === bound,
  },
} as const;

/** The bounds the range filters set on the index's columns (whole cents, days as yyyymmdd); ±Infinity: none. */
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

/** A filter's value when it filters: empty lists and absent values do not. */
function setValue<F extends CodeFilter | RangeFilter>(criteria: CustomerCriteria, filter: F): CustomerCriteria[F] | undefined {
  const value = criteria[filter];
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0) ? undefined : value;
}

/** True when a filter on channels, statuses, markets, holdings or KYC binding is set. */
export const codeFiltersSet = (criteria: CustomerCriteria) => CODE_FILTERS.some((filter) => setValue(criteria, filter) !== undefined);

/** Whether a code group's customers pass every code filter set (`codeFilters`' `admits`). */
export function groupAdmitted(criteria: CustomerCriteria, group: GroupCodes): boolean {
  return CODE_FILTERS.every((filter) => {
    const value = setValue(criteria, filter);
    return value === undefined || (codeFilters[filter].admits as (value: unknown, group: GroupCodes) => boolean)(value, group);
  });
}

/** The range filters' bounds; undefined when one cannot be decided exactly in memory (SQL answers then). */
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
 * The customers the criteria select (alias `c`). `scopeCorp: false` leaves the corp check to an outer query,
 * so a page of ids can be read from the (staff_id, sort column, id) indexes alone: a staff member belongs to
 * one corp, and the outer query checks the corp again on the rows it returns.
 */
export function customerWhere(criteria: CustomerCriteria, scopeCorp = true, keywordUse: KeywordUse = 'index'): SQL {
  // A keyword whose every arm is scoped by its own index (book grams) or pins a row is found through those
  // alone; staff_id is then only checked, so that the planner cannot read the book from the staff indexes
  // instead and run the gram functions on each row.
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

/**
 * "The book has clients of these channels, statuses and holdings", from the summary's few rows: an uncorrelated
 * condition, which PostgreSQL evaluates once, before any customer row is read. A combination nobody in the book
 * has, contradictory ("holds HK" and "no holdings") or merely empty, then costs a summary probe instead of a
 * scan of the whole book.
 */
const someInSummary = (criteria: CustomerCriteria) =>
  sql`exists (select 1 from ${bookSummaryB} where ${summaryWhere(criteria)} and ${b.clients} > 0)`;

/**
 * True when the criteria narrow a book only by channel, status, markets held and holdings (or not at all): the
 * book's summary (`staff_book_summary`, ADR 0006: one row per combination of those codes) then holds the count
 * and the sums.
 */
export const servedBySummary = (criteria: CustomerCriteria) =>
  !criteria.keyword &&
  setValue(criteria, 'kycBound') === undefined &&
  RANGE_FILTERS.every((filter) => setValue(criteria, filter) === undefined);

/** The summary rows of a book (alias `b`) narrowed by the same code filters as its customers. */
export function summaryWhere(criteria: CustomerCriteria): SQL {
  const parts: SQL[] = [sql`${b.staffId} = ${criteria.staffId}`, sql`${b.corpId} = ${criteria.corpId}`];
  for (const filter of CODE_FILTERS) {
    const value = setValue(criteria, filter);
    if (filter !== 'kycBound' && value !== undefined)
      parts.push((codeFilters[filter].sql as (value: unknown, t: CodeColumns) => SQL)(value, b));
  }
  return sql.join(parts, sql` and `);
}

/** `YYYY-MM-DD` as the number yyyymmdd (same order); undefined for anything else. */
export function dayKey(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match ? Number(match[1]) * 10_000 + Number(match[2]) * 100 + Number(match[3]) : undefined;
}

/**
 * A bound in HKD as whole cents, as PostgreSQL compares numeric with it: the drivers send the number
 * as JavaScript prints it, its shortest exact decimal (`0.1 + 0.2` is sent as 0.30000000000000004,
 * which a client at 0.30 is below), so that decimal is read exactly here and a finer bound rounded
 * inwards ('up' for a minimum, 'down' for a maximum). Undefined for NaN or an infinity: SQL answers.
 */
export function boundCents(hkd: number, inwards: 'up' | 'down'): number | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(hkd));
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = BigInt(whole! + fraction);
  // |hkd| in cents is digits × 10^shift.
  const shift = Number(exponent) - fraction.length + 2;
  if (shift >= 0) return Number((sign ? -digits : digits) * 10n ** BigInt(shift));
  const scale = 10n ** BigInt(-shift);
  const truncated = digits / scale;
  const exact = truncated * scale === digits;
  // Away from zero when the rounding goes that way for this sign: up for a positive bound, down for a negative one.
  const away = !exact && (inwards === 'up') === !sign;
  const magnitude = away ? truncated + 1n : truncated;
  return magnitude === 0n ? 0 : Number(sign ? -magnitude : magnitude);
}
