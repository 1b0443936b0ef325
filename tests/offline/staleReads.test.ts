import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { updateElement } from '@/offline/elementEdits';
import { readElement } from '@/offline/elementReads';
import { createClassification } from '@/offline/entityEdits';
import { SyncEngine } from '@/offline/engine';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher, type Fault } from './inProcessServer';
import { heuristicCache } from './staleCache';

const MONTH_MS = 30 * 24 * 3600_000;

describeEachDialect('edits of month-old elements read through a cache', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  const dbs: FoliaDatabase[] = [];
  const online = { online: true };
  const owner = () => clientFor(t().app, actors, 'owner');

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Old rows' });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    for (const db of dbs) await db.delete();
  });

  async function monthOldPage(name: string): Promise<string> {
    const id = (
      await owner().post('elements/create/', { corpus: corpusId, type: 'page', name })
    ).json().id as string;
    await t()
      .app.db.updateTable('elements')
      .set({ updated: new Date(Date.now() - MONTH_MS).toISOString() })
      .where('id', '=', id)
      .execute();
    return id;
  }

  it('bases each rename on the version the previous one made, never on a cached read', async () => {
    const id = await monthOldPage('Folio 0');
    const mlClass = (await owner().post(`corpus/${corpusId}/classes/`, { name: 'Deed' })).json();
    // Reads go through a cache that keeps answers as browsers did without Cache-Control.
    vi.stubGlobal('fetch', heuristicCache(inProcessFetcher(t().app, actors.contributor.token)));
    const db = new FoliaDatabase(`folia-stale-${randomUUID()}`);
    dbs.push(db);
    const faults: Fault[] = ['unavailable', 'none', 'unreachable', 'unavailable', 'none'];
    let sent = 0;
    const fetcher = inProcessFetcher(t().app, actors.contributor.token, () => {
      sent += 1;
      return faults[sent % faults.length]!;
    });
    let now = Date.now();
    const engine = new SyncEngine(db, { fetcher, now: () => now });
    const refused: string[] = [];
    // As the app does: the page reads the element again after every run of the outbox.
    const drain = async () => {
      for (let round = 0; round < 50 && (await db.outbox.count()) > 0; round += 1) {
        await engine.sync();
        now += 120_000;
        await readElement(db, id, online);
        for (const entry of await db.outbox.toArray()) {
          if (entry.status === 'conflict' || entry.status === 'failed') {
            refused.push(`${entry.label}: ${entry.status} ${entry.error?.message ?? ''}`);
          }
        }
        if (refused.length) return;
      }
    };

    await readElement(db, id, online);
    for (let i = 1; i <= 5; i += 1) {
      await updateElement(db, id, { name: `Folio ${i}` });
      await drain();
      if (i === 2) {
        await createClassification(db, { id, corpusId }, mlClass);
        await drain();
      }
    }

    expect(refused).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
    const onServer = (await owner().get(`element/${id}/`)).json();
    expect(onServer.name).toBe('Folio 5');
    expect(
      onServer.classifications.map((c: { ml_class: { name: string } }) => c.ml_class.name),
    ).toEqual(['Deed']);
    // The page shows what the server holds, not the month-old answer the cache keeps.
    const shown = await readElement(db, id, online);
    expect(shown.name).toBe('Folio 5');
    expect(shown.classifications.map((c) => c.ml_class.name)).toEqual(['Deed']);
  }, 60_000);

  it('takes a 412 over the very values the edit sends as done, not as a conflict', async () => {
    const id = await monthOldPage('Folio A');
    vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.contributor.token));
    const db = new FoliaDatabase(`folia-same-${randomUUID()}`);
    dbs.push(db);
    await readElement(db, id, online);
    await updateElement(db, id, { name: 'Folio B' });
    // The server applies the rename, its answer is lost, and the key is forgotten meanwhile
    // (a day offline): the rename comes again as a new request, over the month-old version.
    let fault: Fault = 'lost-response';
    const fetcher = inProcessFetcher(t().app, actors.contributor.token, () => fault);
    let now = Date.now();
    const engine = new SyncEngine(db, { fetcher, now: () => now });
    expect((await engine.sync()).offline).toBe(true);
    expect((await owner().get(`element/${id}/`)).json().name).toBe('Folio B');
    await t().app.db.deleteFrom('idempotency_keys').execute();
    fault = 'none';
    now += 120_000;
    expect((await engine.sync()).sent).toBe(1);
    expect(await db.outbox.toArray()).toEqual([]);
    const version = (await owner().get(`element/${id}/`)).headers['last-modified'];
    expect((await db.elements.get(id))?.lastModified).toBe(version);
    // The next rename is based on that version and goes through.
    await updateElement(db, id, { name: 'Folio C' });
    expect((await engine.sync()).sent).toBe(1);
    expect((await owner().get(`element/${id}/`)).json().name).toBe('Folio C');
  });
});
