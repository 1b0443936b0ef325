/**
 * What the SQLite export reads from Folia's database, on SQLite and PostgreSQL alike. Elements
 * come a page at a time in keyset order; everything on them (parent links, transcriptions and
 * their entities, classifications, metadata, dataset memberships, images) is read for one page
 * of element ids through the element_id indexes, so no query ever returns a whole table and each
 * costs what the page holds, whatever the size of the project or of the database.
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../../db';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import type { Element, Image } from '../../db/schema';

export interface SourceHandle {
  db: Db;
  dialect: Dialect;
}

/** Elements per page. */
export const ELEMENT_PAGE = 1000;
/** Entity types and datasets per page. */
const SMALL_PAGE = 500;

export type ElementRow = Pick<
  Element,
  | 'id'
  | 'type_id'
  | 'name'
  | 'image_id'
  | 'polygon'
  | 'rotation_angle'
  | 'mirrored'
  | 'confidence'
  | 'worker_run_id'
  | 'created'
  | 'updated'
>;

const ELEMENT_COLUMNS = [
  'id',
  'type_id',
  'name',
  'image_id',
  'polygon',
  'rotation_angle',
  'mirrored',
  'confidence',
  'worker_run_id',
  'created',
  'updated',
] as const;

/**
 * The project's elements, a page at a time. On SQLite in rowid order, walking the table once:
 * no index holds a project's elements by id, and `order by id` would sort them all again for
 * each page (as the search reindex found). PostgreSQL walks its primary key.
 */
export function elementPager(handle: SourceHandle, corpusId: string): () => Promise<ElementRow[]> {
  if (handle.dialect === 'sqlite') {
    let lastRowid = 0;
    return async () => {
      const { rows } = await sql<ElementRow & { rid: number }>`select rowid as rid, id, type_id,
        name, image_id, polygon, rotation_angle, mirrored, confidence, worker_run_id, created,
        updated from elements where rowid > ${lastRowid} and corpus_id = ${corpusId}
        order by rowid limit ${ELEMENT_PAGE}`.execute(handle.db);
      if (rows.length > 0) lastRowid = rows[rows.length - 1]!.rid;
      return rows;
    };
  }
  let last: string | null = null;
  return async () => {
    let page = handle.db
      .selectFrom('elements')
      .select(ELEMENT_COLUMNS)
      .where('corpus_id', '=', corpusId)
      .orderBy('id')
      .limit(ELEMENT_PAGE);
    if (last !== null) page = page.where('id', '>', last);
    const rows = await page.execute();
    if (rows.length > 0) last = rows[rows.length - 1]!.id;
    return rows;
  };
}

/** Rows for many ids, asked a few hundred ids at a time (bound parameters are limited). */
async function byParts<T>(
  ids: readonly string[],
  fetch: (part: string[]) => Promise<T[]>,
): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunks(ids, INSERT_CHUNK)) out.push(...(await fetch(part)));
  return out;
}

/**
 * PostgreSQL plans the page queries from table statistics; tables just filled in bulk (an
 * import) have none until autovacuum comes, and then sort the whole project for each page of
 * elements and scan the links for each page of children. ANALYZE samples a bounded number of
 * rows, so it costs little whatever the size.
 */
export async function refreshStatistics(handle: SourceHandle): Promise<void> {
  if (handle.dialect !== 'postgres') return;
  for (const table of [
    'elements',
    'element_links',
    'transcriptions',
    'transcription_entities',
    'classifications',
    'metadata',
    'dataset_elements',
  ]) {
    await sql`analyze ${sql.table(table)}`.execute(handle.db);
  }
}

/** What the progress is measured against: the rows the element pages will write. */
export async function countRows(db: Db, corpusId: string): Promise<number> {
  const { rows } = await sql<Record<string, number | string>>`select
    (select count(*) from elements where corpus_id = ${corpusId}) as elements,
    (select count(*) from element_links l join elements c on c.id = l.child_id
      where c.corpus_id = ${corpusId}) as links,
    (select count(*) from transcriptions t join elements e on e.id = t.element_id
      where e.corpus_id = ${corpusId}) as transcriptions,
    (select count(*) from transcription_entities te
      join transcriptions t on t.id = te.transcription_id
      join elements e on e.id = t.element_id where e.corpus_id = ${corpusId}) as entities,
    (select count(*) from classifications c join elements e on e.id = c.element_id
      where e.corpus_id = ${corpusId}) as classifications,
    (select count(*) from metadata m join elements e on e.id = m.element_id
      where e.corpus_id = ${corpusId}) as metadata,
    (select count(*) from dataset_elements de join dataset_sets s on s.id = de.set_id
      join datasets d on d.id = s.dataset_id where d.corpus_id = ${corpusId}) as dataset_elements
  `.execute(db);
  return Object.values(rows[0] ?? {}).reduce<number>((sum, value) => sum + Number(value), 0);
}

