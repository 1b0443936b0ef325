import './domStubs';
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { serverInfoKeys } from '@/api/serverInfo';
import { userKeys } from '@/api/user';
import type { ServerInfo, User } from '@/api/types';

export interface Seed {
  /** Server info in the cache; `null` leaves it out, as when the server is unreachable. */
  info?: ServerInfo | null;
  /** The current user; `null` is an anonymous visitor, `undefined` leaves the cache empty. */
  user?: User | null;
}

export function seededQueryClient({ info, user }: Seed = {}): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  if (info) queryClient.setQueryData(serverInfoKeys.all, info);
  if (user !== undefined) queryClient.setQueryData(userKeys.current, user);
  return queryClient;
}

/**
 * Renders `ui` on every path of a throw-away router, so the shell's links resolve and
 * `useRouterState` answers, without loading the app's real routes.
 */
export function renderInRouter(ui: ReactNode, seed: Seed & { path?: string } = {}) {
  const queryClient = seededQueryClient(seed);
  const rootRoute = createRootRoute({
    component: () => (
      <>
        {ui}
        <Outlet />
      </>
    ),
  });
  const anyPath = createRoute({
    getParentRoute: () => rootRoute,
    path: '$',
    component: () => null,
  });
  const history = createMemoryHistory({ initialEntries: [seed.path ?? '/'] });
  // Same trailing-slash rule as the app's router, so hrefs read as they will in the app.
  const router = createRouter({
    routeTree: rootRoute.addChildren([anyPath]),
    history,
    trailingSlash: 'preserve',
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router, history };
}

/** A fetch stub that answers each call with the next of the given responses. */
export function fetchReplies(...replies: { status: number; body?: unknown }[]) {
  const calls: { url: string; method: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method ?? 'GET' });
    const next = replies.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
      status: next.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, calls };
}
