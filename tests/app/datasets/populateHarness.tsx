/**
 * The dataset modals' suites: a project, its datasets and a stand-in API, with the modal mounted
 * on a page of a memory router, so a test sees notices, field errors and where it navigated.
 */
import { useState, type ReactNode } from 'react';
import { createRoute, useParams } from '@tanstack/react-router';
import type { Dataset } from '@/api/datasets';
import { datasetWith, type DatasetOverrides } from './datasetFixture';
import type { Corpus, ElementType, User } from '@/api/types';
import {
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
  type Handler,
} from '../support/harness';

export { apiError, isolateEachTest, json, type Call, type Handler } from '../support/harness';

export const uuid = idSequence('8c00');

export const TYPES: ElementType[] = [
  { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
  { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
  { id: uuid(), slug: 'text_line', display_name: 'Text line', folder: false, color: 'aaaaaa' },
];

export function makeCorpus(overrides: Partial<Corpus> = {}): Corpus {
  return corpusWith({
    id: uuid(),
    name: 'Letters of the Lovelace family',
    public: false,
    types: TYPES,
    rights: ['read', 'write'],
    ...overrides,
  });
}

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith(uuid(), overrides);
}

export function makeDataset(corpus: Corpus, overrides: DatasetOverrides = {}): Dataset {
  return datasetWith(
    uuid,
    corpus,
    { sets: ['train', 'dev', 'test'], creator: 'Ada Lovelace' },
    overrides,
  );
}

/** Answers the project's dataset list, then `overrides` keyed "METHOD /path/"; records calls. */
export function datasetServer(
  corpus: Corpus,
  datasets: Dataset[] | Handler,
  overrides: Record<string, Handler> = {},
) {
  return stubFetch(async (call) => {
    const answer = await overridden(overrides, call);
    if (answer) return answer;
    if (call.method === 'GET' && call.path === `/corpus/${corpus.id}/datasets/`) {
      if (typeof datasets === 'function') {
        const given = await datasets(call);
        if (given) return given;
      } else {
        const link = (n: number) =>
          `http://localhost/api/v1/corpus/${corpus.id}/datasets/?page=${n}`;
        return json(200, pageOf(datasets, 1, 100, link));
      }
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  });
}

function DatasetPage() {
  const { datasetId } = useParams({ strict: false }) as { datasetId?: string };
  return <h1>Dataset page {datasetId}</h1>;
}

function Host({ modal }: { modal: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(true);
  return open ? modal(() => setOpen(false)) : <p>Modal closed</p>;
}

/** Mounts `modal` on the home page; closing it leaves "Modal closed". */
export function renderModal(modal: (close: () => void) => ReactNode, user: User | null) {
  const root = makeRoot();
  const home = createRoute({
    getParentRoute: () => root,
    path: '/',
    component: () => <Host modal={modal} />,
  });
  const dataset = createRoute({
    getParentRoute: () => root,
    path: '/dataset/$datasetId',
    component: DatasetPage,
  });
  return renderRoutes(routesUnder(root, [home, dataset]), {
    url: '/',
    user,
    info: makeInfo(),
  });
}
