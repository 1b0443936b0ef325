/**
 * The dataset page and the dataset create/edit modal as the app wires them (the real route under
 * a memory router), over a small stateful stand-in for the datasets API with its rules: sets
 * listed by name, only open datasets take set changes, the only set cannot be deleted, element
 * lists by cursor.
 */
import '../shell/domStubs';
import 'fake-indexeddb/auto';
import { useState, type ReactNode } from 'react';
import { createRoute } from '@tanstack/react-router';
import { Route as datasetRoute } from '@/routes/dataset/$datasetId';
import type { Dataset, DatasetSet } from '@/api/datasets';
import { datasetWith, type DatasetOverrides } from './datasetFixture';
import type { JobDetail } from '@/api/jobs';
import type { Corpus, ElementListItem, ElementType, User } from '@/api/types';
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

export { apiError, isolateEachTest, json, type Call, type Handler } from '../support/harness';

export const uuid = idSequence('8b00');

export const TYPES: ElementType[] = [
  { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
  { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
];

export type Role = 'guest' | 'contributor' | 'admin';
const RIGHTS: Record<Role, Corpus['rights']> = {
  guest: ['read'],
  contributor: ['read', 'write'],
  admin: ['read', 'write', 'admin'],
};

export function makeCorpus(role: Role = 'admin'): Corpus {
  return corpusWith({
    id: uuid(),
    name: 'Registers of Le Creusot',
    public: false,
    types: TYPES,
    rights: RIGHTS[role],
  });
}

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith(uuid(), overrides);
}

export function makeDataset(corpus: Corpus, overrides: DatasetOverrides = {}): Dataset {
  return datasetWith(
    uuid,
    corpus,
    { sets: ['dev', 'test', 'train'], creator: 'ada@example.org' },
    overrides,
  );
}

/** `count` pages named "Page 1"… of the project. */
export function makePages(corpus: Corpus, count: number, prefix = 'Page'): ElementListItem[] {
  return Array.from({ length: count }, (_, index) =>
    elementWith({
      id: uuid(),
      type: 'page',
      name: `${prefix} ${index + 1}`,
      corpus: { id: corpus.id, name: corpus.name, public: corpus.public },
    }),
  );
}

export interface FakeOptions {
  corpus: Corpus;
  datasets?: Dataset[];
  /** Elements per dataset id, then per set name. */
  members?: Record<string, Record<string, ElementListItem[]>>;
  jobs?: JobDetail[];
  /** Tried first, keyed "METHOD /path/" or "/path/". */
  overrides?: Record<string, Handler>;
}

const byName = (a: DatasetSet, b: DatasetSet) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
const badRequest = (detail: string, attr: string | null = null) =>
  apiError(400, [{ attr, detail }]);

/** The datasets API of the contract, small enough to read. */
export function fakeDatasetsApi(options: FakeOptions) {
  const { corpus } = options;
  // Copies: what the server holds changes apart from what a test gave the app.
  const datasets = (options.datasets ?? []).map((dataset) => ({
    ...dataset,
    sets: dataset.sets.map((set) => ({ ...set })),
  }));
  const members: Record<string, Record<string, ElementListItem[]>> = {};
  for (const [id, sets] of Object.entries(options.members ?? {})) members[id] = { ...sets };

  const view = (dataset: Dataset): Dataset => {
    const lists = members[dataset.id] ?? {};
    return {
      ...dataset,
      sets: [...dataset.sets].sort(byName),
      set_elements: Object.fromEntries(
        dataset.sets.map((set) => [set.name, lists[set.name]?.length ?? 0]),
      ),
    };
  };

  function elementsPage(call: Call, dataset: Dataset): Response {
    const set = call.query.get('set') ?? '';
    const size = Number(call.query.get('page_size') ?? '20');
    const offset = Number(call.query.get('cursor') ?? '0');
    const list = members[dataset.id]?.[set] ?? [];
    const next =
      offset + size < list.length
        ? `http://localhost/api/v1/datasets/${dataset.id}/elements/?set=${set}&page_size=${size}&cursor=${offset + size}`
        : null;
    return json(200, {
      next,
      previous: null,
      results: list.slice(offset, offset + size).map((element) => ({ set, element })),
      count: call.query.get('with_count') === 'true' ? list.length : null,
    });
  }

  function answer(call: Call): Response {
    if (call.method === 'GET' && call.path === `/corpus/${corpus.id}/`) return json(200, corpus);
    if (call.path === `/corpus/${corpus.id}/datasets/`) {
      if (call.method === 'GET') {
        const link = (n: number) => `http://localhost/api/v1${call.path}?page=${n}`;
        return json(200, pageOf(datasets.map(view), 1, 100, link));
      }
      const body = call.body as { name: string; description: string } & Partial<Dataset> & {
          set_names?: string[];
        };
      const created = makeDataset(corpus, {
        name: body.name,
        description: body.description,
        unique_elements: body.unique_elements ?? true,
        sets: body.set_names ?? ['train', 'dev', 'test'],
      });
      datasets.push(created);
      return json(201, view(created));
    }
    const jobMatch = call.path.match(/^\/jobs\/([^/]+)\/$/);
    if (jobMatch) {
      const job = options.jobs?.find((candidate) => candidate.id === jobMatch[1]);
      return job ? json(200, job) : notFound();
    }
    const match = call.path.match(/^\/datasets\/([^/]+)\/(.*)$/);
    const dataset = match && datasets.find((candidate) => candidate.id === match[1]);
    if (!match || !dataset) return notFound();
    const rest = match[2] ?? '';
    if (rest === '') {
      if (call.method === 'GET') return json(200, view(dataset));
      if (call.method === 'PATCH') {
        Object.assign(dataset, call.body as Partial<Dataset>);
        return json(200, view(dataset));
      }
      if (call.method === 'DELETE') {
        datasets.splice(datasets.indexOf(dataset), 1);
        return json(204, null);
      }
    }
    if (rest === 'clone/' && call.method === 'POST') {
      const copy: Dataset = {
        ...dataset,
        id: uuid(),
        name: `Clone of ${dataset.name}`,
        state: 'open',
        sets: dataset.sets.map((set) => ({ id: uuid(), name: set.name })),
      };
      datasets.push(copy);
      members[copy.id] = { ...(members[dataset.id] ?? {}) };
      return json(201, view(copy));
    }
    if (rest === 'elements/' && call.method === 'GET') return elementsPage(call, dataset);
    if (rest === 'sets/' && call.method === 'POST') {
      if (dataset.state !== 'open') return badRequest('Only open datasets can be edited');
      const { name } = call.body as { name: string };
      if (dataset.sets.some((set) => set.name === name)) {
        return badRequest('A set with this name already exists in this dataset.', 'name');
      }
      const set = { id: uuid(), name };
      dataset.sets = [...dataset.sets, set];
      return json(201, set);
    }
    const setMatch = rest.match(/^sets\/([^/]+)\/$/);
    const set = setMatch && dataset.sets.find((candidate) => candidate.id === setMatch[1]);
    if (set && call.method === 'PATCH') {
      const { name } = call.body as { name: string };
      if (dataset.sets.some((other) => other.name === name && other.id !== set.id)) {
        return badRequest('A set with this name already exists in this dataset.', 'name');
      }
      const lists = members[dataset.id];
      if (lists?.[set.name]) {
        lists[name] = lists[set.name]!;
        delete lists[set.name];
      }
      set.name = name;
      return json(200, set);
    }
    if (set && call.method === 'DELETE') {
      if (dataset.sets.length <= 1) {
        return badRequest('This is the only set in the dataset and cannot be deleted');
      }
      dataset.sets = dataset.sets.filter((other) => other.id !== set.id);
      return json(204, null);
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  }

  const fetch = stubFetch(
    async (call) => (await overridden(options.overrides, call)) ?? answer(call),
  );
  return {
    ...fetch,
    datasets,
    /** Elements per dataset id and set name, as the server holds them now. */
    members,
    /** The calls that change something. */
    writes: () => fetch.calls.filter((call) => call.method !== 'GET'),
  };
}

const root = makeRoot();
const datasetPage = datasetRoute.update({
  id: '/dataset/$datasetId',
  path: '/dataset/$datasetId',
  getParentRoute: () => root,
} as never);

function Host({ modal }: { modal: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(true);
  return open ? modal(() => setOpen(false)) : <p>Modal closed</p>;
}

/** Opens the dataset page at `url`; `user` null is an anonymous visitor. */
export function renderDatasetPage(url: string, user: User | null = makeUser()) {
  return renderRoutes(routesUnder(root, [datasetPage]), {
    url,
    user,
    info: makeInfo(),
    staleTime: APP_STALE_TIME,
  });
}

/** Mounts `modal` on a page of its own; closing it leaves "Modal closed". */
export function renderModal(
  modal: (close: () => void) => ReactNode,
  user: User | null = makeUser(),
) {
  const modalRoot = makeRoot();
  const home = createRoute({
    getParentRoute: () => modalRoot,
    path: '/',
    component: () => <Host modal={modal} />,
  });
  return renderRoutes(routesUnder(modalRoot, [home]), {
    url: '/',
    user,
    info: makeInfo(),
    staleTime: APP_STALE_TIME,
  });
}
