import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorCode, endpoints, type RequestOf } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { request } from '../../shared/api/request';
import { showToast } from '../../shared/api/toast';
import type { Shortcuts } from '@broker/contract';
import { shortcutsQuery } from './manage-queries';

/** The writes of pins, recent searches and saved filters (ADR 0049), for the pages and sheets that make them. */

/** Puts the server's answer to a write into the one query. */
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
    onError: (error) => showToast(error instanceof ApiError && error.code === ErrorCode.CONFLICT ? fullMessage() : error.message),
  });
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