/** Slugs of the project's element types by id (a project has a handful). */
export async function typeSlugs(db: Db, corpusId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('element_types')
    .select(['id', 'slug'])
    .where('corpus_id', '=', corpusId)
    .execute();
  return new Map(rows.map((row) => [row.id, row.slug]));
}

export interface WorkerRunRow {
  id: string;
  worker_version_id: string;
  model_version_id: string | null;
  model_id: string | null;
  model_name: string | null;
  configuration_id: string | null;
  configuration: string | null;
}

export interface WorkerVersionRow {
  id: string;
  slug: string;
  name: string;
  type: string;
  repository_url: string | null;
  revision_url: string | null;
  version: number | null;
}

/**
 * The worker runs the export holds: those of the project's processes and those that made any of
 * its results (a local run belongs to no project). A project has few, so they are kept in
 * memory; results pointing at a run that no longer exists lose the link rather than break it.
 */
export async function workerRuns(
  db: Db,
  corpusId: string,
): Promise<{ runs: WorkerRunRow[]; versions: WorkerVersionRow[] }> {
  const { rows } = await sql<{ id: string }>`
    select worker_run_id as id from elements
      where corpus_id = ${corpusId} and worker_run_id is not null
    union select t.worker_run_id from transcriptions t join elements e on e.id = t.element_id
      where e.corpus_id = ${corpusId} and t.worker_run_id is not null
    union select c.worker_run_id from classifications c join elements e on e.id = c.element_id
      where e.corpus_id = ${corpusId} and c.worker_run_id is not null
    union select m.worker_run_id from metadata m join elements e on e.id = m.element_id
      where e.corpus_id = ${corpusId} and m.worker_run_id is not null
    union select te.worker_run_id from transcription_entities te
      join transcriptions t on t.id = te.transcription_id join elements e on e.id = t.element_id
      where e.corpus_id = ${corpusId} and te.worker_run_id is not null
    union select wr.id from worker_runs wr join processes p on p.id = wr.process_id
      where p.corpus_id = ${corpusId}
  `.execute(db);
  const runs = await byParts(
    rows.map((row) => row.id),
    (part) =>
      db
        .selectFrom('worker_runs as wr')
        .leftJoin('model_versions as mv', 'mv.id', 'wr.model_version_id')
        .leftJoin('models as m', 'm.id', 'mv.model_id')
        .leftJoin('worker_configurations as wc', 'wc.id', 'wr.configuration_id')
        .select([
          'wr.id',
          'wr.worker_version_id',
          'mv.id as model_version_id',
          'm.id as model_id',
          'm.name as model_name',
          'wc.id as configuration_id',
          'wc.configuration',
        ])
        .where('wr.id', 'in', part)
        .orderBy('wr.id')
        .execute(),
  );
  const versions = await byParts([...new Set(runs.map((run) => run.worker_version_id))], (part) =>
    db
      .selectFrom('worker_versions as v')
      .innerJoin('workers as w', 'w.id', 'v.worker_id')
      .select(['v.id', 'w.slug', 'w.name', 'w.type', 'w.repository_url', 'v.revision_url'])
      .select('v.version')
      .where('v.id', 'in', part)
      .orderBy('v.id')
      .execute(),
  );
  return { runs, versions };
}

export interface EntityTypeRow {
  id: string;
  name: string;
  color: string;
}

/** The project's entity types, by pages of ids. */
export function entityTypePager(db: Db, corpusId: string): () => Promise<EntityTypeRow[]> {
  let last: string | null = null;
  return async () => {
    let page = db
      .selectFrom('entity_types')
      .select(['id', 'name', 'color'])
      .where('corpus_id', '=', corpusId)
      .orderBy('id')
      .limit(SMALL_PAGE);
    if (last !== null) page = page.where('id', '>', last);
    const rows = await page.execute();
    if (rows.length > 0) last = rows[rows.length - 1]!.id;
    return rows;
  };
}

export interface DatasetRow {
  id: string;
  name: string;
  description: string;
  state: string;
  /** Its set names in the order the API lists them (by name). */
  sets: string[];
}

