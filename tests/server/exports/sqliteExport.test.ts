/**
 * The Arkindex SQLite project export (format version 11): built from a project holding every
 * kind of row, then opened read-only and checked table by table against the format description
 * written out below (api part 2 §1.3), row by row against what was put in, and for integrity.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestUser, describeEachDialect } from '../harness';
import { makeActors, makeCorpus } from '../actors';
import { insertElements, makeImage } from '../elementsFixtures';
import { makeWorkerRun } from '../workerRunFixtures';
import { UUID } from '../expectedErrors';
import { appendLinks } from '../../../server/services/elements/repository';
import { buildSqliteExport } from '../../../server/services/exports/sqliteExport';

/**
 * The format, one line per column as `name TYPE [NOT NULL] [PRIMARY KEY] [DEFAULT x]`, then its
 * unique indexes, foreign keys and the indexes on its foreign-key columns.
 */
const FORMAT: Record<
  string,
  { columns: string[]; unique?: string[][]; references?: Record<string, string> }
> = {
  export_version: { columns: ['version INTEGER NOT NULL'] },
  worker_version: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'slug VARCHAR(100) NOT NULL',
      'name VARCHAR(100) NOT NULL',
      'type VARCHAR(50) NOT NULL',
      'repository_url VARCHAR(250)',
      'revision VARCHAR(200)',
      'version INTEGER',
    ],
  },
  worker_run: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'worker_version_id VARCHAR(37) NOT NULL',
      'model_version_id VARCHAR(37)',
      'model_id VARCHAR(37)',
      'model_name VARCHAR(100)',
      'configuration_id VARCHAR(37)',
      'configuration TEXT',
    ],
    references: { worker_version_id: 'worker_version' },
  },
  image_server: {
    columns: [
      'id INTEGER NOT NULL PRIMARY KEY',
      'url VARCHAR(200) NOT NULL',
      'display_name VARCHAR(250) NOT NULL',
      'max_width INTEGER',
      'max_height INTEGER',
      'version INTEGER NOT NULL DEFAULT 2',
    ],
    unique: [['url']],
  },
  image: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'server_id INTEGER NOT NULL',
      'url TEXT NOT NULL',
      'width INTEGER NOT NULL',
      'height INTEGER NOT NULL',
    ],
    unique: [['url']],
    references: { server_id: 'image_server' },
  },
  element: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'created REAL NOT NULL',
      'updated REAL NOT NULL',
      'name VARCHAR(250) NOT NULL',
      'type VARCHAR(50) NOT NULL',
      'image_id VARCHAR(37)',
      'polygon TEXT',
      'rotation_angle INTEGER NOT NULL DEFAULT 0',
      'mirrored INTEGER NOT NULL DEFAULT 0',
      'confidence REAL',
      'worker_run_id VARCHAR(37)',
    ],
    references: { image_id: 'image', worker_run_id: 'worker_run' },
  },
  element_path: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'parent_id VARCHAR(37) NOT NULL',
      'child_id VARCHAR(37) NOT NULL',
      'ordering INTEGER NOT NULL DEFAULT 0',
    ],
    unique: [['parent_id', 'child_id']],
    references: { parent_id: 'element', child_id: 'element' },
  },
  transcription: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'element_id VARCHAR(37) NOT NULL',
      'text TEXT NOT NULL',
      'confidence REAL',
      "orientation TEXT NOT NULL DEFAULT 'horizontal-lr'",
      'worker_run_id VARCHAR(37)',
    ],
    references: { element_id: 'element', worker_run_id: 'worker_run' },
  },
  classification: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'element_id VARCHAR(37) NOT NULL',
      'class_name VARCHAR(1024) NOT NULL',
      "state VARCHAR(16) NOT NULL DEFAULT 'pending'",
      'moderator VARCHAR(255)',
      'confidence REAL NOT NULL',
      'high_confidence INTEGER NOT NULL DEFAULT 0',
      'worker_run_id VARCHAR(37)',
    ],
    references: { element_id: 'element', worker_run_id: 'worker_run' },
  },
  entity_type: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'name VARCHAR(250) NOT NULL',
      "color VARCHAR(6) NOT NULL DEFAULT 'ff0000'",
    ],
    unique: [['name']],
  },
  transcription_entity: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'transcription_id VARCHAR(37) NOT NULL',
      'type_id VARCHAR(37) NOT NULL',
      'offset INTEGER NOT NULL',
      'length INTEGER NOT NULL',
      'confidence REAL',
      'worker_run_id VARCHAR(37)',
    ],
    unique: [['transcription_id', 'type_id', 'offset', 'length', 'worker_run_id']],
    references: {
      transcription_id: 'transcription',
      type_id: 'entity_type',
      worker_run_id: 'worker_run',
    },
  },
  metadata: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'element_id VARCHAR(37) NOT NULL',
      'name VARCHAR(250) NOT NULL',
      'type VARCHAR(50) NOT NULL',
      'value TEXT NOT NULL',
      'worker_run_id VARCHAR(37)',
    ],
    references: { element_id: 'element', worker_run_id: 'worker_run' },
  },
  dataset: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'name VARCHAR(100) NOT NULL',
      'description TEXT NOT NULL',
      "state VARCHAR(50) NOT NULL DEFAULT 'open'",
      'sets TEXT NOT NULL',
    ],
  },
  dataset_element: {
    columns: [
      'id VARCHAR(37) NOT NULL PRIMARY KEY',
      'dataset_id VARCHAR(37) NOT NULL',
      'element_id VARCHAR(37) NOT NULL',
      'set_name VARCHAR(50) NOT NULL',
    ],
    references: { dataset_id: 'dataset', element_id: 'element' },
  },
};

