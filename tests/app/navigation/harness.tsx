import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  useLocation,
} from '@tanstack/react-router';
import { vi } from 'vitest';
import type { RouterContext } from '@/app/guard';
import { Route as navigationRoute } from '@/routes/browse/$corpusId';
import { Notifications } from '@/components/notifications/Notifications';
import { dismiss, notifications } from '@/components/notifications/store';
import { localDb } from '@/offline/db';
import { serverInfoKeys } from '@/api/serverInfo';
import { userKeys } from '@/api/user';
import type {
  Corpus,
  ElementListItem,
  ElementType,
  MlClassRef,
  ServerInfo,
  User,
} from '@/api/types';

export const SERVER_INFO: ServerInfo = {
  version: '1.9.0',
  features: {
    search: false,
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

export const TYPES: ElementType[] = [
  { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
  { id: uuid(), slug: 'volume', display_name: 'Volume', folder: true, color: '2f5a8a' },
  { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
  { id: uuid(), slug: 'text_line', display_name: 'Text line', folder: false, color: 'aaaaaa' },
];

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

export function makeCorpus(overrides: Partial<Corpus> = {}): Corpus {
  return {
    id: uuid(),
    name: 'Letters of the Lovelace family',
    description: '',
    public: true,
    indexable: false,
    created: '2024-05-01T10:00:00Z',
    types: TYPES,
    rights: ['read'],
    top_level_type: null,
    ...overrides,
  };
}

export function makeElement(overrides: Partial<ElementListItem> = {}): ElementListItem {
  const id = overrides.id ?? uuid();
  return {
    id,
    type: 'page',
    name: `Element ${id.slice(-4)}`,
    corpus: { id: uuid() },
    thumbnail_url: null,
    zone: null,
    rotation_angle: 0,
    mirrored: false,
    confidence: null,
    created: '2024-05-01T10:00:00Z',
    worker_run: null,
    ...overrides,
  };
}

/** A page element on a 1000×1500 image; `polygon` makes it a zone of that image. */
export function onImage(
  overrides: Partial<ElementListItem> = {},
  polygon: [number, number][] = [
    [0, 0],
    [0, 1500],
    [1000, 1500],
    [1000, 0],
    [0, 0],
  ],
): ElementListItem {
  const imageId = uuid();
  return makeElement({
    zone: {
      id: uuid(),
      polygon,
      url: 'unused',
      image: {
        id: imageId,
        path: `${imageId}.jpg`,
        width: 1000,
        height: 1500,
        url: `https://iiif.example.org/iiif/2/${imageId}`,
        s3_url: null,
        status: 'checked',
        server: {
          display_name: 'Test',
          url: 'https://iiif.example.org/iiif/2',
          max_width: null,
          max_height: null,
        },
      },
    },
    ...overrides,
  });
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
): Response {
  return json(status, {
    type: status >= 500 ? 'server_error' : status === 400 ? 'validation_error' : 'client_error',
    errors: errors.map((error) => ({ code: error.code ?? 'invalid', ...error })),
  });
}

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The JSON body sent, parsed; null without one. */
  body: unknown;
}

type Handler = (call: Call) => Response | null | Promise<Response | null>;

export interface FakeServerOptions {
  corpora: Corpus[];
  /** Elements per project id; lists filter them by type, name and folder. */
  elements?: Record<string, ElementListItem[]>;
  /** ML classes per project id; a project without an entry answers 404, as a server without classes. */
  classes?: Record<string, MlClassRef[]>;
  /** Replaces the element list answer, e.g. with an error. */
  listElements?: Handler;
  /**
   * Tried first, keyed "METHOD /path/" or "/path/" below /api/v1; null falls through to the
   * fake, which answers GETs only.
   */
  overrides?: Record<string, Handler>;
}

/** A stand-in for the API server with the contract's answers, recording every call. */
export function fakeServer(options: FakeServerOptions) {
  const calls: Call[] = [];
  const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);

  function listElements(call: Call, corpusId: string): Response {
    const corpus = options.corpora.find((c) => c.id === corpusId);
    if (!corpus) return notFound();
    const q = call.query;
    let list = options.elements?.[corpusId] ?? [];
    const type = q.get('type');
    if (type) list = list.filter((element) => element.type === type);
    const name = q.get('name');
    if (name) list = list.filter((e) => e.name.toLowerCase().includes(name.toLowerCase()));
    const folder = q.get('folder');
    if (folder) {
      const folders = new Set(corpus.types.filter((t) => t.folder).map((t) => t.slug));
      list = list.filter((element) => folders.has(element.type) === (folder === 'true'));
    }
    const page = Number(q.get('page') ?? '1');
    const size = Number(q.get('page_size') ?? '20');
    const start = (page - 1) * size;
    if (list.length > 0 && start >= list.length) {
      return apiError(404, [{ attr: null, detail: 'Invalid page.' }]);
    }
    const link = (n: number) => `http://localhost/api/v1/corpus/${corpusId}/elements/?page=${n}`;
    return json(200, {
      count: list.length,
      number: page,
      next: start + size < list.length ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: list.slice(start, start + size),
    });
  }

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v1/, ''),
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
    };
    calls.push(call);
    for (const key of [`${call.method} ${call.path}`, call.path]) {
      const override = options.overrides?.[key];
      const answer = override && (await override(call));
      if (answer) return answer;
    }
    if (call.method !== 'GET') return apiError(405, [{ attr: null, detail: 'Not allowed.' }]);
    let match = call.path.match(/^\/corpus\/([^/]+)\/$/);
    if (match) {
      const corpus = options.corpora.find((c) => c.id === match![1]);
      return corpus ? json(200, corpus) : notFound();
    }
    match = call.path.match(/^\/corpus\/([^/]+)\/elements\/$/);
    if (match) return (await options.listElements?.(call)) ?? listElements(call, match[1]!);
    match = call.path.match(/^\/corpus\/([^/]+)\/classes\/$/);
    if (match) {
      const classes = options.classes?.[match[1]!];
      if (!classes) return notFound();
      return json(200, { count: classes.length, next: null, previous: null, results: classes });
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    calls,
    /** The element list requests, oldest first. */
    listCalls: () => calls.filter((call) => /^\/corpus\/[^/]+\/elements\/$/.test(call.path)),
    lastList: () => {
      const list = calls.filter((call) => /^\/corpus\/[^/]+\/elements\/$/.test(call.path));
      return list[list.length - 1];
    },
  };
}

