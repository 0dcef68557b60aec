import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { containsPattern, rowsQuery, selectRowSets, selectRows } from '../../db/sql-rows';
import { BookResultCache, criteriaKey, type BookState } from './book-result-cache';

/** Filters in database terms: amounts already in HKD, the keyword already classified. */
export interface CustomerCriteria {
  corpId: number;
  staffId: number;
  keyword?: string | undefined;
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

export interface StatRow {
  channel: string;
  clients: number;
  /** numeric as text, so sums stay exact to the cent. */
  totalAssetsHkd: string;
  active: number;
  newThisMonth: number;
}

export type SortField = 'totalAssets' | 'openDate' | 'lastTrade';

export interface ListRow {
  id: number;
  customerNo: string;
  nameCn: string;
  nameEn: string;
  phone: string | null;
  phoneDigits: string | null;
  idDocMasked: string;
  idDocLast4: string;
  accountNos: string[];
  channel: string;
  status: string;
  riskLevel: number;
  tags: string[];
  kycBound: boolean;
  totalAssetsHkd: number;
  openDate: string;
  lastTradeDate: string | null;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
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
 * How the keyword's tests are written. `index`: so that the keyword's GIN indexes can find its
 * matches. `filter`: so that they cannot, and the planner walks the book's sort index, testing each
 * entry (see `planPage`: it decides which is cheaper from the number of matches, which the planner's
 * trigram estimates get wrong by a hundredfold in both directions).
 */
type KeywordUse = 'index' | 'filter';

/** The digits of a keyword that is a number (spaces, `+`, brackets and dashes allowed), else ''. */
const digitsOf = (keyword: string) => (/^[\d\s+()-]+$/.test(keyword) ? keyword.replace(/\D/g, '') : '');

/**
 * A run of three letters or digits: the English-name arm can use the book's word trigrams
 * (`staff_word_trigrams`, migration 0016, which splits the lower-cased name the same way).
 */
const hasWordTrigram = (keyword: string) =>
  keyword
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => word.length >= 3);

/**
 * Narrowed by the book's grams in every name arm (a keyword without a run of three letters still
 * needs customer_staff_name_en_trgm_idx, which is scoped by its staff_id column).
 */
const foundThroughOwnArms = (keyword: string) => keywordNarrowsByIndex(keyword) && (!/[A-Za-z]/.test(keyword) || hasWordTrigram(keyword));

/** A column the GIN indexes cannot serve a test of: `|| ''` hides it from them and changes no value. */
const unindexed = (column: SQL) => sql`(${column} || '')`;

/**
 * One way a keyword can match: `test` decides exactly; `found`, where an index can serve it, finds
 * the arm's candidates in the book (every row passing `test` in the book passes `found`).
 */
interface KeywordArm {
  found?: SQL;
  test: SQL;
}

/**
 * The keyword's tests, each only where the keyword could match: names by partial match (trigram,
 * or CJK bigram for Chinese), phone digits by partial match, account number and identity-document
 * tail exactly. Grams are qualified by the book (migration 0015), so the GIN returns this manager's
 * candidates alone; LIKE confirms them, hidden from the trigram indexes: a generic plan (the page
 * is prepared) cannot see that a two-character term holds no trigram, and once read all 1,000,000
 * entries of customer_name_cn_trgm for one.
 *
 * When every arm has an index, the condition is `(found₁ or found₂ …) and (test₁ or test₂ …)`:
 * the first group is exactly the BitmapOr's condition, so PostgreSQL does not evaluate it again on
 * each row, and the rows are confirmed by LIKE alone. Written `found and test` per arm, every row
 * re-ran the gram functions in the filter (SQL functions, ~35 µs each: 4 ms of a 6 ms phone page).
 * Both forms select the same rows, since each `test` implies its `found`.
 */
function keywordCondition(keyword: string, scope: { corpId: number; staffId: number }, use: KeywordUse = 'index'): SQL {
  const { corpId, staffId } = scope;
  const arms: KeywordArm[] = [];
  const pattern = containsPattern(keyword);
  const column = (name: SQL) => (use === 'index' ? name : unindexed(name));
  if (CJK.test(keyword)) {
    // pg_trgm cannot narrow a 2-character Chinese term; its character pairs can. One character is
    // tested by LIKE over the book's covering index: its matches are too many (8,759 of 125,216 for
    // `陈`) for an index to save the heap visits.
    arms.push(
      [...keyword].length >= 2 && use === 'index'
        ? {
            found: sql`staff_cjk_bigrams(c.staff_id, c.name_cn) @> staff_cjk_bigrams(${staffId}::int, ${keyword})`,
            test: sql`${unindexed(sql`c.name_cn`)} like ${pattern}`,
          }
        : { test: sql`${column(sql`c.name_cn`)} like ${pattern}` },
    );
  }
  if (/[A-Za-z]/.test(keyword)) {
    if (use === 'index' && hasWordTrigram(keyword)) {
      arms.push({
        found: sql`staff_word_trigrams(c.staff_id, c.name_en) @> staff_word_trigrams(${staffId}::int, ${keyword})`,
        test: sql`${unindexed(sql`c.name_en`)} ilike ${pattern}`,
      });
    } else {
      // Served by customer_staff_name_en_trgm_idx (staff_id, pg_trgm) when indexed.
      const test = sql`${column(sql`c.name_en`)} ilike ${pattern}`;
      arms.push(use === 'index' ? { found: test, test } : { test });
    }
  }
  const digits = digitsOf(keyword);
  if (digits.length >= 3 && use === 'index') {
    arms.push({
      found: sql`staff_digit_trigrams(c.staff_id, c.phone_digits) @> staff_digit_trigrams(${staffId}::int, ${digits})`,
      test: sql`${unindexed(sql`c.phone_digits`)} like ${containsPattern(digits)}`,
    });
  } else if (digits) arms.push({ test: sql`${column(sql`c.phone_digits`)} like ${containsPattern(digits)}` });
  if (/^[A-Za-z0-9]{4,20}$/.test(keyword)) {
    // Account numbers are unique per corp: a scalar subquery runs once and its id can drive an index arm of the OR.
    const test = sql`c.id = (select a.customer_id from account a where a.corp_id = ${corpId} and a.account_no = ${keyword.toUpperCase()})`;
    arms.push({ found: test, test });
  }
  if (/^[A-Za-z0-9]{4}$/.test(keyword)) {
    const test = sql`(c.corp_id = ${corpId} and ${column(sql`c.id_doc_last4`)} = ${keyword.toUpperCase()} and c.staff_id = ${staffId})`;
    arms.push(use === 'index' ? { found: test, test } : { test });
  }
  if (arms.length === 0) return sql`false`;
  const anyOf = (parts: SQL[]) => sql`(${sql.join(parts, sql` or `)})`;
  const tests = anyOf(arms.map((arm) => arm.test));
  if (use === 'index' && arms.every((arm) => arm.found)) return sql`(${anyOf(arms.map((arm) => arm.found!))} and ${tests})`;
  return tests;
}

/**
 * True when every arm of the keyword can be narrowed by a staff-scoped GIN index (two or more
 * Chinese characters; otherwise three or more letters or digits, a trigram's length). Then a book
 * holds at most a few thousand matches, and a page is best chosen among them: walking a sort index
 * and testing each customer met 125,000 customers when the keyword and a filter matched 23 of them
 * (`Rong` + online: 700 ms). A shorter keyword matches too many customers for that; its page walks the sort index.
 */
export function keywordNarrowsByIndex(keyword: string | undefined): boolean {
  if (!keyword) return false;
  const length = [...keyword].length;
  // A Chinese term with Latin letters also has an English-name arm, which needs a whole trigram.
  if (CJK.test(keyword)) return length >= 2 && (!/[A-Za-z]/.test(keyword) || length >= 3);
  return keyword.replace(/[\s+()-]/g, '').length >= 3;
}

/**
 * `scopeCorp: false` leaves the corp check to an outer query, so a page of ids can be read from
 * the (staff_id, sort column, id) indexes alone: a staff member belongs to one corp, and the
 * outer query checks the corp again on the rows it returns.
 */
function whereOf(criteria: CustomerCriteria, scopeCorp = true, keywordUse: KeywordUse = 'index', inlineCodes = false): SQL {
  const codes = inlineCodes ? literalList : list;
  // A keyword whose every arm is scoped by its own index (book grams) or pins a row (account, identity
  // document) is found through those alone; staff_id is then only checked, so that a generic plan
  // cannot choose to read the whole book from the staff indexes instead (it did on a small book).
  const staff =
    keywordUse === 'index' && criteria.keyword && foundThroughOwnArms(criteria.keyword)
      ? sql`c.staff_id + 0 = ${criteria.staffId}`
      : sql`c.staff_id = ${criteria.staffId}`;
  const parts: SQL[] = [...(scopeCorp ? [sql`c.corp_id = ${criteria.corpId}`] : []), staff];
  if (criteria.keyword) parts.push(keywordCondition(criteria.keyword, criteria, keywordUse));
  if (criteria.channels?.length) parts.push(sql`c.channel in (${codes(criteria.channels)})`);
  if (criteria.statuses?.length) parts.push(sql`c.status in (${codes(criteria.statuses)})`);
  if (criteria.assetMinHkd !== undefined) parts.push(sql`c.total_assets_hkd >= ${criteria.assetMinHkd}`);
  if (criteria.assetMaxHkd !== undefined) parts.push(sql`c.total_assets_hkd <= ${criteria.assetMaxHkd}`);
  if (criteria.openDateFrom) parts.push(sql`c.open_date >= ${criteria.openDateFrom}::date`);
  if (criteria.openDateTo) parts.push(sql`c.open_date <= ${criteria.openDateTo}::date`);
  if (criteria.kycBound !== undefined) {
    // An uncorrelated IN: the corp's bindings are read once into a hash, whatever the planner
    // believes about kyc_binding (a correlated NOT EXISTS became a 125,000-loop nested loop: 160 ms).
    parts.push(
      sql`c.id ${criteria.kycBound ? sql`` : sql`not`} in (select k.customer_id from kyc_binding k where k.corp_id = ${criteria.corpId})`,
    );
  }
  // held_markets (kept by refreshCustomerSummaries) answers both without reading holdings: probing
  // holdings per customer cost 0.4–1.2 s per count over a 125,000-customer book.
  if (criteria.markets?.length) parts.push(sql`c.held_markets && array[${codes(criteria.markets)}]::text[]`);
  if (criteria.hasHolding !== undefined) parts.push(criteria.hasHolding ? sql`c.held_markets <> '{}'` : sql`c.held_markets = '{}'`);
  return sql.join(parts, sql` and `);
}

/** Orders that walk the staff-scoped sort indexes (staff_id, column, id) forwards or backwards. */
function orderOf(sortBy: SortField, sortOrder: 'asc' | 'desc'): SQL {
  const column = { totalAssets: sql`c.total_assets_hkd`, openDate: sql`c.open_date`, lastTrade: sql`c.last_trade_date` }[sortBy];
  if (sortBy === 'lastTrade')
    return sortOrder === 'desc' ? sql`${column} desc nulls last, c.id asc` : sql`${column} asc nulls first, c.id desc`;
  return sortOrder === 'desc' ? sql`${column} desc, c.id asc` : sql`${column} asc, c.id desc`;
}

/**
 * True when the criteria narrow a book only by channel, status, markets held and hasHolding: then
 * counts and sums come from `staff_book_summary` (a few hundred rows at most, keyed by those four)
 * instead of the 100,000+ customers behind them.
 */
export const servedBySummary = (criteria: CustomerCriteria) => choicesOnly(criteria) && criteria.kycBound === undefined;

/**
 * True for "not KYC-bound" with otherwise only summary filters: that is most of a book (124,000 of
 * 125,216), so it is answered as the summary minus the bound clients, who are few and found through
 * `kyc_binding`, instead of an index-only scan of the whole book (55 ms count, 116 ms stat).
 */
export const servedBySummaryMinusBound = (criteria: CustomerCriteria) =>
  criteria.kycBound === false && servedBySummary({ ...criteria, kycBound: undefined });

/** The summary rows of a book, narrowed like `whereOf` narrows its customers (alias `b`). */
function summaryWhere(criteria: CustomerCriteria): SQL {
  const parts: SQL[] = [sql`b.staff_id = ${criteria.staffId}`, sql`b.corp_id = ${criteria.corpId}`];
  if (criteria.channels?.length) parts.push(sql`b.channel in (${list(criteria.channels)})`);
  if (criteria.statuses?.length) parts.push(sql`b.status in (${list(criteria.statuses)})`);
  // The same tests as whereOf's on customer.held_markets: each summary row holds one exact set.
  if (criteria.markets?.length) parts.push(sql`b.held_markets && array[${list(criteria.markets)}]::text[]`);
  if (criteria.hasHolding !== undefined) parts.push(criteria.hasHolding ? sql`b.held_markets <> '{}'` : sql`b.held_markets = '{}'`);
  return sql.join(parts, sql` and `);
}

// A scalar subquery, so it is computed once per statement (an InitPlan) instead of once per row
// counted (41,000 rows of an open-date-filtered stat).
const hkMonthStart = sql`(select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date)`;

/**
 * How a page of a keyword search is found (see `planPage`):
 * - `matchesFirst`: all the keyword's matches through its GIN indexes, then sorted. Costs a heap
 *   visit and a LIKE per match.
 * - `walk`: the book in the sort index's order, each entry tested until the page is full. Costs about
 *   `pageEnd × book / total` entries; for the default sort they are read from the covering index
 *   (migration 0014) without heap visits.
 * - `empty`: the cached total says nothing matches; nothing is read but the book version that
 *   confirms it.
 * - `codeFilters`: no keyword, and every filter a choice among codes (`filtersAreCodes`): the codes
 *   are written into the statement as literals, so its generic plan is planned for them (`closed`
 *   is rare, `active` most of a book) and only the book, page and size are parameters.
 * - `planner`: no keyword, with an asset or open-date range; planned for its values on every call.
 *
 * All but `planner` are prepared, and PostgreSQL stops planning them (0.4–0.7 ms of a 1–3 ms page).
 * The keyword plans are written so that one plan serves every keyword of their shape (the CTE is
 * materialized, a walk's tests are hidden from the GIN indexes). Filters need their values: with
 * the codes as parameters, the generic plan of "dormant, oldest trade first" took 31 ms instead of
 * 0.7 (it was planned for an average status), and a range has no such cure ("not KYC-bound,
 * 100k–5M": 0.6 → 24 ms), so range pages stay `planner`.
 */
type PagePlan = 'matchesFirst' | 'walk' | 'empty' | 'codeFilters' | 'planner';

/**
 * A `codeFilters` statement holds its page in its text, so each page is a statement of its own, and a
 * prepared one costs its connection about 166 kB (plan and source, measured). The first pages of a
 * list are the ones every visit reads; deeper pages are planned per call, and each process prepares
 * at most CODE_FILTER_STATEMENTS texts (the rest are planned per call): at most ~10 MB per connection.
 */
export const CODE_FILTER_PAGES = 5;
export const CODE_FILTER_STATEMENTS = 64;

/** Admits statement keys until `capacity` distinct ones have been seen, then only those. */
export function statementBudget(capacity: number) {
  const admitted = new Set<string>();
  return (key: string) => {
    if (admitted.has(key)) return true;
    if (admitted.size >= capacity) return false;
    admitted.add(key);
    return true;
  };
}

/**
 * Index entries a covering walk tests for the cost of finding one match through the GIN indexes
 * (measured over the 125,000-client book, docs/benchmarks.md round six): a match costs about 5–8 µs
 * (GIN, heap visit, LIKE), an entry 1.5 µs when it is tested by ILIKE (the English name) and
 * 0.5–0.6 µs by LIKE (Chinese name, phone digits). `YUEN` (579 matches) walked 4,947 entries in
 * 9.5 ms for its first page against 2.7 ms for all its matches.
 */
const coveringEntriesPerMatch = (keyword: string) => (/[A-Za-z]/.test(keyword) ? 4 : 12);

/** The book-wide figures a page plan is chosen by, counted with the total and cached with it. */
export interface KeywordTotal {
  total: number;
  /** Clients in the book, from the summary. */
  book: number;
}

export function planPage(
  criteria: CustomerCriteria,
  sortBy: SortField,
  page: { pageNum: number; pageSize: number },
  known: KeywordTotal | undefined,
): PagePlan {
  const { keyword, corpId: _corpId, staffId: _staffId, ...filters } = criteria;
  if (!keyword) return filtersAreCodes(criteria) && page.pageNum <= CODE_FILTER_PAGES ? 'codeFilters' : 'planner';
  if (known?.total === 0) return 'empty';
  const narrows = keywordNarrowsByIndex(keyword);
  const filtered = Object.values(filters).some((value) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== ''));
  // ANDed with filters, the keyword's own number of matches is unknown (the total counts both), and
  // a walk meets the filters' rarity too (`Rong` + online: 23 of 125,000, a walk of the whole book).
  if (filtered || !known) return narrows ? 'matchesFirst' : 'walk';
  if (!narrows) return 'walk';
  const walked = (page.pageNum * page.pageSize * known.book) / known.total;
  // Only the default sort's index covers the tested columns; the others visit the heap per entry.
  const entriesPerMatch = sortBy === 'totalAssets' ? coveringEntriesPerMatch(keyword) : 1;
  return walked <= known.total * entriesPerMatch ? 'walk' : 'matchesFirst';
}

