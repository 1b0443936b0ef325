import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { Element } from '@/api/types';
import { keepMerged, keepMine, keepTheirs } from '@/offline/conflicts';
import { FoliaDatabase } from '@/offline/db';
import { createElement } from '@/offline/elementEdits';
import { readElement } from '@/offline/elementReads';
import {
  createClassification,
  createMetadata,
  createTranscription,
  deleteMetadata,
  deleteTranscription,
  moderateClassification,
  updateMetadata,
  updateTranscription,
} from '@/offline/entityEdits';
import { readMetadata, readTranscriptions } from '@/offline/entityReads';
import { SyncEngine } from '@/offline/engine';
import { isTempId } from '@/offline/outboxEntry';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { makeWorkerRun } from '../server/workerRunFixtures';
import { inProcessFetcher, type Fault } from './inProcessServer';

describeEachDialect('replaying transcription, classification and metadata edits', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let folderId: string;
  let db: FoliaDatabase;
  let workerRunId: string;
  const online = { online: true };

  const owner = () => clientFor(t().app, actors, 'owner');
  /** What the replaying user (a contributor) reads back from the API. */
  const contributor = () => clientFor(t().app, actors, 'contributor');

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Entities offline' });
    folderId = (
      await owner().post('elements/create/', { corpus: corpusId, type: 'folder', name: 'Box E' })
    ).json().id;
    workerRunId = (await makeWorkerRun(t().app, corpusId, { workerName: 'Recognizer' })).id;
    for (const [type, name] of [
      ['text', 'Folio'],
      ['numeric', 'Lines'],
      ['date', 'Written'],
      ['url', 'Source'],
    ]) {
      const allowed = await owner().post(`corpus/${corpusId}/allowed-metadata/`, { type, name });
      expect(allowed.statusCode).toBe(201);
    }
    // Reads (readElement, readTranscriptions…) go through fetch, as the contributor.
    vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.contributor.token));
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });
  afterEach(async () => {
    await db?.delete();
  });

  function freshDb(): FoliaDatabase {
    db = new FoliaDatabase(`folia-entities-${randomUUID()}`);
    return db;
  }

  async function serverPage(name: string): Promise<{ id: string; corpusId: string }> {
    const created = await owner().post('elements/create/', {
      corpus: corpusId,
      parent: folderId,
      type: 'page',
      name,
    });
    expect(created.statusCode).toBe(201);
    return { id: created.json().id as string, corpusId };
  }

  async function serverTranscriptions(elementId: string) {
    const response = await contributor().get(`element/${elementId}/transcriptions/`);
    expect(response.statusCode).toBe(200);
    return (response.json().results as { id: string; text: string; orientation: string }[]).map(
      ({ id, text, orientation }) => ({ id, text, orientation }),
    );
  }

  async function serverMetadata(elementId: string) {
    const response = await contributor().get(`element/${elementId}/metadata/`);
    expect(response.statusCode).toBe(200);
    return (response.json() as { id: string; type: string; name: string; value: string }[]).map(
      ({ id, type, name, value }) => ({ id, type, name, value }),
    );
  }

  async function serverClassifications(elementId: string) {
    const response = await contributor().get(`element/${elementId}/`);
    return (response.json() as Element).classifications.map((c) => ({
      id: c.id,
      ml_class: c.ml_class.name,
      state: c.state,
    }));
  }

  async function makeClass(name: string): Promise<{ id: string; name: string }> {
    const response = await owner().post(`corpus/${corpusId}/classes/`, { name });
    expect(response.statusCode).toBe(201);
    return { id: response.json().id as string, name };
  }

  const engineAs = (
    role: 'contributor' | 'owner' = 'contributor',
    faults?: () => Fault,
    now?: () => number,
  ) => {
    const fetcher = inProcessFetcher(t().app, actors[role].token, faults);
    return { fetcher, engine: new SyncEngine(db, { fetcher, now }) };
  };

  const requestsOf = (fetcher: { requests: { method: string; url: string }[] }) =>
    fetcher.requests.map((r) => `${r.method} ${r.url.replace('/api/v1', '')}`);

  it('sends a transcription written, corrected and then deleted offline once each', async () => {
    const local = freshDb();
    const page = await serverPage('f. 1');
    const id = await createTranscription(local, page, 'Ligne premiere', 'horizontal-lr');
    await updateTranscription(local, id, corpusId, { text: 'Ligne première' });
    await updateTranscription(local, id, corpusId, { orientation: 'horizontal-rl' });
    // Both corrections went into the creation, which was never sent.
    expect(await local.outbox.count()).toBe(1);

    const first = engineAs();
    expect(await first.engine.sync()).toMatchObject({ sent: 1, offline: false });
    expect(requestsOf(first.fetcher)).toEqual([`POST /element/${page.id}/transcription/`]);
    const [onServer, ...others] = await serverTranscriptions(page.id);
    expect(others).toEqual([]);
    expect(onServer).toMatchObject({ text: 'Ligne première', orientation: 'horizontal-rl' });
    // The local copy now has the server's id.
    const rows = await local.transcriptions.where('ownerId').equals(page.id).toArray();
    expect(rows.map((row) => row.id)).toEqual([onServer!.id]);
    expect(await local.transcriptions.get(id)).toBeUndefined();

    await updateTranscription(local, onServer!.id, corpusId, { text: 'Ligne 1' });
    await updateTranscription(local, onServer!.id, corpusId, { text: 'Ligne une' });
    const second = engineAs();
    expect((await second.engine.sync()).sent).toBe(1);
    expect(requestsOf(second.fetcher)).toEqual([`PATCH /transcription/${onServer!.id}/`]);
    expect(await serverTranscriptions(page.id)).toEqual([{ ...onServer!, text: 'Ligne une' }]);

    // A correction then a deletion: only the deletion goes.
    await updateTranscription(local, onServer!.id, corpusId, { text: 'Ligne unique' });
    await deleteTranscription(local, onServer!.id, corpusId);
    const third = engineAs();
    expect((await third.engine.sync()).sent).toBe(1);
    expect(requestsOf(third.fetcher)).toEqual([`DELETE /transcription/${onServer!.id}/`]);
    expect(await serverTranscriptions(page.id)).toEqual([]);
    expect(await local.outbox.count()).toBe(0);
    expect(await local.transcriptions.count()).toBe(0);
  });

  it('sends nothing for a transcription written and deleted offline', async () => {
    const local = freshDb();
    const page = await serverPage('f. 2');
    const id = await createTranscription(local, page, 'Brouillon', 'horizontal-lr');
    await updateTranscription(local, id, corpusId, { text: 'Brouillon 2' });
    await deleteTranscription(local, id, corpusId);
    expect(await local.outbox.count()).toBe(0);
    const { engine, fetcher } = engineAs();
    await engine.sync();
    expect(fetcher.requests).toEqual([]);
    expect(await serverTranscriptions(page.id)).toEqual([]);
  });

  it("posts a transcription of an element created offline under the element's server id", async () => {
    const local = freshDb();
    const line = await createElement(local, {
      corpus: corpusId,
      parent: folderId,
      type: 'page',
      name: 'f. 3 (offline)',
    });
    await createTranscription(local, { id: line, corpusId }, 'Écrit hors ligne', 'horizontal-lr');
    const { engine, fetcher } = engineAs();
    expect((await engine.sync()).sent).toBe(2);
    const children = (await contributor().get(`elements/${folderId}/children/?page_size=500`))
      .json()
      .results.filter((child: { name: string }) => child.name === 'f. 3 (offline)');
    expect(children).toHaveLength(1);
    const serverId = children[0].id as string;
    expect(requestsOf(fetcher)).toEqual([
      'POST /elements/create/',
      `POST /element/${serverId}/transcription/`,
    ]);
    expect((await serverTranscriptions(serverId)).map((tr) => tr.text)).toEqual([
      'Écrit hors ligne',
    ]);
    const rows = await local.transcriptions.toArray();
    expect(rows.map((row) => [row.ownerId, isTempId(row.id)])).toEqual([[serverId, false]]);
  });

  it('keeps a correction of a transcription someone changed since it was loaded', async () => {
    const local = freshDb();
    const page = await serverPage('f. 4');
    const created = await owner().post(`element/${page.id}/transcription/`, { text: 'Original' });
    const id = created.json().id as string;
    // Loaded with the page, as the details panel reads it.
    expect((await readTranscriptions(local, page.id, online)).map((tr) => tr.text)).toEqual([
      'Original',
    ]);
    expect(
      (await owner().patch(`transcription/${id}/`, { text: 'Their correction' })).statusCode,
    ).toBe(200);
    await updateTranscription(local, id, corpusId, { text: 'My correction' });
    const { engine } = engineAs();
    expect((await engine.sync()).sent).toBe(0);
    const [entry, ...more] = await local.outbox.toArray();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ kind: 'transcription.update', status: 'conflict' });
    expect(entry!.error).toMatchObject({ status: 412 });
    expect(entry!.current).toMatchObject({ id, text: 'Their correction' });
    expect(await serverTranscriptions(page.id)).toEqual([
      { id, text: 'Their correction', orientation: 'horizontal-lr' },
    ]);
  });

  it('sends a correction of the text over a change of orientation made there since', async () => {
    const local = freshDb();
    const page = await serverPage('f. 4a');
    const id = (await owner().post(`element/${page.id}/transcription/`, { text: 'Shalom' })).json()
      .id as string;
    await readTranscriptions(local, page.id, online);
    await owner().patch(`transcription/${id}/`, { orientation: 'horizontal-rl' });
    await updateTranscription(local, id, corpusId, { text: 'Shalom aleikhem' });
    const { engine, fetcher } = engineAs();
    expect((await engine.sync()).sent).toBe(1);
    expect(requestsOf(fetcher)).toEqual([
      `PATCH /transcription/${id}/`,
      `PATCH /transcription/${id}/`,
    ]);
    expect(await local.outbox.count()).toBe(0);
    expect(await serverTranscriptions(page.id)).toEqual([
      { id, text: 'Shalom aleikhem', orientation: 'horizontal-rl' },
    ]);
  });

  it('keeps a correction of a transcription changed on the server since it was written here', async () => {
    const local = freshDb();
    const page = await serverPage('f. 5');
    const id = await createTranscription(local, page, 'Mine first', 'horizontal-lr');
    await engineAs().engine.sync();
    const [row] = await local.transcriptions.toArray();
    await owner().patch(`transcription/${row!.id}/`, { text: 'Theirs' });
    await updateTranscription(local, row!.id, corpusId, { text: 'Mine again' });
    expect(id).not.toBe(row!.id);
    expect((await engineAs().engine.sync()).sent).toBe(0);
    expect(await local.outbox.toArray()).toMatchObject([{ status: 'conflict' }]);
    expect((await serverTranscriptions(page.id)).map((tr) => tr.text)).toEqual(['Theirs']);
  });

  it('sends a correction of a transcription loaded from the server over its version', async () => {
    const local = freshDb();
    const page = await serverPage('f. 4b');
    const id = (await owner().post(`element/${page.id}/transcription/`, { text: 'Loaded' })).json()
      .id as string;
    await readTranscriptions(local, page.id, online);
    await updateTranscription(local, id, corpusId, { text: 'Loaded, corrected' });
    expect((await engineAs().engine.sync()).sent).toBe(1);
    await updateTranscription(local, id, corpusId, { text: 'Loaded, corrected twice' });
    expect((await engineAs().engine.sync()).sent).toBe(1);
    expect(await local.outbox.count()).toBe(0);
    expect((await serverTranscriptions(page.id)).map((tr) => tr.text)).toEqual([
      'Loaded, corrected twice',
    ]);
  });

  it('keeps a correction the server acknowledged over a list answer sent before it', async () => {
    const local = freshDb();
    const page = await serverPage('f. 4c');
    const id = (await owner().post(`element/${page.id}/transcription/`, { text: 'Before' })).json()
      .id as string;
    await readTranscriptions(local, page.id, online);
    const real = inProcessFetcher(t().app, actors.contributor.token);
    let answered!: () => void;
    let release!: () => void;
    const serverAnswered = new Promise<void>((resolve) => (answered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    // The list is read on the server at once, but its answer arrives late.
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const response = await real(url, init);
      if (String(url).includes('/transcriptions/')) {
        answered();
        await held;
      }
      return response;
    });
    try {
      const reading = readTranscriptions(local, page.id, online);
      await serverAnswered;
      await updateTranscription(local, id, corpusId, { text: 'After' });
      expect((await engineAs().engine.sync()).sent).toBe(1);
      release();
      expect((await reading).map((tr) => tr.text)).toEqual(['After']);
    } finally {
      vi.stubGlobal('fetch', real);
    }
    // The version kept is the correction's: the next one is not taken for a conflict.
    await updateTranscription(local, id, corpusId, { text: 'After, again' });
    expect((await engineAs().engine.sync()).sent).toBe(1);
    expect((await serverTranscriptions(page.id)).map((tr) => tr.text)).toEqual(['After, again']);
  });

  /** A transcription loaded here, corrected on the server since, then corrected here: a conflict. */
  async function conflictingCorrection(name: string) {
    const local = freshDb();
    const page = await serverPage(name);
    const id = (await owner().post(`element/${page.id}/transcription/`, { text: 'Base' })).json()
      .id as string;
    await readTranscriptions(local, page.id, online);
    await owner().patch(`transcription/${id}/`, { text: 'Theirs', orientation: 'horizontal-rl' });
    await updateTranscription(local, id, corpusId, { text: 'Mine' });
    const { engine } = engineAs();
    await engine.sync();
    const [entry] = await local.outbox.toArray();
    expect(entry!.status).toBe('conflict');
    return { local, page, id, seq: entry!.seq!, engine };
  }

  it('sends a conflicting correction over the server version when the user keeps mine', async () => {
    const { local, page, id, seq, engine } = await conflictingCorrection('f. 4d');
    expect(await keepMine(local, seq)).toBe(true);
    expect((await engine.sync()).sent).toBe(1);
    expect(await local.outbox.count()).toBe(0);
    expect(await serverTranscriptions(page.id)).toEqual([
      { id, text: 'Mine', orientation: 'horizontal-rl' },
    ]);
    expect((await local.transcriptions.get(id))!.data).toMatchObject({ text: 'Mine' });
  });

  it("shows the server's transcription and sends nothing when the user keeps theirs", async () => {
    const { local, page, id, seq, engine } = await conflictingCorrection('f. 4e');
    expect(await keepTheirs(local, seq)).toBe(true);
    expect((await engine.sync()).sent).toBe(0);
    expect(await local.outbox.count()).toBe(0);
    const row = (await local.transcriptions.get(id))!;
    expect(row).toMatchObject({ ownerId: page.id, data: { text: 'Theirs' } });
    // Nothing of it went into the elements.
    expect(await local.elements.get(id)).toBeUndefined();
    // The next correction is based on the server's version: it goes through.
    await updateTranscription(local, id, corpusId, { text: 'Theirs, then mine' });
    expect((await engine.sync()).sent).toBe(1);
    expect((await serverTranscriptions(page.id)).map((tr) => tr.text)).toEqual([
      'Theirs, then mine',
    ]);
  });

  it('sends the text the user merged from both versions, over the server version', async () => {
    const { local, page, id, seq, engine } = await conflictingCorrection('f. 4f');
    expect(await keepMerged(local, seq, 'Mine and theirs')).toBe(true);
    expect((await local.transcriptions.get(id))!.data).toMatchObject({ text: 'Mine and theirs' });
    expect((await engine.sync()).sent).toBe(1);
    expect(await serverTranscriptions(page.id)).toEqual([
      { id, text: 'Mine and theirs', orientation: 'horizontal-rl' },
    ]);
  });

  it('does not delete a transcription someone changed since it was loaded', async () => {
    const local = freshDb();
    const page = await serverPage('f. 6');
    const id = (await owner().post(`element/${page.id}/transcription/`, { text: 'Keep me' })).json()
      .id as string;
    await readTranscriptions(local, page.id, online);
    await owner().patch(`transcription/${id}/`, { text: 'Keep me, corrected' });
    await deleteTranscription(local, id, corpusId);
    expect((await engineAs().engine.sync()).sent).toBe(0);
    expect(await local.outbox.toArray()).toMatchObject([
      { kind: 'transcription.delete', status: 'conflict' },
    ]);
    expect((await serverTranscriptions(page.id)).map((tr) => tr.text)).toEqual([
      'Keep me, corrected',
    ]);
  });

  it('creates, corrects and deletes metadata once each', async () => {
    const local = freshDb();
    const page = await serverPage('f. 7');
    const folio = await createMetadata(local, page, { type: 'text', name: 'Folio', value: '7' });
    await updateMetadata(local, folio, corpusId, { value: '7r' });
    const lines = await createMetadata(local, page, { type: 'numeric', name: 'Lines', value: '3' });
    const written = await createMetadata(local, page, {
      type: 'date',
      name: 'Written',
      value: '1789-07',
    });
    await deleteMetadata(local, written, corpusId);
    expect(await local.outbox.count()).toBe(2);
    const first = engineAs();
    expect((await first.engine.sync()).sent).toBe(2);
    expect(requestsOf(first.fetcher)).toEqual([
      `POST /element/${page.id}/metadata/`,
      `POST /element/${page.id}/metadata/`,
    ]);
    const stored = await serverMetadata(page.id);
    expect(stored.map(({ type, name, value }) => [type, name, value])).toEqual([
      ['text', 'Folio', '7r'],
      ['numeric', 'Lines', '3'],
    ]);
    expect(await local.metadata.get(lines)).toBeUndefined();

    const linesId = stored.find((item) => item.name === 'Lines')!.id;
    const folioId = stored.find((item) => item.name === 'Folio')!.id;
    await updateMetadata(local, linesId, corpusId, { value: '30' });
    await deleteMetadata(local, folioId, corpusId);
    const second = engineAs();
    expect((await second.engine.sync()).sent).toBe(2);
    expect(requestsOf(second.fetcher).sort()).toEqual(
      [`DELETE /metadata/${folioId}/`, `PATCH /metadata/${linesId}/`].sort(),
    );
    expect(await serverMetadata(page.id)).toEqual([
      { id: linesId, type: 'numeric', name: 'Lines', value: '30' },
    ]);
    expect((await readMetadata(local, page.id, online)).map((item) => item.value)).toEqual(['30']);
  });

  it('keeps a metadata change or deletion over a newer server version for the user', async () => {
    const local = freshDb();
    const page = await serverPage('f. 8');
    const a = (
      await owner().post(`element/${page.id}/metadata/`, {
        type: 'text',
        name: 'Folio',
        value: '8',
      })
    ).json().id as string;
    const b = (
      await owner().post(`element/${page.id}/metadata/`, {
        type: 'url',
        name: 'Source',
        value: 'https://example.org/8',
      })
    ).json().id as string;
    await readMetadata(local, page.id, online);
    await owner().patch(`metadata/${a}/`, { value: '8 (theirs)' });
    await owner().patch(`metadata/${b}/`, { value: 'https://example.org/8-theirs' });
    await updateMetadata(local, a, corpusId, { value: '8 (mine)' });
    await deleteMetadata(local, b, corpusId);
    expect((await engineAs().engine.sync()).sent).toBe(0);
    const entries = await local.outbox.orderBy('seq').toArray();
    expect(entries.map((entry) => [entry.kind, entry.status, entry.error?.status])).toEqual([
      ['metadata.update', 'conflict', 412],
      ['metadata.delete', 'conflict', 412],
    ]);
    expect((await serverMetadata(page.id)).map((item) => item.value)).toEqual([
      '8 (theirs)',
      'https://example.org/8-theirs',
    ]);
  });

  it('removes a manual classification rejected after it reached the server (204)', async () => {
    const local = freshDb();
    const page = await serverPage('f. 9');
    const mlClass = await makeClass('Charter');
    await readElement(local, page.id, online);
    const tmp = await createClassification(local, page, mlClass);
    const first = engineAs();
    expect((await first.engine.sync()).sent).toBe(1);
    expect(requestsOf(first.fetcher)).toEqual(['POST /classifications/']);
    const [created, ...others] = await serverClassifications(page.id);
    expect(others).toEqual([]);
    expect(created).toMatchObject({ ml_class: 'Charter', state: 'validated' });
    const shown = (await local.elements.get(page.id))!.data as Element;
    expect(shown.classifications.map((c) => c.id)).toEqual([created!.id]);
    expect(created!.id).not.toBe(tmp);

    await moderateClassification(local, page, created!.id, 'reject');
    const second = engineAs();
    const result = await second.engine.sync();
    expect(requestsOf(second.fetcher)).toEqual([`PUT /classifications/${created!.id}/reject/`]);
    expect(Object.values(result.statuses)).toEqual([204]);
    expect(await serverClassifications(page.id)).toEqual([]);
    expect(((await local.elements.get(page.id))!.data as Element).classifications).toEqual([]);
    expect(await local.outbox.count()).toBe(0);
  });

  it('sends nothing for a manual classification made and rejected offline', async () => {
    const local = freshDb();
    const page = await serverPage('f. 10');
    const mlClass = await makeClass('Letter');
    await readElement(local, page.id, online);
    const tmp = await createClassification(local, page, mlClass);
    await moderateClassification(local, page, tmp, 'reject');
    expect(await local.outbox.count()).toBe(0);
    const { engine, fetcher } = engineAs();
    await engine.sync();
    expect(fetcher.requests).toEqual([]);
    expect(await serverClassifications(page.id)).toEqual([]);
    expect(((await local.elements.get(page.id))!.data as Element).classifications).toEqual([]);
  });

  it("validates a worker's classification and rejects another without deleting it", async () => {
    const local = freshDb();
    const page = await serverPage('f. 11');
    const [deed, will] = [await makeClass('Deed'), await makeClass('Will')];
    const byWorker = async (mlClass: { id: string }, confidence: number) => {
      const response = await owner().post('classifications/', {
        element: page.id,
        ml_class: mlClass.id,
        worker_run_id: workerRunId,
        confidence,
      });
      expect(response.statusCode).toBe(201);
      return response.json().id as string;
    };
    const deedId = await byWorker(deed, 0.7);
    const willId = await byWorker(will, 0.3);
    await readElement(local, page.id, online);
    await moderateClassification(local, page, deedId, 'validate');
    await moderateClassification(local, page, willId, 'reject');
    const { engine, fetcher } = engineAs();
    expect((await engine.sync()).sent).toBe(2);
    expect(requestsOf(fetcher).sort()).toEqual(
      [`PUT /classifications/${deedId}/validate/`, `PUT /classifications/${willId}/reject/`].sort(),
    );
    const states = (list: { ml_class: string | { name: string }; state: string }[]) =>
      list
        .map((c) => `${typeof c.ml_class === 'string' ? c.ml_class : c.ml_class.name} ${c.state}`)
        .sort();
    expect(states(await serverClassifications(page.id))).toEqual([
      'Deed validated',
      'Will rejected',
    ]);
    const local_ = ((await local.elements.get(page.id))!.data as Element).classifications;
    expect(states(local_)).toEqual(['Deed validated', 'Will rejected']);
  });

  it('keeps a rejection the server acknowledged over an element read sent before it', async () => {
    const local = freshDb();
    const page = await serverPage('f. 11b');
    const will = await makeClass('Will (late read)');
    const willId = (
      await owner().post('classifications/', {
        element: page.id,
        ml_class: will.id,
        worker_run_id: workerRunId,
        confidence: 0.4,
      })
    ).json().id as string;
    await readElement(local, page.id, online);
    const real = inProcessFetcher(t().app, actors.contributor.token);
    let answered!: () => void;
    let release!: () => void;
    const serverAnswered = new Promise<void>((resolve) => (answered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    // The element is read on the server at once (still pending), but its answer arrives late.
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const response = await real(url, init);
      if (String(url).endsWith(`/element/${page.id}/`)) {
        answered();
        await held;
      }
      return response;
    });
    try {
      const reading = readElement(local, page.id, online);
      await serverAnswered;
      await moderateClassification(local, page, willId, 'reject');
      expect((await engineAs().engine.sync()).sent).toBe(1);
      release();
      const shown = (await reading).classifications ?? [];
      expect(shown.map((c) => c.state)).toEqual(['rejected']);
    } finally {
      vi.stubGlobal('fetch', real);
    }
  });

  it('applies every edit once when answers are lost after the server applied them', async () => {
    const local = freshDb();
    const page = await serverPage('f. 12');
    const mlClass = await makeClass('Inventory');
    await readElement(local, page.id, online);
    await createTranscription(local, page, 'Perdu une fois', 'horizontal-lr');
    await createMetadata(local, page, { type: 'text', name: 'Folio', value: '12' });
    await createClassification(local, page, mlClass);
    // Every other request's answer is lost: the server applied it, the device never heard.
    let calls = 0;
    let now = Date.now();
    const lossy = engineAs(
      'contributor',
      () => (calls++ % 2 === 0 ? 'lost-response' : 'none'),
      () => now,
    );
    for (let round = 0; round < 20 && (await local.outbox.count()) > 0; round += 1) {
      await lossy.engine.sync();
      now += 120_000;
    }
    expect(await local.outbox.count()).toBe(0);
    expect(lossy.fetcher.requests.length).toBeGreaterThan(3);
    expect((await serverTranscriptions(page.id)).map((tr) => tr.text)).toEqual(['Perdu une fois']);
    expect((await serverMetadata(page.id)).map((m) => m.value)).toEqual(['12']);
    expect((await serverClassifications(page.id)).map((c) => c.ml_class)).toEqual(['Inventory']);

    // Then a correction, a deletion and a rejection, each answer lost once.
    const [tr] = await serverTranscriptions(page.id);
    const [meta] = await serverMetadata(page.id);
    const [classification] = await serverClassifications(page.id);
    await updateTranscription(local, tr!.id, corpusId, { text: 'Perdu deux fois' });
    await deleteMetadata(local, meta!.id, corpusId);
    await moderateClassification(local, page, classification!.id, 'reject');
    for (let round = 0; round < 20 && (await local.outbox.count()) > 0; round += 1) {
      await lossy.engine.sync();
      now += 120_000;
    }
    expect(await local.outbox.toArray()).toEqual([]);
    expect((await serverTranscriptions(page.id)).map((t) => t.text)).toEqual(['Perdu deux fois']);
    expect(await serverMetadata(page.id)).toEqual([]);
    expect(await serverClassifications(page.id)).toEqual([]);
  });
});
