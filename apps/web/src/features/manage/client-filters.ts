import { create } from 'zustand';
import type { Currency, CustomerStatus, Market, RequestOf, SavedFilterSet, endpoints } from '@broker/contract';
import { currencyValues, customerStatusValues, marketValues } from '../../shared/api/contract';
import { bindSessionValue, isDayOrEmpty, isObject, oneOf } from '../../shared/drafts/page-state';

export const SORT_OPTIONS = ['totalAssets_desc', 'totalAssets_asc', 'openDate_desc', 'lastTrade_desc'] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];

/** What the filter page sets and the list (and its stat header) applies. */
export interface ClientFilters {
  keyword: string;
  channels: string[];
  statuses: CustomerStatus[];
  /** The asset range is in the currency it was entered in (`assetCcy`), whatever is shown later. */
  assetMin: number | null;
  assetMax: number | null;
  assetCcy: Currency;
  openDateFrom: string;
  openDateTo: string;
  kycBound: boolean | null;
  markets: Market[];
  hasHolding: boolean | null;
  sort: SortOption;
}

export type FilterPayload = RequestOf<typeof endpoints.statCustomers>;
export type SearchPayload = RequestOf<typeof endpoints.searchCustomers>;

/** The stat/search filters of the contract; empty choices are left out. */
export function toFilterPayload(filters: ClientFilters): FilterPayload {
  const payload: FilterPayload = { ccy: filters.assetCcy };
  const keyword = filters.keyword.trim();
  if (keyword) payload.keyword = keyword;
  if (filters.channels.length) payload.channels = filters.channels;
  if (filters.statuses.length) payload.statuses = filters.statuses;
  if (filters.assetMin !== null) payload.assetMin = filters.assetMin;
  if (filters.assetMax !== null) payload.assetMax = filters.assetMax;
  if (filters.openDateFrom) payload.openDateFrom = filters.openDateFrom;
  if (filters.openDateTo) payload.openDateTo = filters.openDateTo;
  if (filters.kycBound !== null) payload.kycBound = filters.kycBound;
  if (filters.markets.length) payload.markets = filters.markets;
  if (filters.hasHolding !== null) payload.hasHolding = filters.hasHolding;
  return payload;
}

export function toSearchPayload(filters: ClientFilters): Omit<SearchPayload, 'pageNum' | 'pageSize'> {
  const [sortBy, sortOrder] = filters.sort.split('_') as [NonNullable<SearchPayload['sortBy']>, NonNullable<SearchPayload['sortOrder']>];
  return { ...toFilterPayload(filters), sortBy, sortOrder };
}

/** The search page's query for a keyword: the list's own with no filters, so both find the same clients in the same order. */
export const searchQueryOf = (keyword: string) => toSearchPayload({ ...emptyFilters(), keyword });

/** A saved filter set (ADR 0049) as the list applies it; a sort the list does not offer falls back to the first (the default). */
export function fromSavedFilters(saved: SavedFilterSet, keyword: string): ClientFilters {
  const sort = `${saved.sortBy}_${saved.sortOrder}`;
  return {
    keyword,
    channels: saved.channels ?? [],
    statuses: saved.statuses ?? [],
    assetMin: saved.assetMin ?? null,
    assetMax: saved.assetMax ?? null,
    assetCcy: saved.ccy,
    openDateFrom: saved.openDateFrom ?? '',
    openDateTo: saved.openDateTo ?? '',
    kycBound: saved.kycBound ?? null,
    markets: saved.markets ?? [],
    hasHolding: saved.hasHolding ?? null,
    sort: oneOf(SORT_OPTIONS)(sort) ? sort : SORT_OPTIONS[0],
  };
}

/** Nothing chosen: every client, largest total assets first (an asset range, once typed, in HKD). */
export const emptyFilters = (): ClientFilters => fromSavedFilters({ ccy: 'HKD', sortBy: 'totalAssets', sortOrder: 'desc' }, '');

/** The filters to save under a name: everything but the keyword (a saved filter is a set of filters, not a search). */
export function toSavedFilters(filters: ClientFilters): SavedFilterSet {
  // Without a keyword the payload has none; its `ccy` and sort are always set, as the saved set needs them.
  return toSearchPayload({ ...filters, keyword: '' }) as SavedFilterSet;
}

/** Whether the list shows exactly this saved filter set (the keyword aside). */
export const showsSavedFilters = (filters: ClientFilters, saved: SavedFilterSet) =>
  JSON.stringify(toSavedFilters(filters)) === JSON.stringify(toSavedFilters(fromSavedFilters(saved, '')));

/** How many filter groups differ from the defaults (keyword and sort not counted): the badge on the filter entry. */
export function activeFilterCount(filters: ClientFilters): number {
  return [
    filters.channels.length > 0,
    filters.statuses.length > 0,
    filters.assetMin !== null || filters.assetMax !== null,
    Boolean(filters.openDateFrom || filters.openDateTo),
    filters.kycBound !== null,
    filters.markets.length > 0,
    filters.hasHolding !== null,
  ].filter(Boolean).length;
}

interface ClientFiltersState {
  applied: ClientFilters;
  apply(filters: ClientFilters): void;
  setKeyword(keyword: string): void;
  reset(): void;
}

const isAmount = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
const isTriState = (value: unknown) => value === null || typeof value === 'boolean';
const isListOf = (value: unknown, accept: (item: unknown) => boolean) => Array.isArray(value) && value.length <= 20 && value.every(accept);

/** Filters read back from storage: each field of the right kind, or the whole set is ignored. */
export function isClientFilters(value: unknown): value is ClientFilters {
  const filters = value as Record<keyof ClientFilters, unknown> | null;
  return (
    isObject(filters) &&
    typeof filters.keyword === 'string' &&
    filters.keyword.length <= 100 &&
    isListOf(filters.channels, (channel) => typeof channel === 'string' && channel.length <= 40) &&
    isListOf(filters.statuses, oneOf(customerStatusValues)) &&
    isAmount(filters.assetMin) &&
    isAmount(filters.assetMax) &&
    oneOf(currencyValues)(filters.assetCcy) &&
    isDayOrEmpty(filters.openDateFrom) &&
    isDayOrEmpty(filters.openDateTo) &&
    isTriState(filters.kycBound) &&
    isListOf(filters.markets, oneOf(marketValues)) &&
    isTriState(filters.hasHolding) &&
    oneOf(SORT_OPTIONS)(filters.sort)
  );
}

/** The list's applied filters: client state, shared by the list page and the filter page. */
export const useClientFilters = create<ClientFiltersState>()((set) => ({
  applied: emptyFilters(),
  apply: (filters) => set({ applied: filters }),
  setKeyword: (keyword) => set((state) => ({ applied: { ...state.applied, keyword } })),
  reset: () => set({ applied: emptyFilters() }),
}));

// The list is kept alive for the whole session, so are its filters: a sign-in round trip or a reload keeps them (ADR 0013).
const sessionFilters = bindSessionValue('clientListFilters', isClientFilters, (kept) =>
  useClientFilters.setState({ applied: kept ?? emptyFilters() }),
);
useClientFilters.subscribe((state) => sessionFilters.write(state.applied));

// Recent searches live on the server per staff member (ADR 0049): a copy an earlier version left on the device is removed.
try {
  localStorage.removeItem('clientRecentSearches');
} catch {
  // Storage disabled: nothing was kept.
}
