/**
 * SearchCorpus (search contract §3): the project's search documents matched by a parsed query
 * (compile.ts), narrowed by sources and facet filters, counted with every facet in one GROUP BY
 * pass, one page of 20 sorted by relevance or element name, and each hit of the page filled
 * with its element, parent, page, image and item in a few queries — whatever the page holds.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db';
import { workerRunSummaries } from '../workerRuns';
import { compileSearch, type SearchNode } from './compile';
import type { SearchHandle } from './indexer';
import {
  MANUAL,
  SEARCH_FACETS,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  type SearchFacetName,
  type SearchFacetValue,
  type SearchHit,
  type SearchSort,
  type SearchSource,
} from '../../../src/lib/search/api';

export {
  MANUAL,
  SEARCH_FACETS,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  type SearchHit,
  type SearchSort,
  type SearchSource,
};
/** A facet's name, as the route and this service call it. */
export type SearchFacet = SearchFacetName;
export type FacetValue = SearchFacetValue;

export interface SearchRequest {
  corpusId: string;
  tree: SearchNode;
  /** Empty: every source. */
  sources: SearchSource[];
  sort: SearchSort;
  /** Values OR'ed within a facet, facets AND'ed. */
  facets: Partial<Record<SearchFacet, string[]>>;
}

// ---------------------------------------------------------------------------------------------
// The filtered match set

interface MatchSet {
  from: RawBuilder<unknown>;
  where: RawBuilder<SqlBool>;
  /** The same without the facet filters: what each facet's own counts are taken from. */
  unfaceted: RawBuilder<SqlBool>;
  score: RawBuilder<number> | null;
  /**
   * SQLite mixed queries: the bm25 of every positive word, materialised once (as a plain
   * subquery SQLite would run the MATCH again for each document), for `rank_match.score`.
   */
  rankCte: RawBuilder<unknown> | null;
}

function facetFilters(request: SearchRequest): RawBuilder<SqlBool>[] {
  const { corpusId, facets } = request;
  const filters: RawBuilder<SqlBool>[] = [];
  const types = facets.element_type;
  if (types?.length) {
    filters.push(sql<SqlBool>`d.type_id in (select id from element_types
      where corpus_id = ${corpusId} and slug in (${sql.join(types)}))`);
  }
  const runs = facets.worker_run;
  if (runs?.length) {
    const ids = runs.filter((run) => run !== MANUAL);
    const parts: RawBuilder<SqlBool>[] = [];
    if (ids.length) parts.push(sql<SqlBool>`d.worker_run_id in (${sql.join(ids)})`);
    if (ids.length < runs.length) parts.push(sql<SqlBool>`d.worker_run_id is null`);
    filters.push(sql<SqlBool>`(${sql.join(parts, sql` or `)})`);
  }
  const classes = facets.classification_name;
  if (classes?.length) {
    filters.push(sql<SqlBool>`d.ml_class_id in (select id from ml_classes
      where corpus_id = ${corpusId} and name in (${sql.join(classes)}))`);
  }
  const metadataNames = facets.metadata_name;
  if (metadataNames?.length) {
    filters.push(sql<SqlBool>`d.metadata_name in (${sql.join(metadataNames)})`);
  }
  const entityTypes = facets.entity_type;
  if (entityTypes?.length) {
    filters.push(sql<SqlBool>`d.entity_type_id in (select id from entity_types
      where corpus_id = ${corpusId} and name in (${sql.join(entityTypes)}))`);
  }
  return filters;
}

function matchSet(handle: SearchHandle, request: SearchRequest): MatchSet {
  const compiled = compileSearch(handle.dialect, request.tree);
  const conditions: RawBuilder<SqlBool>[] = [
    compiled.where,
    sql<SqlBool>`d.corpus_id = ${request.corpusId}`,
  ];
  // Every source is the same as none named: no condition, so the planner is not misled.
  const sources = [...new Set(request.sources)];
  if (sources.length && sources.length < SEARCH_SOURCES.length) {
    conditions.push(sql<SqlBool>`d.source in (${sql.join(sources)})`);
  }
  const unfaceted = sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
  conditions.push(...facetFilters(request));
  const from = compiled.ftsJoin
    ? sql`search_fts join search_documents d on d.id = search_fts.rowid`
    : sql`search_documents d`;
  const rankCte = compiled.rankMatch
    ? sql`with rank_match as materialized (select rowid as rid, bm25(search_fts) as score
        from search_fts where search_fts match ${compiled.rankMatch})`
    : null;
  return {
    from,
    where: sql<SqlBool>`${sql.join(conditions, sql` and `)}`,
    unfaceted,
    score: compiled.score,
    rankCte,
  };
}

