import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { createElement, deleteElement, updateElement } from '@/offline/elementEdits';
import { SyncEngine } from '@/offline/engine';
import type { Fetcher } from '@/offline/transport';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher } from './inProcessServer';

interface Sent {
  method: string;
  url: string;
  body: Record<string, unknown> | null;
  /** Positions in one timeline of every request's start and answer. */
  start: number;
  end: number;
}

/**
 * The in-process server reached with a few milliseconds of latency each way, every request's
 * start and answer noted in one timeline: what was in flight at the same time shows.
 */
function timedFetcher(
  inner: Fetcher,
  /** Before the request reaches the server: holds it (until something else was sent). */
  hold: (record: Sent, sent: Sent[]) => Promise<void> = async () => {},
): Fetcher & { sent: Sent[]; mostInFlight: () => number } {
  const sent: Sent[] = [];
  let tick = 0;
  let inFlight = 0;
  let most = 0;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 3));
  const fetcher = async (url: string, init: RequestInit) => {
    const record: Sent = {
      method: init.method ?? 'GET',
      url,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : null,
      start: tick++,
      end: -1,
    };
    sent.push(record);
    inFlight += 1;
    most = Math.max(most, inFlight);
    try {
      await pause();
      await hold(record, sent);
      const response = await inner(url, init);
      await pause();
      return response;
    } finally {
      inFlight -= 1;
      record.end = tick++;
    }
  };
  return Object.assign(fetcher, { sent, mostInFlight: () => most });
}

