import type { CustomerKeyword } from './customer-keyword';
import { filtersAreCodes, type CustomerCriteria } from './customer-filters';

export type SortField = 'totalAssets' | 'openDate' | 'lastTrade';
export type SortOrder = 'asc' | 'desc';
export interface PageWindow {
  pageNum: number;
  pageSize: number;
}

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
 * All but `planner` are prepared, and PostgreSQL stops planning them (planning was a large part of a
 * page's time, ADR 0008). The keyword plans are written so that one plan serves every keyword of
 * their shape (the CTE is materialized, a walk's tests are hidden from the GIN indexes). Filters
 * need their values: with the codes as parameters, the generic plan of "dormant, oldest trade first"
 * was planned for an average status and ran many times slower than a custom one, and a range has no
 * such cure ("not KYC-bound, 100k–5M"), so range pages stay `planner` (ADR 0009; figures in ADR 0029).
 */
export type PagePlan = 'matchesFirst' | 'walk' | 'empty' | 'codeFilters' | 'planner';

/**
 * The first pages of a list are the ones every visit reads: only they are `codeFilters` pages, each
 * a prepared text of its own; deeper pages are planned per call (see `CODE_FILTER_STATEMENTS`).
 */
export const CODE_FILTER_PAGES = 5;

/**
 * Index entries a covering walk tests for the cost of finding one match through the GIN indexes (a
 * GIN lookup, a heap visit and a LIKE). An entry tested by ILIKE (the English name) costs more than
 * one tested by LIKE (Chinese name, phone digits), hence the smaller ratio; both ratios come from
 * measurements over a large book (ADR 0029, docs/benchmarks.md round six).
 */
const coveringEntriesPerMatch = (keyword: CustomerKeyword) => (keyword.englishName ? 4 : 12);

/** The book-wide figures a page plan is chosen by, counted with the total and cached with it. */
export interface KeywordTotal {
  total: number;
  /** Clients in the book, from the summary. */
  book: number;
}

/** ADR 0009: the count comes first and chooses the path. */
export function planPage(criteria: CustomerCriteria, sortBy: SortField, page: PageWindow, known: KeywordTotal | undefined): PagePlan {
  const { keyword, corpId: _corpId, staffId: _staffId, ...filters } = criteria;
  if (!keyword) return filtersAreCodes(criteria) && page.pageNum <= CODE_FILTER_PAGES ? 'codeFilters' : 'planner';
  if (known?.total === 0) return 'empty';
  const narrows = keyword.narrowsByIndex;
  const filtered = Object.values(filters).some((value) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== ''));
  // ANDed with filters, the keyword's own number of matches is unknown (the total counts both), and
  // a walk meets the filters' rarity too (`Rong` + online matches a handful: a walk of the whole book).
  if (filtered || !known) return narrows ? 'matchesFirst' : 'walk';
  if (!narrows) return 'walk';
  const walked = (page.pageNum * page.pageSize * known.book) / known.total;
  // Only the default sort's index covers the tested columns; the others visit the heap per entry.
  const entriesPerMatch = sortBy === 'totalAssets' ? coveringEntriesPerMatch(keyword) : 1;
  return walked <= known.total * entriesPerMatch ? 'walk' : 'matchesFirst';
}
