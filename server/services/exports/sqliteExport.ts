/**
 * The Arkindex SQLite project export (format version 11, api part 2 §1): a new SQLite file
 * holding a project's elements, parent links, images and their servers, transcriptions and
 * their entities, classifications, metadata, entity types, datasets and the worker runs and
 * versions that made results, which `arkindex-export` and the tools built on it open.
 *
 * It streams: elements are read a page at a time (sqliteSource.ts) and each page, with all that
 * hangs on it, is written in one transaction of the export's own connection. Memory holds one
 * page, the project's element type slugs, its worker runs and its image servers. The file is
 * written beside its destination in rollback-journal mode (never WAL: arkindex-export opens it
 * without), with synchronous writes off and the journal in memory since a failed or stopped
 * export is thrown away whole; it is then synced to disk and renamed into place, so the
 * destination never holds half an export.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Image } from '../../db/schema';
import { imageJson } from '../images';
import {
  EXPORT_TABLES,
  EXPORT_VERSION,
  createTableSql,
  foreignKeyIndexSql,
  uniqueIndexSql,
} from './sqliteSchema';
import {
  countRows,
  datasetPager,
  elementPager,
  entityTypePager,
  pageRows,
  refreshStatistics,
  typeSlugs,
  workerRuns,
  type ElementRow,
  type PageRows,
  type SourceHandle,
} from './sqliteSource';

export interface SqliteExportOptions {
  /**
   * The origin of the IIIF URLs of the images Folia serves itself (FOLIA_PUBLIC_URL, or the
   * origin the export was asked from), as the API's image `url` uses it. Needed only when the
   * project has such images; remote images keep their own URL.
   */
  origin?: string;
  /** Called after each page with the share of rows written, from 0 to 1. */
  onProgress?: (fraction: number) => Promise<void> | void;
  /** Asked after each page; true stops the export and removes its partial file. */
  shouldStop?: () => Promise<boolean> | boolean;
}

/** Rows written per table of the export. */
export interface SqliteExportCounts {
  elements: number;
  elementPaths: number;
  images: number;
  imageServers: number;
  transcriptions: number;
  transcriptionEntities: number;
  classifications: number;
  metadata: number;
  entityTypes: number;
  datasets: number;
  datasetElements: number;
  workerVersions: number;
  workerRuns: number;
}

export interface SqliteExportResult extends SqliteExportCounts {
  /** True when shouldStop ended it early: no file was written then. */
  stopped: boolean;
}

const COUNTED_TABLES: Record<keyof SqliteExportCounts, string> = {
  elements: 'element',
  elementPaths: 'element_path',
  images: 'image',
  imageServers: 'image_server',
  transcriptions: 'transcription',
  transcriptionEntities: 'transcription_entity',
  classifications: 'classification',
  metadata: 'metadata',
  entityTypes: 'entity_type',
  datasets: 'dataset',
  datasetElements: 'dataset_element',
  workerVersions: 'worker_version',
  workerRuns: 'worker_run',
};

export const SQLITE_EXPORT_MESSAGES = {
  noOrigin: 'The export needs the server origin for the images Folia serves itself.',
} as const;

/** Dates are REAL UNIX timestamps in the export; Folia keeps ISO-8601 text. */
export function unixTime(iso: string): number {
  return Date.parse(iso) / 1000;
}

/**
 * A stable UUID for a row Folia keys by a pair of ids (an element's link to a parent, an element
 * in a dataset set): the same export run twice gives the same ids. Name-based (version 5 layout).
 */