/** The ids of one page, in order, read from indexes (see `whereOf` and `PagePlan`). */
function pageIds(
  criteria: CustomerCriteria,
  sortBy: SortField,
  sortOrder: 'asc' | 'desc',
  page: { pageNum: number; pageSize: number },
  plan: Exclude<PagePlan, 'empty'>,
): SQL {
  const window =
    plan === 'codeFilters'
      ? sql.raw(`limit ${Math.trunc(page.pageSize)} offset ${Math.trunc((page.pageNum - 1) * page.pageSize)}`)
      : sql`limit ${page.pageSize} offset ${(page.pageNum - 1) * page.pageSize}`;
  if (plan !== 'matchesFirst') {
    const where = whereOf(criteria, false, plan === 'walk' ? 'filter' : 'index', plan === 'codeFilters');
    return sql`select c.id from customer c where ${where} order by ${orderOf(sortBy, sortOrder)} ${window}`;
  }
  // MATERIALIZED keeps the planner from walking a sort index under the LIMIT instead.
  return sql`with matches as materialized (
               select c.id, c.total_assets_hkd, c.open_date, c.last_trade_date from customer c where ${whereOf(criteria, false)})
             select c.id from matches c order by ${orderOf(sortBy, sortOrder)} ${window}`;
}

/**
 * `cache` holds the totals and stats of live filters (see BookResultCache); one per app, since
 * its entries are only valid against the database they were read from.
 */
