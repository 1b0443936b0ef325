/**
 * The export worker reads pages from an SQLite export as the server reads them from its
 * database: real PAGE files are imported, the project is exported to SQLite, and every page's
 * layout read back from the file equals readPageLayout's (the export keeps no transcription
 * dates, so only lastChange may be earlier).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport } from '../../../server/imports/execute';
import { createCorpus } from '../../../server/services/corpora';
import { buildSqliteExport } from '../../../server/services/exports/sqliteExport';
import { readPageLayout } from '../../../server/services/exports/pageLayout';
import { writePageXml } from '../../../src/lib/exports/pageXml';
import { ExportReader } from '../../../workers/export/exportLayout';
import { createTestUser, describeEachDialect } from '../../server/harness';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../../server/sharedData';

const withShared = sharedDataAvailable();
/** Nested regions and a reading order (OCR-D), and a handwritten double page (eScriptorium). */
const FILES = [
  'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0007.xml',
  'lectaurep-bronod/bronod1/page/0001.xml',
];

describeEachDialect('pages read from an SQLite export', ({ t }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-export-layout-'));
  let corpusId: string;
  let folderId: string;
  let reader: ExportReader;
  let sqlite: BetterSqlite3.Database;

  beforeAll(async () => {
    if (!withShared) return;
    const { app, config } = t();
    const user = await createTestUser(app, { admin: true });
    const row = await app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    corpusId = (
      await createCorpus(app.db, row, { name: 'Exported', description: '', public: false })
    ).id;
    const target = { corpusId, userId: user.id };
    const first = await runImport(
      { db: app.db, dataDir: config.dataDir },
      path.join(SHARED_DATA_DIR, FILES[0]!),
      {
        ...target,
        parentId: null,
        folderName: 'Volume',
      },
    );
    expect(first.problems).toEqual([]);
    folderId = first.folder_id!;
    const second = await runImport(
      { db: app.db, dataDir: config.dataDir },
      path.join(SHARED_DATA_DIR, FILES[1]!),
      {
        ...target,
        parentId: folderId,
        folderName: null,
      },
    );
    expect(second.problems).toEqual([]);
    const file = path.join(dir, 'export.sqlite');
    await buildSqliteExport({ db: app.db, dialect: app.dialect }, corpusId, file, {
      origin: 'http://folia.test',
    });
    sqlite = new BetterSqlite3(file, { readonly: true });
    reader = new ExportReader(sqlite);
  }, 300_000);

  afterAll(() => {
    sqlite?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(withShared)(
    'finds the folder’s pages in its order and reads each as the database does',
    async () => {
      const db = t().app.db;
      const links = await db
        .selectFrom('element_links')
        .select('child_id')
        .where('parent_id', '=', folderId)
        .orderBy('position')
        .orderBy('child_id')
        .execute();
      expect(links).toHaveLength(2);
      const pages = reader.pages([folderId]);
      expect(pages.map((page) => page.id)).toEqual(links.map((link) => link.child_id));

      const types = await db
        .selectFrom('element_types')
        .select(['slug', 'display_name'])
        .where('corpus_id', '=', corpusId)
        .execute();
      const typeNames = new Map(types.map((type) => [type.slug, type.display_name]));
      for (const page of pages) {
        const expected = await readPageLayout(db, page.id);
        const layout = reader.layout(page.id, typeNames);
        expect(expected.regions.length).toBeGreaterThan(0);
        expect(expected.regions.flatMap((region) => region.lines).length).toBeGreaterThan(0);
        expect({ ...layout, lastChange: '' }).toEqual({ ...expected, lastChange: '' });
        expect(layout.lastChange <= expected.lastChange).toBe(true);
        expect(layout.lastChange >= layout.created).toBe(true);
        expect(writePageXml({ ...layout, lastChange: expected.lastChange })).toBe(
          writePageXml(expected),
        );
      }
    },
  );

  it.runIf(withShared)('without display names, labels types by their slugs', () => {
    const [page] = reader.pages([folderId]);
    const layout = reader.layout(page!.id);
    for (const region of layout.regions) expect(region.typeLabel).toBe(region.type);
  });

  it.runIf(withShared)(
    'walks every element under the folder once, each with its page',
    async () => {
      const db = t().app.db;
      const count = await db
        .selectFrom('elements')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('corpus_id', '=', corpusId)
        .executeTakeFirstOrThrow();
      const walked = [...reader.walk([folderId])];
      expect(walked).toHaveLength(Number(count.n));
      expect(walked[0]).toMatchObject({ element: { id: folderId }, parent: null, page: null });
      const pageIds = new Set(reader.pages([folderId]).map((page) => page.id));
      for (const { element, page } of walked.slice(1)) {
        expect(page, element.name).not.toBeNull();
        expect(pageIds.has(page!.id)).toBe(true);
      }
    },
  );
});
