/**
 * Writes the search documents of elements (migration 0019): one per searchable text of the
 * element: its name, each transcription, metadata value, classification (its class name) and
 * transcription entity (its text in the transcription). The words are `tokenize`'s, the same
 * folded words the query parser and the offline index use: SQLite stores them in search_fts
 * (rowid = the document's id), PostgreSQL in a tsvector built here with their positions —
 * never to_tsvector, whose parser splits words its own way.
 *
 * Writers of documents hold the index lock (PostgreSQL: a transaction-level advisory lock of the
 * schema; SQLite writes one transaction at a time anyway), so two server processes never
 * rewrite the same element at once.
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Db, Dialect } from '../../db';
import type { Database, SearchDocumentTable, SearchSource } from '../../db/schema';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import { tokenize } from '../../../src/lib/search/fold';

export interface SearchHandle {
  db: Db;
  dialect: Dialect;
}

/** Elements rewritten per transaction. */
export const INDEX_BATCH = 500;

/** PostgreSQL refuses lexemes longer than this many bytes; such a "word" is not searchable. */
const MAX_LEXEME_BYTES = 2046;
/** PostgreSQL positions stop here: later words share the last position. */
const MAX_POSITION = 16383;
/** PostgreSQL keeps at most this many positions of one word. */
const MAX_POSITIONS = 256;
/**
 * A tsvector holds less than 1 MB: a text with more distinct words than fit (hundreds of
 * thousands) keeps its first ones, so the document is still written.
 */
const MAX_TSVECTOR_BYTES = 900_000;

type Trx = Transaction<Database>;

export interface SearchDocument {
  corpus_id: string;
  source: SearchSource;
  item_id: string;
  element_id: string;
  type_id: string;
  worker_run_id: string | null;
  ml_class_id: string | null;
  metadata_name: string | null;
  entity_type_id: string | null;
  confidence: number | null;
  text: string;
}

/**
 * The text of an entity: `length` characters from `offset` in its transcription, both counted
 * in Unicode code points as the entities API counts them (services/entities.ts).
 */
export function entityText(text: string, offset: number, length: number): string {
  return Array.from(text)
    .slice(offset, offset + length)
    .join('');
}

/** The tsvector literal of a text: each folded word quoted, with its positions from 1. */
export function tsvectorLiteral(tokens: readonly string[]): string {
  const positions = new Map<string, number[]>();
  let bytes = 0;
  tokens.forEach((token, index) => {
    const list = positions.get(token);
    const position = Math.min(index + 1, MAX_POSITION);
    if (!list) {
      const size = Buffer.byteLength(token);
      // Each word: its bytes, an entry of 4 bytes, a count and its positions of 2 bytes each.
      if (size > MAX_LEXEME_BYTES || bytes + size + 8 > MAX_TSVECTOR_BYTES) return;
      bytes += size + 8;
      positions.set(token, [position]);
    } else if (
      list[list.length - 1] !== position &&
      list.length < MAX_POSITIONS &&
      bytes + 2 <= MAX_TSVECTOR_BYTES
    ) {
      list.push(position);
      bytes += 2;
    }
  });
  return [...positions]
    .map(
      ([token, list]) => `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}':${list.join(',')}`,
    )
    .join(' ');
}