export function createManageRepository(db: Database, cache = new BookResultCache()) {
  const admitCodeFilterStatement = statementBudget(CODE_FILTER_STATEMENTS);
  /** What a `codeFilters` statement's text depends on: everything but the book (a parameter). */
  const codeFilterKey = (criteria: CustomerCriteria, sortBy: SortField, sortOrder: string, page: { pageNum: number; pageSize: number }) =>
    JSON.stringify([
      criteria.channels,
      criteria.statuses,
      criteria.markets,
      criteria.hasHolding,
      criteria.kycBound,
      sortBy,
      sortOrder,
      page,
    ]);
  /** The book's version (a primary-key lookup), as a column of whichever statement needs it. */
  const bookVersion = (criteria: CustomerCriteria) =>
    sql`coalesce((select v.version from staff_book_version v where v.corp_id = ${criteria.corpId} and v.staff_id = ${criteria.staffId}), 0)::text`;
  /** Read before anything is computed from the book (see BookResultCache). */
  const bookState = async (criteria: CustomerCriteria): Promise<BookState> => {
    const [row] = await selectRows<BookState>(db, sql`select ${bookVersion(criteria)} as version, ${hkMonthStart}::text as month`, {
      prepare: true,
    });
    return row!;
  };
  /**
   * Live stats (20–66 ms over a 125,000-client book for a broad filter) are cached while the book is
   * unchanged; the summary's answers cost well under a millisecond and are not. (Search totals are
   * cached by `countLive`, checked against the version the page statement reads.)
   */
  const cachedStat = async (criteria: CustomerCriteria, compute: () => Promise<StatRow[]>): Promise<StatRow[]> => {
    if (servedBySummary(criteria)) return compute();
    const state = await bookState(criteria);
    // "New this month" changes with the month, not only with writes.
    return cache.getOrCompute(`stat:${state.month}:${criteriaKey(criteria)}`, state.version, compute);
  };

  /** The number of customers matching, from the summary: only when `summaryAnswers(criteria)`. */
  const summaryTotal = (criteria: CustomerCriteria) => {
    const fromSummary = sql`select coalesce(sum(b.clients), 0) from staff_book_summary b where ${summaryWhere(criteria)}`;
    return servedBySummary(criteria)
      ? sql`(${fromSummary})::int`
      : sql`((${fromSummary}) - (select count(*) from customer c where ${whereOf({ ...criteria, kycBound: true })}))::int`;
  };
  const summaryAnswers = (criteria: CustomerCriteria) => servedBySummary(criteria) || servedBySummaryMinusBound(criteria);

  const totalKey = (criteria: CustomerCriteria) => `total:${criteriaKey(criteria)}`;
  /**
   * Counts the customers matching, with the book's size and version read in the same statement (so
   * the count is exactly that version's), and caches the figures under that version.
   */
  const countLive = async (criteria: CustomerCriteria): Promise<{ version: string; value: KeywordTotal }> => {
    // A keyword too short for its GIN indexes is tested entry by entry; written so, the planner
    // counts over the book's covering index without heap visits (`Wa`: 0.4–0.6 s before).
    const keywordUse = keywordNarrowsByIndex(criteria.keyword) ? 'index' : 'filter';
    const [row] = await selectRows<{ version: string } & KeywordTotal>(
      db,
      sql`select ${bookVersion(criteria)} as version,
                 (select count(*) from customer c where ${whereOf(criteria, true, keywordUse)})::int as total,
                 (select coalesce(sum(b.clients), 0) from staff_book_summary b where b.staff_id = ${criteria.staffId} and b.corp_id = ${criteria.corpId})::int as book`,
    );
    const { version, ...value } = row!;
    cache.store(totalKey(criteria), version, value);
    return { version, value };
  };

  /** The columns of a page's rows, for ids chosen by `pageIds`. */
  const pageRows = (
    criteria: CustomerCriteria,
    sortBy: SortField,
    sortOrder: 'asc' | 'desc',
    page: { pageNum: number; pageSize: number },
    plan: PagePlan,
  ) =>
    rowsQuery<ListRow>(
      plan === 'empty'
        ? sql`select null where false`
        : // The page's ids first, then its columns: the per-row subqueries (accounts, KYC) run for the
          // 20 rows shown, not for every row an OFFSET skips (page 500: 200 ms → see docs/benchmarks.md).
          sql`select c.id::float8 as id, c.customer_no as "customerNo", c.name_cn as "nameCn", c.name_en as "nameEn", c.phone,
                     c.phone_digits as "phoneDigits", c.id_doc_masked as "idDocMasked", c.id_doc_last4 as "idDocLast4",
                     array(select a.account_no from account a where a.customer_id = c.id order by a.id) as "accountNos",
                     c.channel, c.status, c.risk_level as "riskLevel", c.tags,
                     exists (select 1 from kyc_binding k where k.customer_id = c.id and k.corp_id = c.corp_id) as "kycBound",
                     c.total_assets_hkd::float8 as "totalAssetsHkd", c.open_date::text as "openDate", c.last_trade_date::text as "lastTradeDate"
              from (${pageIds(criteria, sortBy, sortOrder, page, plan)}) page
              join customer c on c.id = page.id and c.corp_id = ${criteria.corpId}
              order by ${orderOf(sortBy, sortOrder)}`,
    );

  return {
    async rate(currency: string): Promise<number | undefined> {
      const [row] = await selectRows<{ rate: number }>(
        db,
        sql`select rate::float8 as rate from exchange_rate where currency = ${currency} order by rate_date desc limit 1`,
      );
      return row?.rate;
    },

    async channels(corpId: number, staffId: number) {
      return selectRows<{ channel: string; clients: number }>(
        db,
        sql`select b.channel, sum(b.clients)::int as clients from staff_book_summary b where b.staff_id = ${staffId} and b.corp_id = ${corpId}
            group by b.channel having sum(b.clients) > 0 order by clients desc, b.channel`,
      );
    },

    /**
     * One statement in the usual case: the page, with the book version that says whether the
     * cached total still holds (or the summary's total, which is not cached). A first keyword
     * search counts before it pages, since how the page is found depends on the count (`planPage`).
     */
    async search(criteria: CustomerCriteria, sortBy: SortField, sortOrder: 'asc' | 'desc', page: { pageNum: number; pageSize: number }) {
      const fromSummary = summaryAnswers(criteria);
      let known = fromSummary ? undefined : cache.peek<KeywordTotal>(totalKey(criteria));
      if (!known && criteria.keyword) known = await countLive(criteria);
      let plan = planPage(criteria, sortBy, page, known?.value);
      if (plan === 'codeFilters' && !admitCodeFilterStatement(codeFilterKey(criteria, sortBy, sortOrder, page))) plan = 'planner';
      const { rows, book } = await selectRowSets(
        db,
        {
          rows: pageRows(criteria, sortBy, sortOrder, page, plan),
          book: rowsQuery<{ version: string; total: number | null }>(
            sql`select ${bookVersion(criteria)} as version, ${fromSummary ? summaryTotal(criteria) : sql`null::int`} as total`,
          ),
        },
        { prepare: plan !== 'planner' },
      );
      const { version, total } = book[0]!;
      if (fromSummary) return { rows, total: total! };
      if (known && known.version === version) return { rows, total: known.value.total };
      // The book changed since the total was counted (or it never was): count again. The page already
      // read is right whatever plan found it, unless the plan trusted an old "nothing matches".
      const fresh = await countLive(criteria);
      if (plan !== 'empty' || fresh.value.total === 0) return { rows, total: fresh.value.total };
      const retryPlan = planPage(criteria, sortBy, page, fresh.value);
      const retried = await selectRows<ListRow>(db, pageRows(criteria, sortBy, sortOrder, page, retryPlan), {
        prepare: retryPlan !== 'planner',
      });
      return { rows: retried, total: fresh.value.total };
    },

    async stat(criteria: CustomerCriteria): Promise<StatRow[]> {
      return cachedStat(criteria, () => computeStat(criteria));
    },
  };

  /** Per channel; sums are numeric in SQL so the HKD totals are exact to the cent. */
  async function computeStat(criteria: CustomerCriteria): Promise<StatRow[]> {
    const minusBound = servedBySummaryMinusBound(criteria);
    if (!servedBySummary(criteria) && !minusBound) {
      return selectRows<StatRow>(
        db,
        sql`select c.channel, count(*)::int as clients, coalesce(sum(c.total_assets_hkd), 0)::text as "totalAssetsHkd",
                     (count(*) filter (where c.status = 'active'))::int as active,
                     (count(*) filter (where c.open_date >= ${hkMonthStart}))::int as "newThisMonth"
              from customer c where ${whereOf(criteria)}
              group by c.channel order by clients desc, c.channel`,
      );
    }
    // The month's new clients depend on today, so they are counted live: a short range of the open-date index.
    const [rows, fresh] = await Promise.all([
      selectRows<Omit<StatRow, 'newThisMonth'>>(
        db,
        minusBound
          ? sql`select b.channel, (b.clients - coalesce(k.clients, 0))::int as clients,
                         (b.assets - coalesce(k.assets, 0))::text as "totalAssetsHkd", (b.active - coalesce(k.active, 0))::int as active
                  from (select b.channel, sum(b.clients) as clients, sum(b.total_assets_hkd) as assets,
                               coalesce(sum(b.clients) filter (where b.status = 'active'), 0) as active
                        from staff_book_summary b where ${summaryWhere(criteria)} group by b.channel) b
                  left join (select c.channel, count(*) as clients, sum(c.total_assets_hkd) as assets,
                                    count(*) filter (where c.status = 'active') as active
                             from customer c where ${whereOf({ ...criteria, kycBound: true })} group by c.channel) k on k.channel = b.channel
                  where b.clients - coalesce(k.clients, 0) > 0
                  order by clients desc, b.channel`
          : sql`select b.channel, sum(b.clients)::int as clients, sum(b.total_assets_hkd)::text as "totalAssetsHkd",
                         coalesce(sum(b.clients) filter (where b.status = 'active'), 0)::int as active
                  from staff_book_summary b where ${summaryWhere(criteria)}
                  group by b.channel having sum(b.clients) > 0 order by clients desc, b.channel`,
      ),
      selectRows<{ channel: string; newThisMonth: number }>(
        db,
        sql`select c.channel, count(*)::int as "newThisMonth" from customer c
              where ${whereOf(criteria)} and c.open_date >= ${hkMonthStart} group by c.channel`,
      ),
    ]);
    const freshByChannel = new Map(fresh.map((row) => [row.channel, row.newThisMonth]));
    return rows.map((row) => ({ ...row, newThisMonth: freshByChannel.get(row.channel) ?? 0 }));
  }
}

export type ManageRepository = ReturnType<typeof createManageRepository>;
