/**
 * The element lists as SQL: a scope (a corpus, the children or parents of an element, an
 * image), the filters, an order. One COUNT and one page query per page, both using the indexes
 * of migration 0003: (corpus_id, name|type_id|created) for corpus lists, (parent_id, position)
 * and (child_id) for the hierarchy. Recursive scopes walk element_links with WITH RECURSIVE,
 * which SQLite and PostgreSQL both run.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { isSqlite, type Db } from '../../db';
import type { Database } from '../../db/schema';
import type { PageSource } from '../../pagination';
import type { CorpusIds } from '../../permissions';
import { filterConditions, nameIndexCondition, type ElementFilters } from './filters';
import type { ElementOrder, OrderDirection } from './listOptions';
import { imageSelection, MAX_DEPTH, type ElementRow } from './repository';

export type ListScope =
  | { kind: 'corpus'; corpusId: string }
  | { kind: 'children'; parentId: string; recursive: boolean }
  | { kind: 'parents'; childId: string; recursive: boolean }
  | { kind: 'image'; imageId: string; corpusIds: CorpusIds };

type ElementQuery = SelectQueryBuilder<Database, 'elements', object>;

/**
 * The elements of a hierarchy scope as a derived table `scope(id, depth, position)`: depth 1
 * for direct links; recursive walks keep, for an element reached by several paths, its
 * shallowest depth and lowest position.
 */
function hierarchyTable(scope: Extract<ListScope, { kind: 'children' | 'parents' }>) {
  const down = scope.kind === 'children';
  const id = down ? scope.parentId : scope.childId;
  const [from, to] = down ? ['parent_id', 'child_id'] : ['child_id', 'parent_id'];
  const fromRef = sql.ref(`element_links.${from}`);
  const toRef = sql.ref(`element_links.${to}`);
  if (!scope.recursive) {
    return sql<{ id: string; depth: number; position: number }>`(
      SELECT ${toRef} AS id, 1 AS depth, element_links.position AS position
      FROM element_links WHERE ${fromRef} = ${id})`;
  }
  return sql<{ id: string; depth: number; position: number }>`(
    WITH RECURSIVE walk(id, depth, position) AS (
      SELECT ${toRef}, 1, element_links.position FROM element_links WHERE ${fromRef} = ${id}
      UNION
      SELECT ${toRef}, walk.depth + 1, element_links.position
      FROM element_links JOIN walk ON ${fromRef} = walk.id
      WHERE walk.depth < ${MAX_DEPTH}
    )
    SELECT id, MIN(depth) AS depth, MIN(position) AS position FROM walk GROUP BY id)`;
}

/** `elements` restricted to the scope; hierarchy scopes join the derived table `scope`. */
export function scopedElements(db: Db, scope: ListScope): ElementQuery {
  const elements = db.selectFrom('elements');
  switch (scope.kind) {
    case 'corpus':
      return elements.where('elements.corpus_id', '=', scope.corpusId);
    case 'image':
      return elements
        .where('elements.image_id', '=', scope.imageId)
        .where('elements.corpus_id', 'in', scope.corpusIds as string[]);
    default:
      // The derived table's columns are reached through sql.ref below, so the builder keeps
      // the plain `elements` type whatever the scope.
      return elements.innerJoin(hierarchyTable(scope).as('scope'), (join) =>
        join.onRef(sql.ref<string>('scope.id') as never, '=', 'elements.id'),
      ) as unknown as ElementQuery;
  }
}

export function filteredElements(db: Db, scope: ListScope, filters: ElementFilters): ElementQuery {
  const byNameIndex =
    filters.name !== undefined && isSqlite(db) ? nameIndexCondition(filters.name) : null;
  return scopedElements(db, scope).where((eb) =>
    eb.and([...filterConditions(eb, filters), ...(byNameIndex ? [byNameIndex] : [])]),
  );
}

export interface OrderSpec {
  order: ElementOrder;
  direction: OrderDirection;
}

function ordered<O>(
  query: SelectQueryBuilder<Database, 'elements' | 'element_types' | 'users' | 'images', O>,
  scope: ListScope,
  { order, direction }: OrderSpec,
) {
  // The id last makes the order total, so pages never repeat or skip an element.
  switch (order) {
    case 'random':
      return query.orderBy(sql`random()`);
    case 'created':
      return query.orderBy('elements.created', direction).orderBy('elements.id', direction);
    case 'position': {
      const hierarchy = scope.kind === 'children' || scope.kind === 'parents';
      if (!hierarchy) return query.orderBy('elements.name', direction);
      let byPosition = query;
      if (scope.recursive) byPosition = byPosition.orderBy(sql.ref('scope.depth'), direction);
      return byPosition
        .orderBy(sql.ref('scope.position'), direction)
        .orderBy('elements.id', direction);
    }
    default:
      return query.orderBy('elements.name', direction).orderBy('elements.id', direction);
  }
}

