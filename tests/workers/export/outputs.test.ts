/**
 * The export worker's files from a small export written by hand in the v11 tables: a folder
 * holding two pages of the same name, one without an image. PAGE XML: the page with an image
 * gets its file (the other is left out, and the log says so); CSV: every element, with its
 * parent, page, text and classes, in the folder's order; a chosen line stands for its page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_TABLES, createTableSql } from '../../../server/services/exports/sqliteSchema';
import type { Api } from '../../../workers/tesseract/api';
import { ExportReader } from '../../../workers/export/exportLayout';
import { writeOutput, type OutputContext } from '../../../workers/export/outputs';
import { readSettings } from '../../../workers/export/settings';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [FOLDER, PAGE, BLANK, REGION, LINE, IMAGE, RUN, VERSION] = [
  ID(1),
  ID(2),
  ID(3),
  ID(4),
  ID(5),
  ID(6),
  ID(7),
  ID(8),
] as const;
const T = 1_700_000_000;

describe('export worker files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-export-outputs-'));
  let db: BetterSqlite3.Database;

  beforeAll(() => {
    db = new BetterSqlite3(path.join(dir, 'export.sqlite'));
    for (const table of EXPORT_TABLES) db.exec(createTableSql(table));
    const insert = (table: string, row: Record<string, unknown>) =>
      db
        .prepare(
          `INSERT INTO "${table}" (${Object.keys(row)
            .map((k) => `"${k}"`)
            .join(', ')}) ` +
            `VALUES (${Object.keys(row)
              .map(() => '?')
              .join(', ')})`,
        )
        .run(...Object.values(row));
    insert('image_server', {
      id: 1,
      url: 'https://iiif.example.org',
      display_name: 'x',
      version: 2,
    });
    insert('image', {
      id: IMAGE,
      server_id: 1,
      url: 'https://iiif.example.org/f1',
      width: 100,
      height: 200,
    });
    insert('worker_version', { id: VERSION, slug: 'ocr', name: 'OCR', type: 'recognizer' });
    insert('worker_run', { id: RUN, worker_version_id: VERSION });
    const element = (
      id: string,
      name: string,
      type: string,
      image: string | null,
      polygon: string | null,
    ) =>
      insert('element', {
        id,
        created: T,
        updated: T + 1,
        name,
        type,
        image_id: image,
        polygon,
        rotation_angle: 0,
        mirrored: 0,
      });
    element(FOLDER, 'Register', 'folder', null, null);
    element(PAGE, 'f. 1', 'page', IMAGE, '[[0,0],[100,0],[100,200],[0,200],[0,0]]');
    element(BLANK, 'f. 1', 'page', null, null);
    element(REGION, 'Block', 'text_region', IMAGE, '[[10,10],[90,10],[90,100],[10,100],[10,10]]');
    element(LINE, 'Line', 'text_line', IMAGE, '[[10,10],[90,10],[90,30],[10,30],[10,10]]');
    const link = (parent: string, child: string, ordering: number) =>
      insert('element_path', {
        id: ID(100 + ordering),
        parent_id: parent,
        child_id: child,
        ordering,
      });
    link(FOLDER, BLANK, 0);
    link(FOLDER, PAGE, 1);
    insert('element_path', { id: ID(200), parent_id: PAGE, child_id: REGION, ordering: 0 });
    insert('element_path', { id: ID(201), parent_id: REGION, child_id: LINE, ordering: 0 });
    insert('transcription', {
      id: ID(300),
      element_id: LINE,
      text: '=SUM(1) "quoted"',
      confidence: 0.5,
      orientation: 'horizontal-lr',
      worker_run_id: RUN,
    });
    insert('transcription', {
      id: ID(301),
      element_id: LINE,
      text: 'manual',
      confidence: null,
      orientation: 'horizontal-lr',
    });
    insert('classification', {
      id: ID(400),
      element_id: PAGE,
      class_name: 'recto',
      state: 'pending',
      confidence: 1,
      high_confidence: 0,
    });
    insert('classification', {
      id: ID(401),
      element_id: PAGE,
      class_name: 'dated',
      state: 'pending',
      confidence: 1,
      high_confidence: 0,
    });
  });

  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const context = (configuration: Record<string, unknown>, lines: string[]): OutputContext => ({
    reader: new ExportReader(db),
    api: {} as Api,
    roots: [FOLDER],
    settings: readSettings({ export_id: ID(9), ...configuration }),
    typeNames: new Map(),
    foliaRoot: 'http://folia.test/',
    artifactsDir: path.join(dir, 'artifacts'),
    title: 'Test',
    log: (line) => void lines.push(line),
  });

  it('zips a PAGE file per page with an image, and says which page it left out', async () => {
    const lines: string[] = [];
    const file = await writeOutput('pagexml', context({}, lines));
    expect(path.basename(file)).toBe('pagexml.zip');
    const files = unzipSync(new Uint8Array(fs.readFileSync(file)));
    expect(Object.keys(files)).toEqual(['f. 1.xml']);
    const xml = new TextDecoder().decode(files['f. 1.xml']);
    expect(xml).toContain('manual');
    expect(xml).toContain('imageFilename="https://iiif.example.org/f1/full/full/0/default.jpg"');
    expect(lines).toContain('f. 1: left out, this page has no image');
    expect(lines).toContain('1 page(s) to export');
  });

  it('writes a CSV row per element with the chosen columns', async () => {
    const lines: string[] = [];
    const file = await writeOutput(
      'csv',
      context(
        { fields: ['name', 'type', 'parent_name', 'page_id', 'text', 'classifications'] },
        lines,
      ),
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(
      [
        'name,type,parent_name,page_id,text,classifications',
        'Register,folder,,,,',
        `f. 1,page,Register,${BLANK},,`,
        `f. 1,page,Register,${PAGE},,dated; recto`,
        `Block,text_region,f. 1,${PAGE},,`,
        `Line,text_line,Block,${PAGE},manual,`,
        '',
      ].join('\r\n'),
    );
    expect(lines).toEqual(['5 element(s) written']);
  });

  it('fails when no chosen element is a page with an image', async () => {
    const only = { ...context({}, []), roots: [BLANK] };
    await expect(writeOutput('alto', only)).rejects.toThrow(
      'There is no page under the chosen elements: nothing to export.',
    );
  });

  it('exports the page of a chosen line once, and its rows with their page', async () => {
    const lines: string[] = [];
    const zip = await writeOutput('alto', { ...context({}, lines), roots: [LINE, PAGE, REGION] });
    expect(Object.keys(unzipSync(new Uint8Array(fs.readFileSync(zip))))).toEqual(['f. 1.xml']);
    const csv = await writeOutput('csv', {
      ...context({ fields: ['name', 'parent_name', 'page_id'] }, []),
      roots: [LINE],
    });
    expect(fs.readFileSync(csv, 'utf8')).toBe(`name,parent_name,page_id\r\nLine,,${PAGE}\r\n`);
  });
});
