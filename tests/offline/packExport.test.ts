import 'fake-indexeddb/auto';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ElementListItem, Polygon } from '@/api/types';
import { CSV_FIELDS } from '@/lib/exports/csv';
import { FoliaDatabase } from '@/offline/db';
import { createElement, deleteElement } from '@/offline/elementEdits';
import { listKey } from '@/offline/elementReads';
import { storeElements } from '@/offline/elementStore';
import { createTranscription, updateTranscription } from '@/offline/entityEdits';
import { exportPack, readPackLayouts } from '@/offline/exports/exportPack';
import { packListKey } from '@/offline/packs';
import { ZONES_QUERY } from '@/offline/zoneReads';
import { SHARED_DATA_DIR } from '../server/sharedData';
import { rectangle, storeCorpus, storeElement, storeTranscription } from './searchFixtures';

const SCHEMAS_DIR = path.resolve(SHARED_DATA_DIR, '..', 'schemas');
const PAGE_XSD = path.join(SCHEMAS_DIR, 'page-2019-07-15.xsd');
const ALTO_XSD = path.join(SCHEMAS_DIR, 'alto-4-4.xsd');
const CATALOG = path.join(SCHEMAS_DIR, 'catalog.xml');
const canValidate =
  spawnSync('xmllint', ['--version']).status === 0 &&
  [PAGE_XSD, ALTO_XSD, CATALOG].every((file) => fs.existsSync(file));
if (!canValidate && process.env.CI === '1') {
  // .ci/run installs libxml2-utils; CI must validate, not skip.
  throw new Error(`CI=1 but xmllint or the schemas in ${SCHEMAS_DIR} are missing`);
}
const VALIDATE = canValidate ? '' : ' (skipped: needs xmllint and ../shared/schemas)';

/** xmllint's verdict on a document, offline, through the schemas' catalog. */
function validate(xml: string, xsd: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-pack-export-'));
  const file = path.join(dir, 'page.xml');
  fs.writeFileSync(file, xml);
  const result = spawnSync('xmllint', ['--nonet', '--noout', '--schema', xsd, file], {
    env: { ...process.env, XML_CATALOG_FILES: CATALOG },
    encoding: 'utf8',
  });
  fs.rmSync(dir, { recursive: true, force: true });
  return result.status === 0 ? 'valid' : result.stderr;
}

/** Texts a PAGE or ALTO round trip must keep code point for code point. */
const COMBINING = 'Cte\u0301 de Lyon\u0323 e\u0300\u0301';
const PRIVATE_USE = 'q\uE8BF p\uE665 \u{F1234}';

let db: FoliaDatabase;
beforeEach(async () => {
  db = new FoliaDatabase(`pack-export-${randomUUID()}`);
  await db.open();
});
afterEach(async () => {
  db.close();
  await db.delete();
});

/** A page's zones list as readAllZones stores it: the page recorded as each one's parent. */
async function storeZones(pageId: string, items: ElementListItem[]) {
  await db.transaction('rw', [db.elements, db.outbox], () =>
    storeElements(db, items, { full: false, parentId: pageId }),
  );
  await db.lists.put({
    key: listKey('children', pageId, { ...ZONES_QUERY, page: 1 }),
    ownerId: pageId,
    ids: items.map((item) => item.id),
    count: items.length,
    lastModified: null,
    page: { next: null, previous: null, number: 1 },
    savedAt: Date.now(),
  });
}

/**
 * A folder taken offline, as runPack leaves it: the descendants listed (no parent recorded),
 * the pack's list of them, each page's zones list in position order (depth first, so a
 * region's lines come after the page's own children).
 */