function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">Now at {location.href}</p>;
}

function ElementPage() {
  const location = useLocation();
  return <h1>Element page {location.pathname}</h1>;
}

function NotFound() {
  return <h1>Page not found</h1>;
}

const root = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <Notifications />
    </>
  ),
});
// The real navigation route, with its search validation, redirect and loader, mounted as the
// route generator mounts it.
const navigation = navigationRoute.update({
  id: '/browse/$corpusId',
  path: '/browse/$corpusId',
  getParentRoute: () => root,
} as never);
const element = createRoute({
  getParentRoute: () => root,
  path: '/element/$id',
  component: ElementPage,
});
const rest = createRoute({ getParentRoute: () => root, path: '$', component: Elsewhere });
const routeTree = root.addChildren([navigation, element, rest]);

/** Opens `url` in a memory router holding the navigation route; `user` null is anonymous. */
export function renderNavigation(url: string, user: User | null = null) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } },
  });
  queryClient.setQueryData(serverInfoKeys.all, SERVER_INFO);
  queryClient.setQueryData(userKeys.current, user);
  const history = createMemoryHistory({ initialEntries: [url] });
  const router = createRouter({
    routeTree,
    context: { queryClient },
    history,
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
  return { ...result, queryClient, router, history };
}

/** Each test starts with no notification on screen and no query kept from a previous one. */
export async function resetClientState(): Promise<void> {
  for (const notification of notifications.get()) dismiss(notification.id);
  await localDb.queries.clear();
}