const ORIGIN = 'https://folia.example.org';
/** Code points: L e ␠ 𝔊 r a n d ␠ P a r i s — "Paris" starts at 9 though it is at 10 in UTF-16. */
const GOTHIC_TEXT = 'Le 𝔊rand Paris';

interface TableInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

function describeColumns(file: BetterSqlite3.Database, table: string): string[] {
  const info = file.pragma(`table_info("${table}")`) as TableInfo[];
  return info.map(
    (column) =>
      `${column.name} ${column.type}` +
      (column.notnull ? ' NOT NULL' : '') +
      (column.pk ? ' PRIMARY KEY' : '') +
      (column.dflt_value !== null ? ` DEFAULT ${column.dflt_value}` : ''),
  );
}

/** Unique indexes other than the primary key's, as column lists. */
function uniqueIndexes(file: BetterSqlite3.Database, table: string): string[][] {
  const list = file.pragma(`index_list("${table}")`) as {
    name: string;
    unique: number;
    origin: string;
  }[];
  return list
    .filter((index) => index.unique === 1 && index.origin !== 'pk')
    .map((index) =>
      (file.pragma(`index_info("${index.name}")`) as { name: string }[]).map((c) => c.name),
    );
}

/** The single-column indexes (unique or not) that lead with each column. */
function indexedColumns(file: BetterSqlite3.Database, table: string): Set<string> {
  const list = file.pragma(`index_list("${table}")`) as { name: string }[];
  return new Set(
    list.map(
      (index) => (file.pragma(`index_info("${index.name}")`) as { name: string }[])[0]!.name,
    ),
  );
}

function rows(file: BetterSqlite3.Database, table: string, order = 'id'): unknown[] {
  return file.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all();
}

const byId = <T extends { id: string }>(items: T[]) =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

