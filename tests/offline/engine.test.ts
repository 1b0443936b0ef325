import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import {
  createElement,
  deleteElement,
  linkElement,
  moveElement,
  updateElement,
} from '@/offline/elementEdits';
import { SyncEngine } from '@/offline/engine';
import { isTempId } from '@/offline/outboxEntry';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher, type Fault } from './inProcessServer';

describeEachDialect('replaying the outbox against the server', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let db: FoliaDatabase;

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Offline' });
  });
  afterEach(async () => {
    await db?.delete();
  });

  function freshDb(): FoliaDatabase {
    db = new FoliaDatabase(`folia-test-${randomUUID()}`);
    return db;
  }

  async function serverChildren(
    parentId: string,
  ): Promise<{ id: string; name: string; type: string }[]> {
    const response = await clientFor(t().app, actors, 'owner').get(
      `elements/${parentId}/children/?page_size=500`,
    );
    return response.json().results;
  }

  async function serverTopLevel(name: string) {
    const response = await clientFor(t().app, actors, 'owner').get(
      `corpus/${corpusId}/elements/?top_level=true&name=${encodeURIComponent(name)}&page_size=500`,
    );
    return response.json().results as { id: string; name: string }[];
  }

  it('sends edits made offline once, in order, with ids made offline rewritten', async () => {
    const local = freshDb();
    const folder = await createElement(local, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Box 12',
    });
    const page = await createElement(local, {
      corpus: corpusId,
      parent: folder,
      type: 'page',
      name: 'f. 1',
    });
    await updateElement(local, page, { name: 'f. 1r' });
    await updateElement(local, page, { name: 'f. 1v' });
    expect(await local.outbox.count()).toBe(2); // the renames folded into the creation

    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    const result = await new SyncEngine(local, { fetcher }).sync();
    expect(result).toMatchObject({ sent: 2, offline: false, needsLogin: false });
    expect(fetcher.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/elements/create/',
      'POST /api/v1/elements/create/',
    ]);

    const [box] = await serverTopLevel('Box 12');
    expect(box).toBeDefined();
    expect((await serverChildren(box!.id)).map((c) => c.name)).toEqual(['f. 1v']);
    expect(await local.outbox.count()).toBe(0);
    const ids = await local.elements.toCollection().primaryKeys();
    expect(ids.some(isTempId)).toBe(false);
    expect(ids).toContain(box!.id);
    expect(await local.syncState.get('lastSync')).toBeDefined();
  });

  it('applies each edit exactly once when answers are lost and the server fails', async () => {
    const local = freshDb();
    const folder = await createElement(local, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Box 13',
    });
    for (let i = 1; i <= 5; i += 1) {
      await createElement(local, { corpus: corpusId, parent: folder, type: 'page', name: `p${i}` });
    }
    // Every request fails once, in turn: lost answer, 503, unreachable.
    const faults: Fault[] = ['lost-response', 'unavailable', 'unreachable'];
    let calls = 0;
    const fetcher = inProcessFetcher(t().app, actors.contributor.token, () =>
      calls++ % 2 === 0 ? faults[(calls >> 1) % faults.length]! : 'none',
    );
    let now = Date.now();
    const engine = new SyncEngine(local, { fetcher, now: () => now });
    for (let round = 0; round < 40 && (await local.outbox.count()) > 0; round += 1) {
      await engine.sync();
      now += 120_000; // past any backoff
    }
    expect(await local.outbox.count()).toBe(0);
    // Half the attempts failed: 6 creations took more than 6 requests to reach the server.
    expect(fetcher.requests.length).toBeGreaterThan(6);
    const [box, ...others] = await serverTopLevel('Box 13');
    expect(others).toEqual([]);
    expect((await serverChildren(box!.id)).map((c) => c.name).sort()).toEqual([
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
    ]);
  });

  it('parks a refused edit with the server message and goes on with other entities', async () => {
    const local = freshDb();
    const bad = await createElement(local, {
      corpus: corpusId,
      parent: null,
      type: 'no_such_type',
      name: 'Bad',
    });
    await createElement(local, { corpus: corpusId, parent: null, type: 'folder', name: 'Box 14' });
    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    const result = await new SyncEngine(local, { fetcher }).sync();
    expect(result.sent).toBe(1);
    expect(await serverTopLevel('Box 14')).toHaveLength(1);
    const [parked] = await local.outbox.toArray();
    expect(parked).toMatchObject({ entityId: bad, status: 'failed' });
    expect(parked!.error!.message).toBe("Type 'no_such_type' not found.");
  });

  it('keeps a refused creation and the edits after it for the user to see', async () => {
    const local = freshDb();
    const bad = await createElement(local, {
      corpus: corpusId,
      parent: null,
      type: 'no_such_type',
      name: 'Bad',
    });
    const child = await createElement(local, {
      corpus: corpusId,
      parent: bad,
      type: 'page',
      name: 'Under bad',
    });
    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    await new SyncEngine(local, { fetcher }).sync();
    const entries = await local.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => [e.entityId, e.status])).toEqual([
      [bad, 'failed'],
      [child, 'pending'],
    ]);
    expect(entries[0]!.error).toMatchObject({
      status: 400,
      fields: { type: ["Type 'no_such_type' not found."] },
    });
  });

  it('stops at a conflict and shows the server version instead of overwriting it', async () => {
    const owner = clientFor(t().app, actors, 'owner');
    const created = await owner.post('elements/create/', {
      corpus: corpusId,
      type: 'folder',
      name: 'Box 15',
    });
    const id = created.json().id as string;
    const local = freshDb();
    const read = await owner.get(`element/${id}/`);
    // The annotator loaded the element an hour ago; someone renamed it since.
    await local.elements.put({
      id,
      corpusId,
      data: read.json(),
      full: true,
      lastModified: new Date(Date.now() - 3600_000).toUTCString(),
      local: false,
      parentIds: [],
      savedAt: Date.now(),
    });
    await owner.patch(`element/${id}/`, { name: 'Box 15 (theirs)' });
    await updateElement(local, id, { name: 'Box 15 (mine)' });
    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    const result = await new SyncEngine(local, { fetcher }).sync();
    expect(result.sent).toBe(0);
    const [entry] = await local.outbox.toArray();
    expect(entry!.status).toBe('conflict');
    expect(entry!.current).toMatchObject({ id, name: 'Box 15 (theirs)' });
    expect(entry!.currentLastModified).toBeTruthy();
    expect((await owner.get(`element/${id}/`)).json().name).toBe('Box 15 (theirs)');
  });

  it('sends an edit over a change of other fields made there since: a merge, field by field', async () => {
    const local = freshDb();
    const { id, owner } = await loadedElement('Box 15b');
    // Someone turns it while this device, offline, renames it: the version moved, the name not.
    await owner.patch(`element/${id}/`, { rotation_angle: 90 });
    await updateElement(local, id, { name: 'Box 15b (mine)' });
    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    const result = await new SyncEngine(local, { fetcher }).sync();
    expect(result.sent).toBe(1);
    expect(fetcher.requests.map((r) => r.method)).toEqual(['PATCH', 'PATCH']);
    expect(await local.outbox.count()).toBe(0);
    expect((await owner.get(`element/${id}/`)).json()).toMatchObject({
      name: 'Box 15b (mine)',
      rotation_angle: 90,
    });
    // A rename there too is a conflict again: the user chooses.
    await owner.patch(`element/${id}/`, { name: 'Box 15b (theirs)' });
    await updateElement(local, id, { name: 'Box 15b (mine, again)' });
    expect((await new SyncEngine(local, { fetcher }).sync()).sent).toBe(0);
    expect(await local.outbox.toArray()).toMatchObject([{ status: 'conflict' }]);
  });

  it('sends nothing for an element created and deleted while offline', async () => {
    const local = freshDb();
    const folder = await createElement(local, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Ephemeral',
    });
    await createElement(local, { corpus: corpusId, parent: folder, type: 'page', name: 'p' });
    await deleteElement(local, folder);
    expect(await local.outbox.count()).toBe(0);
    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    await new SyncEngine(local, { fetcher }).sync();
    expect(fetcher.requests).toEqual([]);
  });

  it('moves and links into folders created offline once those exist', async () => {
    const local = freshDb();
    const a = await createElement(local, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Box 16a',
    });
    const b = await createElement(local, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Box 16b',
    });
    const page = await createElement(local, {
      corpus: corpusId,
      parent: a,
      type: 'page',
      name: 'loose',
    });
    await moveElement(local, page, b);
    await linkElement(local, page, a);
    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    const result = await new SyncEngine(local, { fetcher }).sync();
    expect(result.sent).toBe(5);
    const [boxA] = await serverTopLevel('Box 16a');
    const [boxB] = await serverTopLevel('Box 16b');
    expect((await serverChildren(boxA!.id)).map((c) => c.name)).toEqual(['loose']);
    expect((await serverChildren(boxB!.id)).map((c) => c.name)).toEqual(['loose']);
  });

  /** An element made on the server, as this device loaded it: with the version the server gave. */
  async function loadedElement(name: string, lastModified?: string) {
    const owner = clientFor(t().app, actors, 'owner');
    const id = (
      await owner.post('elements/create/', { corpus: corpusId, type: 'folder', name })
    ).json().id as string;
    const read = await owner.get(`element/${id}/`);
    await db.elements.put({
      id,
      corpusId,
      data: read.json(),
      full: true,
      lastModified: lastModified ?? String(read.headers['last-modified']),
      local: false,
      parentIds: [],
      savedAt: Date.now(),
    });
    return { id, owner };
  }

  it('does not delete an element someone changed since it was loaded: the user chooses', async () => {
    const local = freshDb();
    const { id, owner } = await loadedElement(
      'Box 17',
      new Date(Date.now() - 3600_000).toUTCString(),
    );
    await owner.patch(`element/${id}/`, { name: 'Box 17 (theirs)' });
    await deleteElement(local, id);
    const fetcher = inProcessFetcher(t().app, actors.owner.token);
    expect((await new SyncEngine(local, { fetcher }).sync()).sent).toBe(0);
    const [entry] = await local.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'element.delete', status: 'conflict' });
    expect(entry!.current).toMatchObject({ id, name: 'Box 17 (theirs)' });
    expect((await owner.get(`element/${id}/`)).statusCode).toBe(200);
  });

  it('deletes an element whose known version is older when nothing of it changed there', async () => {
    const local = freshDb();
    // As a zone known from a list read in the second it was made: its version is the one before.
    const { id, owner } = await loadedElement(
      'Box 17b',
      new Date(Date.now() - 3600_000).toUTCString(),
    );
    await deleteElement(local, id);
    const fetcher = inProcessFetcher(t().app, actors.owner.token);
    expect((await new SyncEngine(local, { fetcher }).sync()).sent).toBe(1);
    expect(fetcher.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
    expect(await local.outbox.count()).toBe(0);
    expect((await owner.get(`element/${id}/`)).statusCode).toBe(404);
  });

  it('deletes an element whose rename was on the way, over the version the rename made', async () => {
    const local = freshDb();
    const { id, owner } = await loadedElement('Box 18');
    await updateElement(local, id, { name: 'Box 18 renamed' });
    const faults: Fault[] = ['lost-response'];
    const fetcher = inProcessFetcher(t().app, actors.owner.token, () => faults.shift() ?? 'none');
    expect((await new SyncEngine(local, { fetcher }).sync()).offline).toBe(true);
    expect((await owner.get(`element/${id}/`)).json().name).toBe('Box 18 renamed');
    await deleteElement(local, id);
    const later = () => Date.now() + 120_000;
    // The rename's answer arrives; the network drops before the deletion goes.
    faults.push('none', 'unreachable');
    expect((await new SyncEngine(local, { fetcher, now: later }).sync()).sent).toBe(1);
    // Deleted here: the rename's answer does not bring the element back.
    expect(await local.elements.get(id)).toBeUndefined();
    const result = await new SyncEngine(local, { fetcher, now: () => later() * 2 }).sync();
    expect(result.sent).toBe(1);
    expect(await local.outbox.count()).toBe(0);
    expect((await owner.get(`element/${id}/`)).statusCode).toBe(404);
    expect(await local.elements.get(id)).toBeUndefined();
  });

  it('replays the moves of a deleted folder that kept other elements out of earlier deletions', async () => {
    const local = freshDb();
    const folder = (name: string, parent: string | null) =>
      createElement(local, { corpus: corpusId, parent, type: 'folder', name });
    const a = await folder('Box 19a', null);
    const b = await folder('Box 19b', null);
    const x = await folder('Box 19x', a);
    await moveElement(local, x, b);
    const page = await createElement(local, {
      corpus: corpusId,
      parent: b,
      type: 'page',
      name: 'kept',
    });
    await moveElement(local, page, x);
    await deleteElement(local, a);
    await moveElement(local, page, b);
    // On the server x still is in a unless its move is replayed before a's deletion.
    await deleteElement(local, x);
    const fetcher = inProcessFetcher(t().app, actors.owner.token);
    await new SyncEngine(local, { fetcher }).sync();
    expect((await local.outbox.toArray()).map((e) => `${e.label} ${e.status}`)).toEqual([]);
    expect(await serverTopLevel('Box 19a')).toEqual([]);
    const [boxB] = await serverTopLevel('Box 19b');
    expect((await serverChildren(boxB!.id)).map((c) => c.name)).toEqual(['kept']);
  });
});
