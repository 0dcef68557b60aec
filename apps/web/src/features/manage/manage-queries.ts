import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
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
