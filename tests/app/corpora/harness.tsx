import type { ReactNode } from 'react';
import { createRoute } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import type { RouterContext } from '@/app/guard';
import type {
  Corpus,
  ElementType,
  Right,
  ServerInfo,
  User,
  UserMembership as Membership,
} from '@/api/types';
import {
  APP_STALE_TIME,
  apiError,
  corpusWith,
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

export { apiError, isolateEachTest, json, resetClientState, type Call } from '../support/harness';

export const SERVER_INFO = makeInfo({ search: true, selection: true, signup: true });

export const uuid = idSequence('8000');

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith(uuid(), overrides);
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
  return corpusWith({
    id: uuid(),
    name: 'A project',
    public: false,
    types: TYPES,
    rights: RIGHTS[role]!,
    authorized_users: 1,
    ...rest,
  });
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

type Route = (call: Call, match: RegExpMatchArray) => Response;

export interface FakeServerOptions {
  corpora?: Corpus[];
  /** Members per corpus id. */
  members?: Record<string, Membership[]>;
  /** Accounts that exist, for adding members by e-mail. */
  accounts?: Membership['user'][];
  /** Answers tried before the fake's own, keyed "METHOD /path/" or "/path/" below /api/v1. */
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

  const routes: [string, RegExp, Route][] = [
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
        const link = (n: number) =>
          `http://localhost/api/v1/corpus/${match[1]}/memberships/?page=${n}`;
        return json(200, pageOf(list, page, PAGE_SIZE, link));
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

  const api = stubFetch(async (call) => {
    const answer = await overridden(options.overrides, call);
    if (answer) return answer;
    for (const [method, pattern, route] of routes) {
      const match = call.path.match(pattern);
      if (method === call.method && match) return route(call, match);
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  });
  return { corpora, members, ...api };
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
  /** The server info in the cache; the community edition's unless given. */
  info?: ServerInfo;
}

/** Mounts one page in a memory router, with the current user in the cache as the guard leaves it. */
export function renderPage(options: RenderOptions) {
  const root = makeRoot();
  const { loader } = options;
  const page = createRoute({
    getParentRoute: () => root,
    path: options.path,
    component: options.page,
    ...(loader && {
      loader: ({ context, params }: { context: RouterContext; params: Record<string, string> }) =>
        loader(context.queryClient, params),
    }),
  });
  return renderRoutes(routesUnder(root, [page]), {
    url: options.url,
    info: options.info ?? SERVER_INFO,
    user: options.user,
    staleTime: APP_STALE_TIME,
  });
}