const isHierarchy = (
  scope: ListScope,
): scope is Extract<ListScope, { kind: 'children' | 'parents' }> =>
  scope.kind === 'children' || scope.kind === 'parents';

/**
 * The order's columns, as SQL and as the names they have in a page's rows: what a keyset page
 * continues after. Null for the random order, which has no place to continue from.
 */
function keyColumns(scope: ListScope, { order }: OrderSpec) {
  const id = { ref: sql.ref('elements.id'), name: 'id' };
  if (order === 'random') return null;
  if (order === 'created') return [{ ref: sql.ref('elements.created'), name: 'created' }, id];
  if (order === 'position' && isHierarchy(scope)) {
    const position = { ref: sql.ref('scope.position'), name: 'scope_position' };
    const depth = { ref: sql.ref('scope.depth'), name: 'scope_depth' };
    return scope.recursive ? [depth, position, id] : [position, id];
  }
  return [{ ref: sql.ref('elements.name'), name: 'name' }, id];
}

/** The page query: the rows with their type and creator, in order. */
export function elementPageQuery(
  db: Db,
  scope: ListScope,
  filters: ElementFilters,
  order: OrderSpec,
) {
  const query = filteredElements(db, scope, filters)
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .leftJoin('users', 'users.id', 'elements.creator_id')
    .leftJoin('images', 'images.id', 'elements.image_id')
    .selectAll('elements')
    .select([
      'element_types.slug as type_slug',
      'element_types.folder as type_folder',
      'users.email as creator_email',
      ...imageSelection,
    ])
    // A hierarchy's place of each row, for the next page's cursor.
    .$if(isHierarchy(scope), (q) =>
      q.select([
        sql<number>`scope.position`.as('scope_position'),
        sql<number>`scope.depth`.as('scope_depth'),
      ]),
    );
  return ordered(query, scope, order);
}

export function elementCountQuery(db: Db, scope: ListScope, filters: ElementFilters) {
  return filteredElements(db, scope, filters).select((eb) => eb.fn.countAll().as('count'));
}

export async function countElements(
  db: Db,
  scope: ListScope,
  filters: ElementFilters,
): Promise<number> {
  const unfiltered = Object.values(filters).every((value) => value === undefined);
  if (unfiltered && scope.kind !== 'corpus' && scope.kind !== 'image' && !scope.recursive) {
    // Every link names an existing element (foreign keys): the links alone are counted, in the
    // index on (parent_id, position) or (child_id), with no row of `elements` read.
    const column = scope.kind === 'children' ? 'parent_id' : 'child_id';
    const id = scope.kind === 'children' ? scope.parentId : scope.childId;
    const links = await db
      .selectFrom('element_links')
      .select((eb) => eb.fn.countAll().as('count'))
      .where(column, '=', id)
      .executeTakeFirst();
    return Number(links?.count ?? 0);
  }
  const row = await elementCountQuery(db, scope, filters).executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function elementRowSource(
  db: Db,
  scope: ListScope,
  filters: ElementFilters,
  order: OrderSpec,
): PageSource<ElementRow> {
  const columns = keyColumns(scope, order);
  const after = order.direction === 'desc' ? sql.raw('<') : sql.raw('>');
  return {
    count: () => countElements(db, scope, filters),
    fetch: ({ limit, offset }) =>
      elementPageQuery(db, scope, filters, order).limit(limit).offset(offset).execute(),
    keyset: columns
      ? {
          size: columns.length,
          keyOf: (row) =>
            columns.map(({ name }) => {
              const value = (row as unknown as Record<string, unknown>)[name];
              // PostgreSQL's MIN() of integers comes back as a string of digits.
              return typeof value === 'number' ? value : String(value);
            }),
          fetchAfter: (key, limit) =>
            elementPageQuery(db, scope, filters, order)
              // A row value comparison: the order's columns after the key's, in one condition
              // both databases read as a range on the order's index.
              .where(
                sql<boolean>`(${sql.join(columns.map((c) => c.ref))}) ${after} (${sql.join(key)})`,
              )
              .limit(limit)
              .execute(),
        }
      : undefined,
  };
}
