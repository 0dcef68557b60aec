import { describe, expect, it } from 'vitest';
import { interpretKeyword } from './customer-keyword';
import { filtersAreCodes, type CustomerCriteria } from './customer-filters';
import { CODE_FILTER_PAGES, planPage } from './page-plan';
import { statementBudget } from './statement-budget';

/**
 * How a keyword search finds its page, from the cached count (figures of the 125,000-client book
 * the benchmark signs in as: docs/benchmarks.md, rounds five and six).
 */
const book = { corpId: 1, staffId: 3 };
const firstPage = { pageNum: 1, pageSize: 20 };
type Filters = Omit<CustomerCriteria, 'corpId' | 'staffId' | 'keyword'> & { keyword?: string };
const plan = (criteria: Filters, total?: number, sortBy: 'totalAssets' | 'openDate' = 'totalAssets') =>
  planPage(
    { ...book, ...criteria, keyword: interpretKeyword(criteria.keyword) },
    sortBy,
    firstPage,
    total === undefined ? undefined : { total, book: 125_000 },
  );

describe('planPage', () => {
  it('writes code filters into a prepared statement for the first pages, and leaves ranges and deep pages to the planner', () => {
    expect(plan({}, 0)).toBe('codeFilters');
    expect(plan({ statuses: ['active'] })).toBe('codeFilters');
    expect(plan({ channels: ['branch'], markets: ['US', 'HK'], hasHolding: true, kycBound: false })).toBe('codeFilters');
    expect(planPage({ ...book, statuses: ['dormant'] }, 'lastTrade', { pageNum: CODE_FILTER_PAGES, pageSize: 20 }, undefined)).toBe(
      'codeFilters',
    );
    expect(planPage({ ...book, statuses: ['dormant'] }, 'lastTrade', { pageNum: CODE_FILTER_PAGES + 1, pageSize: 20 }, undefined)).toBe(
      'planner',
    );
    expect(plan({ assetMinHkd: 100_000 })).toBe('planner');
    expect(plan({ statuses: ['active'], openDateFrom: '2025-01-01' })).toBe('planner');
    // Only codes are written into a statement's text; anything else stays a parameter.
    expect(plan({ channels: ["x' or true --"] })).toBe('planner');
    expect(filtersAreCodes({ ...book, channels: ['branch', 'ifa_2'] })).toBe(true);
    expect(filtersAreCodes({ ...book, channels: ['branch', 'a b'] })).toBe(false);
  });

  it('prepares a bounded number of code-filter statements per process', () => {
    const admit = statementBudget(2);
    expect([admit('a'), admit('b'), admit('c'), admit('a'), admit('b'), admit('c')]).toEqual([true, true, false, true, true, false]);
  });

  it('reads nothing when the cached total says nothing matches', () => {
    expect(plan({ keyword: 'Quokka' }, 0)).toBe('empty');
  });

  it('walks the covering sort index for a keyword matching hundreds, and finds a rare one through its GIN', () => {
    expect(plan({ keyword: 'Rong' }, 1_048)).toBe('walk');
    expect(plan({ keyword: '6547' }, 87)).toBe('matchesFirst');
    // The crossover: 20 × 125,000 / total entries walked against 4 (ILIKE) entries per match.
    expect(plan({ keyword: 'Rong' }, 791)).toBe('walk');
    expect(plan({ keyword: 'Rong' }, 790)).toBe('matchesFirst');
    expect(plan({ keyword: 'YUEN' }, 579)).toBe('matchesFirst');
  });

  it('walks sooner for a keyword tested by LIKE, which is three times cheaper per entry than ILIKE', () => {
    // 12 entries per match: the crossover is at 457 matches instead of 791.
    expect(plan({ keyword: '5253' }, 500)).toBe('walk');
    expect(plan({ keyword: '5253' }, 450)).toBe('matchesFirst');
    expect(plan({ keyword: '晓慧' }, 500)).toBe('walk');
    expect(plan({ keyword: 'Rong' }, 500)).toBe('matchesFirst');
  });

  it('walks a deep page only when the matches are many enough to fill it early', () => {
    const deep = (total: number) =>
      planPage({ ...book, keyword: interpretKeyword('Rong') }, 'totalAssets', { pageNum: 10, pageSize: 20 }, { total, book: 125_000 });
    expect(deep(2_000)).toBe('matchesFirst');
    expect(deep(2_600)).toBe('walk');
  });

  it('needs many more matches to walk a sort index that is not covering (a heap visit per entry)', () => {
    expect(plan({ keyword: 'Rong' }, 1_048, 'openDate')).toBe('matchesFirst');
    expect(plan({ keyword: 'Wong' }, 2_000, 'openDate')).toBe('walk');
  });

  it('always walks for a keyword no GIN can narrow (one Chinese character, two letters)', () => {
    expect(plan({ keyword: '陈' }, 3)).toBe('walk');
    expect(plan({ keyword: 'Wa' }, 12_000)).toBe('walk');
  });

  it('with filters, finds a narrow keyword’s matches first, whatever the filtered total', () => {
    expect(plan({ keyword: 'Rong', channels: ['online'] }, 23)).toBe('matchesFirst');
    expect(plan({ keyword: 'Rong', channels: ['online'] }, 5_000)).toBe('matchesFirst');
    expect(plan({ keyword: 'Wa', statuses: ['active'] }, 5_000)).toBe('walk');
  });

  it('without a count yet, decides by the keyword alone', () => {
    expect(plan({ keyword: 'Rong' })).toBe('matchesFirst');
    expect(plan({ keyword: 'Wa' })).toBe('walk');
  });
});