// ---------------------------------------------------------------------------------------------
// Count and facets, in one pass

interface GroupRow {
  type_id: string;
  worker_run_id: string | null;
  ml_class_id: string | null;
  metadata_name: string | null;
  entity_type_id: string | null;
  n: number | string;
}

function sortFacet(values: Map<string, FacetValue>): FacetValue[] {
  return [...values.values()].sort(
    (a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
}

type Labelled = { value: string; label: string };

function add(
  values: Map<string, FacetValue>,
  key: string | null,
  count: number,
  label: () => Labelled | null,
) {
  if (key === null) return;
  const found = values.get(key);
  if (found) {
    found.count += count;
    return;
  }
  const named = label();
  if (named) values.set(key, { ...named, count });
}

type FacetTest = (row: GroupRow) => boolean;

/**
 * Each facet filter as a test of a group of documents, its names (type slugs, class and entity
 * type names) resolved to the ids the documents hold.
 */
async function facetTests(
  db: Db,
  request: SearchRequest,
): Promise<Partial<Record<SearchFacet, FacetTest>>> {
  const { corpusId, facets } = request;
  const idsOf = async (
    table: 'element_types' | 'ml_classes' | 'entity_types',
    column: 'slug' | 'name',
    wanted: string[],
  ) => {
    const { rows } = await sql<{ id: string }>`select id from ${sql.table(table)}
      where corpus_id = ${corpusId} and ${sql.ref(column)} in (${sql.join(wanted)})`.execute(db);
    return new Set(rows.map((row) => row.id));
  };
  const tests: Partial<Record<SearchFacet, FacetTest>> = {};
  if (facets.element_type?.length) {
    const ids = await idsOf('element_types', 'slug', facets.element_type);
    tests.element_type = (row) => ids.has(row.type_id);
  }
  if (facets.worker_run?.length) {
    const runs = new Set(facets.worker_run);
    tests.worker_run = (row) => runs.has(row.worker_run_id ?? MANUAL);
  }
  if (facets.classification_name?.length) {
    const ids = await idsOf('ml_classes', 'name', facets.classification_name);
    tests.classification_name = (row) => row.ml_class_id !== null && ids.has(row.ml_class_id);
  }
  if (facets.metadata_name?.length) {
    const names = new Set(facets.metadata_name);
    tests.metadata_name = (row) => row.metadata_name !== null && names.has(row.metadata_name);
  }
  if (facets.entity_type?.length) {
    const ids = await idsOf('entity_types', 'name', facets.entity_type);
    tests.entity_type = (row) => row.entity_type_id !== null && ids.has(row.entity_type_id);
  }
  return tests;
}

/**
 * The count and the facets of a match set. A facet's own values are counted with every filter
 * but its own (the documents the other facets keep), as search pages do: ticking one element
 * type leaves the other types listed with their counts, so a second one can be ticked too.
 */
async function countAndFacets(
  handle: SearchHandle,
  set: MatchSet,
  request: SearchRequest,
): Promise<{ count: number; facets: Record<SearchFacet, FacetValue[]> }> {
  const { db } = handle;
  // The distinct combinations of facet columns are few (types × runs × names), however many
  // documents match: the count and the facets are summed from them here.
  const [{ rows }, tests] = await Promise.all([
    sql<GroupRow>`select d.type_id, d.worker_run_id, d.ml_class_id,
      d.metadata_name, d.entity_type_id, count(*) as n
    from ${set.from} where ${set.unfaceted}
    group by d.type_id, d.worker_run_id, d.ml_class_id, d.metadata_name, d.entity_type_id`.execute(
      db,
    ),
    facetTests(db, request),
  ]);
  const failing = (row: GroupRow) =>
    SEARCH_FACETS.filter((facet) => tests[facet] && !tests[facet](row));
  // Each group counts for the facets whose filter alone it fails, or for all when it fails none.
  const groups = rows
    .map((row) => ({ ...row, n: Number(row.n), failing: failing(row) }))
    .filter((row) => row.failing.length <= 1);
  const count = groups.reduce((sum, row) => sum + (row.failing.length ? 0 : row.n), 0);

  const ids = (pick: (row: GroupRow) => string | null) => [
    ...new Set(groups.map(pick).filter((id): id is string => id !== null)),
  ];
  const typeIds = ids((row) => row.type_id);
  const classIds = ids((row) => row.ml_class_id);
  const entityTypeIds = ids((row) => row.entity_type_id);
  const [types, classes, entityTypes, runs] = await Promise.all([
    typeIds.length
      ? db
          .selectFrom('element_types')
          .select(['id', 'slug', 'display_name'])
          .where('id', 'in', typeIds)
          .execute()
      : [],
    classIds.length
      ? db.selectFrom('ml_classes').select(['id', 'name']).where('id', 'in', classIds).execute()
      : [],
    entityTypeIds.length
      ? db
          .selectFrom('entity_types')
          .select(['id', 'name'])
          .where('id', 'in', entityTypeIds)
          .execute()
      : [],
    workerRunSummaries(
      db,
      groups.map((row) => row.worker_run_id),
    ),
  ]);
  const typeById = new Map(types.map((type) => [type.id, type]));
  const classById = new Map(classes.map((mlClass) => [mlClass.id, mlClass.name]));
  const entityTypeById = new Map(entityTypes.map((type) => [type.id, type.name]));

  const facetMaps = Object.fromEntries(
    SEARCH_FACETS.map((facet) => [facet, new Map<string, FacetValue>()]),
  ) as Record<SearchFacet, Map<string, FacetValue>>;
  for (const row of groups) {
    const counts = (facet: SearchFacet) => row.failing.length === 0 || row.failing[0] === facet;
    const bump = (facet: SearchFacet, key: string | null, label: () => Labelled | null) => {
      if (counts(facet)) add(facetMaps[facet], key, row.n, label);
    };
    bump('element_type', row.type_id, () => {
      const type = typeById.get(row.type_id);
      return type ? { value: type.slug, label: type.display_name } : null;
    });
    bump('worker_run', row.worker_run_id ?? MANUAL, () =>
      row.worker_run_id === null
        ? { value: MANUAL, label: 'Manual' }
        : {
            value: row.worker_run_id,
            label: runs.get(row.worker_run_id)?.summary ?? row.worker_run_id,
          },
    );
    bump('classification_name', row.ml_class_id, () => {
      const name = row.ml_class_id === null ? undefined : classById.get(row.ml_class_id);
      return name === undefined ? null : { value: name, label: name };
    });
    bump('metadata_name', row.metadata_name, () => ({
      value: row.metadata_name!,
      label: row.metadata_name!,
    }));
    bump('entity_type', row.entity_type_id, () => {
      const name = row.entity_type_id === null ? undefined : entityTypeById.get(row.entity_type_id);
      return name === undefined ? null : { value: name, label: name };
    });
  }
  const facets = Object.fromEntries(
    SEARCH_FACETS.map((facet) => [facet, sortFacet(facetMaps[facet])]),
  ) as Record<SearchFacet, FacetValue[]>;
  return { count, facets };
}

// ---------------------------------------------------------------------------------------------
// One page of documents

interface DocumentRow {
  source: SearchSource;
  item_id: string;
  element_id: string;
  worker_run_id: string | null;
}

async function pageDocuments(
  handle: SearchHandle,
  set: MatchSet,
  sort: SearchSort,
  limit: number,
  offset: number,
): Promise<DocumentRow[]> {
  let prefix: RawBuilder<unknown> = sql``;
  let joins: RawBuilder<unknown> = sql``;
  let order: RawBuilder<unknown>;
  if (sort === 'element_name') {
    joins = sql`join elements e on e.id = d.element_id`;
    order = sql`e.name, e.id, d.id`;
  } else if (set.score) {
    if (set.rankCte) {
      prefix = set.rankCte;
      joins = sql`left join rank_match on rank_match.rid = d.id`;
    }
    order = sql`${set.score} desc, d.id`;
  } else {
    order = sql`d.id`;
  }
  const { rows } = await sql<DocumentRow>`${prefix} select d.source, d.item_id, d.element_id,
      d.worker_run_id
    from ${set.from} ${joins} where ${set.where}
    order by ${order} limit ${limit} offset ${offset}`.execute(handle.db);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Hits

interface ElementInfo {
  id: string;
  name: string;
  image_id: string | null;
  polygon: string | null;
  type_slug: string;
  image_url: string | null;
}

function parsePolygon(text: string | null): [number, number][] | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as [number, number][];
  } catch {
    return null;
  }
}

/** The element's first parent, by link position then creation: `element_links` order. */
async function firstParents(db: Db, elementIds: string[]) {
  const rows = await db
    .selectFrom('element_links as l')
    .innerJoin('elements as p', 'p.id', 'l.parent_id')
    .innerJoin('element_types as t', 't.id', 'p.type_id')
    .select([
      'l.child_id',
      'l.position',
      'l.created',
      'p.id as parent_id',
      'p.name as parent_name',
      't.slug as parent_type',
    ])
    .where('l.child_id', 'in', elementIds)
    .orderBy('l.child_id')
    .orderBy('l.position')
    .orderBy('l.created')
    .orderBy('p.id')
    .execute();
  const parents = new Map<string, { id: string; name: string; type: string }>();
  for (const row of rows) {
    if (!parents.has(row.child_id)) {
      parents.set(row.child_id, {
        id: row.parent_id,
        name: row.parent_name,
        type: row.parent_type,
      });
    }
  }
  return parents;
}

/**
 * The element to open for each hit: its highest ancestor on the same image (a line opens its
 * page), else the element itself. One recursive query for the whole page.
 */
async function pageElements(
  db: Db,
  elements: Map<string, ElementInfo>,
): Promise<Map<string, { id: string; name: string }>> {
  const withImage = [...elements.values()].filter((element) => element.image_id);
  const pages = new Map<string, { id: string; name: string }>();
  if (withImage.length === 0) return pages;
  const ids = withImage.map((element) => element.id);
  const { rows } = await sql<{
    start_id: string;
    id: string;
    name: string;
    depth: number;
    image_id: string | null;
  }>`with recursive up(start_id, id, depth) as (
      select e.id, e.id, 0 from elements e where e.id in (${sql.join(ids)})
      union
      select up.start_id, l.parent_id, up.depth + 1
        from up join element_links l on l.child_id = up.id
        where up.depth < 64
    )
    select up.start_id, up.id, a.name, up.depth, a.image_id
      from up join elements a on a.id = up.id`.execute(db);
  const best = new Map<string, { id: string; name: string; depth: number }>();
  for (const row of rows) {
    const start = elements.get(row.start_id)!;
    if (row.image_id !== start.image_id) continue;
    const depth = Number(row.depth);
    const current = best.get(row.start_id);
    if (!current || depth > current.depth || (depth === current.depth && row.id < current.id)) {
      best.set(row.start_id, { id: row.id, name: row.name, depth });
    }
  }
  for (const [start, { id, name }] of best) pages.set(start, { id, name });
  return pages;
}

/** A transcription entity's text: its offset and length count code points, as entities.ts does. */
function entityText(text: string, offset: number, length: number): string {
  return Array.from(text)
    .slice(offset, offset + length)
    .join('');
}

async function buildHits(db: Db, documents: DocumentRow[], origin: string): Promise<SearchHit[]> {
  if (documents.length === 0) return [];
  const elementIds = [...new Set(documents.map((document) => document.element_id))];
  const itemsOf = (source: SearchSource) =>
    documents.filter((document) => document.source === source).map((document) => document.item_id);
  const transcriptionIds = itemsOf('transcription');
  const classificationIds = itemsOf('classification');
  const metadataIds = itemsOf('metadata');
  const entityIds = itemsOf('transcription_entity');

  const [elementRows, parents, transcriptions, classifications, metadata, entities] =
    await Promise.all([
      db
        .selectFrom('elements as e')
        .innerJoin('element_types as t', 't.id', 'e.type_id')
        .leftJoin('images as i', 'i.id', 'e.image_id')
        .select([
          'e.id',
          'e.name',
          'e.image_id',
          'e.polygon',
          't.slug as type_slug',
          'i.url as image_url',
        ])
        .where('e.id', 'in', elementIds)
        .execute(),
      firstParents(db, elementIds),
      transcriptionIds.length
        ? db
            .selectFrom('transcriptions')
            .select(['id', 'text', 'confidence'])
            .where('id', 'in', transcriptionIds)
            .execute()
        : [],
      classificationIds.length
        ? db
            .selectFrom('classifications as c')
            .innerJoin('ml_classes as m', 'm.id', 'c.ml_class_id')
            .select(['c.id', 'c.confidence', 'm.name'])
            .where('c.id', 'in', classificationIds)
            .execute()
        : [],
      metadataIds.length
        ? db
            .selectFrom('metadata')
            .select(['id', 'type', 'name', 'value'])
            .where('id', 'in', metadataIds)
            .execute()
        : [],
      entityIds.length
        ? db
            .selectFrom('transcription_entities as te')
            .innerJoin('transcriptions as tr', 'tr.id', 'te.transcription_id')
            .innerJoin('entity_types as et', 'et.id', 'te.type_id')
            .select(['te.id', 'te.offset', 'te.length', 'tr.text', 'et.name as type_name'])
            .where('te.id', 'in', entityIds)
            .execute()
        : [],
    ]);
  const elements = new Map(elementRows.map((row) => [row.id, row as ElementInfo]));
  const pages = await pageElements(db, elements);
  const transcriptionById = new Map(transcriptions.map((row) => [row.id, row]));
  const classificationById = new Map(classifications.map((row) => [row.id, row]));
  const metadataById = new Map(metadata.map((row) => [row.id, row]));
  const entityById = new Map(entities.map((row) => [row.id, row]));

  const hits: SearchHit[] = [];
  for (const document of documents) {
    const element = elements.get(document.element_id);
    // A document whose element went away after the flush: left out rather than half filled.
    if (!element) continue;
    const parent = parents.get(element.id) ?? null;
    const transcription =
      document.source === 'transcription' ? transcriptionById.get(document.item_id) : undefined;
    const classification =
      document.source === 'classification' ? classificationById.get(document.item_id) : undefined;
    const meta = document.source === 'metadata' ? metadataById.get(document.item_id) : undefined;
    const entity =
      document.source === 'transcription_entity' ? entityById.get(document.item_id) : undefined;
    if (document.source !== 'element' && !transcription && !classification && !meta && !entity) {
      continue;
    }
    hits.push({
      id: `${document.source}:${document.item_id}`,
      source: document.source,
      element_id: element.id,
      element_type: element.type_slug,
      element_text: element.name,
      element_image: element.image_id
        ? (element.image_url ?? `${origin}/iiif/${element.image_id}`)
        : null,
      element_polygon: parsePolygon(element.polygon),
      page_id: pages.get(element.id)?.id ?? element.id,
      page_name: pages.get(element.id)?.name ?? element.name,
      parent_id: parent?.id ?? null,
      parent_type: parent?.type ?? null,
      parent_name: parent?.name ?? null,
      worker_run_id: document.worker_run_id,
      transcription_id: transcription?.id ?? null,
      transcription_text: transcription?.text ?? null,
      transcription_confidence: transcription?.confidence ?? null,
      classification_id: classification?.id ?? null,
      classification_name: classification?.name ?? null,
      classification_confidence: classification?.confidence ?? null,
      metadata_id: meta?.id ?? null,
      metadata_type: meta?.type ?? null,
      metadata_name: meta?.name ?? null,
      metadata_text: meta?.value ?? null,
      transcription_entity_id: entity?.id ?? null,
      transcription_entity_text: entity
        ? entityText(entity.text, entity.offset, entity.length)
        : null,
      transcription_entity_type: entity?.type_name ?? null,
    });
  }
  return hits;
}

// ---------------------------------------------------------------------------------------------

export interface OpenSearch {
  count: number;
  facets: Record<SearchFacet, FacetValue[]>;
  /** The hits of one window of the match set, in the request's sort order. */
  fetch(window: { limit: number; offset: number }): Promise<SearchHit[]>;
}

/** Counts the matches and their facets; the route's paginator then fetches one page of hits. */
export async function openSearch(
  handle: SearchHandle,
  request: SearchRequest,
  origin: string,
): Promise<OpenSearch> {
  const set = matchSet(handle, request);
  const { count, facets } = await countAndFacets(handle, set, request);
  return {
    count,
    facets,
    fetch: async ({ limit, offset }) => {
      if (count === 0 || offset >= count) return [];
      const documents = await pageDocuments(handle, set, request.sort, limit, offset);
      return buildHits(handle.db, documents, origin);
    },
  };
}
