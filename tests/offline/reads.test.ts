import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { createElement, deleteElement, updateElement } from '@/offline/elementEdits';
import { NotAvailableOffline, readElement, readList } from '@/offline/elementReads';
import { SyncEngine } from '@/offline/engine';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher } from './inProcessServer';

describeEachDialect('reading elements through the local store', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let folderId: string;
  let pageIds: string[];
  let db: FoliaDatabase;
  const online = { online: true };
  const offline = { online: false };

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Reads' });
    const owner = clientFor(t().app, actors, 'owner');
    folderId = (
      await owner.post('elements/create/', { corpus: corpusId, type: 'folder', name: 'Box R' })
    ).json().id;
    pageIds = [];
    for (const name of ['f. 1', 'f. 2', 'f. 3']) {
      const created = await owner.post('elements/create/', {
        corpus: corpusId,
        parent: folderId,
        type: 'page',
        name,
      });
      pageIds.push(created.json().id);
    }
    vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.contributor.token));
    db = new FoliaDatabase(`folia-reads-${randomUUID()}`);
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await db.delete();
  });

  const names = (page: { results: { name: string }[] }) => page.results.map((e) => e.name);

  it('keeps what a list said of an element having children when a later list does not say', async () => {
    const flagged = { page: 1, order: 'position', with_has_children: true };
    await readList(db, 'children', folderId, flagged, online);
    // A list that did not ask (the zones of a page, another order) stores the same rows.
    await readList(db, 'children', folderId, { page: 1, order: 'name' }, online);
    const again = await readList(db, 'children', folderId, flagged, offline);
    expect(again.results.map((element) => element.has_children)).toEqual([false, false, false]);
  });

  it('opens offline what was seen online, and says so for what was not', async () => {
    const element = await readElement(db, folderId, online);
    expect(element).toMatchObject({ name: 'Box R', rights: ['read', 'write'] });
    expect((await db.elements.get(folderId))?.lastModified).toBeTruthy();
    const list = await readList(db, 'children', folderId, { page: 1, order: 'position' }, online);
    expect(names(list)).toEqual(['f. 1', 'f. 2', 'f. 3']);

    expect((await readElement(db, folderId, offline)).name).toBe('Box R');
    expect(
      names(await readList(db, 'children', folderId, { page: 1, order: 'position' }, offline)),
    ).toEqual(['f. 1', 'f. 2', 'f. 3']);
    await expect(
      readList(db, 'children', folderId, { page: 2, order: 'position' }, offline),
    ).rejects.toBeInstanceOf(NotAvailableOffline);
    await expect(readElement(db, randomUUID(), offline)).rejects.toBeInstanceOf(
      NotAvailableOffline,
    );
  });

  it('revalidates a children list seen before with If-Modified-Since', async () => {
    const query = { page: 1, order: 'position', page_size: 2 };
    // Its children last changed an hour ago (a list changed this very second is never a 304).
    await t()
      .app.db.updateTable('elements')
      .set({ children_updated: new Date(Date.now() - 3600_000).toISOString() })
      .where('id', '=', pageIds[1]!)
      .execute();
    const first = await readList(db, 'children', pageIds[1]!, query, online);
    expect(first.results).toEqual([]);
    const seen: string[] = [];
    const spy = vi.fn(inProcessFetcher(t().app, actors.contributor.token));
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      seen.push(String((init.headers as Record<string, string>)['If-Modified-Since'] ?? ''));
      const response = await spy(url, init);
      seen.push(String(response.status));
      return response;
    });
    try {
      const again = await readList(db, 'children', pageIds[1]!, query, online);
      expect(again.results).toEqual([]);
      expect(seen[0]).toBe(
        (await db.lists.toArray()).find((l) => l.ownerId === pageIds[1])!.lastModified,
      );
      expect(seen[1]).toBe('304');
    } finally {
      vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.contributor.token));
    }
  });

  it('shows edits not yet sent over what the server still says', async () => {
    const query = { page: 1, order: 'position' };
    await readList(db, 'children', folderId, query, online);
    await updateElement(db, pageIds[0]!, { name: 'f. 1r' });
    const added = await createElement(db, {
      corpus: corpusId,
      parent: folderId,
      type: 'page',
      name: 'f. 4',
    });
    await deleteElement(db, pageIds[2]!);

    for (const mode of [online, offline]) {
      const list = await readList(db, 'children', folderId, query, mode);
      expect(names(list)).toEqual(['f. 1r', 'f. 2', 'f. 4']);
      expect(list.count).toBe(3);
    }
    expect((await readElement(db, added, offline)).name).toBe('f. 4');

    // Once replayed, the server agrees and the new page is found by its new id too.
    await new SyncEngine(db, { fetcher: inProcessFetcher(t().app, actors.owner.token) }).sync();
    expect(names(await readList(db, 'children', folderId, query, online))).toEqual([
      'f. 1r',
      'f. 2',
      'f. 4',
    ]);
    const replayed = await readElement(db, added, online);
    expect(replayed.id).not.toBe(added);
    expect(replayed.name).toBe('f. 4');
  });
  it('keeps an acknowledged edit over a list answer the server gave before it landed', async () => {
    const query = { page: 1, order: 'position' };
    const real = inProcessFetcher(t().app, actors.contributor.token);
    let answered!: () => void;
    let release!: () => void;
    const serverAnswered = new Promise<void>((resolve) => (answered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    // The list is read on the server at once, but its answer arrives late.
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const response = await real(url, init);
      if (String(url).includes('/children/')) {
        answered();
        await held;
      }
      return response;
    });
    const reading = readList(db, 'children', folderId, query, online);
    await serverAnswered;
    await updateElement(db, pageIds[1]!, { name: 'f. 2v' });
    await new SyncEngine(db, { fetcher: inProcessFetcher(t().app, actors.owner.token) }).sync();
    release();
    expect(names(await reading)).toContain('f. 2v');
    expect((await db.elements.get(pageIds[1]!))?.data.name).toBe('f. 2v');
    vi.stubGlobal('fetch', real);
    expect(names(await readList(db, 'children', folderId, query, online))).toContain('f. 2v');
  });

  it('gives elements known from a list a version, so an edit over a later change conflicts', async () => {
    const local = new FoliaDatabase(`folia-listed-${randomUUID()}`);
    try {
      const owner = clientFor(t().app, actors, 'owner');
      const listed = await owner.post('elements/create/', {
        corpus: corpusId,
        parent: folderId,
        type: 'page',
        name: 'f. 4',
      });
      const id = listed.json().id as string;
      // Seen in its folder only, never opened on its own.
      const page = await readList(local, 'children', folderId, { page: 1 }, online);
      expect(names(page)).toContain('f. 4');
      const row = await local.elements.get(id);
      expect(row?.full).toBe(false);
      expect(row?.lastModified).toMatch(/GMT$/);
      // Someone renames it after that read; this device, not knowing, renames it too.
      expect((await owner.patch(`element/${id}/`, { name: 'f. 4 (theirs)' })).statusCode).toBe(200);
      await updateElement(local, id, { name: 'f. 4 (mine)' });
      const fetcher = inProcessFetcher(t().app, actors.contributor.token);
      expect((await new SyncEngine(local, { fetcher }).sync()).sent).toBe(0);
      expect(await local.outbox.toArray()).toMatchObject([
        { kind: 'element.update', status: 'conflict', current: { name: 'f. 4 (theirs)' } },
      ]);
      expect((await owner.get(`element/${id}/`)).json().name).toBe('f. 4 (theirs)');
    } finally {
      await local.delete();
    }
  });
});
