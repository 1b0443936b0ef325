import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { deleteElement, updateElement } from '@/offline/elementEdits';
import { readElement, readList } from '@/offline/elementReads';
import {
  createClassification,
  createMetadata,
  createTranscription,
  updateMetadata,
  updateTranscription,
} from '@/offline/entityEdits';
import { readMetadata, readTranscriptions } from '@/offline/entityReads';
import { SyncEngine } from '@/offline/engine';
import type { Fetcher } from '@/offline/transport';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher } from './inProcessServer';

describeEachDialect('a deletion queued after edits of what it deletes', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  const dbs: FoliaDatabase[] = [];
  const online = { online: true };
  const owner = () => clientFor(t().app, actors, 'owner');

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Deleted owners' });
    for (const name of ['Folio', 'Hand']) {
      await owner().post(`corpus/${corpusId}/allowed-metadata/`, { type: 'text', name });
    }
    vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.owner.token));
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    for (const db of dbs) await db.delete();
  });

  /** A folder with a page holding a transcription and a metadata, all read on this device. */
  async function seen(db: FoliaDatabase) {
    const create = async (body: object) =>
      (await owner().post('elements/create/', { corpus: corpusId, ...body })).json().id as string;
    const folder = await create({ type: 'folder', name: `Box ${randomUUID().slice(0, 4)}` });
    const page = await create({ type: 'page', name: 'f. 1', parent: folder });
    const text = (
      await owner().post(`element/${page}/transcription/`, {
        text: 'Item',
        orientation: 'horizontal-lr',
      })
    ).json().id as string;
    const meta = (
      await owner().post(`element/${page}/metadata/`, { type: 'text', name: 'Folio', value: '1' })
    ).json().id as string;
    await readElement(db, folder, online);
    await readList(db, 'children', folder, { page: 1 }, online);
    await readElement(db, page, online);
    await readTranscriptions(db, page, online);
    await readMetadata(db, page, online);
    return { folder, page, text, meta };
  }

  /** The server down (503) for every request, or only for those `down` picks. */
  function engineFor(db: FoliaDatabase, down: (method: string) => boolean) {
    const real = inProcessFetcher(t().app, actors.owner.token);
    const fetcher: Fetcher = async (url, init) =>
      down(init.method ?? 'GET')
        ? new Response('{"type":"server_error","errors":[]}', { status: 503 })
        : real(url, init);
    let now = Date.now();
    const engine = new SyncEngine(db, { fetcher, now: () => now, concurrency: 1 });
    return {
      async drain() {
        for (let round = 0; round < 20 && (await db.outbox.count()) > 0; round += 1) {
          await engine.sync();
          now += 120_000;
        }
      },
      /** Two runs; the retries they leave are not yet due. */
      async twice() {
        await engine.sync();
        now += 120_000;
        await engine.sync();
      },
    };
  }

  const left = async (db: FoliaDatabase) =>
    (await db.outbox.toArray()).map((e) => `${e.label} ${e.status} ${e.error?.message ?? ''}`);

  it('folds classifications, transcriptions, metadata and sub-elements edits into it', async () => {
    const db = new FoliaDatabase(`folia-deleted-${randomUUID()}`);
    dbs.push(db);
    const { folder, page, text, meta } = await seen(db);
    const mlClass = (await owner().post(`corpus/${corpusId}/classes/`, { name: 'Box' })).json();
    await createClassification(db, { id: folder, corpusId }, mlClass);
    await createClassification(db, { id: page, corpusId }, mlClass);
    await createTranscription(db, { id: page, corpusId }, 'New line', 'horizontal-lr');
    await updateTranscription(db, text, corpusId, { text: 'Item (mine)' });
    await createMetadata(db, { id: page, corpusId }, { type: 'text', name: 'Hand', value: 'A' });
    await updateMetadata(db, meta, corpusId, { value: '1r' });
    await updateElement(db, page, { name: 'f. 1r' });
    // Every one answered 503 twice, then the folder is deleted with its page: the deletion is
    // due before their next tries.
    let serverDown = true;
    const replay = engineFor(db, () => serverDown);
    await replay.twice();
    expect((await db.outbox.toArray()).every((e) => e.attempts === 2)).toBe(true);
    await deleteElement(db, folder, true);
    serverDown = false;
    await replay.drain();

    expect(await left(db)).toEqual([]);
    expect((await owner().get(`element/${folder}/`)).statusCode).toBe(404);
    expect((await owner().get(`element/${page}/`)).statusCode).toBe(404);
  });

  it('drops an edit that was on its way and is refused once the deletion went first', async () => {
    const db = new FoliaDatabase(`folia-deleted-${randomUUID()}`);
    dbs.push(db);
    const { folder, page } = await seen(db);
    const mlClass = (await owner().post(`corpus/${corpusId}/classes/`, { name: 'Page' })).json();
    const classification = await createClassification(db, { id: page, corpusId }, mlClass);
    // The tab closed while the classification was being sent; the folder is deleted after.
    await db.outbox.where('entityId').equals(classification).modify({ status: 'sending' });
    await deleteElement(db, folder, true);
    // The deletion reaches the server first: the classification is refused there (400).
    let tries = 0;
    const replay = engineFor(db, (method) => method === 'POST' && (tries += 1) === 1);
    await replay.drain();

    expect(await left(db)).toEqual([]);
    expect((await owner().get(`element/${page}/`)).statusCode).toBe(404);
  });
});
