import { createRoute, useLocation } from '@tanstack/react-router';
import { Route as navigationRoute } from '@/routes/browse/$corpusId';
import type { Corpus, ElementListItem, ElementType, MlClassRef, User } from '@/api/types';
import {
  APP_STALE_TIME,
  apiError,
  corpusWith,
  elementWith,
  idSequence,
  json,
  makeInfo,
  makeRoot,
  overridden,
  pageOf,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
  type Call,
  type Handler,
} from '../support/harness';

export {
  apiError,
  isolateEachTest,
  json,
  resetClientState,
  type Call,
  type Handler,
} from '../support/harness';

export const SERVER_INFO = makeInfo({ selection: true, signup: true });

export const uuid = idSequence('8000');

export const TYPES: ElementType[] = [
  { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
  { id: uuid(), slug: 'volume', display_name: 'Volume', folder: true, color: '2f5a8a' },
  { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
  { id: uuid(), slug: 'text_line', display_name: 'Text line', folder: false, color: 'aaaaaa' },
];

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith(uuid(), overrides);
}

export function makeCorpus(overrides: Partial<Corpus> = {}): Corpus {
  return corpusWith({
    id: uuid(),
    name: 'Letters of the Lovelace family',
    public: true,
    types: TYPES,
    rights: ['read'],
    ...overrides,
  });
}

export function makeElement(overrides: Partial<ElementListItem> = {}): ElementListItem {
  const id = overrides.id ?? uuid();
  return elementWith({
    id,
    type: 'page',
    name: `Element ${id.slice(-4)}`,
    corpus: { id: uuid() },
    ...overrides,
  });
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
    if (list.length > 0 && (page - 1) * size >= list.length) {
      return apiError(404, [{ attr: null, detail: 'Invalid page.' }]);
    }
    const link = (n: number) => `http://localhost/api/v1/corpus/${corpusId}/elements/?page=${n}`;
    return json(200, pageOf(list, page, size, link));
  }

  const { calls } = stubFetch(async (call) => {
    const answer = await overridden(options.overrides, call);
    if (answer) return answer;
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

function ElementPage() {
  const location = useLocation();
  return <h1>Element page {location.pathname}</h1>;
}

const root = makeRoot();
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
const routeTree = routesUnder(root, [navigation, element]);

/** Opens `url` in a memory router holding the navigation route; `user` null is anonymous. */
export function renderNavigation(url: string, user: User | null = null) {
  return renderRoutes(routeTree, { url, user, info: SERVER_INFO, staleTime: APP_STALE_TIME });
}
