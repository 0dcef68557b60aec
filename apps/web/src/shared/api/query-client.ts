import { QueryClient } from '@tanstack/react-query';

/** Server data lives here; errors already reach the user through the request layer's toast. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