export function pairUuid(kind: string, a: string, b: string): string {
  const hex = createHash('sha1').update(`${kind}\n${a}\n${b}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `5${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

class ExportStopped extends Error {}

/** The export file being written and its prepared inserts. */
class ExportWriter {
  readonly db: BetterSqlite3.Database;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** Image server URL → its integer id. */
  private readonly servers = new Map<string, number>();
  /** Images whose URL another image of the export already has → that image's id. */
  private readonly sameUrl = new Map<string, string>();
  private imageByUrl: BetterSqlite3.Statement | undefined;

  constructor(file: string) {
    this.db = new BetterSqlite3(file);
    this.db.pragma('journal_mode = MEMORY');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma('cache_size = -16000');
    for (const table of EXPORT_TABLES) this.db.exec(createTableSql(table));
    for (const table of EXPORT_TABLES) for (const text of uniqueIndexSql(table)) this.db.exec(text);
    this.insert('export_version', [EXPORT_VERSION]);
  }

  /** INSERT (or INSERT OR IGNORE) of one row, values in the table's column order. */
  insert(table: string, values: unknown[], verb = 'INSERT'): BetterSqlite3.RunResult {
    const key = `${verb} ${table}`;
    let statement = this.statements.get(key);
    if (!statement) {
      const columns = EXPORT_TABLES.find((t) => t.name === table)!.columns;
      statement = this.db.prepare(
        `${verb} INTO "${table}" (${columns.map((c) => `"${c.name}"`).join(', ')}) ` +
          `VALUES (${columns.map(() => '?').join(', ')})`,
      );
      this.statements.set(key, statement);
    }
    return statement.run(...values);
  }

  /** Records an image once (with its server, new ones numbered from 1), as the API shows it. */
  image(image: Image, origin: string | undefined): void {
    if (!image.url && origin === undefined) throw new Error(SQLITE_EXPORT_MESSAGES.noOrigin);
    const json = imageJson(image, (origin ?? '').replace(/\/+$/, ''));
    let serverId = this.servers.get(json.server.url);
    if (serverId === undefined) {
      serverId = this.servers.size + 1;
      this.servers.set(json.server.url, serverId);
      this.insert('image_server', [
        serverId,
        json.server.url,
        json.server.display_name,
        json.server.max_width,
        json.server.max_height,
        2,
      ]);
    }
    const written = this.insert(
      'image',
      [image.id, serverId, json.url, image.width, image.height],
      'INSERT OR IGNORE',
    );
    if (written.changes === 0) {
      // Either written with an earlier page, or another image has the same URL (image.url is
      // unique in the format): elements of this one then point at that one.
      this.imageByUrl ??= this.db.prepare('SELECT id FROM image WHERE url = ?');
      const holder = this.imageByUrl.get(json.url) as { id: string } | undefined;
      if (holder && holder.id !== image.id) this.sameUrl.set(image.id, holder.id);
    }
  }

  imageId(id: string | null): string | null {
    return id === null ? null : (this.sameUrl.get(id) ?? id);
  }

  /**
   * Removes rows whose foreign key points at nothing: an element deleted while the export read
   * the pages after it may leave a link or a result behind. Repeated, since a removed row may be
   * another's parent.
   */
  dropDanglingRows(): void {
    for (let round = 0; round < EXPORT_TABLES.length; round += 1) {
      const broken = this.db.pragma('foreign_key_check') as { table: string; rowid: number }[];
      if (broken.length === 0) return;
      for (const { table, rowid } of broken) {
        this.db.prepare(`DELETE FROM "${table}" WHERE rowid = ?`).run(rowid);
      }
    }
  }

  counts(): SqliteExportCounts {
    const counts = {} as SqliteExportCounts;
    for (const [key, table] of Object.entries(COUNTED_TABLES)) {
      const row = this.db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number };
      counts[key as keyof SqliteExportCounts] = row.n;
    }
    return counts;
  }
}

function writePage(
  writer: ExportWriter,
  elements: readonly ElementRow[],
  rows: PageRows,
  slugs: ReadonlyMap<string, string>,
  runs: ReadonlySet<string>,
  origin: string | undefined,
): void {
  const run = (id: string | null) => (id !== null && runs.has(id) ? id : null);
  for (const image of rows.images) writer.image(image, origin);
  for (const element of elements) {
    const imageId = writer.imageId(element.image_id);
    writer.insert('element', [
      element.id,
      unixTime(element.created),
      unixTime(element.updated),
      element.name,
      slugs.get(element.type_id) ?? element.type_id,
      imageId,
      imageId === null ? null : element.polygon,
      element.rotation_angle,
      element.mirrored,
      element.confidence,
      run(element.worker_run_id),
    ]);
  }
  for (const link of rows.links) {
    writer.insert('element_path', [
      pairUuid('element_path', link.parent_id, link.child_id),
      link.parent_id,
      link.child_id,
      link.position,
    ]);
  }
  for (const t of rows.transcriptions) {
    writer.insert('transcription', [
      t.id,
      t.element_id,
      t.text,
      t.confidence,
      t.orientation,
      run(t.worker_run_id),
    ]);
  }
  for (const e of rows.entities) {
    writer.insert('transcription_entity', [
      e.id,
      e.transcription_id,
      e.type_id,
      e.offset,
      e.length,
      e.confidence,
      run(e.worker_run_id),
    ]);
  }
  for (const c of rows.classifications) {
    writer.insert('classification', [
      c.id,
      c.element_id,
      c.class_name,
      c.state,
      c.moderator,
      // The format requires a confidence; Arkindex gives manual classifications 1.0.
      c.confidence ?? 1,
      c.high_confidence,
      run(c.worker_run_id),
    ]);
  }
  for (const m of rows.metadata) {
    writer.insert('metadata', [m.id, m.element_id, m.name, m.type, m.value, run(m.worker_run_id)]);
  }
  for (const d of rows.datasetElements) {
    writer.insert('dataset_element', [
      pairUuid('dataset_element', d.set_id, d.element_id),
      d.dataset_id,
      d.element_id,
      d.set_name,
    ]);
  }
}

const pageSize = (elements: readonly ElementRow[], rows: PageRows) =>
  elements.length +
  rows.links.length +
  rows.transcriptions.length +
  rows.entities.length +
  rows.classifications.length +
  rows.metadata.length +
  rows.datasetElements.length;

/** Fills the export: worker runs, entity types, datasets, then the elements page by page. */
async function fill(
  writer: ExportWriter,
  handle: SourceHandle,
  corpusId: string,
  options: SqliteExportOptions,
): Promise<void> {
  const { db } = handle;
  const checkStop = async () => {
    if (options.shouldStop && (await options.shouldStop())) throw new ExportStopped();
  };
  await refreshStatistics(handle);
  const total = await countRows(db, corpusId);
  const slugs = await typeSlugs(db, corpusId);

  const { runs, versions } = await workerRuns(db, corpusId);
  writer.db.transaction(() => {
    for (const v of versions) {
      writer.insert('worker_version', [
        v.id,
        v.slug.slice(0, 100),
        v.name,
        v.type,
        v.repository_url,
        v.revision_url,
        v.version,
      ]);
    }
    for (const r of runs) {
      writer.insert('worker_run', [
        r.id,
        r.worker_version_id,
        r.model_version_id,
        r.model_id,
        r.model_name,
        r.configuration_id,
        r.configuration,
      ]);
    }
  })();
  const runIds = new Set(runs.map((r) => r.id));

  for (const next = entityTypePager(db, corpusId); ;) {
    const page = await next();
    if (page.length === 0) break;
    writer.db.transaction(() => {
      for (const type of page) writer.insert('entity_type', [type.id, type.name, type.color]);
    })();
  }
  for (const next = datasetPager(db, corpusId); ;) {
    const page = await next();
    if (page.length === 0) break;
    writer.db.transaction(() => {
      for (const d of page) {
        writer.insert('dataset', [d.id, d.name, d.description, d.state, d.sets.join(',')]);
      }
    })();
  }
  await checkStop();

  let done = 0;
  for (const next = elementPager(handle, corpusId); ;) {
    const elements = await next();
    if (elements.length === 0) break;
    const rows = await pageRows(db, corpusId, elements);
    writer.db.transaction(() => writePage(writer, elements, rows, slugs, runIds, options.origin))();
    done += pageSize(elements, rows);
    // Rows added while the export runs may take it past the count made first.
    await options.onProgress?.(Math.min(0.99, done / Math.max(1, total)));
    await checkStop();
    await yieldToEventLoop();
  }

  for (const table of EXPORT_TABLES) {
    for (const text of foreignKeyIndexSql(table)) writer.db.exec(text);
  }
  writer.dropDanglingRows();
}

/**
 * Writes the export of a project to `filePath` (replacing what is there once it is complete)
 * and returns the rows written per table.
 */
export async function buildSqliteExport(
  handle: SourceHandle,
  corpusId: string,
  filePath: string,
  options: SqliteExportOptions = {},
): Promise<SqliteExportResult> {
  const temp = path.join(
    path.dirname(filePath),
    `.${path.basename(filePath)}.${process.pid}.${randomUUID().slice(0, 8)}.partial`,
  );
  let writer: ExportWriter | undefined;
  try {
    writer = new ExportWriter(temp);
    await fill(writer, handle, corpusId, options);
    const counts = writer.counts();
    writer.db.close();
    const fd = fs.openSync(temp, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, filePath);
    await options.onProgress?.(1);
    return { ...counts, stopped: false };
  } catch (error) {
    const counts = error instanceof ExportStopped && writer?.db.open ? writer.counts() : null;
    if (writer?.db.open) writer.db.close();
    fs.rmSync(temp, { force: true });
    if (counts) return { ...counts, stopped: true };
    throw error;
  }
}
