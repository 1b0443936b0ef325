import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PAGE_COUNT } from '../../../server/demo/content';
import { renderDemoPage } from '../../../server/demo/pageImage';
import { demoPageXml } from '../../../server/demo/pageXml';
import type { Db } from '../../../server/db';
import { runImport } from '../../../server/imports/execute';
import { parseAlto } from '../../../server/imports/formats/alto';
import { detectFormat } from '../../../server/imports/formats/detect';
import { parsePageXml } from '../../../server/imports/formats/pagexml';
import { resolveLayoutImage } from '../../../server/imports/plan';
import { emptyReport } from '../../../server/imports/report';
import { ImportTypes } from '../../../server/imports/types';
import { createCorpus } from '../../../server/services/corpora';
import { createElements } from '../../../server/services/elements/create';
import { exportAlto } from '../../../server/services/exports/alto';
import { writeAlto } from '../../../src/lib/exports/alto';
import { readPageLayout } from '../../../server/services/exports/pageLayout';
import { chooseTranscription, type PageLayout } from '../../../src/lib/exports/layout';
import { exportPageXml } from '../../../server/services/exports/pageXml';
import { writePageXml } from '../../../src/lib/exports/pageXml';
import { escapeXmlAttribute, escapeXmlText } from '../../../src/lib/exports/xmlText';
import { storeImage } from '../../../server/services/images';
import { importWorkerRun } from '../../../server/services/workerRuns';
import { createTestUser, describeEachDialect, type TestApp } from '../harness';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../sharedData';

const SCHEMAS_DIR = path.resolve(SHARED_DATA_DIR, '..', 'schemas');
const PAGE_XSD = path.join(SCHEMAS_DIR, 'page-2019-07-15.xsd');
const ALTO_XSD = path.join(SCHEMAS_DIR, 'alto-4-4.xsd');
const CATALOG = path.join(SCHEMAS_DIR, 'catalog.xml');

const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
const hasSchemas = fs.existsSync(PAGE_XSD) && fs.existsSync(ALTO_XSD) && fs.existsSync(CATALOG);
const canValidate = hasXmllint && hasSchemas;
if (!canValidate && process.env.CI === '1') {
  // .ci/run installs libxml2-utils; CI must validate, not skip.
  throw new Error(`CI=1 but xmllint or the schemas in ${SCHEMAS_DIR} are missing`);
}
if (!canValidate) {
  console.warn(
    hasXmllint
      ? `The PAGE and ALTO XSDs are not in ${SCHEMAS_DIR}: the exports are not validated.`
      : 'xmllint is missing (Debian: apt-get install libxml2-utils): the PAGE and ALTO exports ' +
          'are not validated against their XSDs.',
  );
}
const VALIDATE = canValidate ? '' : ' (skipped: needs xmllint and ../shared/schemas)';

/** xmllint's verdict on a file, offline, through the schemas' catalog (ALTO imports xlink). */
function validate(file: string, xsd: string): { ok: boolean; errors: string } {
  const result = spawnSync('xmllint', ['--nonet', '--noout', '--schema', xsd, file], {
    env: { ...process.env, XML_CATALOG_FILES: CATALOG },
    encoding: 'utf8',
  });
  return { ok: result.status === 0, errors: `${file} (exit ${result.status}): ${result.stderr}` };
}

function expectValid(file: string, xsd: string): void {
  const { ok, errors } = validate(file, xsd);
  expect(ok, errors).toBe(true);
}

type Point = [number, number];

/** An element as a round trip must keep it: type, name, polygon, text, children in order. */
interface Node {
  type: string;
  name: string;
  polygon: Point[] | null;
  texts: string[];
  children: Node[];
}

async function tree(db: Db, id: string): Promise<Node> {
  const element = await db
    .selectFrom('elements')
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .select(['elements.name', 'elements.polygon', 'element_types.slug'])
    .where('elements.id', '=', id)
    .executeTakeFirstOrThrow();
  const texts = await db
    .selectFrom('transcriptions')
    .select('text')
    .where('element_id', '=', id)
    .execute();
  const links = await db
    .selectFrom('element_links')
    .select(['child_id', 'position'])
    .where('parent_id', '=', id)
    .orderBy('position')
    .execute();
  const children: Node[] = [];
  for (const link of links) children.push(await tree(db, link.child_id));
  return {
    type: element.slug,
    name: element.name,
    polygon: element.polygon ? (JSON.parse(element.polygon) as Point[]) : null,
    texts: texts.map((row) => row.text).sort(),
    children,
  };
}

/** Every text of a tree, depth first, as UTF-8 bytes in hex: the byte-for-byte comparison. */
function textBytes(node: Node): string[] {
  return [
    ...node.texts.map((text) => Buffer.from(text, 'utf8').toString('hex')),
    ...node.children.flatMap(textBytes),
  ];
}

