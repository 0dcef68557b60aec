import { QueryClient } from '@tanstack/react-query';

/** Server data lives here; errors already reach the user through the request layer's toast. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

/** Everything that shows pending MOT events: refreshed after MOT work and after a contact record (which may handle a linked event). */
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