describeEachDialect('the order in which queued edits reach the server', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let db: FoliaDatabase;

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Replay order' });
  });
  afterEach(async () => {
    await db?.delete();
  });

  const fetcherFor = (hold?: Parameters<typeof timedFetcher>[1]) =>
    timedFetcher(inProcessFetcher(t().app, actors.owner.token), hold);

  /** Resolves once `ready` holds, or after a second (a test that waits for it then fails). */
  async function until(ready: () => boolean): Promise<void> {
    for (const deadline = Date.now() + 1000; !ready() && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** An element made on the server, stored here as this device would have loaded it. */
  async function loaded(name: string, parent?: string) {
    const owner = clientFor(t().app, actors, 'owner');
    const body = { corpus: corpusId, type: parent ? 'page' : 'folder', name, parent };
    const id = (await owner.post('elements/create/', body)).json().id as string;
    const read = await owner.get(`element/${id}/`);
    await db.elements.put({
      id,
      corpusId,
      data: read.json(),
      full: true,
      lastModified: String(read.headers['last-modified']),
      local: false,
      parentIds: parent ? [parent] : [],
      savedAt: Date.now(),
    });
    return id;
  }

  async function serverChildren(parentId: string): Promise<string[]> {
    const response = await clientFor(t().app, actors, 'owner').get(
      `elements/${parentId}/children/?page_size=500`,
    );
    return response.json().results.map((child: { name: string }) => child.name);
  }

  it('sends edits of different elements at the same time, never more than the bound', async () => {
    db = new FoliaDatabase(`folia-order-${randomUUID()}`);
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) ids.push(await loaded(`Box 30.${i}`));
    for (const id of ids) await updateElement(db, id, { name: `${id} renamed` });
    // The first answers wait until three requests left (if they do): what can go together shows.
    const fetcher = fetcherFor(async (_record, sent) => {
      if (sent.length <= 3) await until(() => sent.length >= 3);
    });
    const result = await new SyncEngine(db, { fetcher, concurrency: 3 }).sync();
    expect(result.sent).toBe(8);
    expect(fetcher.mostInFlight()).toBe(3);
  });

  it('sends a child’s creation only once its parent’s creation was answered', async () => {
    db = new FoliaDatabase(`folia-order-${randomUUID()}`);
    const others = [await loaded('Box 31a'), await loaded('Box 31b')];
    const folder = await createElement(db, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Box 31',
    });
    for (const name of ['f. 1', 'f. 2', 'f. 3']) {
      await createElement(db, { corpus: corpusId, parent: folder, type: 'page', name });
    }
    for (const id of others) await updateElement(db, id, { name: 'renamed meanwhile' });
    // The folder's creation is answered only once both renames left, if they do.
    const fetcher = fetcherFor(async (record, sent) => {
      if (record.body?.name === 'Box 31') {
        await until(() => sent.filter((r) => r.method === 'PATCH').length === 2);
      }
    });
    expect((await new SyncEngine(db, { fetcher }).sync()).sent).toBe(6);

    const creations = fetcher.sent.filter((r) => r.url.endsWith('/elements/create/'));
    const [parent, ...children] = creations;
    const folderId = (await db.idMap.get(folder))!.serverId;
    for (const child of children) {
      expect(child.start).toBeGreaterThan(parent!.end);
      expect(child.body?.parent).toBe(folderId);
    }
    // The renames did not wait for the creations.
    const renames = fetcher.sent.filter((r) => r.method === 'PATCH');
    expect(renames.every((rename) => rename.start < parent!.end)).toBe(true);
    expect(await serverChildren(folderId)).toEqual(['f. 1', 'f. 2', 'f. 3']);
  });

  it('creates the children of one folder one after the other, in the order they were made', async () => {
    db = new FoliaDatabase(`folia-order-${randomUUID()}`);
    const folder = await loaded('Box 32');
    const names = Array.from({ length: 8 }, (_, i) => `f. ${i + 1}`);
    for (const name of names) {
      await createElement(db, { corpus: corpusId, parent: folder, type: 'page', name });
    }
    const fetcher = fetcherFor();
    expect((await new SyncEngine(db, { fetcher, concurrency: 4 }).sync()).sent).toBe(8);
    const starts = fetcher.sent.map((r) => r.start);
    const ends = fetcher.sent.map((r) => r.end);
    for (let i = 1; i < fetcher.sent.length; i += 1)
      expect(starts[i]).toBeGreaterThan(ends[i - 1]!);
    expect(fetcher.sent.map((r) => r.body?.name)).toEqual(names);
    expect(await serverChildren(folder)).toEqual(names);
  });

  it('sends two edits of one element in order, the second over the version the first made', async () => {
    db = new FoliaDatabase(`folia-order-${randomUUID()}`);
    const id = await loaded('Box 33');
    await updateElement(db, id, { name: 'Box 33 first' });
    // The first rename went once and its answer was lost: the next one is an edit of its own.
    await db.outbox.toCollection().modify({ status: 'sending', attempts: 1 });
    await updateElement(db, id, { name: 'Box 33 second' });
    expect(await db.outbox.count()).toBe(2);
    const fetcher = fetcherFor();
    const result = await new SyncEngine(db, { fetcher, concurrency: 4 }).sync();
    expect(result.sent).toBe(2);
    const [first, second] = fetcher.sent;
    expect([first!.body?.name, second!.body?.name]).toEqual(['Box 33 first', 'Box 33 second']);
    expect(second!.start).toBeGreaterThan(first!.end);
    const owner = clientFor(t().app, actors, 'owner');
    expect((await owner.get(`element/${id}/`)).json().name).toBe('Box 33 second');
  });

  it('sends a deletion after the edits queued before it were answered', async () => {
    db = new FoliaDatabase(`folia-order-${randomUUID()}`);
    const kept = await loaded('Box 34 kept');
    const gone = await loaded('Box 34 gone');
    await updateElement(db, kept, { name: 'Box 34 renamed' });
    await deleteElement(db, gone);
    const fetcher = fetcherFor();
    expect((await new SyncEngine(db, { fetcher }).sync()).sent).toBe(2);
    const [rename, deletion] = fetcher.sent;
    expect([rename!.method, deletion!.method]).toEqual(['PATCH', 'DELETE']);
    expect(deletion!.start).toBeGreaterThan(rename!.end);
  });
});