/** The project's datasets with their set names, by pages of ids. */
export function datasetPager(db: Db, corpusId: string): () => Promise<DatasetRow[]> {
  let last: string | null = null;
  return async () => {
    let page = db
      .selectFrom('datasets')
      .select(['id', 'name', 'description', 'state'])
      .where('corpus_id', '=', corpusId)
      .orderBy('id')
      .limit(SMALL_PAGE);
    if (last !== null) page = page.where('id', '>', last);
    const rows = await page.execute();
    if (rows.length === 0) return [];
    last = rows[rows.length - 1]!.id;
    const sets = await db
      .selectFrom('dataset_sets')
      .select(['dataset_id', 'name'])
      .where(
        'dataset_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      ...row,
      sets: sets.filter((set) => set.dataset_id === row.id).map((set) => set.name),
    }));
  };
}

export interface PageRows {
  images: Image[];
  links: { parent_id: string; child_id: string; position: number }[];
  transcriptions: {
    id: string;
    element_id: string;
    text: string;
    confidence: number | null;
    orientation: string;
    worker_run_id: string | null;
  }[];
  entities: {
    id: string;
    transcription_id: string;
    type_id: string;
    offset: number;
    length: number;
    confidence: number | null;
    worker_run_id: string | null;
  }[];
  classifications: {
    id: string;
    element_id: string;
    class_name: string;
    state: string;
    moderator: string | null;
    confidence: number | null;
    high_confidence: number;
    worker_run_id: string | null;
  }[];
  metadata: {
    id: string;
    element_id: string;
    name: string;
    type: string;
    value: string;
    worker_run_id: string | null;
  }[];
  datasetElements: { set_id: string; dataset_id: string; element_id: string; set_name: string }[];
}

/** Everything on one page of elements: their images, parent links and results. */
export async function pageRows(
  db: Db,
  corpusId: string,
  elements: readonly ElementRow[],
): Promise<PageRows> {
  const ids = elements.map((element) => element.id);
  const imageIds = [
    ...new Set(elements.flatMap((element) => (element.image_id ? [element.image_id] : []))),
  ];
  const images = await byParts(imageIds, (part) =>
    db.selectFrom('images').selectAll().where('id', 'in', part).execute(),
  );
  // A parent in another project cannot be made through the API; such a link would dangle and
  // is dropped with the other dangling rows at the end. (Joining the parent here would let
  // SQLite walk the whole project for every page.)
  const links = await byParts(ids, (part) =>
    db
      .selectFrom('element_links')
      .select(['parent_id', 'child_id', 'position'])
      .where('child_id', 'in', part)
      .execute(),
  );
  const transcriptions = await byParts(ids, (part) =>
    db
      .selectFrom('transcriptions')
      .select(['id', 'element_id', 'text', 'confidence', 'orientation', 'worker_run_id'])
      .where('element_id', 'in', part)
      .execute(),
  );
  const entities = await byParts(
    transcriptions.map((transcription) => transcription.id),
    (part) =>
      db
        .selectFrom('transcription_entities')
        .select([
          'id',
          'transcription_id',
          'type_id',
          'offset',
          'length',
          'confidence',
          'worker_run_id',
        ])
        .where('transcription_id', 'in', part)
        .execute(),
  );
  const classifications = await byParts(ids, (part) =>
    db
      .selectFrom('classifications as c')
      .innerJoin('ml_classes as k', 'k.id', 'c.ml_class_id')
      .leftJoin('users as u', 'u.id', 'c.moderator_id')
      .select([
        'c.id',
        'c.element_id',
        'k.name as class_name',
        'c.state',
        'u.email as moderator',
        'c.confidence',
        'c.high_confidence',
        'c.worker_run_id',
      ])
      .where('c.element_id', 'in', part)
      .execute(),
  );
  const metadata = await byParts(ids, (part) =>
    db
      .selectFrom('metadata')
      .select(['id', 'element_id', 'name', 'type', 'value', 'worker_run_id'])
      .where('element_id', 'in', part)
      .execute(),
  );
  const datasetElements = await byParts(ids, (part) =>
    db
      .selectFrom('dataset_elements as de')
      .innerJoin('dataset_sets as s', 's.id', 'de.set_id')
      .innerJoin('datasets as d', 'd.id', 's.dataset_id')
      .select(['de.set_id', 's.dataset_id', 'de.element_id', 's.name as set_name'])
      .where('de.element_id', 'in', part)
      .where('d.corpus_id', '=', corpusId)
      .execute(),
  );
  return { images, links, transcriptions, entities, classifications, metadata, datasetElements };
}