async function newCorpus(t: TestApp, name: string) {
  const user = await createTestUser(t.app, { admin: true });
  const row = await t.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  const corpus = await createCorpus(t.app.db, row, { name, description: '', public: false });
  return { userId: user.id, corpusId: corpus.id };
}

/** The only child of a folder an import made. */
async function onlyChild(db: Db, folderId: string): Promise<string> {
  const links = await db
    .selectFrom('element_links')
    .select('child_id')
    .where('parent_id', '=', folderId)
    .execute();
  expect(links).toHaveLength(1);
  return links[0]!.child_id;
}

const FORMATS = [
  { name: 'PAGE XML', dir: 'page', xsd: PAGE_XSD, write: writePageXml },
  { name: 'ALTO', dir: 'alto', xsd: ALTO_XSD, write: writeAlto },
] as const;

/**
 * Writes the layout's PAGE or ALTO file beside (a link to) its image, imports it into the
 * project and returns the new page's id.
 */
async function exportAndImport(
  t: TestApp,
  layout: PageLayout,
  format: (typeof FORMATS)[number],
  imagePath: string,
  dir: string,
  target: { corpusId: string; userId: string },
): Promise<{ xmlPath: string; pageId: string }> {
  fs.mkdirSync(dir, { recursive: true });
  const xmlPath = path.join(dir, `${layout.pageName}.xml`);
  fs.writeFileSync(xmlPath, format.write(layout));
  fs.symlinkSync(imagePath, path.join(dir, layout.imageFilename));
  const report = await runImport({ db: t.app.db, dataDir: t.config.dataDir }, xmlPath, {
    ...target,
    parentId: null,
    folderName: `${format.dir} ${path.basename(dir)}`,
  });
  expect(report.problems).toEqual([]);
  return { xmlPath, pageId: await onlyChild(t.app.db, report.folder_id!) };
}

const withShared = sharedDataAvailable();

/** Every PAGE and ALTO file of the shared corpus, relative to it, in a stable order. */
function sharedLayoutFiles(): string[] {
  if (!withShared) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.xml')) {
        const format = detectFormat(fs.readFileSync(full, 'utf8'), entry.name);
        if (format === 'page' || format === 'alto')
          found.push(path.relative(SHARED_DATA_DIR, full));
      }
    }
  };
  walk(SHARED_DATA_DIR);
  return found.sort();
}

const SHARED_FILES = sharedLayoutFiles();

