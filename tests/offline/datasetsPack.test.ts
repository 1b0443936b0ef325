import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { Dataset, ElementDatasetSet } from '@/api/datasets';
import {
  readCorpusDatasets,
  readDataset,
  readElementSets,
  readSetElements,
} from '@/offline/datasetStoreReads';
import { FoliaDatabase } from '@/offline/db';
import { NotAvailableOffline, readElement } from '@/offline/elementReads';
import { storePackDatasets } from '@/offline/packDatasets';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher } from './inProcessServer';

describeEachDialect('the datasets of an offline pack', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let pages: string[];
  let alpha: Dataset;
  let db: FoliaDatabase;
  let fetcher: ReturnType<typeof inProcessFetcher>;
  const owner = () => clientFor(t().app, actors, 'owner');
  const offline = { online: false };

  async function dataset(name: string): Promise<Dataset> {
    const response = await owner().post(`corpus/${corpusId}/datasets/`, {
      name,
      description: 'Split',
      unique_elements: false,
    });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  async function add(target: Dataset, element: string, set: string) {
    const response = await owner().post(`datasets/${target.id}/elements/`, {
      element_id: element,
      set,
    });
    expect(response.statusCode).toBe(201);
  }

  /** What the details panel would read online. */
  async function serverSets(elementId: string): Promise<ElementDatasetSet[]> {
    const response = await owner().get(`element/${elementId}/sets/?with_neighbors=true`);
    expect(response.statusCode).toBe(200);
    return response.json().results;
  }

  const brief = (sets: ElementDatasetSet[]) =>
    sets.map((entry) => ({
      dataset: entry.dataset.name,
      set: entry.set,
      previous: entry.previous,
      next: entry.next,
    }));

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Packed datasets' });
    const folder = (
      await owner().post('elements/create/', { corpus: corpusId, type: 'folder', name: 'Box P' })
    ).json().id as string;
    pages = [];
    for (const name of ['f. 1', 'f. 2', 'f. 3', 'f. 4']) {
      const created = await owner().post('elements/create/', {
        corpus: corpusId,
        parent: folder,
        type: 'page',
        name,
      });
      pages.push(created.json().id as string);
    }
    // An element outside the pack sits between two of its pages in a set.
    const outside = (
      await owner().post('elements/create/', { corpus: corpusId, type: 'page', name: 'f. 2b' })
    ).json().id as string;
    const split = await dataset('Alpha split');
    alpha = split;
    await add(split, pages[0]!, 'train');
    await add(split, pages[1]!, 'train');
    await add(split, outside, 'train');
    await add(split, pages[2]!, 'train');
    await add(split, pages[1]!, 'test');
    const other = await dataset('Beta split');
    await add(other, pages[2]!, 'dev');
    await add(other, pages[0]!, 'dev');
    fetcher = inProcessFetcher(t().app, actors.contributor.token);
    vi.stubGlobal('fetch', fetcher);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });
  afterEach(async () => {
    await db?.delete();
  });

  it('reads the sets from the datasets’ lists when that takes fewer requests', async () => {
    db = new FoliaDatabase(`folia-pack-datasets-${randomUUID()}`);
    await expect(readElementSets(db, pages[0]!, offline)).rejects.toBeInstanceOf(
      NotAvailableOffline,
    );
    const before = fetcher.requests.length;
    const stored = await storePackDatasets(db, corpusId, pages, { parallel: 4 });
    // One page of each dataset's list, not one request per element.
    expect(stored).toMatchObject({ datasets: 2, requests: 2 });
    expect(fetcher.requests.slice(before).filter((r) => r.url.includes('/sets/'))).toEqual([]);

    for (const page of pages) {
      expect(brief(await readElementSets(db, page, offline))).toEqual(
        brief(await serverSets(page)),
      );
    }
    expect(brief(await readElementSets(db, pages[1]!, offline))).toEqual([
      { dataset: 'Alpha split', set: 'test', previous: null, next: null },
      { dataset: 'Alpha split', set: 'train', previous: pages[0], next: expect.any(String) },
    ]);
    // f. 4 is in no dataset: offline that reads as none, not as unknown.
    expect(await readElementSets(db, pages[3]!, offline)).toEqual([]);
    expect((await readCorpusDatasets(db, corpusId, offline)).map((item) => item.name)).toEqual([
      'Alpha split',
      'Beta split',
    ]);
  });

  it('asks element by element when the datasets hold more than the pack', async () => {
    db = new FoliaDatabase(`folia-pack-datasets-${randomUUID()}`);
    const before = fetcher.requests.length;
    // Two datasets' lists against one element: one request for its sets is fewer.
    const stored = await storePackDatasets(db, corpusId, [pages[2]!], { parallel: 4 });
    expect(stored.requests).toBe(1);
    expect(fetcher.requests.slice(before).filter((r) => r.url.includes('/elements/'))).toEqual([]);
    expect(brief(await readElementSets(db, pages[2]!, offline))).toEqual(
      brief(await serverSets(pages[2]!)),
    );
  });

  it("opens a dataset and its sets' elements kept in the pack offline", async () => {
    db = new FoliaDatabase(`folia-pack-datasets-${randomUUID()}`);
    await expect(readDataset(db, alpha.id, offline)).rejects.toBeInstanceOf(NotAvailableOffline);
    await storePackDatasets(db, corpusId, pages, { parallel: 4 });
    for (const page of pages) await readElement(db, page, { online: true });

    const shown = await readDataset(db, alpha.id, offline);
    expect(shown).toMatchObject({ name: 'Alpha split', set_elements: { train: 4, test: 1 } });
    // The pack's pages of the set, by name as the server lists them; f. 2b was not taken.
    const train = await readSetElements(db, alpha.id, 'train', null, offline);
    expect(train).toMatchObject({ offline: true, next: null });
    expect(train.results.map((row) => row.element.name)).toEqual(['f. 1', 'f. 2', 'f. 3']);
    const test = await readSetElements(db, alpha.id, 'test', null, offline);
    expect(test.results.map((row) => row.element.id)).toEqual([pages[1]]);
    expect((await readSetElements(db, alpha.id, 'dev', null, offline)).results).toEqual([]);

    // Online it is the server's list, page by page, without the offline mark.
    const online = await readSetElements(db, alpha.id, 'train', null, { online: true });
    expect(online.offline).toBeUndefined();
    expect(online.results.map((row) => row.element.name)).toEqual([
      'f. 1',
      'f. 2',
      'f. 2b',
      'f. 3',
    ]);
  });
});