async function insertResults(app: FastifyInstance, corpusId: string) {
  const now = new Date().toISOString();
  return {
    transcription: async (
      elementId: string,
      text: string,
      extra: { confidence?: number; orientation?: string; workerRunId?: string } = {},
    ) => {
      const id = randomUUID();
      await app.db
        .insertInto('transcriptions')
        .values({
          id,
          element_id: elementId,
          text,
          orientation: (extra.orientation ?? 'horizontal-lr') as 'horizontal-lr',
          confidence: extra.confidence ?? null,
          worker_run_id: extra.workerRunId ?? null,
          creator_id: null,
          created: now,
          updated: now,
        })
        .execute();
      return id;
    },
    entityType: async (name: string, color = 'ff0000') => {
      const id = randomUUID();
      await app.db
        .insertInto('entity_types')
        .values({ id, corpus_id: corpusId, name, color })
        .execute();
      return id;
    },
    mlClass: async (name: string) => {
      const id = randomUUID();
      await app.db.insertInto('ml_classes').values({ id, corpus_id: corpusId, name }).execute();
      return id;
    },
  };
}

describeEachDialect('Arkindex SQLite export', ({ t }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-sqlite-export-'));
  const file = path.join(dir, 'export.sqlite');
  let exported: BetterSqlite3.Database;
  let result: Awaited<ReturnType<typeof buildSqliteExport>>;
  const progress: number[] = [];
  let ids: Record<string, string>;
  let corpusId: string;
  let otherId: string;
  let moderatorEmail: string;
  let run: Awaited<ReturnType<typeof makeWorkerRun>>;
  let otherRun: Awaited<ReturnType<typeof makeWorkerRun>>;
  const images: Record<string, { id: string; url: string | null }> = {};
  const tr: Record<string, string> = {};
  const ent: Record<string, string> = {};
  const cls: Record<string, string> = {};
  const meta: Record<string, string> = {};
  let datasetId: string;
  let otherDatasetId: string;
  let setIds: Record<string, string>;
  let runRow: { configuration_id: string | null; model_id: string; configuration: string };

  beforeAll(async () => {
    const app = t().app;
    const actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Letters' });
    otherId = await makeCorpus(app, actors, { name: 'Someone else' });
    const moderator = await createTestUser(app, { email: 'moderator@example.org' });
    moderatorEmail = moderator.email;

    run = await makeWorkerRun(app, corpusId, {
      workerName: 'Text recognizer',
      version: 3,
      modelName: 'HTR model',
      configurationName: 'Fast',
    });
    await app.db
      .updateTable('worker_versions')
      .set({ revision_url: 'https://gitlab.example.org/workers/fake/-/commit/123412deadbeef' })
      .where('id', '=', run.workerVersionId)
      .execute();
    const source = await app.db
      .selectFrom('worker_runs as wr')
      .innerJoin('model_versions as mv', 'mv.id', 'wr.model_version_id')
      .innerJoin('worker_configurations as wc', 'wc.id', 'wr.configuration_id')
      .select(['wr.configuration_id', 'mv.model_id', 'wc.configuration'])
      .where('wr.id', '=', run.id)
      .executeTakeFirstOrThrow();
    runRow = source;
    otherRun = await makeWorkerRun(app, otherId, { workerName: 'Other worker' });

    const remote = await makeImage(app, corpusId, 1000, 800);
    images.remote = remote;
    // The same IIIF image recorded twice: the format keeps one row per URL.
    const twin = await app.db
      .insertInto('images')
      .values({ ...remote, id: randomUUID() })
      .returning(['id', 'url'])
      .executeTakeFirstOrThrow();
    images.twin = twin;
    const localId = randomUUID();
    await app.db
      .insertInto('images')
      .values({
        id: localId,
        corpus_id: corpusId,
        path: `${localId.slice(0, 2)}/${localId}.tif`,
        url: null,
        width: 600,
        height: 900,
        status: 'checked',
        mime: 'image/jpeg',
        hash: null,
        created: new Date().toISOString(),
      })
      .execute();
    images.local = { id: localId, url: null };

    ids = await insertElements(app, corpusId, [
      { name: 'Folder A', type: 'folder' },
      { name: 'Folder B', type: 'folder' },
      { name: 'Page 1', type: 'page', parent: 'Folder A', image: remote.id },
      { name: 'Page 2', type: 'page', parent: 'Folder A', image: localId, rotation: 90 },
      { name: 'Page 3', type: 'page', parent: 'Folder A', image: twin.id, mirrored: true },
      {
        name: 'Line 1',
        type: 'text_line',
        parent: 'Page 1',
        image: remote.id,
        polygon: [
          [10, 20],
          [300, 20],
          [300, 60],
          [10, 60],
          [10, 20],
        ],
        confidence: 0.75,
        workerRunId: run.id,
      },
      {
        name: 'Line 2',
        type: 'text_line',
        parent: 'Page 1',
        image: remote.id,
        polygon: [
          [10, 70],
          [300, 70],
          [300, 110],
          [10, 110],
          [10, 70],
        ],
      },
    ]);
    // Page 1 has two parents.
    await app.db
      .transaction()
      .execute((trx) =>
        appendLinks(trx, [{ parentId: ids['Folder B']!, childId: ids['Page 1']! }]),
      );
    const otherIds = await insertElements(app, otherId, [
      { name: 'Other page', type: 'page', workerRunId: otherRun.id },
    ]);
    ids['Other page'] = otherIds['Other page']!;

    const mine = await insertResults(app, corpusId);
    const theirs = await insertResults(app, otherId);
    tr.gothic = await mine.transcription(ids['Line 1']!, GOTHIC_TEXT);
    tr.machine = await mine.transcription(ids['Line 2']!, 'second line', {
      confidence: 0.87,
      orientation: 'vertical-rl',
      workerRunId: run.id,
    });
    tr.other = await theirs.transcription(ids['Other page']!, 'not exported');

    ent.location = await mine.entityType('location');
    ent.person = await mine.entityType('person', 'aa00bb');
    ent.otherType = await theirs.entityType('place');
    ent.paris = randomUUID();
    ent.machine = randomUUID();
    await app.db
      .insertInto('transcription_entities')
      .values([
        {
          id: ent.paris,
          transcription_id: tr.gothic,
          type_id: ent.location,
          offset: 9,
          length: 5,
          confidence: null,
          worker_run_id: null,
        },
        {
          id: ent.machine,
          transcription_id: tr.machine,
          type_id: ent.person,
          offset: 0,
          length: 6,
          confidence: 0.5,
          worker_run_id: run.id,
        },
      ])
      .execute();

    const handwritten = await mine.mlClass('handwritten');
    const printed = await mine.mlClass('printed');
    const otherClass = await theirs.mlClass('handwritten');
    const now = new Date().toISOString();
    cls.validated = randomUUID();
    cls.machine = randomUUID();
    cls.other = randomUUID();
    await app.db
      .insertInto('classifications')
      .values([
        {
          id: cls.validated,
          element_id: ids['Page 1']!,
          ml_class_id: handwritten,
          state: 'validated',
          confidence: 1,
          high_confidence: 1,
          worker_run_id: null,
          creator_id: moderator.id,
          moderator_id: moderator.id,
          created: now,
          updated: now,
        },
        {
          id: cls.machine,
          element_id: ids['Line 1']!,
          ml_class_id: printed,
          state: 'pending',
          confidence: 0.42,
          high_confidence: 0,
          worker_run_id: run.id,
          creator_id: null,
          moderator_id: null,
          created: now,
          updated: now,
        },
        {
          id: cls.other,
          element_id: ids['Other page']!,
          ml_class_id: otherClass,
          state: 'pending',
          confidence: 0.1,
          high_confidence: 0,
          worker_run_id: null,
          creator_id: null,
          moderator_id: null,
          created: now,
          updated: now,
        },
      ])
      .execute();

    meta.folio = randomUUID();
    meta.score = randomUUID();
    meta.other = randomUUID();
    const metadataRow = (
      id: string,
      elementId: string,
      type: 'text' | 'numeric',
      name: string,
      value: string,
      workerRunId: string | null = null,
    ) => ({
      id,
      element_id: elementId,
      type,
      name,
      value,
      numeric_value: type === 'numeric' ? Number(value) : null,
      worker_run_id: workerRunId,
      creator_id: null,
      created: now,
      updated: now,
    });
    await app.db
      .insertInto('metadata')
      .values([
        metadataRow(meta.folio, ids['Page 1']!, 'text', 'folio', '12r'),
        metadataRow(meta.score, ids['Line 1']!, 'numeric', 'score', '3.5', run.id),
        metadataRow(meta.other, ids['Other page']!, 'text', 'folio', '1v'),
      ])
      .execute();

    datasetId = randomUUID();
    otherDatasetId = randomUUID();
    const dataset = (id: string, corpus: string, name: string, state: 'open' | 'complete') => ({
      id,
      corpus_id: corpus,
      name,
      description: `About ${name}`,
      unique_elements: 1 as const,
      state,
      creator_id: null,
      seed: null,
      task_id: null,
      populate_job_id: null,
      created: now,
      updated: now,
    });
    await app.db
      .insertInto('datasets')
      .values([
        dataset(datasetId, corpusId, 'Training data', 'complete'),
        dataset(otherDatasetId, otherId, 'Elsewhere', 'open'),
      ])
      .execute();
    setIds = { train: randomUUID(), dev: randomUUID(), test: randomUUID(), other: randomUUID() };
    await app.db
      .insertInto('dataset_sets')
      .values([
        { id: setIds.train!, dataset_id: datasetId, name: 'train' },
        { id: setIds.dev!, dataset_id: datasetId, name: 'dev' },
        { id: setIds.test!, dataset_id: datasetId, name: 'test' },
        { id: setIds.other!, dataset_id: otherDatasetId, name: 'train' },
      ])
      .execute();
    await app.db
      .insertInto('dataset_elements')
      .values([
        { set_id: setIds.train!, element_id: ids['Page 1']!, created: now },
        { set_id: setIds.train!, element_id: ids['Line 1']!, created: now },
        { set_id: setIds.test!, element_id: ids['Page 2']!, created: now },
        { set_id: setIds.other!, element_id: ids['Other page']!, created: now },
      ])
      .execute();

    result = await buildSqliteExport({ db: app.db, dialect: app.dialect }, corpusId, file, {
      origin: `${ORIGIN}/`,
      onProgress: (fraction) => void progress.push(fraction),
    });
    exported = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  });

  afterAll(() => {
    exported?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records export version 11 in its one export_version row', () => {
    expect(exported.prepare('SELECT * FROM export_version').all()).toEqual([{ version: 11 }]);
  });

  it('has the tables of the format, each with its columns, types, defaults and keys', () => {
    const tables = (
      exported
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all() as { name: string }[]
    ).map((row) => row.name);
    expect(tables).toEqual(Object.keys(FORMAT).sort());
    for (const [table, format] of Object.entries(FORMAT)) {
      expect(describeColumns(exported, table), table).toEqual(format.columns);
      const unique = uniqueIndexes(exported, table).map((columns) => columns.join(','));
      expect(unique.sort(), table).toEqual(
        (format.unique ?? []).map((columns) => columns.join(',')).sort(),
      );
      const keys = (
        exported.pragma(`foreign_key_list("${table}")`) as {
          from: string;
          table: string;
          to: string;
        }[]
      ).map((key) => `${key.from}->${key.table}.${key.to}`);
      expect(keys.sort(), table).toEqual(
        Object.entries(format.references ?? {})
          .map(([column, target]) => `${column}->${target}.id`)
          .sort(),
      );
      // Every foreign-key column is indexed, so readers walking the tree do not scan.
      const indexed = indexedColumns(exported, table);
      for (const column of Object.keys(format.references ?? {})) {
        expect(indexed.has(column), `${table}.${column} indexed`).toBe(true);
      }
    }
  });

  it('is not in WAL mode, and its foreign keys all hold', () => {
    expect(exported.pragma('journal_mode', { simple: true })).not.toBe('wal');
    expect(exported.pragma('foreign_key_check')).toEqual([]);
    expect(exported.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('holds the elements with their type slugs, images, polygons and dates', async () => {
    const source = await t()
      .app.db.selectFrom('elements')
      .select(['id', 'created', 'updated', 'polygon'])
      .where('corpus_id', '=', corpusId)
      .execute();
    const dates = new Map(source.map((row) => [row.id, row]));
    const sharedImage = (
      exported.prepare('SELECT id FROM image WHERE url = ?').get(images.remote!.url) as {
        id: string;
      }
    ).id;
    expect([images.remote!.id, images.twin!.id]).toContain(sharedImage);
    const element = (
      name: string,
      type: string,
      image: string | null,
      extra: Partial<Record<string, unknown>> = {},
    ) => {
      const id = ids[name]!;
      const row = dates.get(id)!;
      return {
        id,
        created: Date.parse(row.created) / 1000,
        updated: Date.parse(row.updated) / 1000,
        name,
        type,
        image_id: image,
        polygon: image ? row.polygon : null,
        rotation_angle: 0,
        mirrored: 0,
        confidence: null,
        worker_run_id: null,
        ...extra,
      };
    };
    expect(rows(exported, 'element')).toEqual(
      byId([
        element('Folder A', 'folder', null),
        element('Folder B', 'folder', null),
        element('Page 1', 'page', sharedImage),
        element('Page 2', 'page', images.local!.id, { rotation_angle: 90 }),
        element('Page 3', 'page', sharedImage, { mirrored: 1 }),
        element('Line 1', 'text_line', sharedImage, {
          confidence: 0.75,
          worker_run_id: run.id,
        }),
        element('Line 2', 'text_line', sharedImage),
      ]),
    );
    const line = exported
      .prepare('SELECT polygon FROM element WHERE id = ?')
      .get(ids['Line 1']) as {
      polygon: string;
    };
    expect(JSON.parse(line.polygon)).toEqual([
      [10, 20],
      [300, 20],
      [300, 60],
      [10, 60],
      [10, 20],
    ]);
    const created = exported.prepare('SELECT typeof(created) AS t FROM element LIMIT 1').get() as {
      t: string;
    };
    expect(created.t).toBe('real');
  });

  it('holds every parent link, two for an element with two parents, ordered by position', () => {
    const paths = rows(exported, 'element_path', 'parent_id, ordering') as {
      id: string;
      parent_id: string;
      child_id: string;
      ordering: number;
    }[];
    for (const row of paths) expect(row.id).toMatch(UUID);
    expect(new Set(paths.map((row) => row.id)).size).toBe(paths.length);
    const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    expect(
      paths
        .map((row) => `${names.get(row.parent_id)} > ${names.get(row.child_id)} @${row.ordering}`)
        .sort(),
    ).toEqual([
      'Folder A > Page 1 @0',
      'Folder A > Page 2 @1',
      'Folder A > Page 3 @2',
      'Folder B > Page 1 @0',
      'Page 1 > Line 1 @0',
      'Page 1 > Line 2 @1',
    ]);
  });

  it('holds each image once, with its full IIIF URL, and one row per image server', () => {
    const servers = rows(exported, 'image_server') as { id: number; url: string }[];
    expect(
      servers.map(({ id: _id, ...rest }) => rest).sort((a, b) => (a.url < b.url ? -1 : 1)),
    ).toEqual([
      {
        url: `${ORIGIN}/iiif`,
        display_name: 'Folia',
        max_width: null,
        max_height: null,
        version: 2,
      },
      {
        url: 'https://iiif.example.org/iiif/2',
        display_name: 'iiif.example.org',
        max_width: null,
        max_height: null,
        version: 2,
      },
    ]);
    const serverId = (url: string) => servers.find((server) => server.url === url)!.id;
    const shared = exported
      .prepare('SELECT id FROM image WHERE url = ?')
      .get(images.remote!.url) as {
      id: string;
    };
    expect(rows(exported, 'image', 'url')).toEqual([
      {
        id: images.local!.id,
        server_id: serverId(`${ORIGIN}/iiif`),
        url: `${ORIGIN}/iiif/${images.local!.id}`,
        width: 600,
        height: 900,
      },
      {
        id: shared.id,
        server_id: serverId('https://iiif.example.org/iiif/2'),
        url: images.remote!.url,
        width: 1000,
        height: 800,
      },
    ]);
  });

  it('holds the transcriptions, and entities whose offsets select their text in SQLite', () => {
    expect(rows(exported, 'transcription')).toEqual(
      byId([
        {
          id: tr.gothic!,
          element_id: ids['Line 1'],
          text: GOTHIC_TEXT,
          confidence: null,
          orientation: 'horizontal-lr',
          worker_run_id: null,
        },
        {
          id: tr.machine!,
          element_id: ids['Line 2'],
          text: 'second line',
          confidence: 0.87,
          orientation: 'vertical-rl',
          worker_run_id: run.id,
        },
      ]),
    );
    expect(rows(exported, 'transcription_entity')).toEqual(
      byId([
        {
          id: ent.paris!,
          transcription_id: tr.gothic,
          type_id: ent.location,
          offset: 9,
          length: 5,
          confidence: null,
          worker_run_id: null,
        },
        {
          id: ent.machine!,
          transcription_id: tr.machine,
          type_id: ent.person,
          offset: 0,
          length: 6,
          confidence: 0.5,
          worker_run_id: run.id,
        },
      ]),
    );
    const texts = exported
      .prepare(
        `SELECT te.id, SUBSTR(t.text, te."offset" + 1, te.length) AS text
         FROM transcription_entity te JOIN transcription t ON t.id = te.transcription_id`,
      )
      .all();
    expect(byId(texts as { id: string }[])).toEqual(
      byId([
        { id: ent.paris!, text: 'Paris' },
        { id: ent.machine!, text: 'second' },
      ]),
    );
    expect(rows(exported, 'entity_type')).toEqual(
      byId([
        { id: ent.location!, name: 'location', color: 'ff0000' },
        { id: ent.person!, name: 'person', color: 'aa00bb' },
      ]),
    );
  });

  it('holds classifications by class name, with the moderator e-mail', () => {
    expect(rows(exported, 'classification')).toEqual(
      byId([
        {
          id: cls.validated!,
          element_id: ids['Page 1'],
          class_name: 'handwritten',
          state: 'validated',
          moderator: moderatorEmail,
          confidence: 1,
          high_confidence: 1,
          worker_run_id: null,
        },
        {
          id: cls.machine!,
          element_id: ids['Line 1'],
          class_name: 'printed',
          state: 'pending',
          moderator: null,
          confidence: 0.42,
          high_confidence: 0,
          worker_run_id: run.id,
        },
      ]),
    );
  });

  it('holds the metadata', () => {
    expect(rows(exported, 'metadata')).toEqual(
      byId([
        {
          id: meta.folio!,
          element_id: ids['Page 1'],
          name: 'folio',
          type: 'text',
          value: '12r',
          worker_run_id: null,
        },
        {
          id: meta.score!,
          element_id: ids['Line 1'],
          name: 'score',
          type: 'numeric',
          value: '3.5',
          worker_run_id: run.id,
        },
      ]),
    );
  });

  it('holds the datasets with their sets comma-separated, and their elements by set', () => {
    expect(rows(exported, 'dataset')).toEqual([
      {
        id: datasetId,
        name: 'Training data',
        description: 'About Training data',
        state: 'complete',
        sets: 'dev,test,train',
      },
    ]);
    const members = rows(exported, 'dataset_element', 'element_id') as {
      id: string;
      dataset_id: string;
      element_id: string;
      set_name: string;
    }[];
    for (const row of members) expect(row.id).toMatch(UUID);
    expect(members.map(({ id: _id, ...rest }) => rest)).toEqual(
      [
        { dataset_id: datasetId, element_id: ids['Page 1'], set_name: 'train' },
        { dataset_id: datasetId, element_id: ids['Line 1'], set_name: 'train' },
        { dataset_id: datasetId, element_id: ids['Page 2'], set_name: 'test' },
      ].sort((a, b) => (a.element_id! < b.element_id! ? -1 : 1)),
    );
  });

  it('holds the worker runs that made results, with their versions', () => {
    expect(rows(exported, 'worker_run')).toEqual([
      {
        id: run.id,
        worker_version_id: run.workerVersionId,
        model_version_id: run.modelVersionId,
        model_id: runRow.model_id,
        model_name: 'HTR model',
        configuration_id: runRow.configuration_id,
        configuration: runRow.configuration,
      },
    ]);
    expect(JSON.parse(runRow.configuration)).toEqual({ batch: 8 });
    const version = rows(exported, 'worker_version') as { slug: string }[];
    expect(version).toEqual([
      {
        id: run.workerVersionId,
        slug: expect.stringMatching(/^text_recognizer_/),
        name: 'Text recognizer',
        type: 'recognizer',
        repository_url: 'https://gitlab.example.org/workers/fake',
        revision: 'https://gitlab.example.org/workers/fake/-/commit/123412deadbeef',
        version: 3,
      },
    ]);
  });

  it('leaves out every row of another project', () => {
    const everything = Object.keys(FORMAT)
      .filter((table) => table !== 'export_version' && table !== 'image_server')
      .flatMap((table) =>
        (rows(exported, table) as Record<string, unknown>[]).map((row) => JSON.stringify(row)),
      )
      .join('\n');
    for (const foreign of [
      ids['Other page']!,
      tr.other!,
      ent.otherType!,
      cls.other!,
      meta.other!,
      otherDatasetId,
      otherRun.id,
      otherRun.workerVersionId,
      'not exported',
      'Elsewhere',
      'Other worker',
    ]) {
      expect(everything).not.toContain(foreign);
    }
  });

  it('reports counts per table and a progress that climbs to 1', () => {
    expect(result).toEqual({
      elements: 7,
      elementPaths: 6,
      images: 2,
      imageServers: 2,
      transcriptions: 2,
      transcriptionEntities: 2,
      classifications: 2,
      metadata: 2,
      entityTypes: 2,
      datasets: 1,
      datasetElements: 3,
      workerVersions: 1,
      workerRuns: 1,
      stopped: false,
    });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    for (let i = 1; i < progress.length; i += 1) {
      expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!);
    }
  });

  it('gives the same ids to link and dataset rows when built again', async () => {
    const again = path.join(dir, 'again.sqlite');
    const app = t().app;
    await buildSqliteExport({ db: app.db, dialect: app.dialect }, corpusId, again, {
      origin: ORIGIN,
    });
    const second = new BetterSqlite3(again, { readonly: true });
    try {
      for (const table of ['element_path', 'dataset_element']) {
        expect(rows(second, table), table).toEqual(rows(exported, table));
      }
    } finally {
      second.close();
    }
  });

  it('stops when asked, leaving no file behind', async () => {
    const stoppedFile = path.join(dir, 'stopped.sqlite');
    const app = t().app;
    const stopped = await buildSqliteExport(
      { db: app.db, dialect: app.dialect },
      corpusId,
      stoppedFile,
      { origin: ORIGIN, shouldStop: () => true },
    );
    expect(stopped.stopped).toBe(true);
    expect(fs.existsSync(stoppedFile)).toBe(false);
    expect(fs.readdirSync(dir).filter((name) => name.includes('stopped'))).toEqual([]);
  });

  it('refuses to guess the URL of images Folia serves, leaving no file behind', async () => {
    const noOrigin = path.join(dir, 'no-origin.sqlite');
    const app = t().app;
    await expect(
      buildSqliteExport({ db: app.db, dialect: app.dialect }, corpusId, noOrigin),
    ).rejects.toThrow(/origin/);
    expect(fs.readdirSync(dir).filter((name) => name.includes('no-origin'))).toEqual([]);
  });
});
