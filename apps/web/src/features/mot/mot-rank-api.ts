import { infiniteQueryOptions, queryOptions, useMutation } from '@tanstack/react-query';
import type { MotRule } from '@broker/contract';
import { endpoints, type RequestOf } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { invalidatePendingEvents } from '../../shared/api/query-client';

const PAGE_SIZE = 20;

/** Today's ranked events (ADR 0041), highest score first. */
export const rankedTodayQuery = (params: { rule?: MotRule }) =>
  infiniteQueryOptions({
    queryKey: ['motRanked', 'list', params],
    queryFn: ({ pageParam }) => request(endpoints.getRankedToday, { ...params, pageNum: pageParam, pageSize: PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.pageNum + 1 : undefined),
  });

/** The day's figure and today's counts by type: the ranked day's first row is enough to carry them. */
export const todaySummaryQuery = () =>
  queryOptions({
    queryKey: ['motRanked', 'detail', { summary: true }],
    queryFn: () => request(endpoints.getRankedToday, { pageNum: 1, pageSize: 1 }),
    select: (data) => ({ progress: data.progress, byRule: data.byRule }),
  });

export const eventRankQuery = (eventId: number) =>
  queryOptions({ queryKey: ['motEventRank', 'detail', { eventId }], queryFn: () => request(endpoints.getEventRank, { eventId }) });

export type SnoozeInput = RequestOf<typeof endpoints.snoozeEvent>;

export function useSnoozeEvent() {
  return useMutation({
    mutationFn: (input: SnoozeInput) => request(endpoints.snoozeEvent, input),
    // A conflict (handled elsewhere meanwhile) also leaves stale views: refresh either way.
    onSettled: () => invalidatePendingEvents(),
  });
}
