import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { unzipSync } from 'fflate';
import { api, type Page } from '@/api/client';
import type { Element, ElementListItem } from '@/api/types';
import type { LayoutRegion, PageLayout } from '@/lib/exports/layout';
import { FoliaDatabase } from '@/offline/db';
import { exportPack, readPackLayouts } from '@/offline/exports/exportPack';
import { planPack, runPack } from '@/offline/packs';
import { runImport } from '../../server/imports/execute';
import { readPageLayout } from '../../server/services/exports/pageLayout';
import { makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../server/sharedData';
import { inProcessFetcher } from './inProcessServer';

/** The shared corpus' folders of PAGE and ALTO files, each taken offline as a folder. */
const FOLDERS = ['lectaurep-bronod', 'cremma-medieval', 'ocrd-gt_structure_text'];
const withShared = sharedDataAvailable();

/** A CacheStorage that keeps nothing: the tiles are not what these tests are about. */
const noCaches = {
  open: async () => ({
    match: async () => undefined,
    put: async () => undefined,
    delete: async () => true,
  }),
} as unknown as CacheStorage;

/** What the writers read of a region, without the ids' origin (wrappers take their first line's). */
function shape(region: LayoutRegion) {
  return {
    id: region.id,
    type: region.type,
    typeLabel: region.typeLabel,
    wrapper: region.wrapper,
    polygon: region.polygon,
    text: region.text,
    lines: region.lines.map((line) => ({ id: line.id, polygon: line.polygon, text: line.text })),
  };
}

function page(layout: PageLayout) {
  return {
    pageId: layout.pageId,
    pageName: layout.pageName,
    // The API does not say a stored image's file type: the device names it .jpg, as IIIF gives it.
    imageFilename: layout.imageFilename.replace(/\.(jpg|png|tif|webp)$/, '.*'),
    width: layout.width,
    height: layout.height,
    skipped: layout.skipped,
    regions: layout.regions.map(shape),
  };
}

describeEachDialect('a page or folder taken offline, exported on the device', ({ t }) => {
  let actors: Actors;
  const folders = new Map<string, string>();
  const dbs: FoliaDatabase[] = [];

  beforeAll(async () => {
    if (!withShared) return;
    actors = await makeActors(t().app);
    const corpusId = await makeCorpus(t().app, actors, { name: 'Shared pages' });
    for (const name of FOLDERS) {
      const report = await runImport(
        { db: t().app.db, dataDir: t().config.dataDir },
        path.join(SHARED_DATA_DIR, name),
        { corpusId, userId: actors.owner.id, parentId: null, folderName: name },
      );
      expect(report.problems).toEqual([]);
      folders.set(name, report.folder_id!);
    }
    vi.stubGlobal('fetch', inProcessFetcher(t().app, actors.owner.token));
  }, 300_000);
  afterAll(async () => {
    vi.unstubAllGlobals();
    for (const db of dbs) await db.delete();
  });

  it.runIf(withShared)('a single page taken offline exports that page alone', async () => {
    const db = new FoliaDatabase(`pack-export-${randomUUID()}`);
    dbs.push(db);
    const pages = await api<Page<ElementListItem>>(
      `/elements/${folders.get('lectaurep-bronod')}/children/`,
      { query: { recursive: true, type: 'page', order: 'name' } },
    );
    const root = await api<Element>(`/element/${pages.results[0]!.id}/`);
    await runPack(await planPack(root), 'thumbnail', { db, caches: noCaches });

    const { layouts } = await readPackLayouts(db, root.id);
    expect(layouts.map((layout) => layout.pageId)).toEqual([root.id]);
    expect(page(layouts[0]!)).toEqual(page(await readPageLayout(t().app.db, root.id)));
    const files = unzipSync((await exportPack(db, root.id, 'alto')).bytes);
    expect(Object.keys(files)).toEqual([`${root.name}.xml`]);
  });

  it.runIf(withShared)(
    "two pages on one image keep their own lines' texts, whichever page's answer comes last",
    async () => {
      // lectaurep-bronod holds each scan twice (PAGE and ALTO): two pages on one image.
      const root = await api<Element>(`/element/${folders.get('lectaurep-bronod')}/`);
      const pages = await api<Page<ElementListItem>>(`/elements/${root.id}/children/`, {
        query: { recursive: true, type: 'page', page_size: 500 },
      });
      const byImage = new Map<string, string[]>();
      for (const item of pages.results) {
        const image = item.zone!.image.id;
        byImage.set(image, [...(byImage.get(image) ?? []), item.id]);
      }
      const pairs = [...byImage.values()].filter((ids) => ids.length === 2);
      expect(pairs.length).toBeGreaterThan(0);
      const served = inProcessFetcher(t().app, actors.owner.token);
      for (const late of [0, 1]) {
        // One page of each pair has its lines' transcriptions answered after the other's.
        const slow = new Set(pairs.map((pair) => pair[late]!));
        vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
          const id = /\/element\/([0-9a-f-]{36})\/transcriptions\//.exec(url)?.[1];
          if (id && slow.has(id)) await new Promise((resolve) => setTimeout(resolve, 400));
          return served(url, init);
        });
        const db = new FoliaDatabase(`pack-export-${randomUUID()}`);
        dbs.push(db);
        await runPack(await planPack(root), 'thumbnail', { db, caches: noCaches });
        const { layouts } = await readPackLayouts(db, root.id);
        for (const layout of layouts) {
          const server = await readPageLayout(t().app.db, layout.pageId);
          expect(page(layout), `${layout.pageName}, late ${late}`).toEqual(page(server));
        }
      }
      vi.stubGlobal('fetch', served);
    },
    120_000,
  );

  for (const name of FOLDERS) {
    it.runIf(withShared)(
      `${name}: each page's regions, lines, polygons, order and texts are the server's`,
      async () => {
        const db = new FoliaDatabase(`pack-export-${randomUUID()}`);
        dbs.push(db);
        const root = await api<Element>(`/element/${folders.get(name)}/`);
        await runPack(await planPack(root), 'thumbnail', { db, caches: noCaches });

        const { layouts } = await readPackLayouts(db, root.id);
        expect(layouts.length).toBeGreaterThan(0);
        for (const layout of layouts) {
          const server = await readPageLayout(t().app.db, layout.pageId);
          expect(page(layout), `${name}: ${layout.pageName}`).toEqual(page(server));
        }
        const lines = layouts.flatMap((layout) => layout.regions.flatMap((r) => r.lines));
        expect(lines.length).toBeGreaterThan(0);
      },
      120_000,
    );
  }
});
