import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchParams, SearchResponse } from '@/api/search';
import type { ElementListItem } from '@/api/types';
import { ApiError } from '@/api/errors';
import { FoliaDatabase } from '@/offline/db';
import { storeElements } from '@/offline/elementStore';
import { createTranscription, updateTranscription } from '@/offline/entityEdits';
import { lastLocalBuild, searchOnDevice } from '@/offline/search/client';
import {
  imageUrl,
  rectangle,
  storeCorpus,
  storeElement,
  storeTranscription,
} from './searchFixtures';

const RECOGNIZER = { id: randomUUID(), summary: 'Worker Recognizer (abc123)' };
const CLASSIFIER = { id: randomUUID(), summary: 'Worker Classifier (def456)' };

function params(query: string, more: Partial<SearchParams> = {}): SearchParams {
  return { query, sources: [], sort: 'relevance', page: 1, facets: {}, ...more };
}

let db: FoliaDatabase;
const search = (corpusId: string, query: string, more: Partial<SearchParams> = {}) =>
  searchOnDevice(corpusId, params(query, more), { db });

const sourcesOf = (response: SearchResponse) => response.results.map((hit) => hit.source).sort();

beforeEach(async () => {
  db = new FoliaDatabase(`search-${randomUUID()}`);
  await db.open();
});
afterEach(async () => {
  db.close();
  await db.delete();
});

/** A folder holding a page; on the page's image, a line; their texts mention "abbaye". */
async function registerProject() {
  const corpusId = await storeCorpus(db, 'Register');
  const folder = await storeElement(db, { corpusId, type: 'folder', name: 'Registre de Cluny' });
  const page = await storeElement(db, {
    corpusId,
    type: 'page',
    name: 'Folio abbaye 12',
    parentId: folder.id,
    zone: { image: 'img-12', polygon: rectangle(0, 0, 2000, 3000) },
    classes: [{ name: 'abbaye', confidence: 0.9, workerRun: CLASSIFIER }],
    metadata: [{ name: 'Lieu', value: 'Abbaye de Cluny' }],
  });
  // The page's zones list records the page as the line's parent.
  const line = await storeElement(db, {
    corpusId,
    type: 'text_line',
    name: '3',
    parentId: page.id,
    zone: { image: 'img-12', polygon: rectangle(100, 200, 1500, 80) },
    workerRun: RECOGNIZER,
  });
  const transcription = await storeTranscription(db, line.id, "L'abbé de l'abbaye de Cluny", {
    confidence: 0.8,
    workerRun: RECOGNIZER,
  });
  return { corpusId, folder, page, line, transcription };
}