/** Takes the index lock for the rest of the transaction (PostgreSQL; a no-op on SQLite). */
export async function lockIndex(trx: Trx, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ':search_index'))`.execute(
    trx,
  );
}

/** The documents the source tables give for these elements (at most INSERT_CHUNK of them). */
export async function readDocuments(
  db: Db,
  elementIds: readonly string[],
): Promise<SearchDocument[]> {
  if (elementIds.length === 0) return [];
  const ids = [...elementIds];
  const elements = await db
    .selectFrom('elements')
    .select(['id', 'corpus_id', 'type_id', 'name', 'worker_run_id'])
    .where('id', 'in', ids)
    .execute();
  if (elements.length === 0) return [];
  const byId = new Map(elements.map((element) => [element.id, element]));
  const present = [...byId.keys()];
  const [transcriptions, metadata, classifications, entities] = await Promise.all([
    db
      .selectFrom('transcriptions')
      .select(['id', 'element_id', 'text', 'confidence', 'worker_run_id'])
      .where('element_id', 'in', present)
      .execute(),
    db
      .selectFrom('metadata')
      .select(['id', 'element_id', 'name', 'value', 'worker_run_id'])
      .where('element_id', 'in', present)
      .execute(),
    db
      .selectFrom('classifications')
      .innerJoin('ml_classes', 'ml_classes.id', 'classifications.ml_class_id')
      .select([
        'classifications.id',
        'classifications.element_id',
        'classifications.ml_class_id',
        'classifications.confidence',
        'classifications.worker_run_id',
        'ml_classes.name',
      ])
      .where('classifications.element_id', 'in', present)
      .execute(),
    db
      .selectFrom('transcription_entities')
      .innerJoin('transcriptions', 'transcriptions.id', 'transcription_entities.transcription_id')
      .select([
        'transcription_entities.id',
        'transcriptions.element_id',
        'transcriptions.text',
        'transcription_entities.offset',
        'transcription_entities.length',
        'transcription_entities.type_id',
        'transcription_entities.confidence',
        'transcription_entities.worker_run_id',
      ])
      .where('transcriptions.element_id', 'in', present)
      .execute(),
  ]);

  const documents: SearchDocument[] = [];
  const add = (
    elementId: string,
    source: SearchSource,
    itemId: string,
    text: string,
    extra: Partial<SearchDocument>,
  ) => {
    const element = byId.get(elementId);
    if (!element) return;
    documents.push({
      corpus_id: element.corpus_id,
      source,
      item_id: itemId,
      element_id: element.id,
      type_id: element.type_id,
      worker_run_id: null,
      ml_class_id: null,
      metadata_name: null,
      entity_type_id: null,
      confidence: null,
      text,
      ...extra,
    });
  };
  for (const element of elements) {
    add(element.id, 'element', element.id, element.name, { worker_run_id: element.worker_run_id });
  }
  for (const row of transcriptions) {
    add(row.element_id, 'transcription', row.id, row.text, {
      worker_run_id: row.worker_run_id,
      confidence: row.confidence,
    });
  }
  for (const row of metadata) {
    add(row.element_id, 'metadata', row.id, row.value, {
      worker_run_id: row.worker_run_id,
      metadata_name: row.name,
    });
  }
  for (const row of classifications) {
    add(row.element_id, 'classification', row.id, row.name, {
      worker_run_id: row.worker_run_id,
      ml_class_id: row.ml_class_id,
      confidence: row.confidence,
    });
  }
  for (const row of entities) {
    add(
      row.element_id,
      'transcription_entity',
      row.id,
      entityText(row.text, row.offset, row.length),
      {
        worker_run_id: row.worker_run_id,
        entity_type_id: row.type_id,
        confidence: row.confidence,
      },
    );
  }
  return documents;
}

/** Removes documents by id, with their words on SQLite. */
async function removeDocuments(trx: Trx, dialect: Dialect, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, INSERT_CHUNK)) {
    if (dialect === 'sqlite') {
      await trx.deleteFrom('search_fts').where('rowid', 'in', part).execute();
    }
    await trx.deleteFrom('search_documents').where('id', 'in', part).execute();
  }
}

/** Removes every document of one element (one left out of the index). */
export async function removeElementDocuments(
  trx: Trx,
  dialect: Dialect,
  elementId: string,
): Promise<void> {
  const rows = await trx
    .selectFrom('search_documents')
    .select('id')
    .where('element_id', '=', elementId)
    .execute();
  await removeDocuments(
    trx,
    dialect,
    rows.map((row) => Number(row.id)),
  );
}

const columns = (doc: SearchDocument): Insertable<SearchDocumentTable> => ({
  corpus_id: doc.corpus_id,
  source: doc.source,
  item_id: doc.item_id,
  element_id: doc.element_id,
  type_id: doc.type_id,
  worker_run_id: doc.worker_run_id,
  ml_class_id: doc.ml_class_id,
  metadata_name: doc.metadata_name,
  entity_type_id: doc.entity_type_id,
  confidence: doc.confidence,
});

async function insertDocuments(
  trx: Trx,
  dialect: Dialect,
  documents: readonly SearchDocument[],
): Promise<void> {
  for (const part of chunks(documents, INSERT_CHUNK)) {
    if (dialect === 'postgres') {
      await trx
        .insertInto('search_documents')
        .values(
          part.map((doc) => ({
            ...columns(doc),
            tsv: sql<string>`${tsvectorLiteral(tokenize(doc.text))}::tsvector`,
          })),
        )
        .execute();
      continue;
    }
    const inserted = await trx
      .insertInto('search_documents')
      .values(part.map(columns))
      .returning(['id', 'source', 'item_id'])
      .execute();
    const bodies = new Map(part.map((doc) => [`${doc.source}:${doc.item_id}`, doc.text]));
    await trx
      .insertInto('search_fts')
      .values(
        inserted.map((row) => ({
          rowid: row.id,
          body: tokenize(bodies.get(`${row.source}:${row.item_id}`) ?? '').join(' '),
        })),
      )
      .execute();
  }
}

/**
 * Rewrites the documents of these elements inside `trx`, which holds the index lock: their
 * old documents go (all of them, for an element deleted since), the source rows are read and
 * the new ones written. Also removes any document of the same items held by another element
 * (a transcription moved to another element). Returns how many documents were written.
 */
export async function rewriteDocuments(
  trx: Trx,
  dialect: Dialect,
  elementIds: readonly string[],
): Promise<number> {
  let written = 0;
  for (const part of chunks([...new Set(elementIds)], INSERT_CHUNK)) {
    const documents = await readDocuments(trx, part);
    const stale = new Set<number>();
    for (const row of await trx
      .selectFrom('search_documents')
      .select('id')
      .where('element_id', 'in', part)
      .execute()) {
      stale.add(Number(row.id));
    }
    // By (source, item_id), the unique index; an element's own document is found above.
    const itemsBySource = new Map<SearchSource, string[]>();
    for (const doc of documents) {
      if (doc.source === 'element') continue;
      const list = itemsBySource.get(doc.source) ?? [];
      list.push(doc.item_id);
      itemsBySource.set(doc.source, list);
    }
    for (const [source, itemIds] of itemsBySource) {
      for (const itemPart of chunks(itemIds, INSERT_CHUNK)) {
        for (const row of await trx
          .selectFrom('search_documents')
          .select('id')
          .where('source', '=', source)
          .where('item_id', 'in', itemPart)
          .where('element_id', 'not in', part)
          .execute()) {
          stale.add(Number(row.id));
        }
      }
    }
    await removeDocuments(trx, dialect, [...stale]);
    await insertDocuments(trx, dialect, documents);
    written += documents.length;
  }
  return written;
}

/**
 * indexElements: rewrites the documents of these elements from the source tables, one
 * transaction per INDEX_BATCH elements; elements deleted since lose theirs.
 */
export async function indexElements(
  handle: SearchHandle,
  elementIds: readonly string[],
): Promise<number> {
  let written = 0;
  for (const batch of chunks([...new Set(elementIds)], INDEX_BATCH)) {
    written += await handle.db.transaction().execute(async (trx) => {
      await lockIndex(trx, handle.dialect);
      return rewriteDocuments(trx, handle.dialect, batch);
    });
  }
  return written;
}
