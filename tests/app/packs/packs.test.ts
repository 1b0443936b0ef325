// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NetworkError } from '@/api/errors';
import type { ElementListItem } from '@/api/types';
import { localDb } from '@/offline/db';
import { readElement } from '@/offline/elementReads';
import { readClasses, readMetadata, readTranscriptions } from '@/offline/entityReads';
import {
  PACK_CACHE,
  TILE_CACHE,
  estimatePack,
  pagesOnImages,
  planPack,
  removePack,
  runPack,
  type PackPlan,
} from '@/offline/packs';
import { isolateEachTest } from '../support/harness';
import { json, makeCorpus, makeElement, makeImage, rect } from '../support/elementsApi';
import { infoJsonOf, memoryCaches, register, registerServers, TILE_BYTES } from './support';

isolateEachTest();
let caches: ReturnType<typeof memoryCaches>;
beforeEach(async () => {
  await Promise.all(localDb.tables.map((table) => table.clear()));
  caches = memoryCaches();
});

const context = () => ({ db: localDb, caches: caches.storage });

describe('offline packs', () => {
  it('take as pages the zones no other zone on their image contains', () => {
    const corpus = makeCorpus();
    const scan = makeImage({ width: 2000, height: 1500 });
    const left = makeElement(corpus, { image: scan, polygon: rect(0, 0, 1000, 1500) });
    const right = makeElement(corpus, { image: scan, polygon: rect(1000, 0, 1000, 1500) });
    const line = makeElement(corpus, { image: scan, polygon: rect(1100, 100, 800, 80) });
    const other = makeElement(corpus, { image: makeImage(), polygon: rect(10, 10, 50, 50) });
    const folder = makeElement(corpus, { type: 'folder' });
    expect(pagesOnImages([left, right, line, other, folder])).toEqual(
      new Set([left.id, right.id, other.id]),
    );
  });

  it('estimate element data, info.json and tiles by their pixels', () => {
    const image = makeImage({ width: 1000, height: 1500 });
    const info = infoJsonOf(image);
    const plan = {
      root: makeElement(makeCorpus()),
      descendants: [] as ElementListItem[],
      images: [
        {
          image,
          infoUrl: `${image.url}/info.json`,
          info,
          infoText: JSON.stringify(info),
          infoType: 'application/json',
          credentials: 'same-origin' as const,
        },
      ],
      thumbnails: [],
      bytesPerPixel: 0.1,
      elementBytes: 1000,
    } as unknown as PackPlan;
    // 250×375 + 500×750 + 1000×1500 pixels at 0.1 byte each.
    expect(estimatePack(plan, 'full')).toEqual({
      elements: 1,
      images: 1,
      tiles: 9,
      bytes: 1000 + JSON.stringify(info).length + 196_875,
    });
  });

  it('keep the tiles another pack holds when one is removed', async () => {
    const data = register();
    registerServers(data);
    const page = data.pages[0]!;
    await runPack(await planPack(data.folder), 'screen', context());
    await runPack(await planPack(page), 'screen', context());
    // Two info.json and 9 tiles each (no card thumbnails asked for here).
    expect(caches.urls(PACK_CACHE)).toHaveLength(20);

    await removePack(localDb, caches.storage, data.folder.id);
    // The page's info.json and its 9 tiles stay; the other image's go.
    const kept = caches.urls(PACK_CACHE);
    expect(kept).toHaveLength(10);
    expect(kept.every((url) => url.startsWith(data.images[0]!.url))).toBe(true);
    expect((await localDb.packs.toArray()).map((pack) => pack.id)).toEqual([page.id]);

    await removePack(localDb, caches.storage, page.id);
    expect(caches.urls(PACK_CACHE)).toEqual([]);
  });

  it('let go of the tiles a new zoom no longer needs, and move those browsing cached', async () => {
    const data = register();
    const { iiif } = registerServers(data);
    const page = data.pages[0]!;
    // The viewer cached the smallest level as the page was browsed.
    const smallest = `${data.images[0]!.url}/full/250,/0/default.jpg`;
    await caches.open(TILE_CACHE).put(smallest, new Response(new Uint8Array(100)));

    const plan = await planPack(page);
    const full = await runPack(plan, 'full', context());
    expect(full.pack).toMatchObject({ status: 'complete', tileCount: 9 });
    expect(iiif.requested).not.toContain(smallest);
    expect(caches.urls(TILE_CACHE)).toEqual([]);
    expect(caches.urls(PACK_CACHE)).toContain(smallest);

    const thumbnails = await runPack(plan, 'thumbnail', context());
    // The 500 px thumbnail, and the levels 250 and 500 px wide (one and two tiles).
    expect(thumbnails.pack).toMatchObject({ status: 'complete', zoom: 'thumbnail', tileCount: 4 });
    expect(caches.urls(PACK_CACHE)).toHaveLength(5);
    expect(await localDb.packTiles.count()).toBe(5);
    expect(thumbnails.pack.bytes).toBeGreaterThan(100 + 3 * TILE_BYTES);
  });

  it('stop as incomplete when the network goes away', async () => {
    const data = register();
    registerServers(data);
    const plan = await planPack(data.folder);
    const api = globalThis.fetch;
    let served = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/default.jpg') && ++served > 3) throw new TypeError('offline');
      return api(input, init);
    });

    const result = await runPack(plan, 'screen', context());
    expect(result.unreachable).toBe(true);
    expect(result.pack).toMatchObject({ status: 'incomplete', elementCount: 7 });
    expect(result.pack.tileCount).toBeGreaterThanOrEqual(3);
    expect(result.pack.tileCount).toBeLessThan(20);
    expect(await localDb.packs.get(data.folder.id)).toEqual(result.pack);
  });

  it("keep every line's transcriptions, metadata and classifications, and the classes", async () => {
    const data = register();
    const [page] = data.pages;
    const [line] = data.lines;
    const { api } = registerServers(data, {
      [`/element/${page!.id}/transcriptions/`]: (call) =>
        call.query.get('recursive') === 'true'
          ? json(200, {
              count: 1,
              next: null,
              previous: null,
              number: 1,
              results: [
                {
                  id: 'f1000000-0000-4000-8000-000000000001',
                  text: 'item six pewter plates',
                  orientation: 'horizontal-lr',
                  confidence: 0.9,
                  worker_run: null,
                  element: { id: line!.id },
                },
              ],
            })
          : null,
      [`/elements/${data.folder.id}/children/`]: (call) =>
        call.query.get('with_metadata') === 'true'
          ? json(
              200,
              {
                count: 6,
                next: null,
                previous: null,
                number: 1,
                results: [...data.pages, ...data.lines].map((item) =>
                  item.id === line!.id
                    ? {
                        ...item,
                        metadata: [
                          {
                            id: 'f2000000-0000-4000-8000-000000000001',
                            type: 'text',
                            name: 'Hand',
                            value: 'B',
                          },
                        ],
                        classes: [
                          {
                            id: 'f3000000-0000-4000-8000-000000000001',
                            ml_class: { id: 'c1', name: 'Inventory' },
                            state: 'pending',
                            confidence: 0.7,
                            high_confidence: false,
                            worker_run: null,
                          },
                        ],
                      }
                    : item,
                ),
              },
              // When the server answered: the version the listed metadata are based on.
              { date: 'Tue, 24 Nov 2026 10:00:05 GMT' },
            )
          : null,
      [`/corpus/${data.corpus.id}/classes/`]: () =>
        json(200, {
          count: 1,
          next: null,
          previous: null,
          number: 1,
          results: [{ id: 'c1', name: 'Inventory' }],
        }),
    });
    await runPack(await planPack(data.folder), 'thumbnail', context());
    expect(api.calls.some((call) => call.query.get('with_classes') === 'true')).toBe(true);

    const offline = { online: false };
    expect((await readTranscriptions(localDb, line!.id, offline)).map((t) => t.text)).toEqual([
      'item six pewter plates',
    ]);
    expect((await readMetadata(localDb, line!.id, offline)).map((m) => m.name)).toEqual(['Hand']);
    // An edit of it made offline is conditional on the second before that answer: a change
    // made on the server after the list was read is a conflict, not overwritten.
    expect((await localDb.metadata.get('f2000000-0000-4000-8000-000000000001'))?.lastModified).toBe(
      'Tue, 24 Nov 2026 10:00:04 GMT',
    );
    expect((await readElement(localDb, line!.id, offline)).classifications).toEqual([
      expect.objectContaining({ ml_class: { id: 'c1', name: 'Inventory' } }),
    ]);
    expect(await readClasses(localDb, data.corpus.id, offline)).toEqual([
      { id: 'c1', name: 'Inventory' },
    ]);
  });

  it('need the network to plan', async () => {
    const data = register();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('offline');
    });
    await expect(planPack(data.folder)).rejects.toBeInstanceOf(NetworkError);
  });
});
