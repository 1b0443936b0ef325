import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { keepMerged, keepMine, keepTheirs } from '@/offline/conflicts';
import { FoliaDatabase } from '@/offline/db';
import { updateElement } from '@/offline/elementEdits';
import { SyncEngine } from '@/offline/engine';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher } from './inProcessServer';

describeEachDialect('answering a conflict against the server', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let db: FoliaDatabase;

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Conflicts' });
  });
  afterEach(async () => {
    await db?.delete();
  });

  /** A folder this device read an hour ago, renamed on the server since, then renamed here. */
  async function conflict(name: string) {
    const owner = clientFor(t().app, actors, 'owner');
    const created = await owner.post('elements/create/', {
      corpus: corpusId,
      type: 'folder',
      name,
    });
    const id = created.json().id as string;
    db = new FoliaDatabase(`folia-test-${randomUUID()}`);
    await db.elements.put({
      id,
      corpusId,
      data: (await owner.get(`element/${id}/`)).json(),
      full: true,
      lastModified: new Date(Date.now() - 3600_000).toUTCString(),
      local: false,
      parentIds: [],
      savedAt: Date.now(),
    });
    await owner.patch(`element/${id}/`, { name: `${name} (theirs)`, rotation_angle: 90 });
    await updateElement(db, id, { name: `${name} (mine)` });
    const engine = new SyncEngine(db, {
      fetcher: inProcessFetcher(t().app, actors.contributor.token),
    });
    await engine.sync();
    const [entry] = await db.outbox.toArray();
    expect(entry!.status).toBe('conflict');
    // As the replaying user (the contributor) sees it.
    const contributor = clientFor(t().app, actors, 'contributor');
    const onServer = async () => (await contributor.get(`element/${id}/`)).json();
    return { id, seq: entry!.seq!, engine, onServer };
  }

  it('keeps mine: the edit goes over the server version, keeping what it did not touch', async () => {
    const { id, seq, engine, onServer } = await conflict('Box 20');
    expect(await keepMine(db, seq)).toBe(true);
    expect((await engine.sync()).sent).toBe(1);
    expect(await db.outbox.count()).toBe(0);
    expect(await onServer()).toMatchObject({ name: 'Box 20 (mine)', rotation_angle: 90 });
    expect((await db.elements.get(id))!.data).toMatchObject({ name: 'Box 20 (mine)' });
  });

  it('keeps theirs: nothing is sent and this device shows the server version', async () => {
    const { id, seq, engine, onServer } = await conflict('Box 21');
    expect(await keepTheirs(db, seq)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect((await engine.sync()).sent).toBe(0);
    expect((await db.elements.get(id))!.data).toEqual(await onServer());
    expect(await onServer()).toMatchObject({ name: 'Box 21 (theirs)', rotation_angle: 90 });
  });

  it('sends a merged name over the server version', async () => {
    const { seq, engine, onServer } = await conflict('Box 22');
    expect(await keepMerged(db, seq, 'Box 22 (both)')).toBe(true);
    expect((await engine.sync()).sent).toBe(1);
    expect(await onServer()).toMatchObject({ name: 'Box 22 (both)', rotation_angle: 90 });
  });

  it('does nothing to an edit that is not in conflict', async () => {
    const { seq } = await conflict('Box 23');
    await keepTheirs(db, seq);
    expect(await keepMine(db, seq)).toBe(false);
    expect(await keepMerged(db, seq, 'x')).toBe(false);
    expect(await keepTheirs(db, seq)).toBe(false);
  });
});
