import { queryOptions, useMutation } from '@tanstack/react-query';
import type { MotRule } from '@broker/contract';
import { endpoints, type RequestOf } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { pagedQuery } from '../../shared/api/paged-query';
import { invalidatePendingEvents, queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { motFoldQuery } from '../staff';
import { addDays, hongKongDay } from '@broker/domain';

const PAGE_SIZE = 20;

/** The date strip: 275 days back to 90 ahead (a snooze's furthest), within one call, so it never skips a day with events (ADR 0041). */
export const STRIP_RANGE = { back: 275, ahead: 90 } as const;
export const todoDatesQuery = () =>
  queryOptions({
    queryKey: ['motTodoDates', 'list', {}],
    queryFn: () => {
      const today = hongKongDay();
      return request(endpoints.getTodoDates, { dateFrom: addDays(today, -STRIP_RANGE.back), dateTo: addDays(today, STRIP_RANGE.ahead) });
    },
  });

export const todoCountQuery = (date: string) =>
  queryOptions({ queryKey: ['motTodoCount', 'detail', { date }], queryFn: () => request(endpoints.getTodoTaskCount, { date }) });

export const todoClientsQuery = (params: { date: string; rule?: MotRule }) =>
  pagedQuery('motTodoClients', params, (pageNum) => request(endpoints.getTodoClients, { ...params, pageNum, pageSize: PAGE_SIZE }));

export const eventDetailQuery = (eventId: number) =>
  queryOptions({ queryKey: ['motEvent', 'detail', { eventId }], queryFn: () => request(endpoints.getTodoTaskDetail, { eventId }) });

export type HistoryFilter = Omit<RequestOf<typeof endpoints.searchServiceHistory>, 'pageNum' | 'pageSize'>;

export const serviceHistoryQuery = (filter: HistoryFilter) =>
  pagedQuery('motServiceHistory', filter, (pageNum) =>
    request(endpoints.searchServiceHistory, { ...filter, pageNum, pageSize: PAGE_SIZE }),
  );

export const clientHistoryQuery = (customerId: number) =>
  pagedQuery('motClientHistory', { customerId }, (pageNum) =>
    request(endpoints.getClientHistory, { customerId, pageNum, pageSize: PAGE_SIZE }),
  );

export const minCashIoQuery = () =>
  queryOptions({ queryKey: ['motMinCashIO', 'detail', {}], queryFn: () => request(endpoints.getMinCashIO, {}) });

export function useMarkSeen() {
  return useMutation({
    mutationFn: (eventIds: number[]) => request(endpoints.markEventsSeen, { eventIds }, { silent: true }),
    onSuccess: () => invalidatePendingEvents(),
  });
}

/** Handling or snoozing an event; a conflict (handled elsewhere meanwhile) also leaves stale views: refresh either way. */
const useEventMutation = <E extends typeof endpoints.handleEvent | typeof endpoints.snoozeEvent>(endpoint: E) =>
  useMutation({ mutationFn: (input: RequestOf<E>) => request(endpoint, input), onSettled: () => invalidatePendingEvents() });

export const useHandleEvent = () => useEventMutation(endpoints.handleEvent);

export function useSetMinCashIo() {
  return useMutation({
    mutationFn: (minCashIO: number) => request(endpoints.setMinCashIO, { minCashIO }),
    onSuccess: async (data) => {
      queryClient.setQueryData(minCashIoQuery().queryKey, data);
      await invalidatePendingEvents();
    },
  });
}

/** Whether the caller gets WeCom cards for new events (ADR 0042), and the quiet hours. */
export const motPushQuery = () =>
  queryOptions({ queryKey: ['motPush', 'detail', {}], queryFn: () => request(endpoints.getMotPushSetting, {}, { silent: true }) });

export function useSetMotPush() {
  return useMutation({
    mutationFn: (push: boolean) => request(endpoints.setMotPushSetting, { push }),
    onSuccess: (data) => queryClient.setQueryData(motPushQuery().queryKey, data),
  });
}

export function useSetFold() {
  return useMutation({
    mutationFn: (fold: boolean) => request(endpoints.setFold, { isFold: fold }),
    onSuccess: async (fold) => {
      useAppSettings.getState().update({ motFold: fold });
      queryClient.setQueryData(motFoldQuery().queryKey, fold);
      await queryClient.invalidateQueries({ queryKey: ['motTodoClients'] });
    },
  });
}

/** Today's ranked events (ADR 0041), highest score first. */
export const rankedTodayQuery = (params: { rule?: MotRule }) =>
  pagedQuery('motRanked', params, (pageNum) => request(endpoints.getRankedToday, { ...params, pageNum, pageSize: PAGE_SIZE }));

/** The day's figure and today's counts by type: the ranked day's first row is enough to carry them. */
export const todaySummaryQuery = () =>
  queryOptions({
    queryKey: ['motRanked', 'detail', { summary: true }],
    queryFn: () => request(endpoints.getRankedToday, { pageNum: 1, pageSize: 1 }),
    select: (data) => ({ progress: data.progress, byRule: data.byRule }),
  });

export const eventRankQuery = (eventId: number) =>
  queryOptions({ queryKey: ['motEventRank', 'detail', { eventId }], queryFn: () => request(endpoints.getEventRank, { eventId }) });

export const useSnoozeEvent = () => useEventMutation(endpoints.snoozeEvent);
