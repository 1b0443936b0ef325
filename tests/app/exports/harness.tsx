/**
 * The export modals' suites: a project, its exports and a stand-in API that keeps them (listed
 * ten a page, newest first, started and deleted as the server does), with a modal mounted on a
 * page of a memory router, so a test sees notices, field errors and where it navigated.
 */
import { useState, type ReactNode } from 'react';
import { createRoute } from '@tanstack/react-router';
import type { CorpusExport, ExportState } from '@/api/exports';
import type { Corpus, Features, User } from '@/api/types';
import type { WorkerVersion } from '@/api/workers';
import type { UserConfiguration } from '@/lib/workerConfiguration';
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

export const uuid = idSequence('8e00');

export function makeCorpus(overrides: Partial<Corpus> = {}): Corpus {
  return corpusWith({
    id: uuid(),
    name: 'Letters of the Lovelace family',
    public: false,
    types: [{ id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' }],
    rights: ['read', 'write', 'admin'],
    ...overrides,
  });
}

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith(uuid(), overrides);
}

let minute = 0;

/** An export of `corpus`, each made a minute after the one before. */
export function makeExport(
  corpus: Corpus,
  state: ExportState,
  overrides: Partial<CorpusExport> = {},
): CorpusExport {
  minute += 1;
  const at = new Date(Date.UTC(2024, 4, 1, 10, minute)).toISOString();
  return {
    id: uuid(),
    created: at,
    updated: at,
    corpus_id: corpus.id,
    user: { id: uuid(), email: 'ada@example.org', display_name: 'Ada Lovelace' },
    state,
    source: 'default',
    ...overrides,
  };
}

export function featureVersion(
  feature: string,
  userConfiguration: UserConfiguration = {},
): WorkerVersion {
  return {
    id: uuid(),
    worker: { id: uuid(), name: `Export ${feature}`, slug: feature, type: 'export' },
    version: 1,
    revision_url: null,
    branch: null,
    tag: null,
    state: 'available',
    gpu_usage: 'disabled',
    model_usage: 'disabled',
    docker_image_iid: null,
    feature,
    created: '2024-05-01T10:00:00Z',
    configuration: { user_configuration: userConfiguration },
  };
}

/**
 * The project's exports, kept newest first as the server lists them; the feature worker
 * versions, the farms and the export sources; then `overrides` keyed "METHOD /path/".
 */
export function exportServer(
  corpus: Corpus,
  exports: CorpusExport[],
  overrides: Record<string, Handler> = {},
) {
  const kept = [...exports].sort((a, b) => b.created.localeCompare(a.created));
  const server = stubFetch(async (call) => {
    const answer = await overridden(overrides, call);
    if (answer) return answer;
    const list = `/corpus/${corpus.id}/export/`;
    if (call.method === 'GET' && call.path === list) {
      const page = Number(call.query.get('page') ?? '1');
      const size = Number(call.query.get('page_size') ?? '10');
      return json(
        200,
        pageOf(kept, page, size, (n) => `http://localhost/api/v1${list}?page=${n}`),
      );
    }
    if (call.method === 'POST' && call.path === list) {
      const started = makeExport(corpus, 'created', {
        created: new Date().toISOString(),
        updated: new Date().toISOString(),
        source: (call.body as { source?: string } | null)?.source ?? 'default',
      });
      kept.unshift(started);
      return json(201, started);
    }
    const one = /^\/export\/([^/]+)\/$/.exec(call.path);
    if (call.method === 'DELETE' && one) {
      const index = kept.findIndex((item) => item.id === one[1]);
      if (index < 0) return apiError(404, [{ attr: null, detail: 'Not found.' }]);
      kept.splice(index, 1);
      return json(204, null);
    }
    if (call.method === 'GET' && call.path === '/export-sources/') {
      return json(200, [{ name: 'default', last_update: '2024-05-01T10:00:00Z' }]);
    }
    const feature = /^\/workers\/versions\/feature\/([^/]+)\/$/.exec(call.path);
    if (call.method === 'GET' && feature) return json(200, featureVersion(feature[1]!));
    if (call.method === 'GET' && call.path === '/farms/') {
      return json(200, {
        count: 1,
        number: 1,
        next: null,
        previous: null,
        results: [{ id: FARM_ID, name: 'Wheat farm' }],
      });
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  });
  return { ...server, kept };
}

export const FARM_ID = '00000000-0000-4000-8e00-0000000fa2a1';

function Host({ modal }: { modal: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(true);
  return open ? modal(() => setOpen(false)) : <p>Modal closed</p>;
}

/** Mounts `modal` on the home page; closing it leaves "Modal closed". */
export function renderModal(
  modal: (close: () => void) => ReactNode,
  user: User | null,
  features: Partial<Features> = {},
) {
  const root = makeRoot();
  const home = createRoute({
    getParentRoute: () => root,
    path: '/',
    component: () => <Host modal={modal} />,
  });
  return renderRoutes(routesUnder(root, [home]), {
    url: '/',
    user,
    info: makeInfo(features),
  });
}
