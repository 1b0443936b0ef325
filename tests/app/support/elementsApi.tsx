/**
 * Element page and image page tests: fixtures, a stand-in for the element endpoints (children
 * with Last-Modified and If-Modified-Since, neighbours, images) and the real routes mounted in
 * a memory router, so what a test sees is what the app shows.
 */
import '../shell/domStubs';
import type { ReactNode } from 'react';
import { Route as elementRoute } from '@/routes/element/$id';
import { Route as imageRoute } from '@/routes/image/$imageId';
import type {
  Corpus,
  Element,
  ElementListItem,
  ElementRef,
  ElementType,
  ImageInfo,
  Neighbors,
  Polygon,
  User,
} from '@/api/types';
import {
  APP_STALE_TIME,
  corpusWith,
  elementWith,
  idSequence,
  json,
  makeInfo,
  makeRoot,
  overridden,
  pageOf,
  apiError as structuredError,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
  type Call,
  type Handler,
} from './harness';

export { isolateEachTest, json, resetClientState, type Call, type Handler } from './harness';

export const SERVER_INFO = makeInfo({ search: true, selection: true, signup: true });

export const uuid = idSequence('9000');

export const TYPES: ElementType[] = [
  { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
  { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
  { id: uuid(), slug: 'text_region', display_name: 'Text region', folder: false, color: '2f5a8a' },
  { id: uuid(), slug: 'text_line', display_name: 'Text line', folder: false, color: 'aa00aa' },
  { id: uuid(), slug: 'act', display_name: 'Act', folder: false, color: '555555' },
];

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith(uuid(), overrides);
}

export function makeCorpus(overrides: Partial<Corpus> = {}): Corpus {
  return corpusWith({
    id: uuid(),
    name: 'Registers of Le Creusot',
    public: true,
    types: TYPES,
    rights: ['read', 'write', 'admin'],
    ...overrides,
  });
}

export function makeImage(overrides: Partial<ImageInfo> = {}): ImageInfo {
  const id = overrides.id ?? uuid();
  return {
    id,
    path: `${id}.jpg`,
    width: 1000,
    height: 1500,
    url: `https://iiif.example.org/iiif/2/${id}`,
    s3_url: null,
    status: 'checked',
    server: {
      display_name: 'Test',
      url: 'https://iiif.example.org/iiif/2',
      max_width: null,
      max_height: null,
    },
    ...overrides,
  };
}

export function rect(x: number, y: number, width: number, height: number): Polygon {
  return [
    [x, y],
    [x, y + height],
    [x + width, y + height],
    [x + width, y],
    [x, y],
  ];
}

export function makeElement(
  corpus: Corpus,
  overrides: Partial<Element> & { image?: ImageInfo; polygon?: Polygon } = {},
): Element {
  const { image, polygon, ...rest } = overrides;
  const id = rest.id ?? uuid();
  return elementWith({
    id,
    type: 'page',
    name: `Element ${id.slice(-4)}`,
    corpus: { id: corpus.id, name: corpus.name, public: corpus.public },
    zone: image
      ? {
          id: uuid(),
          polygon: polygon ?? rect(0, 0, image.width, image.height),
          image,
          url: `${image.url}/full/full/0/default.jpg`,
        }
      : null,
    has_children: null,
    rights: corpus.rights,
    classifications: [],
    ...rest,
  });
}

/** Children named "Line 1"… of a type, for list and tree tests. */
export function makeChildren(
  corpus: Corpus,
  count: number,
  overrides: (
    index: number,
  ) => Partial<Element> & { image?: ImageInfo; polygon?: Polygon } = () => ({}),
): Element[] {
  return Array.from({ length: count }, (_, index) =>
    makeElement(corpus, { name: `Line ${index + 1}`, type: 'text_line', ...overrides(index) }),
  );
}

export const ref = (element: Pick<Element, 'id' | 'type' | 'name'>): ElementRef => ({
  id: element.id,
  type: element.type,
  name: element.name,
});

export function apiError(status: number, detail: string): Response {
  return structuredError(status, [
    { attr: null, detail, code: status === 404 ? 'not_found' : 'error' },
  ]);
}

export interface ElementsApiOptions {
  corpus: Corpus;
  elements: Element[];
  /** Children per parent id, in position order. */
  children?: Record<string, Element[]>;
  neighbours?: Record<string, Neighbors[]>;
  images?: ImageInfo[];
  /** Elements per image id, for the image elements page. */
  imageElements?: Record<string, ElementListItem[]>;
  /**
   * Tried first, keyed "METHOD /path/" or "/path/" below /api/v1; null falls through to the
   * fake, which answers GETs only.
   */
  overrides?: Record<string, Handler>;
}

const INITIAL_MODIFIED = new Date('2024-06-01T10:00:00Z');

/**
 * The element endpoints with the contract's answers. Children lists carry Last-Modified per
 * parent and answer 304 to If-Modified-Since until `touch(parentId)` records a change.
 */
export function elementsApi(options: ElementsApiOptions) {
  const children = options.children ?? {};
  const modified = new Map<string, Date>();
  const lastModified = (id: string) => modified.get(id) ?? INITIAL_MODIFIED;
  const notFound = () => apiError(404, 'Not found.');

  const descendants = (id: string): Element[] =>
    (children[id] ?? []).flatMap((child) => [child, ...descendants(child.id)]);
  const folderTypes = () =>
    new Set(options.corpus.types.filter((type) => type.folder).map((type) => type.slug));

  /** The folder and top_level filters pickers send, and has_children when asked for. */
  function filtered(call: Call, list: ElementListItem[]): ElementListItem[] {
    const folder = call.query.get('folder');
    if (folder) list = list.filter((e) => folderTypes().has(e.type) === (folder === 'true'));
    const topLevel = call.query.get('top_level');
    if (topLevel) {
      const nested = new Set(Object.values(children).flatMap((list) => list.map((e) => e.id)));
      list = list.filter((e) => !nested.has(e.id) === (topLevel === 'true'));
    }
    if (call.query.get('with_has_children') === 'true') {
      list = list.map((e) => ({ ...e, has_children: (children[e.id] ?? []).length > 0 }));
    }
    return list;
  }

  function listChildren(call: Call, parentId: string): Response {
    const since = call.headers['if-modified-since'];
    if (since && new Date(since) >= lastModified(parentId)) return json(304, null);
    const list: ElementListItem[] = filtered(
      call,
      call.query.get('recursive') === 'true' ? descendants(parentId) : (children[parentId] ?? []),
    );
    return answerPage(call, `/elements/${parentId}/children/`, list, {
      'last-modified': lastModified(parentId).toUTCString(),
    });
  }

  function answerPage(
    call: Call,
    path: string,
    list: ElementListItem[],
    headers: Record<string, string> = {},
  ): Response {
    const page = Number(call.query.get('page') ?? '1');
    const size = Number(call.query.get('page_size') ?? '20');
    if (list.length > 0 && (page - 1) * size >= list.length) return apiError(404, 'Invalid page.');
    const link = (n: number) => `http://localhost/api/v1${path}?page=${n}&page_size=${size}`;
    return json(200, pageOf(list, page, size, link), headers);
  }

  const { calls } = stubFetch(async (call) => {
    const answer = await overridden(options.overrides, call);
    if (answer) return answer;
    if (call.method !== 'GET') return apiError(500, `Unexpected ${call.method} ${call.path}`);
    let match = call.path.match(/^\/element\/([^/]+)\/$/);
    if (match) {
      const element = options.elements.find((e) => e.id === match![1]);
      return element ? json(200, element) : notFound();
    }
    match = call.path.match(/^\/corpus\/([^/]+)\/$/);
    if (match) return match[1] === options.corpus.id ? json(200, options.corpus) : notFound();
    match = call.path.match(/^\/corpus\/([^/]+)\/elements\/$/);
    if (match) {
      if (match[1] !== options.corpus.id) return notFound();
      return answerPage(call, call.path, filtered(call, options.elements));
    }
    match = call.path.match(/^\/elements\/([^/]+)\/neighbors\/$/);
    if (match) return json(200, options.neighbours?.[match[1]!] ?? []);
    match = call.path.match(/^\/elements\/([^/]+)\/children\/$/);
    if (match) return listChildren(call, match[1]!);
    match = call.path.match(/^\/image\/([^/]+)\/$/);
    if (match) {
      const image = options.images?.find((i) => i.id === match![1]);
      return image ? json(200, image) : notFound();
    }
    match = call.path.match(/^\/image\/([^/]+)\/elements\/$/);
    if (match) return answerPage(call, call.path, options.imageElements?.[match[1]!] ?? []);
    // The details panel's lists: none unless a suite overrides them.
    if (/^\/element\/[^/]+\/(transcriptions|metadata)\/$/.test(call.path)) {
      return call.path.endsWith('metadata/') ? json(200, []) : answerPage(call, call.path, []);
    }
    if (/^\/corpus\/[^/]+\/(classes|allowed-metadata|datasets)\/$/.test(call.path)) {
      return answerPage(call, call.path, []);
    }
    // The details panel's datasets table (and an offline pack's): in no dataset.
    if (/^\/element\/[^/]+\/sets\/$/.test(call.path)) return answerPage(call, call.path, []);
    return apiError(500, `Unexpected ${call.method} ${call.path}`);
  });

  return {
    calls,
    children,
    /** Records that a parent's children changed (added, removed, moved or renamed). */
    touch(parentId: string) {
      modified.set(parentId, new Date(lastModified(parentId).getTime() + 60_000));
    },
    childrenCalls: (parentId: string) =>
      calls.filter((call) => call.path === `/elements/${parentId}/children/`),
  };
}

const root = makeRoot();
// The real routes, with their search validation and loaders, mounted as the generator does.
const element = elementRoute.update({
  id: '/element/$id',
  path: '/element/$id',
  getParentRoute: () => root,
} as never);
const image = imageRoute.update({
  id: '/image/$imageId',
  path: '/image/$imageId',
  getParentRoute: () => root,
} as never);
const routeTree = routesUnder(root, [element, image]);

/** Opens `url` in a memory router with the element and image routes; `user` null is anonymous. */
export function renderApp(
  url: string,
  user: User | null,
  wrap: (ui: ReactNode) => ReactNode = (ui) => ui,
) {
  return renderRoutes(routeTree, {
    url,
    user,
    info: SERVER_INFO,
    staleTime: APP_STALE_TIME,
    wrap,
  });
}
