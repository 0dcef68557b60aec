import { QueryClient } from '@tanstack/react-query';

/** Server data lives here; errors already reach the user through the request layer's toast. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

/**
 * What shows pending MOT events: the to-do list, its counts and dates, the ranked day, the event and client views.
 * Refreshed after MOT work and after a contact record (a linked event is handled then); one list for both.
 */
const PENDING_EVENT_RESOURCES = [
  'motTodoDates',
  'motTodoCount',
  'motTodoClients',
  'motEvent',
  'motClientHistory',
  'motServiceHistory',
  'motRanked',
  'motEventRank',
];
export async function invalidatePendingEvents() {
  await Promise.all(PENDING_EVENT_RESOURCES.map((resource) => queryClient.invalidateQueries({ queryKey: [resource] })));
}
