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
  useLocation,
} from '@tanstack/react-router';
import { vi } from 'vitest';
import { Notifications } from '@/components/notifications/Notifications';
import { dismiss, notifications } from '@/components/notifications/store';
import { localDb } from '@/offline/db';
import { serverInfoKeys } from '@/api/serverInfo';
import { userKeys } from '@/api/user';
import type { Corpus, ElementType, Membership, Right, ServerInfo, User } from '@/api/types';

export const SERVER_INFO: ServerInfo = {
  version: '1.9.0',
  features: {
    search: true,
    selection: true,
    signup: true,
    ingest: false,
    enterprise: false,
    pdf_export: false,
    pagexml_export: false,
    docx_export: false,
    csv_export: false,
  },
  banner: null,
};

let counter = 0;
/** A fresh UUID-shaped id, readable in failure output. */
export function uuid(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: uuid(),
    email: 'ada@example.org',
    display_name: 'Ada Lovelace',
    is_admin: false,
    verified_email: true,
    has_usable_password: true,
    can_manage_workers: false,
    can_ingest: false,
    features: {},
    ...overrides,
  };
}

export const TYPES: ElementType[] = [
  { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
  { id: uuid(), slug: 'volume', display_name: 'Volume', folder: true, color: '2f5a8a' },
  { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
];

const RIGHTS: Record<string, Right[]> = {
  guest: ['read'],
  contributor: ['read', 'write'],
  admin: ['read', 'write', 'admin'],
};

export function makeCorpus(
  overrides: Partial<Corpus> & { role?: 'guest' | 'contributor' | 'admin' } = {},
): Corpus {
  const { role = 'admin', ...rest } = overrides;
  return {
    id: uuid(),
    name: 'A project',
    description: '',
    public: false,
    indexable: false,
    created: '2024-05-01T10:00:00Z',
    types: TYPES,
    rights: RIGHTS[role]!,
    top_level_type: null,
    authorized_users: 1,
    ...rest,
  };
}

export function makeMembership(user: Partial<Membership['user']>, level: number): Membership {
  const id = uuid();
  return {
    id,
    level,
    created: '2024-05-01T10:00:00Z',
    user: {
      id: user.id ?? uuid(),
      email: user.email ?? `user-${id.slice(-4)}@example.org`,
      display_name: user.display_name ?? `User ${id.slice(-4)}`,
    },
  };
}

export function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
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

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = (call: Call, match: RegExpMatchArray) => Response | Promise<Response>;

export interface FakeServerOptions {
  corpora?: Corpus[];
  /** Members per corpus id. */
  members?: Record<string, Membership[]>;
  /** Accounts that exist, for adding members by e-mail. */
  accounts?: Membership['user'][];
  /** Handlers tried before the fake's own, keyed "METHOD /path/" below /api/v1. */
  overrides?: Record<string, Handler>;
}

const PAGE_SIZE = 20;

/**
 * A small stand-in for the API server, with the contract's answers, so tests see the list
 * change after a write as the real app would.
 */
export function fakeServer(options: FakeServerOptions = {}) {
  const corpora = [...(options.corpora ?? [])];
  const members: Record<string, Membership[]> = {};
  for (const [id, list] of Object.entries(options.members ?? {})) members[id] = [...list];
  const accounts = options.accounts ?? [];
  const calls: Call[] = [];

  const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
  const findMembership = (id: string) => {
    for (const [corpusId, list] of Object.entries(members)) {
      const index = list.findIndex((membership) => membership.id === id);
      if (index >= 0) return { corpusId, list, index, membership: list[index]! };
    }
    return null;
  };
  const lastAdmin = (list: Membership[], membership: Membership) =>
    membership.level >= 100 && list.filter((m) => m.level >= 100).length === 1;
  const lastAdminError = () =>
    apiError(400, [{ attr: null, detail: 'A project must keep at least one admin.' }]);

  const routes: [string, RegExp, Handler][] = [
    ['GET', /^\/corpus\/$/, () => json(200, corpora)],
    [
      'POST',
      /^\/corpus\/$/,
      (call) => {
        const body = call.body as { name: string; description?: string; public?: boolean };
        const corpus = makeCorpus({
          name: body.name,
          description: body.description ?? '',
          public: body.public ?? false,
          types: [],
        });
        corpora.push(corpus);
        return json(201, corpus);
      },
    ],
    [
      'GET',
      /^\/corpus\/([^/]+)\/$/,
      (_call, match) => {
        const corpus = corpora.find((c) => c.id === match[1]);
        return corpus ? json(200, corpus) : notFound();
      },
    ],
    [
      'PATCH',
      /^\/corpus\/([^/]+)\/$/,
      (call, match) => {
        const index = corpora.findIndex((c) => c.id === match[1]);
        if (index < 0) return notFound();
        const updated = { ...corpora[index]!, ...(call.body as Partial<Corpus>) };
        corpora[index] = updated;
        return json(200, updated);
      },
    ],
    [
      'DELETE',
      /^\/corpus\/([^/]+)\/$/,
      (_call, match) => {
        const index = corpora.findIndex((c) => c.id === match[1]);
        if (index < 0) return notFound();
        corpora.splice(index, 1);
        return json(204, null);
      },
    ],
    [
      'GET',
      /^\/corpus\/([^/]+)\/memberships\/$/,
      (call, match) => {
        const list = members[match[1]!] ?? [];
        const page = Number(call.query.get('page') ?? '1');
        const start = (page - 1) * PAGE_SIZE;
        const link = (n: number) =>
          `http://localhost/api/v1/corpus/${match[1]}/memberships/?page=${n}`;
        return json(200, {
          count: list.length,
          number: page,
          next: start + PAGE_SIZE < list.length ? link(page + 1) : null,
          previous: page > 1 ? link(page - 1) : null,
          results: list.slice(start, start + PAGE_SIZE),
        });
      },
    ],
    [
      'POST',
      /^\/memberships\/$/,
      (call) => {
        const body = call.body as { corpus_id: string; user_email: string; level: number };
        const account = accounts.find(
          (a) => a.email.toLowerCase() === body.user_email.toLowerCase(),
        );
        if (!account) {
          return apiError(400, [
            { attr: 'user_email', detail: 'No user with this email address exists.' },
          ]);
        }
        const list = (members[body.corpus_id] ??= []);
        const existing = list.find((m) => m.user.id === account.id);
        if (existing) {
          return apiError(
            409,
            [
              {
                attr: null,
                detail: 'This user is already a member of this project.',
                code: 'conflict',
              },
            ],
            { existing_id: existing.id },
          );
        }
        const membership = makeMembership(account, body.level);
        list.push(membership);
        return json(201, membership);
      },
    ],
    [
      'PATCH',
      /^\/membership\/([^/]+)\/$/,
      (call, match) => {
        const found = findMembership(match[1]!);
        if (!found) return notFound();
        const level = (call.body as { level: number }).level;
        if (level < 100 && lastAdmin(found.list, found.membership)) return lastAdminError();
        const updated = { ...found.membership, level };
        found.list[found.index] = updated;
        return json(200, updated);
      },
    ],
    [
      'DELETE',
      /^\/membership\/([^/]+)\/$/,
      (_call, match) => {
        const found = findMembership(match[1]!);
        if (!found) return notFound();
        if (lastAdmin(found.list, found.membership)) return lastAdminError();
        found.list.splice(found.index, 1);
        return json(204, null);
      },
    ],
  ];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const call: Call = {
      method,
      path,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
    };
    calls.push(call);
    const override = options.overrides?.[`${method} ${path}`];
    if (override) return override(call, [path] as RegExpMatchArray);
    for (const [routeMethod, pattern, handler] of routes) {
      const match = path.match(pattern);
      if (routeMethod === method && match) return handler(call, match);
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${method} ${path}` }]);
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    corpora,
    members,
    calls,
    /** The calls to one endpoint, e.g. callsTo('DELETE', `/corpus/${id}/`). */
    callsTo: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  };
}

function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">Now at {location.href}</p>;
}

function NotFound() {
  return <h1>Page not found</h1>;
}

interface RenderOptions {
  /** The route pattern the page is mounted at, e.g. "/corpus/$corpusId". */
  path: string;
  /** The URL the browser opens. */
  url: string;
  page: () => ReactNode;
  /** The current user; null for an anonymous visitor. */
  user: User | null;
  loader?: (queryClient: QueryClient, params: Record<string, string>) => Promise<unknown>;
}

/**
 * Mounts one page in a memory router; every other path renders "Now at <href>", so a test sees
 * where a navigation went. The current user starts in the cache, as the guard leaves it.
 */
export function renderPage(options: RenderOptions) {
  const queryClient = new QueryClient({
    // The app's freshness, so a page does not refetch what its loader just fetched.
    defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } },
  });
  queryClient.setQueryData(serverInfoKeys.all, SERVER_INFO);
  queryClient.setQueryData(userKeys.current, options.user);

  const root = createRootRoute({
    component: () => (
      <>
        <Outlet />
        <Notifications />
      </>
    ),
  });
  const loader = options.loader;
  const page = createRoute({
    getParentRoute: () => root,
    path: options.path,
    component: options.page,
    ...(loader && {
      loader: ({ params }: { params: Record<string, string> }) => loader(queryClient, params),
    }),
  });
  const rest = createRoute({ getParentRoute: () => root, path: '$', component: Elsewhere });
  const router = createRouter({
    routeTree: root.addChildren([page, rest]),
    history: createMemoryHistory({ initialEntries: [options.url] }),
    trailingSlash: 'preserve',
    defaultNotFoundComponent: NotFound,
  });
  // jsdom has no scrolling; the router's scroll handling would only complain about it.
  window.scrollTo = () => undefined;

  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}

/** Each test starts with no notification on screen and no query kept from a previous one. */
export async function resetClientState(): Promise<void> {
  for (const notification of notifications.get()) dismiss(notification.id);
  await localDb.queries.clear();
}
