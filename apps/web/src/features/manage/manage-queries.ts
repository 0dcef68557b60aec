import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import type { FilterPayload, SearchPayload } from './client-filters';

export const PAGE_SIZE = 20;

export const channelsQuery = () =>
  queryOptions({
    queryKey: ['channel', 'list', {}],
    queryFn: ({ signal }) => request(endpoints.getChannel, {}, { signal }),
    staleTime: 10 * 60_000,
  });

export const customerStatQuery = (filters: FilterPayload) =>
  queryOptions({
    queryKey: ['customerStat', 'detail', filters],
    queryFn: ({ signal }) => request(endpoints.statCustomers, filters, { signal }),
  });

export const customerListQuery = (params: Omit<SearchPayload, 'pageNum' | 'pageSize'>) =>
  infiniteQueryOptions({
    queryKey: ['customer', 'list', params],
    queryFn: ({ pageParam, signal }) =>
      request(endpoints.searchCustomers, { ...params, pageNum: pageParam, pageSize: PAGE_SIZE }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.pageNum + 1 : undefined),
  });

// Pins, recents and saved filters (ADR 0049) live on the server: one query feeds every view, and each write puts the answer back
// in it. Only what the list's first screen needs is here; the other writes are in shortcuts-mutations.ts.

export const shortcutsQuery = () =>
  queryOptions({
    queryKey: ['shortcuts', 'detail', {}],
    queryFn: ({ signal }) => request(endpoints.getShortcuts, {}, { signal }),
  });

/** Opening a client from the list or a search: it joins the recent clients, and the search that found it the recent searches. */
export function useRecordOpened() {
  const client = useQueryClient();
  const mutation = useMutation({
    // Silent: remembering is a courtesy, never in the way of opening the client.
    mutationFn: (input: { customerId: number; search?: string }) => request(endpoints.recordClientOpened, input, { silent: true }),
    // Read again when next shown (the list and the search page are hidden while the client is open).
    onSuccess: () => client.invalidateQueries({ queryKey: shortcutsQuery().queryKey }),
  });
  return (customerId: number, keyword = '') => {
    const trimmed = keyword.trim().slice(0, 50);
    mutation.mutate(trimmed ? { customerId, search: trimmed } : { customerId });
  };
}
