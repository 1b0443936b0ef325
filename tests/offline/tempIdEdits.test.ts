import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { createTranscription, updateTranscription } from '@/offline/entityEdits';
import { readTranscriptions } from '@/offline/entityReads';
import { SyncEngine } from '@/offline/engine';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher } from './inProcessServer';

describeEachDialect('an edit made under a temporary id the server has replaced', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let db: FoliaDatabase;
  const online = { online: true };

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Temporary ids' });
    vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.contributor.token));
    db = new FoliaDatabase(`folia-temp-${randomUUID()}`);
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await db.delete();
  });

  it('is queued for the server id and reaches the server', async () => {
    const owner = clientFor(t().app, actors, 'owner');
    const page = (
      await owner.post('elements/create/', { corpus: corpusId, type: 'page', name: 'f. 1' })
    ).json().id as string;
    await readTranscriptions(db, page, online);
    const temp = await createTranscription(db, { id: page, corpusId }, 'Ledger', 'horizontal-lr');
    const engine = new SyncEngine(db, {
      fetcher: inProcessFetcher(t().app, actors.contributor.token),
    });
    expect((await engine.sync()).sent).toBe(1);
    // A form opened on the new transcription before the answer saves under the id it knew.
    const id = await updateTranscription(db, temp, corpusId, { text: 'Ledger of 1789' });
    expect(id).not.toBe(temp);
    expect((await engine.sync()).sent).toBe(1);
    const onServer = (await owner.get(`element/${page}/transcriptions/`)).json().results;
    expect(onServer.map((item: { id: string; text: string }) => [item.id, item.text])).toEqual([
      [id, 'Ledger of 1789'],
    ]);
    // The view keeps it under the id it was made with.
    expect(await readTranscriptions(db, page, online)).toMatchObject([
      { id, createdAs: temp, text: 'Ledger of 1789' },
    ]);
  });
});
