import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { ElementListItem } from '@/api/types';
import { createStore } from '@/lib/store';
import type { Connectivity } from '@/offline/connectivity';
import { FoliaDatabase } from '@/offline/db';
import { LocalSelection, selectedRows, type SelectionRejection } from '@/offline/selection';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher, type Fault } from './inProcessServer';

describeEachDialect('the selection kept on this device', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let db: FoliaDatabase;
  let dbName: string;
  let fetcher: ReturnType<typeof inProcessFetcher>;
  let fault: Fault = 'none';
  const project = { id: '', name: 'Selection offline' };
  const connectivity = { store: createStore<Connectivity>({ online: true, checkedAt: null }) };
  const owner = () => clientFor(t().app, actors, 'owner');
  const contributor = () => clientFor(t().app, actors, 'contributor');

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: project.name });
    project.id = corpusId;
    fetcher = inProcessFetcher(t().app, actors.contributor.token, () => fault);
    vi.stubGlobal('fetch', fetcher);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });
  afterEach(async () => {
    fault = 'none';
    connectivity.store.set({ online: true, checkedAt: null });
    await contributor().delete('elements/selection/');
    await db?.delete();
  });

  function setOnline(online: boolean) {
    fault = online ? 'none' : 'unreachable';
    connectivity.store.set({ online, checkedAt: Date.now() });
  }

  /** The app opened: a new database handle over the same store, a new selection on it. */
  async function open(fresh = false): Promise<LocalSelection> {
    if (fresh) dbName = `folia-selection-${randomUUID()}`;
    else db.close();
    db = new FoliaDatabase(dbName);
    const selection = new LocalSelection(db, connectivity);
    await selection.open(actors.contributor.id);
    return selection;
  }

  async function pages(...names: string[]): Promise<ElementListItem[]> {
    const made: ElementListItem[] = [];
    for (const name of names) {
      const created = await owner().post('elements/create/', {
        corpus: corpusId,
        type: 'page',
        name,
      });
      expect(created.statusCode).toBe(201);
      made.push(created.json());
    }
    return made;
  }

  async function serverSelection(): Promise<string[]> {
    const response = await contributor().get('elements/selection/?page_size=1000');
    expect(response.statusCode).toBe(200);
    return (response.json().results as ElementListItem[]).map((element) => element.name).sort();
  }

  const shown = (selection: LocalSelection) =>
    selectedRows(selection.store.get())
      .map((row) => row.element.name)
      .sort();
  const selectionCalls = (method: string) =>
    fetcher.requests.filter(
      (request) => request.method === method && request.url.includes('/elements/selection/'),
    );

  it('keeps toggles made offline through a reload and sends them once when the network returns', async () => {
    const [a, b, c] = await pages('f. 1', 'f. 2', 'f. 3');
    let selection = await open(true);
    setOnline(false);
    const before = fetcher.requests.length;

    await selection.toggle(a!, project);
    await selection.toggle(b!, project);
    await selection.toggle(c!, project);
    await selection.toggle(b!, project);
    expect(shown(selection)).toEqual(['f. 1', 'f. 3']);
    expect(fetcher.requests.length).toBe(before);

    // Reloaded while still offline: the toggles are still there.
    selection = await open();
    expect(shown(selection)).toEqual(['f. 1', 'f. 3']);

    const posts = selectionCalls('POST').length;
    setOnline(true);
    const stop = selection.watchConnectivity();
    connectivity.store.set({ online: false, checkedAt: null });
    connectivity.store.set({ online: true, checkedAt: Date.now() });
    await selection.refresh();
    stop();
    expect(await serverSelection()).toEqual(['f. 1', 'f. 3']);
    expect(shown(selection)).toEqual(['f. 1', 'f. 3']);
    expect(selectionCalls('POST').length).toBe(posts + 1);

    // Nothing waits any more: another exchange sends nothing.
    await selection.refresh();
    expect(selectionCalls('POST').length).toBe(posts + 1);
    selection = await open();
    expect(selectedRows(selection.store.get()).every((row) => row.synced)).toBe(true);
  });

  it('reads the server selection at start: what changed elsewhere shows, a change waiting here wins', async () => {
    const [a, b, c] = await pages('p. 1', 'p. 2', 'p. 3');
    expect(
      (await contributor().post('elements/selection/', { ids: [a!.id, b!.id] })).statusCode,
    ).toBe(204);
    let selection = await open(true);
    await selection.refresh();
    expect(shown(selection)).toEqual(['p. 1', 'p. 2']);
    expect(selectedRows(selection.store.get())[0]!.corpusName).toBe(project.name);

    // Elsewhere (another browser): p. 1 unselected, p. 3 selected. Here, offline: p. 2 unselected.
    await contributor().delete('elements/selection/', { id: a!.id });
    await contributor().post('elements/selection/', { ids: [c!.id] });
    setOnline(false);
    await selection.toggle(b!, project);
    selection = await open();
    expect(shown(selection)).toEqual(['p. 1']);

    setOnline(true);
    await selection.refresh();
    expect(shown(selection)).toEqual(['p. 3']);
    expect(await serverSelection()).toEqual(['p. 3']);
  });

  it('drops an element deleted before its selection was sent, and says so', async () => {
    const [kept, gone] = await pages('r. 1', 'r. 2');
    const selection = await open(true);
    const rejected: SelectionRejection[] = [];
    selection.onRejected = (rejections) => rejected.push(...rejections);
    setOnline(false);
    await selection.toggle(kept!, project);
    await selection.toggle(gone!, project);
    expect([200, 202, 204]).toContain((await owner().delete(`element/${gone!.id}/`)).statusCode);

    setOnline(true);
    await selection.sync();
    expect(rejected.map((rejection) => rejection.element.name)).toEqual(['r. 2']);
    expect(shown(selection)).toEqual(['r. 1']);
    expect(await serverSelection()).toEqual(['r. 1']);
  });

  it('unselects all offline, then clears the server selection once, keeping what was selected after', async () => {
    const [a, b, c] = await pages('s. 1', 's. 2', 's. 3');
    await contributor().post('elements/selection/', { ids: [a!.id, b!.id] });
    let selection = await open(true);
    await selection.refresh();
    setOnline(false);
    await selection.unselectAll();
    await selection.toggle(c!, project);
    selection = await open();
    expect(shown(selection)).toEqual(['s. 3']);

    setOnline(true);
    const clears = selectionCalls('DELETE').length;
    await selection.refresh();
    expect(await serverSelection()).toEqual(['s. 3']);
    expect(shown(selection)).toEqual(['s. 3']);
    expect(selectionCalls('DELETE').length).toBe(clears + 1);
  });

  it('keeps a change whose answer was lost, and sends it again without doubling it', async () => {
    const [a] = await pages('t. 1');
    const selection = await open(true);
    fault = 'lost-response';
    await selection.toggle(a!, project);
    // The server has it, this device does not know: it still waits here.
    expect(await serverSelection()).toEqual(['t. 1']);
    expect(selectedRows(selection.store.get())[0]!.synced).toBe(false);

    fault = 'none';
    await selection.refresh();
    expect(await serverSelection()).toEqual(['t. 1']);
    expect(selectedRows(selection.store.get())[0]!.synced).toBe(true);
  });
});
