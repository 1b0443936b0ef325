import { createRouter } from '@tanstack/react-router';
import { QueryClient } from '@tanstack/react-query';
import { routeTree } from '@/routeTree.gen';
import { ApiError, NetworkError } from '@/api/errors';
import { NotFoundPage } from '@/features/shell/ErrorPages';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30 * 1000,
        // Client mistakes (4xx) are not retried; network failures and 5xx are, a little.
        retry: (count, error) =>
          count < 2 &&
          (error instanceof NetworkError || (error instanceof ApiError && error.status >= 500)),
        networkMode: 'offlineFirst',
      },
      mutations: { networkMode: 'always' },
    },
  });
}

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    trailingSlash: 'preserve',
    scrollRestoration: true,
    defaultNotFoundComponent: NotFoundPage,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  interface StaticDataRouteOption {
    /** The spec's route name. */
    name?: string;
  }
}
