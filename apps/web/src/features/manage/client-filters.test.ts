import { describe, expect, test } from 'vitest';
import {
  activeFilterCount,
  emptyFilters,
  fromSavedFilters,
  showsSavedFilters,
  toFilterPayload,
  toSavedFilters,
  toSearchPayload,
} from './client-filters';

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

describe('saved filters', () => {
  const chosen = {
    ...emptyFilters(),
    keyword: 'wong',
    channels: ['branch'],
    statuses: ['dormant' as const],
    assetMin: 1_000,
    assetCcy: 'USD' as const,
    openDateTo: '2025-12-31',
    kycBound: true,
    hasHolding: false,
    sort: 'lastTrade_desc' as const,
  };

  test('save everything but the keyword, and come back as the same filters', () => {
    const saved = toSavedFilters(chosen);
    expect(saved).not.toHaveProperty('keyword');
    expect(saved).toMatchObject({ ccy: 'USD', sortBy: 'lastTrade', sortOrder: 'desc', assetMin: 1_000 });
    expect(fromSavedFilters(saved, 'chan')).toEqual({ ...chosen, keyword: 'chan' });
    expect(showsSavedFilters({ ...chosen, keyword: 'other' }, saved)).toBe(true);
    expect(showsSavedFilters({ ...chosen, hasHolding: null }, saved)).toBe(false);
  });

  test('a sort the list does not offer falls back to the default', () => {
    expect(fromSavedFilters({ ccy: 'HKD', sortBy: 'openDate', sortOrder: 'asc' }, '').sort).toBe(emptyFilters().sort);
  });
});
