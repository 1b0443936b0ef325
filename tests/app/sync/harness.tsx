/**
 * The Pending changes suites: the real /sync route in a memory router, the app's local store
 * (fake-indexeddb) seeded with an element as a page read left it, and the outbox filled by the
 * app's own edit functions and sync engine against a stubbed API.
 */
import '../shell/domStubs';
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { Route as syncRoute } from '@/routes/sync';
import type { Corpus, Element } from '@/api/types';
import { localDb, type LocalElement } from '@/offline/db';
import type { OutboxEntry } from '@/offline/outboxEntry';
import { connectivity, syncScheduler } from '@/offline/runtime';
import {
  apiError,
  corpusWith,
  elementWith,
  idSequence,
  isolateEachTest,
  json,
  makeInfo,
  makeRoot,
  overridden,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
  type Handler,
} from '../support/harness';

export { json, type Call, type Handler } from '../support/harness';

export const uuid = idSequence('7000');

/** The version the element was read at, and the one someone else saved since. */
export const READ_AT = 'Sat, 01 Jun 2024 10:00:00 GMT';
export const CHANGED_AT = 'Sat, 01 Jun 2024 11:30:00 GMT';
export const CONFLICT_DETAIL = 'This element was changed by someone else since your edit was made.';

export const corpus: Corpus = corpusWith({
  id: uuid(),
  name: 'Registers of Le Creusot',
  public: false,
  rights: ['read', 'write', 'admin'],
  types: [
    { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
    { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
    { id: uuid(), slug: 'act', display_name: 'Act', folder: false, color: '555555' },
  ],
});

export function makeElement(overrides: Partial<Element> = {}): Element {
  return {
    ...elementWith({
      id: uuid(),
      type: 'page',
      name: 'Folio 3',
      corpus: { id: corpus.id, name: corpus.name, public: corpus.public },
    }),
    rights: ['read', 'write', 'admin'],
    classifications: [],
    ...overrides,
  } as Element;
}

/** The element in the local store, as the element page's read of it left it. */
export async function seedElement(element: Element, parentIds: string[] = []): Promise<void> {
  const row: LocalElement = {
    id: element.id,
    corpusId: corpus.id,
    data: element,
    full: true,
    lastModified: READ_AT,
    local: false,
    parentIds,
    savedAt: Date.now(),
  };
  await localDb.elements.put(row);
}

export async function outbox(): Promise<OutboxEntry[]> {
  return localDb.outbox.orderBy('seq').toArray();
}

export async function storedElement(id: string): Promise<LocalElement | undefined> {
  return localDb.elements.get(id);
}

export function setOnline(online: boolean): void {
  act(() => connectivity.store.set({ online, checkedAt: Date.now() }));
}

/** 412 with the element as it is now, as the server answers an edit based on an older version. */
export function changedOnServer(current: Element): Response {
  return json(
    412,
    {
      type: 'client_error',
      errors: [{ code: 'precondition_failed', detail: CONFLICT_DETAIL, attr: null }],
      current,
    },
    { 'last-modified': CHANGED_AT },
  );
}

/** The stubbed API: the project, then the test's answers keyed "METHOD /path/". */
export function stubApi(overrides: Record<string, Handler> = {}) {
  return stubFetch(async (call) => {
    const answer = await overridden(overrides, call);
    if (answer) return answer;
    if (call.method === 'GET' && call.path === `/corpus/${corpus.id}/`) return json(200, corpus);
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  });
}

/** Replays the outbox once, as the scheduler does when the API answers. */
export async function replay(): Promise<void> {
  const wasOnline = connectivity.store.get().online;
  setOnline(true);
  await act(async () => {
    await syncScheduler.kick();
  });
  setOnline(wasOnline);
}

const root = makeRoot();
const sync = syncRoute.update({ id: '/sync', path: '/sync', getParentRoute: () => root } as never);
const routeTree = routesUnder(root, [sync]);

export const user = userWith(uuid());

/** Opens /sync, the Pending changes page. */
export function openPendingChanges() {
  return renderRoutes(routeTree, { url: '/sync', info: makeInfo(), user });
}

/** The list of pending changes, once shown. */
export async function changeList() {
  return within(await screen.findByRole('list', { name: 'Pending changes' }));
}

/** One change of the list, by its label. */
export async function changeItem(label: string) {
  return within(await (await changeList()).findByRole('listitem', { name: label }));
}

/**
 * Each test starts with an empty store and the API out of reach, so nothing is sent unless the
 * test says so.
 */
export function isolateSyncTests(): void {
  isolateEachTest();
  beforeEach(async () => {
    connectivity.store.set({ online: false, checkedAt: Date.now() });
    await Promise.all([
      localDb.outbox.clear(),
      localDb.elements.clear(),
      localDb.lists.clear(),
      localDb.idMap.clear(),
      localDb.syncState.clear(),
    ]);
    // The project was seen before the network went: its types are on this device.
    await localDb.corpora.put({ id: corpus.id, data: corpus, savedAt: Date.now() });
  });
  afterEach(() => {
    connectivity.store.set({ online: true, checkedAt: Date.now() });
  });
}