async function folderPack() {
  const corpusId = await storeCorpus(db, 'Registers');
  const corpus = (await db.corpora.get(corpusId))!;
  corpus.data.types.push({
    id: randomUUID(),
    slug: 'paragraph',
    display_name: 'Paragraph',
    folder: false,
    color: '000000',
  });
  await db.corpora.put(corpus);
  const on = (image: string, polygon: Polygon) => ({ image, polygon });
  const folder = await storeElement(db, { corpusId, type: 'folder', name: 'Register 3' });
  const page = await storeElement(db, {
    corpusId,
    type: 'page',
    name: 'Folio 1',
    zone: on('img-1', rectangle(0, 0, 2000, 3000)),
  });
  const spec = (type: string, name: string, polygon: Polygon) => ({
    corpusId,
    type,
    name,
    zone: on('img-1', polygon),
    classes: type === 'paragraph' ? [{ name: 'Deed' }, { name: 'Latin' }] : [],
  });
  const heading = await storeElement(db, spec('text_line', '0', rectangle(100, 100, 1800, 80)));
  const paragraph = await storeElement(
    db,
    spec('paragraph', 'P1', [
      [100, 300],
      [1900, 300],
      [1900, 1300],
      [100, 1300],
      [100, 300],
    ]),
  );
  const footer = await storeElement(db, spec('text_line', '9', rectangle(100, 2800, 1800, 80)));
  const first = await storeElement(db, spec('text_line', '1', rectangle(150, 350, 1700, 90)));
  const second = await storeElement(db, spec('text_line', '2', rectangle(150, 500, 1700, 90)));
  await storeZones(page.id, [heading, paragraph, footer, first, second]);
  // Another page of the same name, on its own image, with one line.
  const verso = await storeElement(db, {
    corpusId,
    type: 'page',
    name: 'Folio 1',
    zone: on('img-2', rectangle(0, 0, 2000, 3000)),
  });
  const versoLine = await storeElement(db, {
    ...spec('text_line', '1', rectangle(200, 200, 1000, 100)),
    zone: on('img-2', rectangle(200, 200, 1000, 100)),
  });
  await storeZones(verso.id, [versoLine]);

  await storeTranscription(db, heading.id, '=Chapitre premier, "De la ville"');
  await storeTranscription(db, paragraph.id, 'Paragraphe');
  // A worker's reading, more confident, loses to the manual one.
  await storeTranscription(db, first.id, 'Cte de Lyon', {
    confidence: 0.99,
    workerRun: { id: randomUUID(), summary: 'Worker HTR' },
  });
  await storeTranscription(db, first.id, COMBINING);
  await storeTranscription(db, second.id, PRIVATE_USE, {
    confidence: 0.5,
    workerRun: { id: randomUUID(), summary: 'Worker HTR' },
  });
  const footerText = await storeTranscription(db, footer.id, 'Fin');
  await storeTranscription(db, versoLine.id, 'Verso');

  const descendants = [page, heading, paragraph, footer, first, second, verso, versoLine];
  await db.packs.put({
    id: folder.id,
    name: folder.name,
    corpusId,
    zoom: 'screen',
    elementCount: descendants.length + 1,
    tileCount: 0,
    bytes: 0,
    status: 'complete',
    createdAt: Date.now(),
  });
  await db.lists.put({
    key: packListKey(folder.id),
    ownerId: packListKey(folder.id),
    ids: descendants.map((item) => item.id),
    count: descendants.length,
    lastModified: null,
    savedAt: Date.now(),
  });
  return {
    corpusId,
    folder,
    page,
    heading,
    paragraph,
    footer,
    first,
    second,
    verso,
    versoLine,
    footerText,
  };
}

