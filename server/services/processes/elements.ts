/**
 * The elements a workers process runs on (api part 2 §2.3). Sources: the rows of
 * process_elements (a copy of a selection) if any, else the process' element, else the
 * project's top-level elements; `load_children` adds their direct children or all their
 * descendants (without a source element or selection, `all` means every element of the
 * project); then type, name and class filters narrow them. Everything is one SQL query (a
 * recursive walk of element_links for `all`), so projects of tens of thousands of elements are
 * read in pages, never loaded whole.
 */
import {
  sql,
  type Expression,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';
import { MAX_DEPTH } from '../elements/repository';
import type { ProcessRow } from './rights';

type ElementQuery = SelectQueryBuilder<Database, 'elements', object>;

export type ElementFilterFields = Pick<
  ProcessRow,
  | 'id'
  | 'corpus_id'
  | 'element_id'
  | 'element_type'
  | 'element_name_contains'
  | 'load_children'
  | 'ml_class_id'
>;

/** `column LIKE %text%` whatever the case, with the text's own % and _ taken literally. */
function containsInsensitive(column: Expression<string>, text: string): Expression<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${column}) like lower(${pattern}) escape '\\'`;
}

function descendantsOf(sources: RawBuilder<{ id: string }>) {
  return sql<{ id: string }>`(
    WITH RECURSIVE walk(id, depth) AS (
      SELECT element_links.child_id, 1 FROM element_links
      WHERE element_links.parent_id IN ${sources}
      UNION
      SELECT element_links.child_id, walk.depth + 1
      FROM element_links JOIN walk ON element_links.parent_id = walk.id
      WHERE walk.depth < ${MAX_DEPTH}
    )
    SELECT id FROM walk)`;
}

/** Whether the process copies a selection: its process_elements rows are then the sources. */
export async function hasSelectionRows(db: Db, processId: string): Promise<boolean> {
  const row = await db
    .selectFrom('process_elements')
    .select('element_id')
    .where('process_id', '=', processId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The selected elements as a query on `elements`, unordered; null for a process of no project. */
export async function processElementsQuery(
  db: Db,
  process: ElementFilterFields,
): Promise<ElementQuery | null> {
  const corpusId = process.corpus_id;
  if (!corpusId) return null;
  const fromSelection = await hasSelectionRows(db, process.id);
  const sources = fromSelection
    ? sql<{
        id: string;
      }>`(SELECT element_id FROM process_elements WHERE process_id = ${process.id})`
    : process.element_id
      ? sql<{ id: string }>`(SELECT id FROM elements WHERE id = ${process.element_id})`
      : sql<{
          id: string;
        }>`(SELECT id FROM elements WHERE corpus_id = ${corpusId} AND top_level = 1)`;
  let query = db.selectFrom('elements').where('elements.corpus_id', '=', corpusId) as ElementQuery;
  const everything = !fromSelection && !process.element_id && process.load_children === 'all';
  if (!everything) {
    const direct = sql<{
      id: string;
    }>`(SELECT child_id FROM element_links WHERE parent_id IN ${sources})`;
    const inSources = sql<SqlBool>`elements.id IN ${sources}`;
    const condition =
      process.load_children === 'direct'
        ? sql<SqlBool>`(${inSources} OR elements.id IN ${direct})`
        : process.load_children === 'all'
          ? sql<SqlBool>`(${inSources} OR elements.id IN ${descendantsOf(sources)})`
          : inSources;
    query = query.where(condition);
  }
  if (process.element_type) {
    const slug = process.element_type;
    query = query.where('elements.type_id', 'in', (eb) =>
      eb
        .selectFrom('element_types')
        .select('element_types.id')
        .where('element_types.corpus_id', '=', corpusId)
        .where('element_types.slug', '=', slug),
    );
  }
  if (process.element_name_contains) {
    const text = process.element_name_contains;
    query = query.where(() => containsInsensitive(sql.ref('elements.name'), text));
  }
  if (process.ml_class_id) {
    const classId = process.ml_class_id;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('classifications')
          .select('classifications.id')
          .whereRef('classifications.element_id', '=', 'elements.id')
          .where('classifications.ml_class_id', '=', classId),
      ),
    );
  }
  return query;
}

export interface ElementRef {
  id: string;
  type: string;
}

/** Every selected element with its type slug, ordered by name then id (what start splits). */
export async function processElementRefs(
  db: Db,
  process: ElementFilterFields,
): Promise<ElementRef[]> {
  const query = await processElementsQuery(db, process);
  if (!query) return [];
  return query
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .select(['elements.id', 'element_types.slug as type'])
    .orderBy('elements.name')
    .orderBy('elements.id')
    .execute();
}
