import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport } from '../../../server/imports/execute';
import {
  attribute as xmlAttribute,
  child as xmlChild,
  children as xmlChildren,
  readXml,
} from '../../../server/imports/formats/detect';
import type { ImportReport } from '../../../server/imports/report';
import { createCorpus } from '../../../server/services/corpora';
import { Client, createTestUser, describeEachDialect, type TestApp } from '../harness';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../sharedData';

interface Expected {
  pages: { xml: string; text_regions: number; text_lines: number; lines_with_text: number }[];
}

async function newCorpus(t: TestApp, name: string) {
  const user = await createTestUser(t.app, { admin: true });
  const row = await t.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  const corpus = await createCorpus(t.app.db, row, { name, description: '', public: false });
  return { user, corpus };
}

async function countOfType(t: TestApp, corpusId: string, slug: string): Promise<number> {
  const row = await t.app.db
    .selectFrom('elements')
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('elements.corpus_id', '=', corpusId)
    .where('element_types.slug', '=', slug)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Images stored as files in the project (remote IIIF images are not). */
async function storedImages(t: TestApp, corpusId: string): Promise<number> {
  const rows = await t.app.db
    .selectFrom('images')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('path', 'is not', null)
    .execute();
  return rows.length;
}

/** Children of an element as the API lists them, by position. */
async function children(
  client: Client,
  id: string,
): Promise<{ name: string; type: string; id: string }[]> {
  const response = await client.get(`/api/v1/elements/${id}/children/?page_size=500`);
  expect(response.statusCode).toBe(200);
  return response.json().results;
}

const withShared = sharedDataAvailable();

describeEachDialect('importing the shared corpus', ({ t }) => {
  let report: ImportReport;
  let corpusId: string;
  let client: Client;
  const progress: number[] = [];

  beforeAll(async () => {
    if (!withShared) return;
    const { user, corpus } = await newCorpus(t(), 'Shared data');
    corpusId = corpus.id;
    client = new Client(t().app, user.token);
    report = await runImport(
      { db: t().app.db, dataDir: t().config.dataDir },
      SHARED_DATA_DIR,
      { corpusId, userId: user.id, parentId: null },
      { progress: (fraction) => void progress.push(fraction) },
    );
  }, 180_000);

  it.runIf(withShared)('creates exactly the counts of the corpus README', async () => {
    const expected = JSON.parse(
      fs.readFileSync(path.join(SHARED_DATA_DIR, 'expected_counts.json'), 'utf8'),
    ) as Expected;
    const textRegions = expected.pages.reduce((sum, page) => sum + page.text_regions, 0);
    const lines = expected.pages.reduce((sum, page) => sum + page.text_lines, 0);
    const withText = expected.pages.reduce((sum, page) => sum + page.lines_with_text, 0);
    expect([textRegions, lines, withText]).toEqual([58, 325, 323]);

    expect(report.problems).toEqual([]);
    // 12 XML pages and one page per canvas of the two manifests (318 + 170).
    expect(report.pages).toBe(12 + 318 + 170);
    // 58 text regions and 7 others (6 separators, 1 graphic).
    expect(report.regions).toBe(65);
    expect(report.lines).toBe(325);
    expect(report.transcriptions).toBe(323);
    // 9 image files, each stored once though 3 are described twice, and 488 remote images.
    expect(report.images).toBe(9 + 488);
    expect(await countOfType(t(), corpusId, 'page')).toBe(500);
    expect(await countOfType(t(), corpusId, 'text_line')).toBe(325);
    const transcriptions = await t()
      .app.db.selectFrom('transcriptions')
      .innerJoin('elements', 'elements.id', 'transcriptions.element_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('elements.corpus_id', '=', corpusId)
      .executeTakeFirstOrThrow();
    expect(Number(transcriptions.n)).toBe(323);
    expect(await storedImages(t(), corpusId)).toBe(9);
    expect(progress.at(-1)).toBe(1);
  });

  it.runIf(withShared)('adds the region types the project lacked, slugified', async () => {
    expect(report.types_created.sort()).toEqual(
      [
        'drop_capital_zone',
        'footnote',
        'graphic_zone',
        'handwritten_annotation',
        'header',
        'heading',
        'main_zone',
        'numbering_zone',
        'page_number',
        'separator_region',
        'signature_mark',
        'title_page_zone',
      ].sort(),
    );
    const corpus = await client.get(`/api/v1/corpus/${corpusId}/`);
    const slugs = corpus.json().types.map((type: { slug: string }) => type.slug);
    expect(slugs).toEqual(expect.arrayContaining(report.types_created));
  });

  it.runIf(withShared)('mirrors the folders and gives regions their reading order', async () => {
    const root = await children(client, report.folder_id!);
    expect(root.map((child) => child.name).sort()).toEqual(
      ['cremma-medieval', 'iiif', 'lectaurep-bronod', 'ocrd-gt_structure_text'].sort(),
    );
    const find = async (parentId: string, name: string) => {
      const found = (await children(client, parentId)).find((child) => child.name === name);
      expect(found, name).toBeDefined();
      return found!;
    };
    const ocrd = await find(report.folder_id!, 'ocrd-gt_structure_text');
    const laube = await find(ocrd.id, 'laube_europa0202_1837');
    const gtPage = await find(laube.id, 'GT-PAGE');
    const page = await find(gtPage.id, 'laube_europa0202_1837_0105');
    expect(page.type).toBe('page');
    // ReadingOrder r0, region_1, r3, r5, region_2 (document order: region_1, region_2, r0, r3,
    // r5), then the separator, which the reading order leaves out.
    const regions = await children(client, page.id);
    expect(regions.map((region) => region.type)).toEqual([
      'page_number',
      'paragraph',
      'paragraph',
      'paragraph',
      'signature_mark',
      'separator_region',
    ]);
    expect(regions.map((region) => region.name)).toEqual(['1', '1', '2', '3', '1', '1']);

    const iiif = await find(report.folder_id!, 'iiif');
    const manifests = await children(client, iiif.id);
    expect(manifests.map((m) => m.name).sort()).toEqual(['Canterbury tales', 'Herbal']);
  });

  it.runIf(withShared)(
    "lists a region's lines as the page reads, where the file has some out of place",
    async () => {
      // bebel_0146 region r3: the file lists l22 7th; the region's own text has it 17th.
      const relative = 'ocrd-gt_structure_text/bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146.xml';
      const xml = readXml(fs.readFileSync(path.join(SHARED_DATA_DIR, relative), 'utf8'));
      const region = xmlChildren(xmlChild(xml, 'Page')!, 'TextRegion').find(
        (element) => xmlAttribute(element, 'id') === 'r3',
      )!;
      const regionText = xmlChild(xmlChild(region, 'TextEquiv')!, 'Unicode')!
        .text.split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');

      const find = async (parentId: string, name: string) =>
        (await children(client, parentId)).find((child) => child.name === name)!;
      const ocrd = await find(report.folder_id!, 'ocrd-gt_structure_text');
      const book = await find((await find(ocrd.id, 'bebel_frau_1879')).id, 'GT-PAGE');
      const page = await find(book.id, 'bebel_frau_1879_0146');
      // Reading order r1, r2, r3, r4, r6.
      const r3 = (await children(client, page.id))[2]!;
      const lines = await children(client, r3.id);
      const texts = await t()
        .app.db.selectFrom('transcriptions')
        .select(['element_id', 'text'])
        .where(
          'element_id',
          'in',
          lines.map((line) => line.id),
        )
        .execute();
      const textOf = new Map(texts.map((row) => [row.element_id, row.text]));
      expect(lines.map((line) => textOf.get(line.id))).toEqual(regionText);
      expect(lines.map((line) => line.name)).toEqual(regionText.map((_, i) => String(i + 1)));
    },
  );

  it.runIf(withShared)('gives each line its polygon and its own text', async () => {
    const line = await t()
      .app.db.selectFrom('transcriptions')
      .innerJoin('elements', 'elements.id', 'transcriptions.element_id')
      .select(['elements.id', 'transcriptions.text'])
      .where('elements.corpus_id', '=', corpusId)
      .where('transcriptions.text', 'like', '%ſ%')
      .executeTakeFirstOrThrow();
    const element = (await client.get(`/api/v1/element/${line.id}/`)).json();
    expect(element.type).toBe('text_line');
    expect(element.zone.polygon.length).toBeGreaterThanOrEqual(4);
    expect(element.zone.polygon[0]).toEqual(element.zone.polygon.at(-1));
    // Stored polygons obey the 163-point rule even for Aletheia's dense outlines.
    const polygons = await t()
      .app.db.selectFrom('elements')
      .select('polygon')
      .where('corpus_id', '=', corpusId)
      .where('polygon', 'is not', null)
      .execute();
    const longest = Math.max(...polygons.map((row) => JSON.parse(row.polygon!).length));
    expect(longest).toBeLessThanOrEqual(164);
  });

  it.runIf(withShared)('reuses stored images when the same files come again', async () => {
    const again = await runImport(
      { db: t().app.db, dataDir: t().config.dataDir },
      path.join(SHARED_DATA_DIR, 'cremma-medieval'),
      { corpusId, userId: null, parentId: null },
    );
    expect(again.pages).toBe(2);
    expect(again.types_created).toEqual([]);
    expect(await storedImages(t(), corpusId)).toBe(9);
  });
});

describeEachDialect('importing files that are not all good', ({ t }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-import-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports each bad file with its reason and imports the rest', async () => {
    await sharp({ create: { width: 600, height: 800, channels: 3, background: '#f4ecd8' } })
      .jpeg()
      .toFile(path.join(dir, 'good.jpg'));
    fs.writeFileSync(path.join(dir, 'broken.png'), 'not an image at all');
    fs.writeFileSync(path.join(dir, 'notes.xml'), '<notes><note>hello</note></notes>');
    fs.writeFileSync(
      path.join(dir, 'orphan.xml'),
      `<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
        <Page imageFilename="missing.jpg" imageWidth="100" imageHeight="100"/></PcGts>`,
    );
    fs.writeFileSync(path.join(dir, 'readme.txt'), 'about these files');
    const { user, corpus } = await newCorpus(t(), 'Mixed');
    const report = await runImport({ db: t().app.db, dataDir: t().config.dataDir }, dir, {
      corpusId: corpus.id,
      userId: user.id,
      parentId: null,
      folderName: 'Scans',
    });
    expect(report.pages).toBe(1);
    expect(report.folders).toBe(1);
    expect(report.skipped).toEqual(['readme.txt']);
    const reasons = Object.fromEntries(report.problems.map((p) => [p.file, p.reason]));
    expect(Object.keys(reasons).sort()).toEqual(['broken.png', 'notes.xml', 'orphan.xml']);
    expect(reasons['broken.png']).toMatch(/not an image|corrupted/);
    expect(reasons['orphan.xml']).toBe('its image "missing.jpg" was not found');
    const client = new Client(t().app, user.token);
    const folder = (await client.get(`/api/v1/element/${report.folder_id}/`)).json();
    expect(folder.name).toBe('Scans');
    const pages = (await client.get(`/api/v1/elements/${report.folder_id}/children/`)).json();
    expect(pages.results.map((p: { name: string }) => p.name)).toEqual(['good']);
    expect(pages.results[0].zone.polygon).toEqual([
      [0, 0],
      [0, 800],
      [600, 800],
      [600, 0],
      [0, 0],
    ]);
  });

  it('stops between pages when asked and keeps what it imported', async () => {
    const { corpus } = await newCorpus(t(), 'Stopped');
    let asked = 0;
    const report = await runImport(
      { db: t().app.db, dataDir: t().config.dataDir },
      dir,
      { corpusId: corpus.id, userId: null, parentId: null },
      { shouldStop: async () => ++asked > 1 },
    );
    // broken.png comes first and is reported; the stop comes before good.jpg.
    expect(report.stopped).toBe(true);
    expect(report.pages).toBe(0);
    expect(report.problems.map((problem) => problem.file)).toContain('broken.png');
    expect(await countOfType(t(), corpus.id, 'page')).toBe(0);
  });
});

it('names new types after their label, readably', async () => {
  const { typeDisplayName } = await import('../../../server/imports/types');
  expect(typeDisplayName('page-number')).toBe('Page number');
  expect(typeDisplayName('signature_mark')).toBe('Signature mark');
  expect(typeDisplayName('MainZone')).toBe('MainZone');
  expect(typeDisplayName('')).toBe('');
});