describe('a pack exported on the device', () => {
  it('gives each page its regions in reading order, lines in their region, chosen texts', async () => {
    const p = await folderPack();
    const { layouts } = await readPackLayouts(db, p.folder.id);
    expect(layouts.map((layout) => [layout.pageId, layout.pageName])).toEqual([
      [p.page.id, 'Folio 1'],
      [p.verso.id, 'Folio 1'],
    ]);
    const [recto] = layouts;
    expect(recto).toMatchObject({
      width: 2000,
      height: 3000,
      imageFilename: 'https://iiif.example.org/iiif/2/img-1/full/full/0/default.jpg',
      skipped: 0,
    });
    expect(
      recto!.regions.map((region) => ({
        id: region.id,
        type: region.type,
        typeLabel: region.typeLabel,
        wrapper: region.wrapper,
        text: region.text,
        lines: region.lines.map((line) => [line.id, line.text]),
      })),
    ).toEqual([
      {
        id: p.heading.id,
        type: 'text_region',
        typeLabel: 'text_region',
        wrapper: true,
        text: null,
        lines: [[p.heading.id, '=Chapitre premier, "De la ville"']],
      },
      {
        id: p.paragraph.id,
        type: 'paragraph',
        typeLabel: 'Paragraph',
        wrapper: false,
        text: 'Paragraphe',
        lines: [
          [p.first.id, COMBINING],
          [p.second.id, PRIVATE_USE],
        ],
      },
      {
        id: p.footer.id,
        type: 'text_region',
        typeLabel: 'text_region',
        wrapper: true,
        text: null,
        lines: [[p.footer.id, 'Fin']],
      },
    ]);
    expect(recto!.regions[1]!.polygon).toEqual(p.paragraph.zone!.polygon);
    expect(recto!.regions[1]!.lines[1]!.polygon).toEqual(rectangle(150, 500, 1700, 90));
    // A wrapper is the box of its lines.
    expect(recto!.regions[0]!.polygon).toEqual(rectangle(100, 100, 1800, 80));
  });

  it('shows the edits still waiting to be sent, as the device shows them', async () => {
    const p = await folderPack();
    await updateTranscription(db, p.footerText.id, p.corpusId, { text: 'Fin du registre' });
    await deleteElement(db, p.heading.id);
    const added = await createElement(db, {
      corpus: p.corpusId,
      parent: p.paragraph.id,
      type: 'text_line',
      name: '3',
      image: 'img-1',
      polygon: rectangle(150, 650, 1700, 90) as [number, number][],
      zone: { ...p.first.zone!, id: '', polygon: rectangle(150, 650, 1700, 90) },
    });
    await createTranscription(
      db,
      { id: added, corpusId: p.corpusId },
      'Ajoutée hors ligne',
      'horizontal-lr',
    );

    const { layouts } = await readPackLayouts(db, p.folder.id);
    const regions = layouts[0]!.regions;
    expect(regions.map((region) => region.lines.map((line) => line.text))).toEqual([
      [COMBINING, PRIVATE_USE, 'Ajoutée hors ligne'],
      ['Fin du registre'],
    ]);
    expect(regions[0]!.lines[2]!.id).toBe(added);
    expect(layouts[0]!.lastChange > p.page.created).toBe(true);
  });

  it('zips one PAGE XML file per page, names made unique, texts byte for byte', async () => {
    const p = await folderPack();
    const file = await exportPack(db, p.folder.id, 'pagexml');
    expect(file).toMatchObject({ filename: 'Register 3-page.zip', mime: 'application/zip' });
    const files = unzipSync(file.bytes);
    expect(Object.keys(files)).toEqual(['Folio 1.xml', 'Folio 1 (2).xml']);
    const recto = strFromU8(files['Folio 1.xml']!);
    expect(recto).toContain(`<TextLine id="l_${p.first.id}"`);
    expect(recto).toContain(`<Unicode>${COMBINING}</Unicode>`);
    expect(recto).toContain(`<Unicode>${PRIVATE_USE}</Unicode>`);
    expect(Buffer.from(files['Folio 1.xml']!).includes(Buffer.from(PRIVATE_USE, 'utf8'))).toBe(
      true,
    );
    expect(strFromU8(files['Folio 1 (2).xml']!)).toContain('<Unicode>Verso</Unicode>');
  });

  it.runIf(canValidate)(
    `writes PAGE XML and ALTO that validate against their XSDs${VALIDATE}`,
    async () => {
      const p = await folderPack();
      for (const [format, xsd] of [
        ['pagexml', PAGE_XSD],
        ['alto', ALTO_XSD],
      ] as const) {
        const files = unzipSync((await exportPack(db, p.folder.id, format)).bytes);
        expect(Object.keys(files)).toHaveLength(2);
        for (const [name, bytes] of Object.entries(files)) {
          expect(validate(strFromU8(bytes), xsd), `${format} ${name}`).toBe('valid');
        }
      }
      const alto = strFromU8(
        unzipSync((await exportPack(db, p.folder.id, 'alto')).bytes)['Folio 1.xml']!,
      );
      expect(alto).toContain(COMBINING);
      expect(alto).toContain(PRIVATE_USE);
    },
  );

  it('writes one CSV row per element, with its parent, page, chosen text and classes', async () => {
    const p = await folderPack();
    const file = await exportPack(db, p.folder.id, 'csv');
    expect(file).toMatchObject({ filename: 'Register 3.csv', mime: 'text/csv;charset=utf-8' });
    const text = strFromU8(file.bytes);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(CSV_FIELDS.join(','));
    expect(lines.at(-1)).toBe('');
    // The folder, two pages and six elements on them.
    expect(lines).toHaveLength(1 + 9 + 1);
    const rowOf = (id: string) => lines.find((line) => line.startsWith(`${id},`))!;
    expect(rowOf(p.first.id)).toBe(
      [
        p.first.id,
        '1',
        'text_line',
        p.paragraph.id,
        'P1',
        p.page.id,
        'Folio 1',
        'https://iiif.example.org/iiif/2/img-1',
        '"[[150,350],[1850,350],[1850,440],[150,440],[150,350]]"',
        COMBINING,
        '',
        '',
        '',
        p.first.created,
        '',
      ].join(','),
    );
    // Formulas kept as text, quotes doubled; the folder holds the pages.
    expect(rowOf(p.heading.id)).toContain(`,"'=Chapitre premier, ""De la ville""",`);
    expect(rowOf(p.paragraph.id)).toContain(',Paragraphe,,,Deed; Latin,');
    expect(rowOf(p.page.id)).toContain(`,page,${p.folder.id},Register 3,${p.page.id},Folio 1,`);
    expect(rowOf(p.second.id)).toContain(`,${PRIVATE_USE},0.5,`);
  });
});
