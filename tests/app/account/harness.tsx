import { StrictMode, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  useLocation,
} from '@tanstack/react-router';
import { vi } from 'vitest';
import { Notifications } from '@/components/notifications/Notifications';
import { dismiss, notifications } from '@/components/notifications/store';
import { serverInfoKeys } from '@/api/serverInfo';
import { userKeys } from '@/api/user';
import type { ServerInfo, User } from '@/api/types';

export const SERVER_INFO: ServerInfo = {
  version: '1.9.0',
  features: {
    search: true,
    selection: true,
    signup: true,
    ingest: false,
    enterprise: false,
    pdf_export: true,
    pagexml_export: true,
    docx_export: true,
    csv_export: true,
  },
  banner: null,
};

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '0b5a4c6e-7f1d-4c3b-9a2e-1d2c3b4a5f60',
    email: 'ada@example.org',
    display_name: 'Ada',
    is_admin: false,
    verified_email: true,
    has_usable_password: true,
    can_manage_workers: false,
    can_ingest: false,
    features: {},
    ...overrides,
  };
}

/** The structured error body of the API. */
export function apiError(
  status: number,
  errors: { attr: string | null; detail: string; code?: string }[],
): Response {
  return json(status, {
    type: status >= 500 ? 'server_error' : status === 400 ? 'validation_error' : 'client_error',
    errors: errors.map((error) => ({ code: error.code ?? 'invalid', ...error })),
  });
}

export function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (call: Call) => Response | Promise<Response>;

/**
 * Stands in for the server: handlers are keyed "METHOD /path/" (below /api/v1); a call with no
 * handler fails the test loudly with a 500 naming it.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const call: Call = {
      method,
      path,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
    };
    calls.push(call);
    const handler = handlers[`${method} ${path}`];
    if (!handler) return apiError(500, [{ attr: null, detail: `Unexpected ${method} ${path}` }]);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** The calls to one endpoint, e.g. callsTo('POST /user/login/'). */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}

function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">Now at {location.href}</p>;
}

interface RenderOptions {
  /** The route pattern the page is mounted at, e.g. "/user/reset/$uidb64/$token". */
  path: string;
  /** The URL the browser opens. */
  url: string;
  page: () => ReactNode;
  user?: User | null;
  info?: ServerInfo;
  strict?: boolean;
}

/**
 * Mounts one page in a memory router whose every other path renders "Now at <href>", so a
 * test sees where a navigation went. Server info and the current user start in the cache, as
 * the navigation guard leaves them.
 */
export function renderPage(options: RenderOptions) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  queryClient.setQueryData(serverInfoKeys.all, options.info ?? SERVER_INFO);
  if (options.user !== undefined) queryClient.setQueryData(userKeys.current, options.user);

  const root = createRootRoute({
    component: () => (
      <>
        <Outlet />
        <Notifications />
      </>
    ),
  });
  const page = createRoute({
    getParentRoute: () => root,
    path: options.path,
    component: options.page,
  });
  const rest = createRoute({ getParentRoute: () => root, path: '$', component: Elsewhere });
  const router = createRouter({
    routeTree: root.addChildren([page, rest]),
    history: createMemoryHistory({ initialEntries: [options.url] }),
    // As the app's router: "/browse/" and "/browse" are different pages.
    trailingSlash: 'preserve',
  });
  // jsdom has no scrolling; the router's scroll handling would only log about it.
  window.scrollTo = () => undefined;

  const tree = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  const result = render(options.strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...result, queryClient, router };
}

export function clearNotifications(): void {
  for (const notification of notifications.get()) dismiss(notification.id);
}
