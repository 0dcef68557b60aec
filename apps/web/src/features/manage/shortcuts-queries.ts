import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Shortcuts } from '@broker/contract';
import { ErrorCode, endpoints, type RequestOf } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { showFailureToast } from '../../shared/api/toast';
import { request } from '../../shared/api/request';

/*
 * Pins, recents and saved filters (issue 22.6, ADR 0049) live on the server, per staff member: one query
 * feeds the list, the search page and every pin toggle, and each write puts the server's answer back in it.
 */

export const shortcutsQuery = () =>
  queryOptions({
    queryKey: ['shortcuts', 'detail', {}],
    queryFn: ({ signal }) => request(endpoints.getShortcuts, {}, { signal }),
  });

function useShortcutsUpdate() {
  const client = useQueryClient();
  return (change: Partial<Shortcuts>) =>
    client.setQueryData(shortcutsQuery().queryKey, (current) => (current ? { ...current, ...change } : current));
}

/** Pin or unpin; a refusal for the cap (090409) is said in the reader's language, anything else as the server said it. */
export function usePinClient(fullMessage: () => string) {
  const update = useShortcutsUpdate();
  return useMutation({
    mutationFn: (input: { customerId: number; pinned: boolean }) => request(endpoints.setClientPin, input, { silent: true }),
    onSuccess: ({ pinned }) => update({ pinned }),
    onError: (error) => showFailureToast(error instanceof ApiError && error.code === ErrorCode.CONFLICT ? fullMessage() : error.message),
  });
}

/** Opening a client from the list or a search: it joins the recent clients, and the search that found it the recent searches. */
export function useRecordOpened() {
  const update = useShortcutsUpdate();
  const mutation = useMutation({
    // Silent: remembering is a courtesy, never in the way of opening the client.
    mutationFn: (input: { customerId: number; search?: string }) => request(endpoints.recordClientOpened, input, { silent: true }),
    onSuccess: (recent) => update(recent),
  });
  return (customerId: number, keyword = '') => {
    const trimmed = keyword.trim().slice(0, 50);
    mutation.mutate(trimmed ? { customerId, search: trimmed } : { customerId });
  };
}

export function useForgetSearches() {
  const update = useShortcutsUpdate();
  return useMutation({
    mutationFn: (input: { search?: string }) => request(endpoints.forgetRecentSearches, input),
    onSuccess: (recent) => update(recent),
  });
}

export function useSaveFilter() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RequestOf<typeof endpoints.saveFilter>) => request(endpoints.saveFilter, input),
    onSuccess: () => client.invalidateQueries({ queryKey: shortcutsQuery().queryKey }),
  });
}

export function useDeleteFilter() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (filterId: number) => request(endpoints.deleteSavedFilter, { filterId }),
    onSuccess: ({ filterId }) =>
      client.setQueryData(shortcutsQuery().queryKey, (current) =>
        current ? { ...current, savedFilters: current.savedFilters.filter((saved) => saved.filterId !== filterId) } : current,
      ),
  });
}
