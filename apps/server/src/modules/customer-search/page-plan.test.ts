import { describe, expect, it } from 'vitest';
import { interpretKeyword } from './customer-keyword';
import { filtersAreCodes, type CustomerCriteria } from './customer-filters';
import { CODE_FILTER_PAGES, planPage } from './page-plan';
import { statementBudget } from './statement-budget';

/** How a search finds its page, from the cached count (ADR 0009, ADR 0046 §5). */
const book = { corpId: 1, staffId: 3 };
const firstPage = { pageNum: 1, pageSize: 20 };
type Filters = Omit<CustomerCriteria, 'corpId' | 'staffId' | 'keyword'> & { keyword?: string };
const plan = (criteria: Filters, total?: number) =>
  planPage({ ...book, ...criteria, keyword: interpretKeyword(criteria.keyword) }, firstPage, total === undefined ? undefined : { total });

describe('planPage', () => {
  it('writes code filters into a prepared statement for the first pages, and leaves ranges and deep pages to the planner', () => {
    expect(plan({}, 0)).toBe('codeFilters');
    expect(plan({ statuses: ['active'] })).toBe('codeFilters');
    expect(plan({ channels: ['branch'], markets: ['US', 'HK'], hasHolding: true, kycBound: false })).toBe('codeFilters');
    expect(planPage({ ...book, statuses: ['dormant'] }, { pageNum: CODE_FILTER_PAGES, pageSize: 20 }, undefined)).toBe('codeFilters');
    expect(planPage({ ...book, statuses: ['dormant'] }, { pageNum: CODE_FILTER_PAGES + 1, pageSize: 20 }, undefined)).toBe('planner');
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

  it('finds a keyword’s matches through its GIN indexes however many there are: a ranked list has no sort index to walk', () => {
    expect(plan({ keyword: '6547' }, 87)).toBe('matchesFirst');
    expect(plan({ keyword: 'Rong' }, 1_048)).toBe('matchesFirst');
    expect(plan({ keyword: '晓慧' }, 500)).toBe('matchesFirst');
    expect(planPage({ ...book, keyword: interpretKeyword('Wong') }, { pageNum: 10, pageSize: 20 }, { total: 9_000 })).toBe('matchesFirst');
  });

  it('scans the book for a keyword no GIN can narrow (one Chinese character, two letters)', () => {
    expect(plan({ keyword: '陈' }, 3)).toBe('scan');
    expect(plan({ keyword: 'Wa' }, 12_000)).toBe('scan');
  });

  it('with filters, finds a narrow keyword’s matches first, whatever the filtered total', () => {
    expect(plan({ keyword: 'Rong', channels: ['online'] }, 23)).toBe('matchesFirst');
    expect(plan({ keyword: 'Rong', channels: ['online'] }, 5_000)).toBe('matchesFirst');
    expect(plan({ keyword: 'Wa', statuses: ['active'] }, 5_000)).toBe('scan');
  });

  it('without a count yet, decides by the keyword alone', () => {
    expect(plan({ keyword: 'Rong' })).toBe('matchesFirst');
    expect(plan({ keyword: 'Wa' })).toBe('scan');
  });
});
