import { infiniteQueryOptions } from '@tanstack/react-query';

/** A list read a page at a time (`pageNum` from 1 while `hasMore`), keyed `[resource, 'list', params]`. */
export const pagedQuery = <P, R extends { pageNum: number; hasMore: boolean }>(
  resource: string,
  params: P,
  fetchPage: (pageNum: number, signal: AbortSignal) => Promise<R>,
) =>
  infiniteQueryOptions({
    queryKey: [resource, 'list', params],
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.pageNum + 1 : undefined),
  });
