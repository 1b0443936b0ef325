/**
 * The element details panel's suites: an element page behind the element endpoints, with a
 * stand-in for the panel's own (transcriptions, metadata, ML classes, allowed metadata,
 * classifications, worker runs) that keeps what is written, as the API does.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach } from 'vitest';
import type {
  AllowedMetadata,
  Corpus,
  Element,
  ElementClassification,
  ElementMetadataItem,
  MlClassRef,
  Right,
  Transcription,
  User,
} from '@/api/types';
import { localDb } from '@/offline/db';
import { isolateElementPageTests } from './elementPage';
import { openElement } from './elementMenu';
import {
  elementsApi,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  uuid,
  type Call,
  type Handler,
} from './elementsApi';
import { apiError, overridden } from './harness';

export { json, makeUser, uuid, type Call, type Handler };

/** Each test starts afresh, with no edit left in the outbox by the one before. */
export function isolateDetailsTests(): void {
  isolateElementPageTests();
  beforeEach(async () => {
    await localDb.outbox.clear();
  });
}

export const FILE_IMPORT = { id: uuid(), summary: 'Worker File import @ 1' };

export function transcription(overrides: Partial<Transcription> = {}): Transcription {
  return {
    id: uuid(),
    text: 'Ledger of the year 1789',
    confidence: null,
    orientation: 'horizontal-lr',
    worker_run: null,
    entity_count: 0,
    ...overrides,
  };
}

export function metadata(overrides: Partial<ElementMetadataItem> = {}): ElementMetadataItem {
  return {
    id: uuid(),
    type: 'text',
    name: 'Folio',
    value: '12r',
    dates: [],
    worker_run: null,
    ...overrides,
  };
}

export function classification(
  mlClass: MlClassRef,
  overrides: Partial<ElementClassification> = {},
): ElementClassification {
  return {
    id: uuid(),
    ml_class: mlClass,
    state: 'pending',
    confidence: 0.9,
    high_confidence: true,
    worker_run: null,
    ...overrides,
  };
}

export interface DetailsOptions {
  rights?: Right[];
  element?: Partial<Element>;
  transcriptions?: Transcription[];
  metadata?: ElementMetadataItem[];
  classes?: MlClassRef[];
  allowed?: AllowedMetadata[];
  /** RetrieveWorkerRun answers by id. */
  workerRuns?: Record<string, unknown>;
  /** Tried before the stand-in, keyed "METHOD /path/" or "/path/". */
  overrides?: Record<string, Handler>;
}

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

/**
 * An element, its project and what the panel reads of them, behind a fake API that applies
 * what the panel writes: `state` is what the server holds.
 */
export function detailsApi(options: DetailsOptions = {}) {
  const corpus: Corpus = makeCorpus({ rights: options.rights ?? ['read', 'write', 'admin'] });
  const element = makeElement(corpus, { name: 'Folio 12', type: 'page', ...options.element });
  const state = {
    transcriptions: [...(options.transcriptions ?? [])],
    metadata: [...(options.metadata ?? [])],
    classes: [...(options.classes ?? [])],
    allowed: [...(options.allowed ?? [])],
  };

  function answer(call: Call): Response | null {
    const { method, path } = call;
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (path === `/element/${element.id}/transcriptions/` && method === 'GET') {
      return json(200, page(state.transcriptions));
    }
    if (path === `/element/${element.id}/transcription/` && method === 'POST') {
      const created = transcription({
        text: String(body.text),
        orientation: (body.orientation as Transcription['orientation']) ?? 'horizontal-lr',
      });
      state.transcriptions.push(created);
      return json(201, created);
    }
    let match = path.match(/^\/transcription\/([^/]+)\/$/);
    if (match) {
      const index = state.transcriptions.findIndex((item) => item.id === match![1]);
      if (index < 0) return apiError(404, [{ attr: null, detail: 'Not found.' }]);
      if (method === 'DELETE') {
        state.transcriptions.splice(index, 1);
        return json(204, null);
      }
      if (method === 'PATCH') {
        state.transcriptions[index] = { ...state.transcriptions[index]!, ...body };
        return json(200, state.transcriptions[index]);
      }
    }
    if (path === `/element/${element.id}/metadata/` && method === 'GET') {
      return json(200, state.metadata);
    }
    if (path === `/element/${element.id}/metadata/` && method === 'POST') {
      const created = metadata(body as Partial<ElementMetadataItem>);
      state.metadata.push(created);
      return json(201, created);
    }
    match = path.match(/^\/metadata\/([^/]+)\/$/);
    if (match) {
      const index = state.metadata.findIndex((item) => item.id === match![1]);
      if (index < 0) return apiError(404, [{ attr: null, detail: 'Not found.' }]);
      if (method === 'DELETE') {
        state.metadata.splice(index, 1);
        return json(204, null);
      }
      if (method === 'PATCH') {
        state.metadata[index] = { ...state.metadata[index]!, ...body };
        return json(200, state.metadata[index]);
      }
    }
    if (path === `/corpus/${corpus.id}/classes/` && method === 'GET') {
      return json(200, page(state.classes));
    }
    if (path === `/corpus/${corpus.id}/allowed-metadata/` && method === 'GET') {
      return json(200, page(state.allowed));
    }
    if (path === '/classifications/' && method === 'POST') {
      const mlClass = state.classes.find((item) => item.id === body.ml_class)!;
      const created = classification(mlClass, { state: 'validated', confidence: 1 });
      element.classifications.push(created);
      return json(201, created);
    }
    match = path.match(/^\/classifications\/([^/]+)\/(validate|reject)\/$/);
    if (match && method === 'PUT') {
      const index = element.classifications.findIndex((item) => item.id === match![1]);
      const item = element.classifications[index]!;
      if (match[2] === 'reject' && !item.worker_run) {
        element.classifications.splice(index, 1);
        return json(204, null);
      }
      item.state = match[2] === 'validate' ? 'validated' : 'rejected';
      return json(200, item);
    }
    match = path.match(/^\/process\/workers\/([^/]+)\/$/);
    if (match) {
      const run = options.workerRuns?.[match[1]!];
      return run ? json(200, run) : apiError(404, [{ attr: null, detail: 'Not found.' }]);
    }
    return null;
  }

  const handler: Handler = async (call) =>
    (await overridden(options.overrides, call)) ?? answer(call);
  // Every "METHOD /path/" key leads to the stand-in; plain "/path/" keys to nothing.
  const overrides = new Proxy({} as Record<string, Handler>, {
    get: (_target, key) => (typeof key === 'string' && key.includes(' ') ? handler : undefined),
  });
  const api = elementsApi({ corpus, elements: [element], overrides });
  return { corpus, element, state, api };
}

/** Opens the element's page and waits for its details panel. */
export async function openDetails(elementId: string, as: User | null = makeUser()) {
  const user = userEvent.setup();
  const opened = openElement(elementId, as);
  const panel = await screen.findByRole('complementary', { name: 'Element details' });
  return { ...opened, user, panel };
}
