import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Currency, CustomerStatus, Market, RequestOf, endpoints } from '@broker/contract';
import { currencyValues, customerStatusValues, marketValues } from '../../shared/api/contract';
import { bindSessionValue, isDayOrEmpty, oneOf } from '../../shared/drafts/page-state';

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

export const emptyFilters = (): ClientFilters => ({
  keyword: '',
  channels: [],
  statuses: [],
  assetMin: null,
  assetMax: null,
  assetCcy: 'HKD',
  openDateFrom: '',
  openDateTo: '',
  kycBound: null,
  markets: [],
  hasHolding: null,
  sort: 'totalAssets_desc',
});

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
    typeof filters === 'object' &&
    filters !== null &&
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

const RECENT_LIMIT = 10;

interface RecentSearchesState {
  keywords: string[];
  remember(keyword: string): void;
  clear(): void;
}

/** Recent search keywords, newest first, remembered on this device. */
export const useRecentSearches = create<RecentSearchesState>()(
  persist(
    (set) => ({
      keywords: [],
      remember: (keyword) =>
        set((state) => {
          const trimmed = keyword.trim();
          if (!trimmed) return state;
          return { keywords: [trimmed, ...state.keywords.filter((item) => item !== trimmed)].slice(0, RECENT_LIMIT) };
        }),
      clear: () => set({ keywords: [] }),
    }),
    { name: 'clientRecentSearches', storage: createJSONStorage(() => localStorage), partialize: ({ keywords }) => ({ keywords }) },
  ),
);
