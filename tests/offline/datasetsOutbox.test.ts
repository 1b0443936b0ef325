import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { Dataset, ElementDatasetSet } from '@/api/datasets';
import { describeChange } from '@/features/sync/describeChange';
import { inDb } from '@/offline/datasetQueue';
import { readElementSets } from '@/offline/datasetStoreReads';
import { FoliaDatabase } from '@/offline/db';
import { discardEdit } from '@/offline/discard';
import { createElement } from '@/offline/elementEdits';
import { readElement } from '@/offline/elementReads';
import { SyncEngine } from '@/offline/engine';
import { isTempId, type OutboxEntry } from '@/offline/outboxEntry';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher, type Fault } from './inProcessServer';

describeEachDialect('dataset edits through the outbox', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let folderId: string;
  let db: FoliaDatabase;
  let dbName: string;
  const online = { online: true };
  const owner = () => clientFor(t().app, actors, 'owner');
  let counter = 0;

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Datasets offline' });
    folderId = (
      await owner().post('elements/create/', { corpus: corpusId, type: 'folder', name: 'Box D' })
    ).json().id;
    vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.contributor.token));
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });
  afterEach(async () => {
    await db?.delete();
  });

  function freshDb(): FoliaDatabase {
    dbName = `folia-datasets-${randomUUID()}`;
    db = new FoliaDatabase(dbName);
    return db;
  }

  /** The app reloaded: the same database opened again, a new engine over it. */
  function reload(faults?: () => Fault) {
    db.close();
    db = new FoliaDatabase(dbName);
    const fetcher = inProcessFetcher(t().app, actors.contributor.token, faults);
    return { fetcher, engine: new SyncEngine(db, { fetcher }) };
  }

  async function makeDataset(body: Record<string, unknown> = {}): Promise<Dataset> {
    counter += 1;
    const response = await owner().post(`corpus/${corpusId}/datasets/`, {
      name: `Split ${counter}`,
      description: 'Ground truth',
      ...body,
    });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  async function page(name: string): Promise<{ id: string; name: string; type: string }> {
    const created = await owner().post('elements/create/', {
      corpus: corpusId,
      parent: folderId,
      type: 'page',
      name,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    // Opened on this device, as the details panel's table is.
    await readElement(db, id, online);
    return { id, name, type: 'page' };
  }

  async function serverSets(elementId: string) {
    const response = await owner().get(`element/${elementId}/sets/?with_neighbors=true`);
    expect(response.statusCode).toBe(200);
    return (response.json().results as ElementDatasetSet[]).map((entry) => ({
      dataset: entry.dataset.name,
      set: entry.set,
      previous: entry.previous,
      next: entry.next,
    }));
  }

  const shown = (sets: ElementDatasetSet[]) => sets.map((entry) => [entry.dataset.name, entry.set]);

  const describe = (entries: OutboxEntry[]) =>
    entries.map((entry) =>
      describeChange(entry, {
        elements: { [String(entry.payload.element)]: { name: 'f. 3', type: 'page' } },
        typeName: (slug) => slug[0]!.toUpperCase() + slug.slice(1),
      }),
    );

  it('adds, removes and renames offline, survives a reload and reaches the server once', async () => {
    freshDb();
    const dataset = await makeDataset();
    const [one, two] = [await page('f. 1'), await page('f. 2')];
    const dev = dataset.sets.find((set) => set.name === 'dev')!;
    // Seen once online: f. 2 is in test.
    expect(
      (await owner().post(`datasets/${dataset.id}/elements/`, { element_id: two.id, set: 'test' }))
        .statusCode,
    ).toBe(201);
    expect(shown(await readElementSets(db, two.id, online))).toEqual([[dataset.name, 'test']]);
    expect(await readElementSets(db, one.id, online)).toEqual([]);

    await inDb.addElementToSet(db, { dataset, set: 'train', element: one });
    // Unique elements: out of test before it goes in dev.
    await inDb.removeElementFromSet(db, { dataset, set: 'test', elementId: two.id });
    await inDb.addElementToSet(db, { dataset, set: 'dev', element: two });
    await inDb.renameSet(db, { dataset, setId: dev.id, name: 'validation' });

    // Shown at once, offline, the rename included.
    const offline = { online: false };
    expect(shown(await readElementSets(db, one.id, offline))).toEqual([[dataset.name, 'train']]);
    expect(shown(await readElementSets(db, two.id, offline))).toEqual([
      [dataset.name, 'validation'],
    ]);
    expect(describe(await db.outbox.orderBy('seq').toArray())).toEqual([
      `“f. 3” (Page): added to set train of “${dataset.name}”`,
      `“f. 3” (Page): removed from set test of “${dataset.name}”`,
      `“f. 3” (Page): added to set dev of “${dataset.name}”`,
      `Dataset “${dataset.name}”: set “dev” renamed to “validation”`,
    ]);

    // Reloaded; the first answer is lost on the way back, the edit is sent again with its key.
    let lose = true;
    const { fetcher, engine } = reload(() => {
      if (!lose) return 'none';
      lose = false;
      return 'lost-response';
    });
    expect((await engine.sync()).sent).toBe(0);
    expect((await engine.sync()).sent).toBe(0);
    // The backoff passes.
    await db.outbox.toCollection().modify({ nextAttemptAt: 0 });
    const result = await engine.sync();
    expect(Object.values(result.statuses)).toEqual([201, 204, 201, 200]);
    expect(await db.outbox.count()).toBe(0);
    // The lost one went twice (one key), every other once.
    expect(
      fetcher.requests.filter((request) => request.method !== 'GET').map((r) => r.method),
    ).toEqual(['POST', 'POST', 'DELETE', 'POST', 'PATCH']);

    expect(await serverSets(one.id)).toEqual([
      { dataset: dataset.name, set: 'train', previous: null, next: null },
    ]);
    expect(await serverSets(two.id)).toEqual([
      { dataset: dataset.name, set: 'validation', previous: null, next: null },
    ]);
    const sets = (await owner().get(`datasets/${dataset.id}/`)).json().sets as { name: string }[];
    expect(sets.map((set) => set.name).sort()).toEqual(['test', 'train', 'validation']);
  });

  it('undoes an unsent addition by removing, and shows a refusal', async () => {
    freshDb();
    const dataset = await makeDataset();
    const element = await page('f. 4');
    await inDb.addElementToSet(db, { dataset, set: 'train', element });
    await inDb.removeElementFromSet(db, { dataset, set: 'train', elementId: element.id });
    // Nothing left to send: it never needs to reach the server.
    expect(await db.outbox.count()).toBe(0);

    // Closed on the server meanwhile: the addition is refused with the server's message.
    await t()
      .app.db.updateTable('datasets')
      .set({ state: 'complete' })
      .where('id', '=', dataset.id)
      .execute();
    await inDb.addElementToSet(db, { dataset, set: 'dev', element });
    const { engine } = reload();
    await engine.sync();
    const [refused] = await db.outbox.toArray();
    expect(refused).toMatchObject({
      status: 'failed',
      error: { status: 400, message: 'Only open datasets can be edited' },
    });
    expect(await serverSets(element.id)).toEqual([]);

    // Discarded: the element is in no set here either.
    await discardEdit(db, refused!.seq!);
    expect(await readElementSets(db, element.id, { online: false })).toEqual([]);
  });

  it('keeps a refused addition of an element this device never stored, for the user to read', async () => {
    freshDb();
    const dataset = await makeDataset();
    const element = await page('f. 4a');
    // Added from a list (a dataset page, a selection): the element itself was never opened here.
    await db.elements.delete(element.id);
    await t()
      .app.db.updateTable('datasets')
      .set({ state: 'complete' })
      .where('id', '=', dataset.id)
      .execute();
    await inDb.addElementToSet(db, { dataset, set: 'dev', element });
    const { engine } = reload();
    await engine.sync();
    expect(await db.outbox.toArray()).toMatchObject([
      { status: 'failed', error: { status: 400, message: 'Only open datasets can be edited' } },
    ]);
  });

  it('puts back what a discarded removal or rename changed', async () => {
    freshDb();
    const dataset = await makeDataset();
    const [first, second] = [await page('f. 5'), await page('f. 6')];
    for (const element of [first, second]) {
      const added = await owner().post(`datasets/${dataset.id}/elements/`, {
        element_id: element.id,
        set: 'train',
      });
      expect(added.statusCode).toBe(201);
    }
    const before = await readElementSets(db, first.id, online);
    expect(before).toMatchObject([{ set: 'train', previous: null, next: second.id }]);
    const train = dataset.sets.find((set) => set.name === 'train')!;

    await inDb.removeElementFromSet(db, { dataset, set: 'train', elementId: first.id });
    await inDb.renameSet(db, { dataset, setId: train.id, name: 'training' });
    expect(shown(await readElementSets(db, first.id, { online: false }))).toEqual([]);
    expect(shown(await readElementSets(db, second.id, online))).toEqual([
      [dataset.name, 'training'],
    ]);

    const [removal, rename] = await db.outbox.orderBy('seq').toArray();
    await discardEdit(db, rename!.seq!);
    await discardEdit(db, removal!.seq!);
    // Back as it was, neighbours included.
    expect(await readElementSets(db, first.id, { online: false })).toEqual(before);
    expect(shown(await readElementSets(db, second.id, { online: false }))).toEqual([
      [dataset.name, 'train'],
    ]);
  });

  it('sends one rename with the last name, and none when named back', async () => {
    freshDb();
    const dataset = await makeDataset();
    const test = dataset.sets.find((set) => set.name === 'test')!;
    const renamed = (name: string): Dataset => ({
      ...dataset,
      sets: dataset.sets.map((set) => (set.id === test.id ? { ...set, name } : set)),
    });
    await inDb.renameSet(db, { dataset, setId: test.id, name: 'eval' });
    await inDb.renameSet(db, { dataset: renamed('eval'), setId: test.id, name: 'held-out' });
    const queued = await db.outbox.toArray();
    expect(queued.map((entry) => entry.payload.name)).toEqual(['held-out']);
    await inDb.renameSet(db, { dataset: renamed('held-out'), setId: test.id, name: 'test' });
    expect(await db.outbox.count()).toBe(0);

    await inDb.renameSet(db, { dataset, setId: test.id, name: 'eval' });
    await inDb.renameSet(db, { dataset: renamed('eval'), setId: test.id, name: 'held-out' });
    const { fetcher, engine } = reload();
    expect((await engine.sync()).sent).toBe(1);
    expect(fetcher.requests.filter((request) => request.method === 'PATCH')).toHaveLength(1);
    const sets = (await owner().get(`datasets/${dataset.id}/`)).json().sets as { name: string }[];
    expect(sets.map((set) => set.name).sort()).toEqual(['dev', 'held-out', 'train']);
  });

  it('refuses a second set of a dataset of unique elements', async () => {
    freshDb();
    const dataset = await makeDataset({ unique_elements: true });
    const element = await page('f. 7');
    await inDb.addElementToSet(db, { dataset, set: 'train', element });
    await inDb.addElementToSet(db, { dataset, set: 'test', element });
    const { engine } = reload();
    await engine.sync();
    const left = await db.outbox.toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ kind: 'dataset.element.add', status: 'failed' });
    expect(left[0]!.error?.status).toBe(400);
    expect(await serverSets(element.id)).toMatchObject([{ set: 'train' }]);
  });

  it('sends an element created offline before putting it in a set', async () => {
    freshDb();
    const dataset = await makeDataset();
    const temp = await createElement(db, {
      corpus: corpusId,
      parent: folderId,
      type: 'page',
      name: 'f. 8 (new)',
    });
    expect(isTempId(temp)).toBe(true);
    await inDb.addElementToSet(db, {
      dataset,
      set: 'test',
      element: { id: temp, name: 'f. 8 (new)', type: 'page' },
    });
    expect(shown(await readElementSets(db, temp, { online: false }))).toEqual([
      [dataset.name, 'test'],
    ]);

    const { engine } = reload();
    expect((await engine.sync()).sent).toBe(2);
    const serverId = (await db.idMap.get(temp))!.serverId;
    expect(await serverSets(serverId)).toMatchObject([{ set: 'test' }]);
    // Still found under the id the page was opened with, now the server's.
    expect(shown(await readElementSets(db, temp, online))).toEqual([[dataset.name, 'test']]);
    expect(await db.elementSets.get(temp)).toBeUndefined();
  });
});
