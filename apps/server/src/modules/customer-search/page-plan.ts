import { filtersAreCodes, type CustomerCriteria } from './customer-filters';

export type SortField = 'totalAssets' | 'openDate' | 'lastTrade';
export type SortOrder = 'asc' | 'desc';
export interface PageWindow {
  pageNum: number;
  pageSize: number;
}

/**
 * How a page of a keyword search is found (see `planPage`). A keyword's list is ranked (`matchTierSql`:
 * the client asked for exactly, then names that begin with it, then the rest, each by the sort), so
 * no sort index gives its order and every match is read before the first page is known:
 * - `matchesFirst`: all the keyword's matches through its GIN indexes, then sorted. Costs a heap
 *   visit and a LIKE per match.
 * - `scan`: the keyword has no GIN index to narrow it (one Chinese character, one or two letters or
 *   digits): the book is read, each entry tested, and the matches sorted.
 * - `empty`: the cached total says nothing matches; nothing is read but the book version that
 *   confirms it.
 * - `codeFilters`: no keyword, and every filter a choice among codes (`filtersAreCodes`): the codes
 *   are written into the statement as literals, so its generic plan is planned for them (`closed`
 *   is rare, `active` most of a book) and only the book, page and size are parameters.
 * - `planner`: no keyword, with an asset or open-date range; planned for its values on every call.
 *
 * (Before ranking, a keyword matching a large part of the book walked a sort index until its page
 * was full; ADR 0029 has those figures, ADR 0046 §5 what ranking costs instead.)
 *
 * All but `planner` are prepared, and PostgreSQL stops planning them (planning was a large part of a
 * page's time, ADR 0008). The keyword plans are written so that one plan serves every keyword of
 * their shape (the CTE is materialized, a scan's tests are hidden from the GIN indexes). Filters
 * need their values: with the codes as parameters, the generic plan of "dormant, oldest trade first"
 * was planned for an average status and ran many times slower than a custom one, and a range has no
 * such cure ("not KYC-bound, 100k–5M"), so range pages stay `planner` (ADR 0009; figures in ADR 0029).
 */
export type PagePlan = 'matchesFirst' | 'scan' | 'empty' | 'codeFilters' | 'planner';

/**
 * The first pages of a list are the ones every visit reads: only they are `codeFilters` pages, each
 * a prepared text of its own; deeper pages are planned per call (see `CODE_FILTER_STATEMENTS`).
 */
export const CODE_FILTER_PAGES = 5;

/** A keyword's count, cached with the book version it was counted at. */
export interface KeywordTotal {
  total: number;
}

/** ADR 0009: the count comes first and says when nothing matches. */
export function planPage(criteria: CustomerCriteria, page: PageWindow, known: KeywordTotal | undefined): PagePlan {
  const { keyword } = criteria;
  if (!keyword) return filtersAreCodes(criteria) && page.pageNum <= CODE_FILTER_PAGES ? 'codeFilters' : 'planner';
  if (known?.total === 0) return 'empty';
  return keyword.narrowsByIndex ? 'matchesFirst' : 'scan';
}
