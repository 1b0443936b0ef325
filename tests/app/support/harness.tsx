/**
 * What the screen suites' harnesses are built from: fixtures, a stand-in for fetch that records
 * every call, and a memory router that mounts a suite's routes above the app's notifications.
 */
import type { ReactNode } from 'react';
import { cleanup, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  useLocation,
  type AnyRoute,
} from '@tanstack/react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import type { RouterContext } from '@/app/guard';
import { Notifications } from '@/components/notifications/Notifications';
import { dismiss, notifications } from '@/components/notifications/store';
import { localDb } from '@/offline/db';
import { connectivity } from '@/offline/runtime';
import { serverInfoKeys } from '@/api/serverInfo';
import { userKeys } from '@/api/user';
import type { ServerInfo, User } from '@/api/types';

export { corpusWith, elementWith, idSequence, makeInfo, userWith } from './fixtures';

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(status === 204 || status === 304 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The API's structured error body. */
export function apiError(
  status: number,
  errors: { attr: string | null; detail: string; code?: string }[],
  extra: Record<string, unknown> = {},
): Response {
  return json(status, {
    type: status >= 500 ? 'server_error' : status === 400 ? 'validation_error' : 'client_error',
    errors: errors.map((error) => ({ code: error.code ?? 'invalid', ...error })),
    ...extra,
  });
}

/** One page of `list`, as the API pages its lists; `link` is the address of another page. */
export function pageOf<T>(list: T[], page: number, size: number, link: (page: number) => string) {
  const start = (page - 1) * size;
  return {
    count: list.length,
    number: page,
    next: start + size < list.length ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: list.slice(start, start + size),
  };
}

export interface Call {
  method: string;
  /** Below /api/v1. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** The JSON body sent, parsed; null without one. */
  body: unknown;
}

export type Handler = (call: Call) => Response | null | Promise<Response | null>;

/**
 * Stands in for fetch: records each call, then lets `answer` reply to it. The calls to one
 * endpoint read as callsTo('DELETE', `/corpus/${id}/`).
 */
export function stubFetch(answer: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries((init?.headers as Record<string, string>) ?? {}))
      headers[key.toLowerCase()] = value;
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v1/, ''),
      query: url.searchParams,
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
    };
    calls.push(call);
    return answer(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  };
}

/**
 * The answer a test gives in place of the fake's: its handler keyed "METHOD /path/", else the
 * one keyed "/path/"; a handler's null leaves the call to the fake.
 */
export async function overridden(
  overrides: Record<string, Handler> | undefined,
  call: Call,
): Promise<Response | null> {
  for (const key of [`${call.method} ${call.path}`, call.path]) {
    const override = overrides?.[key];
    const answer = override && (await override(call));
    if (answer) return answer;
  }
  return null;
}

/** Where every path no route of the suite holds goes, so a test sees where a navigation went. */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">Now at {location.href}</p>;
}

function NotFound() {
  return <h1>Page not found</h1>;
}

/** A root route as the app's: the page, then the notifications. */
export function makeRoot() {
  return createRootRouteWithContext<RouterContext>()({
    component: () => (
      <>
        <Outlet />
        <Notifications />
      </>
    ),
  });
}

type Root = ReturnType<typeof makeRoot>;

/** The routes under `root`, then the one that shows any other path as "Now at <href>". */
export function routesUnder(root: Root, routes: AnyRoute[]) {
  const elsewhere = createRoute({ getParentRoute: () => root, path: '$', component: Elsewhere });
  return root.addChildren([...routes, elsewhere]);
}

/** The app's freshness (src/app/router.tsx): a page does not refetch what its loader fetched. */
export const APP_STALE_TIME = 30_000;

export interface Seed {
  /** Server info in the cache; `null` leaves it out, as when the server is unreachable. */
  info?: ServerInfo | null;
  /** The current user; `null` is an anonymous visitor, `undefined` leaves the cache empty. */
  user?: User | null;
  /** How long fetched data stays fresh; 0, the default, fetches again on every mount. */
  staleTime?: number;
}

/** A query client that gives up at once, seeded as the navigation guard leaves the cache. */
export function seededQueryClient({ info, user, staleTime = 0 }: Seed = {}): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime }, mutations: { retry: false } },
  });
  if (info) queryClient.setQueryData(serverInfoKeys.all, info);
  if (user !== undefined) queryClient.setQueryData(userKeys.current, user);
  return queryClient;
}

export interface RenderOptions extends Seed {
  /** The URL the browser opens. */
  url: string;
  /** Wraps the app, e.g. in a context provider or StrictMode. */
  wrap?: (ui: ReactNode) => ReactNode;
}

/** Opens `url` in a memory router holding `tree`, with the router's context the app gives. */
export function renderRoutes(tree: AnyRoute, options: RenderOptions) {
  const { url, wrap = (ui) => ui, ...seed } = options;
  const queryClient = seededQueryClient(seed);
  const history = createMemoryHistory({ initialEntries: [url] });
  const router = createRouter({
    routeTree: tree,
    context: { queryClient },
    history,
    // As the app's router: "/browse/" and "/browse" are different pages.
    trailingSlash: 'preserve',
    defaultNotFoundComponent: NotFound,
  });
  // jsdom has no scrolling; the router's scroll handling would only complain about it.
  window.scrollTo = () => undefined;
  const result = render(
    wrap(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    ),
  );
  return { ...result, queryClient, router, history };
}

export function clearNotifications(): void {
  for (const notification of notifications.get()) dismiss(notification.id);
}

/**
 * Each test starts with no notification on screen, no query kept from a previous one, and the
 * API reachable: a read still in flight when the previous test unstubbed fetch reports the
 * network gone, and nothing probes it back in tests.
 */
export async function resetClientState(): Promise<void> {
  clearNotifications();
  connectivity.store.set({ online: true, checkedAt: null });
  await localDb.queries.clear();
}

/**
 * Starts each test of the suite afresh, and takes away after it what it rendered and the globals
 * it stubbed (fetch above all).
 */
export function isolateEachTest(): void {
  beforeEach(resetClientState);
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    // Reads a finished test left running still call fetch: they are cut short, rather than
    // reaching the real fetch, failing and telling the next test the network is gone.
    vi.stubGlobal('fetch', () =>
      Promise.reject(new DOMException('The test that made this request is over.', 'AbortError')),
    );
  });
}