describeEachDialect('PAGE XML and ALTO exports of the shared corpus', ({ t }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-export-'));
  const originals = new Map<string, { pageId: string; imagePath: string }>();
  const written: { file: string; xsd: string }[] = [];
  let original: { corpusId: string; userId: string };
  const roundTrip = new Map<string, { corpusId: string; userId: string }>();

  beforeAll(async () => {
    if (!withShared) return;
    original = await newCorpus(t(), 'Shared pages');
    for (const format of FORMATS) roundTrip.set(format.dir, await newCorpus(t(), format.name));
    for (const relative of SHARED_FILES) {
      const file = path.join(SHARED_DATA_DIR, relative);
      const text = fs.readFileSync(file, 'utf8');
      const parsed = detectFormat(text, file) === 'page' ? parsePageXml(text) : parseAlto(text);
      const imagePath = await resolveLayoutImage(file, parsed.imageFilename, path.dirname(file));
      expect(imagePath, relative).not.toBeNull();
      const report = await runImport({ db: t().app.db, dataDir: t().config.dataDir }, file, {
        ...original,
        parentId: null,
        folderName: relative,
      });
      expect(report.problems).toEqual([]);
      originals.set(relative, {
        pageId: await onlyChild(t().app.db, report.folder_id!),
        imagePath: imagePath!,
      });
    }
  }, 300_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.runIf(withShared)('finds the 12 PAGE and ALTO files of the corpus', () => {
    expect(SHARED_FILES).toHaveLength(12);
  });

  for (const [index, relative] of SHARED_FILES.entries()) {
    it(`${relative}: exported to PAGE XML and ALTO, imports back the same elements, polygons, order and text`, async () => {
      const { pageId, imagePath } = originals.get(relative)!;
      const db = t().app.db;
      const layout = await readPageLayout(db, pageId);
      expect(layout.skipped).toBe(0);
      expect(await exportPageXml(db, pageId)).toBe(writePageXml(layout));
      expect(await exportAlto(db, pageId)).toBe(writeAlto(layout));
      const before = await tree(db, pageId);
      expect(before.children.length).toBeGreaterThan(0);
      for (const format of FORMATS) {
        const { xmlPath, pageId: again } = await exportAndImport(
          t(),
          layout,
          format,
          imagePath,
          path.join(dir, format.dir, String(index + 1)),
          roundTrip.get(format.dir)!,
        );
        written.push({ file: xmlPath, xsd: format.xsd });
        const after = await tree(db, again);
        expect(after, `${relative} through ${format.name}`).toEqual(before);
        expect(textBytes(after)).toEqual(textBytes(before));
      }
    }, 120_000);
  }

  it.runIf(withShared && canValidate)(
    `every PAGE and ALTO file written validates against its XSD${VALIDATE}`,
    () => {
      expect(written).toHaveLength(SHARED_FILES.length * FORMATS.length);
      for (const { file, xsd } of written) expectValid(file, xsd);
    },
  );
});

/** Text a round trip must keep exactly: combining marks, PUA (BMP and plane 15), markup. */
const TEXTS = {
  marks: 'q\u0303 pre\u0301s y\u0304 ꝑ \uE5DC\uF1AC a\u0364 Ꝥ', // MUFI letters in the PUA
  markup: 'Tom & Jerry <b>"quoted"</b> \'apos\' ]]> &amp;',
  spaces: 'two  spaces\tand a tab \u00A0nbsp',
  astral: '\u{F0001}\u{1D11E} \u{10FFFD}',
  manual: 'the manual one',
  best: 'the most confident one',
  onPage: 'a line straight on the page',
};

describeEachDialect('PAGE XML and ALTO exports of a page made in Folia', ({ t }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-export-made-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`keeps every character, chooses the manual text, wraps lines on the page${VALIDATE}`, async () => {
    const db = t().app.db;
    const { corpusId, userId } = await newCorpus(t(), 'Made here');
    const imagePath = path.join(dir, 'scan.jpg');
    await sharp({ create: { width: 800, height: 600, channels: 3, background: '#f4ecd8' } })
      .jpeg()
      .toFile(imagePath);
    const image = await storeImage(
      { db, dataDir: t().config.dataDir },
      { corpusId, sourcePath: imagePath },
    );
    const types = new ImportTypes(db, corpusId, emptyReport());
    const pageType = await types.id('page', 'Page');
    const regionType = await types.id('paragraph', 'Paragraph');
    const lineType = await types.id('text_line', 'Text line');
    const box = (x: number, y: number, w: number, h: number): Point[] => [
      [x, y],
      [x + w, y],
      [x + w, y + h],
      [x, y + h],
      [x, y],
    ];
    const pageId = randomUUID();
    const regionId = randomUUID();
    const lineIds = [0, 1, 2, 3, 4, 5].map(() => randomUUID());
    const element = (
      id: string,
      typeId: string,
      name: string,
      parentId: string | null,
      polygon: Point[],
    ) => ({
      id,
      corpusId,
      typeId,
      name,
      parentId,
      imageId: image.id,
      polygon,
      creatorId: userId,
    });
    await createElements(
      db,
      [
        element(pageId, pageType, 'Folio 1r', null, box(0, 0, 800, 600)),
        element(regionId, regionType, '1', pageId, box(50, 50, 700, 400)),
        ...[0, 1, 2, 3, 4].map((i) =>
          element(lineIds[i]!, lineType, String(i + 1), regionId, box(60, 60 + i * 70, 680, 60)),
        ),
        element(lineIds[5]!, lineType, '1', pageId, box(60, 500, 600, 50)),
      ],
      new Map([[image.id, image]]),
    );
    const run = await importWorkerRun(db, corpusId);
    const now = new Date().toISOString();
    const transcription = (
      elementId: string,
      text: string,
      workerRunId: string | null,
      confidence: number | null,
    ) => ({
      id: randomUUID(),
      element_id: elementId,
      text,
      orientation: 'horizontal-lr' as const,
      confidence,
      worker_run_id: workerRunId,
      creator_id: null,
      created: now,
      updated: now,
    });
    await db
      .insertInto('transcriptions')
      .values([
        transcription(lineIds[0]!, TEXTS.marks, null, null),
        transcription(lineIds[1]!, TEXTS.markup, null, null),
        transcription(lineIds[2]!, TEXTS.spaces, run, 0.4),
        transcription(lineIds[3]!, TEXTS.astral, run, null),
        transcription(lineIds[3]!, 'a worker guess', run, 0.99),
        transcription(lineIds[3]!, TEXTS.manual, null, null),
        transcription(lineIds[4]!, 'less sure', run, 0.2),
        transcription(lineIds[4]!, TEXTS.best, run, 0.8),
        transcription(lineIds[4]!, 'no confidence', run, null),
        transcription(lineIds[5]!, TEXTS.onPage, null, null),
      ])
      .execute();

    const layout = await readPageLayout(db, pageId);
    expect(layout.imageFilename).toBe('Folio 1r.jpg');
    expect(
      layout.regions.map((region) => [region.type, region.wrapper, region.lines.length]),
    ).toEqual([
      ['paragraph', false, 5],
      ['text_region', true, 1],
    ]);
    expect(layout.regions.flatMap((region) => region.lines.map((line) => line.text))).toEqual([
      TEXTS.marks,
      TEXTS.markup,
      TEXTS.spaces,
      TEXTS.manual,
      TEXTS.best,
      TEXTS.onPage,
    ]);

    for (const format of FORMATS) {
      const target = await newCorpus(t(), `Back from ${format.name}`);
      const { xmlPath, pageId: again } = await exportAndImport(
        t(),
        layout,
        format,
        imagePath,
        path.join(dir, format.dir),
        target,
      );
      if (canValidate) expectValid(xmlPath, format.xsd);
      const after = await tree(db, again);
      const region = (polygon: Point[], lines: [string, Point[]][]) => ({
        polygon,
        lines: lines.map(([text, linePolygon]) => ({ text, polygon: linePolygon })),
      });
      // The page's own line comes back inside the region it was wrapped in (its box).
      expect(
        after.children.map((child) => ({
          type: child.type,
          ...region(
            child.polygon!,
            child.children.map((line) => [line.texts.join('|'), line.polygon!]),
          ),
        })),
      ).toEqual([
        {
          type: 'paragraph',
          ...region(box(50, 50, 700, 400), [
            [TEXTS.marks, box(60, 60, 680, 60)],
            [TEXTS.markup, box(60, 130, 680, 60)],
            [TEXTS.spaces, box(60, 200, 680, 60)],
            [TEXTS.manual, box(60, 270, 680, 60)],
            [TEXTS.best, box(60, 340, 680, 60)],
          ]),
        },
        {
          type: 'text_region',
          ...region(box(60, 500, 600, 50), [[TEXTS.onPage, box(60, 500, 600, 50)]]),
        },
      ]);
      expect(textBytes(after)).toEqual(
        [TEXTS.marks, TEXTS.markup, TEXTS.spaces, TEXTS.manual, TEXTS.best, TEXTS.onPage].map(
          (text) => Buffer.from(text, 'utf8').toString('hex'),
        ),
      );
    }
  }, 120_000);

  it('refuses an element without an image, and answers 404 for no element', async () => {
    const db = t().app.db;
    const { corpusId } = await newCorpus(t(), 'Folders');
    const types = new ImportTypes(db, corpusId, emptyReport());
    const [folderId] = await createElements(db, [
      { corpusId, typeId: await types.id('folder', 'Folder', true), name: 'Box 1' },
    ]);
    await expect(readPageLayout(db, folderId!)).rejects.toMatchObject({ statusCode: 400 });
    await expect(readPageLayout(db, randomUUID())).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('the XML the exports write', () => {
  it('escapes markup and leaves out only what XML 1.0 cannot hold', () => {
    expect(escapeXmlText('a & b < c > d "e" \r')).toBe('a &amp; b &lt; c &gt; d "e" &#13;');
    expect(escapeXmlAttribute('a\tb\nc "d" <e>')).toBe('a&#9;b&#10;c &quot;d&quot; &lt;e&gt;');
    expect(escapeXmlText('bell\u0007 \uFFFF lone\uD800 pair\uD83D\uDE00 pua\uE000')).toBe(
      'bell  lone pair\uD83D\uDE00 pua\uE000',
    );
  });

  it('chooses the manual transcription, else the most confident one', () => {
    const row = (id: string, worker_run_id: string | null, confidence: number | null) => ({
      id,
      worker_run_id,
      confidence,
      updated: '2026-01-01T00:00:00.000Z',
    });
    expect(chooseTranscription([row('a', 'w', 0.9), row('b', null, null)])?.id).toBe('b');
    expect(chooseTranscription([row('a', 'w', null), row('b', 'w', 0.1)])?.id).toBe('b');
    expect(chooseTranscription([row('b', 'w', 0.5), row('a', 'w', 0.5)])?.id).toBe('a');
    expect(chooseTranscription([])).toBeUndefined();
  });

  it.runIf(canValidate)(
    `the demo's PAGE XML validates, every page of it${VALIDATE}`,
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-demo-page-'));
      try {
        for (let index = 1; index <= DEMO_PAGE_COUNT; index += 1) {
          const file = path.join(dir, `Folio ${index}.xml`);
          fs.writeFileSync(file, demoPageXml(await renderDemoPage(index), `Folio ${index}.jpg`));
          expectValid(file, PAGE_XSD);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
