import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, showApiError } from './api';

/**
 * One client for the app: every failed query or mutation toasts its translated
 * error (401 is handled by the api client itself). Mutations can opt out with
 * `meta: { silent: true }`.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (err) => showApiError(err) }),
  mutationCache: new MutationCache({
    onError: (err, _vars, _ctx, mutation) => {
      if (mutation.meta?.silent) return;
      showApiError(err);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError) && count < 2,
    },
  },
});
