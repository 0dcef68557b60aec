import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { endpoints, type RequestOf, type ResponseOf, type TimelineKind, type WireEndpoint } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { pagedQuery } from '../../shared/api/paged-query';

export const RECORD_PAGE_SIZE = 20;

// Client pages show every failure in place (ClientErrorState, list footers), so their reads do not also toast.

/** One client's `resource`, read from `endpoint` by its customerId (the cast: a generic over the schemas cannot see it takes one). */
const detailQuery =
  <E extends WireEndpoint>(resource: string, endpoint: E) =>
  (customerId: number) =>
    queryOptions({
      queryKey: [resource, 'detail', { customerId }],
      queryFn: ({ signal }) => request(endpoint, { customerId } as RequestOf<E>, { signal, silent: true }),
    });

export const profileQuery = detailQuery('customerProfile', endpoints.getProfile);
export const baseInfoQuery = detailQuery('customerBaseInfo', endpoints.getBaseInfo);
export const assetQuery = detailQuery('customerAsset', endpoints.getAsset);

/** One client's timeline, of the kinds chosen, page by page from the server's cursor. */
export const timelineQuery = (customerId: number, kinds: readonly TimelineKind[]) =>
  infiniteQueryOptions({
    queryKey: ['customerTimeline', 'list', { customerId, kinds }],
    queryFn: ({ pageParam, signal }) =>
      request(
        endpoints.getTimeline,
        { customerId, limit: TIMELINE_PAGE_SIZE, kinds: [...kinds], ...(pageParam ? { cursor: pageParam } : {}) },
        { signal, silent: true },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
export const TIMELINE_PAGE_SIZE = 15;

/** A page of a record list: what the four endpoints share (`pagedSchema`) and their own summary. */
export type RecordPageOf<E> = ResponseOf<E> & { list: RecordItemOf<E>[]; total: number; hasMore: boolean; pageNum: number };
export type RecordItemOf<E> = ResponseOf<E> extends { list: (infer T)[] } ? T : never;

/** A paged record list as an infinite query keyed by its filters; the casts restate what a generic over the schemas cannot see. */
export const recordListQuery = <E extends WireEndpoint>(
  resource: string,
  endpoint: E,
  params: Omit<RequestOf<E>, 'pageNum' | 'pageSize'>,
) =>
  pagedQuery(
    resource,
    params,
    (pageNum, signal) =>
      request(endpoint, { ...params, pageNum, pageSize: RECORD_PAGE_SIZE } as RequestOf<E>, { signal, silent: true }) as Promise<
        RecordPageOf<E>
      >,
  );

/** Everything cached about one client, for after an edit. */
export const clientKeys = (customerId: number) => [
  profileQuery(customerId).queryKey,
  baseInfoQuery(customerId).queryKey,
  // Every filter of the timeline: an edit shows in each.
  ['customerTimeline', 'list', { customerId }],
];
