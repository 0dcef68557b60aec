import { beforeEach, describe, expect, test } from 'vitest';
import { activeFilterCount, emptyFilters, toFilterPayload, toSearchPayload, useRecentSearches } from './client-filters';

describe('client filters → contract payload', () => {
  test('empty filters send only the currency and the default sort', () => {
    expect(toSearchPayload(emptyFilters())).toEqual({ ccy: 'HKD', sortBy: 'totalAssets', sortOrder: 'desc' });
    expect(activeFilterCount(emptyFilters())).toBe(0);
  });

  test('every chosen filter goes out in the contract shape, with the range in the currency it was typed in', () => {
    const filters = {
      ...emptyFilters(),
      keyword: '  wong ',
      channels: ['branch'],
      statuses: ['dormant' as const],
      assetMin: 0,
      assetMax: 100_000,
      assetCcy: 'USD' as const,
      openDateFrom: '2024-01-01',
      kycBound: false,
      markets: ['US' as const],
      hasHolding: true,
      sort: 'openDate_desc' as const,
    };
    expect(toFilterPayload(filters)).toEqual({
      keyword: 'wong',
      channels: ['branch'],
      statuses: ['dormant'],
      ccy: 'USD',
      assetMin: 0,
      assetMax: 100_000,
      openDateFrom: '2024-01-01',
      kycBound: false,
      markets: ['US'],
      hasHolding: true,
    });
    expect(toSearchPayload(filters)).toMatchObject({ sortBy: 'openDate', sortOrder: 'desc' });
    // keyword and sort are not filter groups on the badge
    expect(activeFilterCount(filters)).toBe(7);
  });

  test('a lower bound of 0 is a filter, not "nothing"', () => {
    expect(activeFilterCount({ ...emptyFilters(), assetMin: 0 })).toBe(1);
  });
});

describe('recent searches', () => {
  beforeEach(() => useRecentSearches.getState().clear());

  test('newest first, no repeats, at most ten, blanks ignored', () => {
    const { remember } = useRecentSearches.getState();
    for (let index = 0; index < 12; index += 1) remember(`k${index}`);
    remember('k5');
    remember('   ');
    const { keywords } = useRecentSearches.getState();
    expect(keywords).toHaveLength(10);
    expect(keywords[0]).toBe('k5');
    expect(keywords.filter((item) => item === 'k5')).toHaveLength(1);
    expect(keywords).not.toContain('k0');
  });
});