describe('search on the device', () => {
  it('answers hits in the server shape, with the page to open and the parent the device knows', async () => {
    const { corpusId, folder, page, line, transcription } = await registerProject();
    const response = await search(corpusId, 'cluny', { sources: ['transcription'] });
    expect(response).toMatchObject({ count: 1, number: 1, next: null, previous: null });
    expect(response.results).toEqual([
      {
        id: `transcription:${transcription.id}`,
        source: 'transcription',
        element_id: line.id,
        element_type: 'text_line',
        element_text: '3',
        element_image: imageUrl('img-12'),
        element_polygon: rectangle(100, 200, 1500, 80),
        page_id: page.id,
        page_name: 'Folio abbaye 12',
        parent_id: page.id,
        parent_type: 'page',
        parent_name: 'Folio abbaye 12',
        worker_run_id: RECOGNIZER.id,
        transcription_id: transcription.id,
        transcription_text: "L'abbé de l'abbaye de Cluny",
        transcription_confidence: 0.8,
        classification_id: null,
        classification_name: null,
        classification_confidence: null,
        metadata_id: null,
        metadata_type: null,
        metadata_name: null,
        metadata_text: null,
        transcription_entity_id: null,
        transcription_entity_text: null,
        transcription_entity_type: null,
      },
    ]);
    const pageHit = (await search(corpusId, 'folio', { sources: ['element'] })).results[0]!;
    // The page is the highest element on its image; its folder has none.
    expect(pageHit).toMatchObject({
      id: `element:${page.id}`,
      page_id: page.id,
      parent_id: folder.id,
      parent_type: 'folder',
      parent_name: 'Registre de Cluny',
      worker_run_id: null,
    });
    const folderHit = (await search(corpusId, 'registre')).results[0]!;
    expect(folderHit).toMatchObject({
      page_id: folder.id,
      page_name: 'Registre de Cluny',
      element_image: null,
      element_polygon: null,
      parent_id: null,
    });
  });

  it('opens the page of a line in a region, whichever of the two it was listed under', async () => {
    const corpusId = await storeCorpus(db, 'Regions');
    const page = await storeElement(db, {
      corpusId,
      type: 'page',
      name: '0005',
      zone: { image: 'img-5', polygon: rectangle(0, 0, 2000, 3000) },
    });
    // A region whose id sorts before the page's, stored from a list that did not say its page
    // (the device then does not know the region is on it).
    let region: ElementListItem;
    do {
      region = await storeElement(db, {
        corpusId,
        type: 'text_region',
        name: '1',
        zone: { image: 'img-5', polygon: rectangle(100, 100, 900, 1200) },
      });
    } while (region.id > page.id);
    const spec = {
      corpusId,
      type: 'text_line',
      name: '6',
      zone: { image: 'img-5', polygon: rectangle(120, 300, 800, 60) },
    };
    const line = await storeElement(db, { ...spec, parentId: region.id });
    // The page's recursive zones list names the page as its parent too.
    await db.transaction('rw', [db.elements, db.outbox], () =>
      storeElements(db, [{ ...line }], { full: false, parentId: page.id }),
    );
    const transcription = await storeTranscription(db, line.id, 'Antoine Masson et marie');
    const hit = (await search(corpusId, 'masson')).results[0]!;
    expect(hit).toMatchObject({
      id: `transcription:${transcription.id}`,
      element_id: line.id,
      page_id: page.id,
      page_name: '0005',
      parent_id: region.id,
    });

    // Once the region is known on the page, the page is the only top.
    await db.transaction('rw', [db.elements, db.outbox], () =>
      storeElements(db, [{ ...region }], { full: false, parentId: page.id }),
    );
    expect((await search(corpusId, 'masson')).results[0]).toMatchObject({ page_id: page.id });
  });

  it('searches the five sources, and only those asked for', async () => {
    const { corpusId, page } = await registerProject();
    await storeTranscription(db, page.id, 'Carta de Cluniaco', {
      entities: [
        { type: { id: randomUUID(), name: 'place', color: 'ff0000' }, offset: 9, length: 8 },
      ],
    });
    expect(sourcesOf(await search(corpusId, 'abbaye'))).toEqual([
      'classification',
      'element',
      'metadata',
      'transcription',
    ]);
    expect(
      sourcesOf(await search(corpusId, 'abbaye', { sources: ['metadata', 'element'] })),
    ).toEqual(['element', 'metadata']);
    const entity = await search(corpusId, 'cluniaco', { sources: ['transcription_entity'] });
    expect(entity.results).toEqual([
      expect.objectContaining({
        source: 'transcription_entity',
        element_id: page.id,
        transcription_entity_text: 'Cluniaco',
        transcription_entity_type: 'place',
      }),
    ]);
    expect(entity.facets.entity_type).toEqual([{ value: 'place', label: 'place', count: 1 }]);
    const metadata = (await search(corpusId, 'abbaye', { sources: ['metadata'] })).results[0]!;
    expect(metadata).toMatchObject({
      metadata_name: 'Lieu',
      metadata_text: 'Abbaye de Cluny',
      metadata_type: 'text',
    });
    const classification = (await search(corpusId, 'abbaye', { sources: ['classification'] }))
      .results[0]!;
    expect(classification).toMatchObject({
      classification_name: 'abbaye',
      classification_confidence: 0.9,
      worker_run_id: CLASSIFIER.id,
    });
  });

  it('counts facets over the filtered matches and filters by them', async () => {
    const { corpusId } = await registerProject();
    const all = await search(corpusId, 'abbaye');
    expect(all.count).toBe(4);
    expect(all.facets).toEqual({
      element_type: [
        { value: 'page', label: 'Page', count: 3 },
        { value: 'text_line', label: 'Text line', count: 1 },
      ],
      worker_run: [
        { value: 'manual', label: 'Manual', count: 2 },
        ...[
          { value: CLASSIFIER.id, label: CLASSIFIER.summary, count: 1 },
          { value: RECOGNIZER.id, label: RECOGNIZER.summary, count: 1 },
        ].sort((a, b) => (a.value < b.value ? -1 : 1)),
      ],
      classification_name: [{ value: 'abbaye', label: 'abbaye', count: 1 }],
      metadata_name: [{ value: 'Lieu', label: 'Lieu', count: 1 }],
      entity_type: [],
    });
    const pages = await search(corpusId, 'abbaye', { facets: { element_type: ['page'] } });
    expect(sourcesOf(pages)).toEqual(['classification', 'element', 'metadata']);
    // A facet's own values keep every other value's count, so a second one can be ticked.
    expect(pages.facets.element_type).toEqual([
      { value: 'page', label: 'Page', count: 3 },
      { value: 'text_line', label: 'Text line', count: 1 },
    ]);
    expect(pages.facets.worker_run).toEqual([
      { value: 'manual', label: 'Manual', count: 2 },
      { value: CLASSIFIER.id, label: CLASSIFIER.summary, count: 1 },
    ]);
    // OR within a facet, AND across facets.
    const runs = await search(corpusId, 'abbaye', {
      facets: { worker_run: ['manual', RECOGNIZER.id] },
    });
    expect(sourcesOf(runs)).toEqual(['element', 'metadata', 'transcription']);
    const both = await search(corpusId, 'abbaye', {
      facets: { worker_run: ['manual', RECOGNIZER.id], element_type: ['text_line'] },
    });
    expect(sourcesOf(both)).toEqual(['transcription']);
    const byClass = await search(corpusId, '', { facets: { classification_name: ['abbaye'] } });
    expect(sourcesOf(byClass)).toEqual(['classification']);
    const byMetadata = await search(corpusId, '*', { facets: { metadata_name: ['Lieu'] } });
    expect(sourcesOf(byMetadata)).toEqual(['metadata']);
  });

  it('sorts by relevance or by element name, and pages by 20 with ?page=N links', async () => {
    const corpusId = await storeCorpus(db, 'Lines');
    const page = await storeElement(db, { corpusId, type: 'page', name: 'Page' });
    const lines = [];
    for (let i = 0; i < 45; i += 1) {
      const line = await storeElement(db, {
        corpusId,
        type: 'text_line',
        name: `Line ${String(44 - i).padStart(2, '0')}`,
        parentId: page.id,
      });
      // Line 07 says "vigne" three times in a short text: the most relevant.
      const text =
        i === 37 ? 'vigne vigne vigne' : `une vigne et un pré et une maison numéro ${i} au bourg`;
      await storeTranscription(db, line.id, text);
      lines.push(line);
    }
    const first = await search(corpusId, 'vigne', { sources: ['transcription'] });
    expect(first).toMatchObject({ count: 45, number: 1, previous: null, next: '?page=2' });
    expect(first.results).toHaveLength(20);
    expect(first.results[0]!.element_text).toBe('Line 07');
    const third = await search(corpusId, 'vigne', { sources: ['transcription'], page: 3 });
    expect(third).toMatchObject({ count: 45, number: 3, previous: '?page=2', next: null });
    expect(third.results).toHaveLength(5);
    const pagesSeen = new Set(
      [first, await search(corpusId, 'vigne', { sources: ['transcription'], page: 2 }), third]
        .flatMap((answer) => answer.results)
        .map((hit) => hit.id),
    );
    expect(pagesSeen.size).toBe(45);

    const byName = await search(corpusId, 'vigne', {
      sources: ['transcription'],
      sort: 'element_name',
    });
    expect(byName.results.map((hit) => hit.element_text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Line ${String(i).padStart(2, '0')}`),
    );
    expect(lines).toHaveLength(45);
  });

  it('finds a transcription made or edited on this device, not yet sent, and forgets the old text', async () => {
    const { corpusId, line, transcription } = await registerProject();
    expect((await search(corpusId, 'prieuré')).count).toBe(0);
    await updateTranscription(db, transcription.id, corpusId, {
      text: 'Le prieuré de Souvigny',
    });
    const edited = await search(corpusId, 'prieure', { sources: ['transcription'] });
    expect(edited.results.map((hit) => hit.transcription_text)).toEqual(['Le prieuré de Souvigny']);
    expect((await search(corpusId, 'cluny', { sources: ['transcription'] })).count).toBe(0);

    const created = await createTranscription(
      db,
      { id: line.id, corpusId },
      'Sancti Martini ecclesia',
      'horizontal-lr',
    );
    const found = await search(corpusId, 'martini');
    expect(found.results).toEqual([
      expect.objectContaining({ id: `transcription:${created}`, element_id: line.id }),
    ]);
  });

  it("never answers another project's data", async () => {
    const { corpusId } = await registerProject();
    const otherId = await storeCorpus(db, 'Other');
    const other = await storeElement(db, { corpusId: otherId, type: 'page', name: 'Cluny bis' });
    await storeTranscription(db, other.id, 'Cluny encore');
    const mine = await search(corpusId, 'cluny');
    expect(mine.results.every((hit) => hit.element_id !== other.id)).toBe(true);
    expect(mine.count).toBe(3);
    const theirs = await search(otherId, 'cluny');
    expect(theirs.results.map((hit) => hit.element_id)).toEqual([other.id, other.id]);
    expect((await search(randomUUID(), '')).count).toBe(0);
  });

  it('refuses a query the syntax refuses with the server error', async () => {
    const { corpusId } = await registerProject();
    const refused = search(corpusId, '"abbaye de');
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      message: 'The query has a quote that is not closed.',
      fields: { query: ['The query has a quote that is not closed.'] },
    });
  });

  it('indexes 10,000 lines of a pack (build time logged, not asserted)', async () => {
    const corpusId = await storeCorpus(db, 'Big');
    const page = await storeElement(db, { corpusId, type: 'page', name: 'Page' });
    const words = ['vigne', 'maison', 'pré', 'bourg', 'abbaye', 'rente', 'ſeigneur', 'cens'];
    const lineRows: ElementListItem[] = [];
    const transcriptionRows = [];
    for (let i = 0; i < 10_000; i += 1) {
      const id = randomUUID();
      lineRows.push({
        id,
        type: 'text_line',
        name: `${i}`,
        corpus: { id: corpusId },
        thumbnail_url: null,
        zone: null,
        rotation_angle: 0,
        mirrored: false,
        confidence: null,
        created: new Date().toISOString(),
        worker_run: null,
      });
      const text = Array.from({ length: 8 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(
        ' ',
      );
      transcriptionRows.push({
        id: randomUUID(),
        ownerId: id,
        data: { id: `t${i}`, text: `${text} ${i}`, confidence: null, worker_run: null },
        savedAt: Date.now(),
      });
    }
    await db.transaction('rw', [db.elements, db.outbox], () =>
      storeElements(db, lineRows, { full: false, parentId: page.id }),
    );
    await db.transcriptions.bulkPut(transcriptionRows);
    const started = performance.now();
    const answer = await search(corpusId, 'seigneur + 9999');
    const ms = performance.now() - started;
    const build = lastLocalBuild(db)!;
    console.log(
      `device search index: ${build.documents} documents built in ${build.ms.toFixed(0)} ms ` +
        `(read and index), first search answered in ${ms.toFixed(0)} ms`,
    );
    expect(build.documents).toBe(20_001);
    expect(answer.count).toBe(1);
    const again = performance.now();
    await search(corpusId, 'vigne maison');
    console.log(`device search: next search in ${(performance.now() - again).toFixed(0)} ms`);
  });
});
