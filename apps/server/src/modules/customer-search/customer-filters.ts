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

const list = (values: string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** A code of a closed vocabulary (status, market, channel), safe to write into a statement's text. */
const CODE = /^[A-Za-z0-9_]{1,32}$/;
/** The same list as `list`, written as literals (only codes that match CODE reach it). */
const literalList = (values: string[]) => {
  const unsafe = values.find((value) => !CODE.test(value));
  if (unsafe !== undefined) throw new Error(`not a code, so not written into a statement: ${JSON.stringify(unsafe)}`);
  return sql.raw(values.map((value) => `'${value}'`).join(', '));
};

/** No keyword and no asset or open-date range: only choices among codes, yes/no filters, or nothing. */
const choicesOnly = (criteria: CustomerCriteria) =>
  !criteria.keyword &&
  criteria.assetMinHkd === undefined &&
  criteria.assetMaxHkd === undefined &&
  !criteria.openDateFrom &&
  !criteria.openDateTo;

/**
 * True for a page without a keyword whose every filter is a choice among codes (channels, statuses,
 * markets held, holdings, KYC) or none: its values can be written into the statement (`inlineCodes`),
 * a handful of texts in all, each planned once for its own values (see PagePlan `codeFilters`).
 * Asset and open-date ranges are typed numbers and dates with no such bound, so they are not.
 */
export const filtersAreCodes = (criteria: CustomerCriteria) =>
  choicesOnly(criteria) &&
  [criteria.channels, criteria.statuses, criteria.markets].every((values) => (values ?? []).every((value) => CODE.test(value)));

/**
 * The customers the criteria select (alias `c`). `scopeCorp: false` leaves the corp check to an outer
 * query, so a page of ids can be read from the (staff_id, sort column, id) indexes alone: a staff
 * member belongs to one corp, and the outer query checks the corp again on the rows it returns.
 */
export function customerWhere(criteria: CustomerCriteria, scopeCorp = true, keywordUse: KeywordUse = 'index', inlineCodes = false): SQL {
  const codes = inlineCodes ? literalList : list;
  // A keyword whose every arm is scoped by its own index (book grams) or pins a row (account, identity
  // document) is found through those alone; staff_id is then only checked, so that a generic plan
  // cannot choose to read the whole book from the staff indexes instead (it did on a small book).
  const staff =
    keywordUse === 'index' && criteria.keyword?.foundThroughOwnArms
      ? sql`${c.staffId} + 0 = ${criteria.staffId}`
      : sql`${c.staffId} = ${criteria.staffId}`;
  const parts: SQL[] = [...(scopeCorp ? [sql`${c.corpId} = ${criteria.corpId}`] : []), staff];
  if (criteria.keyword) parts.push(keywordCondition(criteria.keyword, criteria, keywordUse));
  if (criteria.channels?.length) parts.push(sql`${c.channel} in (${codes(criteria.channels)})`);
  if (criteria.statuses?.length) parts.push(sql`${c.status} in (${codes(criteria.statuses)})`);
  if (criteria.assetMinHkd !== undefined) parts.push(sql`${c.totalAssetsHkd} >= ${criteria.assetMinHkd}`);
  if (criteria.assetMaxHkd !== undefined) parts.push(sql`${c.totalAssetsHkd} <= ${criteria.assetMaxHkd}`);
  if (criteria.openDateFrom) parts.push(sql`${c.openDate} >= ${criteria.openDateFrom}::date`);
  if (criteria.openDateTo) parts.push(sql`${c.openDate} <= ${criteria.openDateTo}::date`);
  if (criteria.kycBound !== undefined) {
    // An uncorrelated IN: the corp's bindings are read once into a hash, whatever the planner
    // believes about kyc_binding (a correlated NOT EXISTS became a nested loop over the whole book).
    parts.push(
      sql`${c.id} ${criteria.kycBound ? sql`` : sql`not`} in (select ${k.customerId} from ${kycBindingK} where ${k.corpId} = ${criteria.corpId})`,
    );
  }
  // held_markets (kept by refreshCustomerSummaries) answers both without reading holdings: probing
  // holdings per customer made every count read the book's holdings (ADR 0006).
  if (criteria.markets?.length) parts.push(sql`${c.heldMarkets} && array[${codes(criteria.markets)}]::text[]`);
  if (criteria.hasHolding !== undefined) parts.push(criteria.hasHolding ? sql`${c.heldMarkets} <> '{}'` : sql`${c.heldMarkets} = '{}'`);
  if (narrowsBySummaryCodes(criteria)) parts.push(someInSummary(criteria));
  return sql.join(parts, sql` and `);
}

/** A search the summary cannot answer, with at least one of the summary's own filters (channel, status, markets, holdings). */
const narrowsBySummaryCodes = (criteria: CustomerCriteria) =>
  !servedBySummary(criteria) &&
  (Boolean(criteria.channels?.length) ||
    Boolean(criteria.statuses?.length) ||
    Boolean(criteria.markets?.length) ||
    criteria.hasHolding !== undefined);

/**
 * "The book has clients of these channels, statuses and holdings", from the summary's few rows: an
 * uncorrelated condition, which PostgreSQL evaluates once, before any customer row is read (a
 * One-Time Filter). A combination nobody in the book has, contradictory ("holds HK" and "no
 * holdings") or merely empty, then costs a summary probe instead of a scan of the whole book,
 * whatever ranges or keyword come with it (issue 21: ~390 ms of SQL at 1M before).
 */
const someInSummary = (criteria: CustomerCriteria) =>
  sql`exists (select 1 from ${bookSummaryB} where ${summaryWhere(criteria)} and ${b.clients} > 0)`;

/**
 * True when the criteria narrow a book only by channel, status, markets held and hasHolding: then
 * counts and sums come from `staff_book_summary` (one row per combination of those four) instead of
 * every customer behind them.
 */
export const servedBySummary = (criteria: CustomerCriteria) => choicesOnly(criteria) && criteria.kycBound === undefined;

/**
 * True for "not KYC-bound" with otherwise only summary filters: that is most of a book, so it is
 * answered as the summary minus the bound clients, who are few and found through `kyc_binding`,
 * instead of an index-only scan of the whole book (ADR 0029 has the figures).
 */
export const servedBySummaryMinusBound = (criteria: CustomerCriteria) =>
  criteria.kycBound === false && servedBySummary({ ...criteria, kycBound: undefined });

/** The summary rows of a book, narrowed like `customerWhere` narrows its customers (alias `b`). */
export function summaryWhere(criteria: CustomerCriteria): SQL {
  const parts: SQL[] = [sql`${b.staffId} = ${criteria.staffId}`, sql`${b.corpId} = ${criteria.corpId}`];
  if (criteria.channels?.length) parts.push(sql`${b.channel} in (${list(criteria.channels)})`);
  if (criteria.statuses?.length) parts.push(sql`${b.status} in (${list(criteria.statuses)})`);
  // The same tests as customerWhere's on customer.held_markets: each summary row holds one exact set.
  if (criteria.markets?.length) parts.push(sql`${b.heldMarkets} && array[${list(criteria.markets)}]::text[]`);
  if (criteria.hasHolding !== undefined) parts.push(criteria.hasHolding ? sql`${b.heldMarkets} <> '{}'` : sql`${b.heldMarkets} = '{}'`);
  return sql.join(parts, sql` and `);
}
