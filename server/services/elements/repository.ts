/**
 * Plain reads and writes of elements and their links, with no rights checks: services call
 * these after permissions.ts has decided. Each function takes the Kysely handle or a
 * transaction first.
 *
 * Two columns of `elements` summarize its links and must follow every change of them:
 * `top_level` (no parent) and `children_updated` (the children list's Last-Modified). Write
 * links only through appendLinks / removeLinks here (or createElements), never directly.
 */
import { sql, type ColumnType } from 'kysely';
import { nowIso } from '../../clock';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import { reusedQuery } from '../../db/reusedQuery';
import type { Db } from '../../db';
import type { Element, Flag, Image } from '../../db/schema';

// Added by migration 0005_element_lists; declared here, next to the code that keeps it.
declare module '../../db/schema' {
  interface ElementTable {
    /** 1 when the element has no parent. */
    top_level: ColumnType<Flag, Flag | undefined, Flag>;
  }
}

/**
 * The columns of `images`, read with the elements of a page under `image__` names so a page
 * needs no second query for its images; the type check fails when the table gains a column.
 */
const IMAGE_COLUMNS = [
  'id',
  'corpus_id',
  'path',
  'url',
  'width',
  'height',
  'status',
  'mime',
  'hash',
  'created',
] as const satisfies readonly (keyof Image)[];
type MissingImageColumn = Exclude<keyof Image, (typeof IMAGE_COLUMNS)[number]>;
const everyImageColumn: [MissingImageColumn] extends [never] ? true : never = true;
void everyImageColumn;

type ImageColumns = {
  [K in (typeof IMAGE_COLUMNS)[number] as `image__${K}`]?: Image[K] | null;
};

/** What a select adds, joined to `images`, for imageOfRow to read. */
export const imageSelection = [
  'images.id as image__id',
  'images.corpus_id as image__corpus_id',
  'images.path as image__path',
  'images.url as image__url',
  'images.width as image__width',
  'images.height as image__height',
  'images.status as image__status',
  'images.mime as image__mime',
  'images.hash as image__hash',
  'images.created as image__created',
] as const satisfies readonly `images.${(typeof IMAGE_COLUMNS)[number]} as image__${string}`[];

/**
 * An element with what every answer shows next to it: its type and its creator's e-mail, and
 * its image when the query joined it (imageSelection).
 */
export interface ElementRow extends Element, ImageColumns {
  type_slug: string;
  type_folder: Flag;
  creator_email: string | null;
}

/** The image read with the row, or null when the query did not join it or it has none. */
export function imageOfRow(row: ElementRow): Image | null {
  if (!row.image__id) return null;
  const image = {} as Record<string, unknown>;
  for (const column of IMAGE_COLUMNS) image[column] = row[`image__${column}`];
  return image as unknown as Image;
}

/**
 * Beyond this, a chain of parents is a loop that should not exist; the walks stop there rather
 * than run forever on a damaged hierarchy.
 */
export const MAX_DEPTH = 100;

export { chunks, INSERT_CHUNK } from '../../db/chunks';

/** Elements by id, with type and creator, in the order of `ids` (missing ids are skipped). */
export async function elementRowsByIds(db: Db, ids: readonly string[]): Promise<ElementRow[]> {
  if (ids.length === 0) return [];
  const rows: ElementRow[] = [];
  for (const part of chunks([...new Set(ids)], INSERT_CHUNK)) {
    rows.push(
      ...(await db
        .selectFrom('elements')
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
        .where('elements.id', 'in', part)
        .execute()),
    );
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is ElementRow => !!row);
}

/** One element as its detail shows it: the row, and whether it has children and metadata. */
export interface ElementDetailRow extends ElementRow {
  has_child: number | null;
  metadata_count: number | string;
}

// One query where the detail used three: its children and metadata are counted beside it
// (built once: reusedQuery.ts).
const elementDetailRows = reusedQuery((db: Db, id: string) =>
  db
    .selectFrom('elements')
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .leftJoin('users', 'users.id', 'elements.creator_id')
    .leftJoin('images', 'images.id', 'elements.image_id')
    .selectAll('elements')
    .select((eb) => [
      'element_types.slug as type_slug',
      'element_types.folder as type_folder',
      'users.email as creator_email',
      ...imageSelection,
      // 1 when a link has it as parent, else null: the index answers without counting them all.
      eb
        .selectFrom('element_links')
        .select(sql<number>`1`.as('one'))
        .where('element_links.parent_id', '=', id)
        .limit(1)
        .as('has_child'),
      eb
        .selectFrom('metadata')
        .select((m) => m.fn.countAll().as('count'))
        .where('metadata.element_id', '=', id)
        .as('metadata_count'),
    ])
    .where('elements.id', '=', id),
);

export async function elementRowById(db: Db, id: string): Promise<ElementDetailRow | undefined> {
  const [row] = await elementDetailRows(db, id);
  return row as ElementDetailRow | undefined;
}

/**
 * Records that these parents' children changed (added, removed, moved, renamed, retyped): the
 * children list's Last-Modified.
 */
export async function touchChildren(db: Db, parentIds: Iterable<string>): Promise<void> {
  // Not bumpVersions: a list read in the second of its last change is announced as of the
  // second before (childrenLastModified), which keeps If-Modified-Since right without a bump.
  const now = nowIso();
  for (const part of chunks([...new Set(parentIds)], INSERT_CHUNK)) {
    await db
      .updateTable('elements')
      .set({ children_updated: now })
      .where('id', 'in', part)
      .execute();
  }
}

/** The parents of these elements' (one level up). */
export async function parentIdsOf(db: Db, childIds: readonly string[]): Promise<string[]> {
  const parents = new Set<string>();
  for (const part of chunks(childIds, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('element_links')
      .select('parent_id')
      .where('child_id', 'in', part)
      .execute();
    for (const row of rows) parents.add(row.parent_id);
  }
  return [...parents];
}

/** The position after the last child of each parent (0 for a parent without children). */
export async function nextPositions(
  db: Db,
  parentIds: readonly string[],
): Promise<Map<string, number>> {
  const next = new Map<string, number>(parentIds.map((id) => [id, 0]));
  for (const part of chunks([...new Set(parentIds)], INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('element_links')
      .select(['parent_id', (eb) => eb.fn.max('position').as('last')])
      .where('parent_id', 'in', part)
      .groupBy('parent_id')
      .execute();
    for (const row of rows) next.set(row.parent_id, Number(row.last) + 1);
  }
  return next;
}

/**
 * Adds each child as the last child of its parent. `childrenAreNew`: the children were just
 * inserted with top_level 0, so the flag needs no update.
 */
export async function appendLinks(
  db: Db,
  links: readonly { parentId: string; childId: string }[],
  { childrenAreNew = false }: { childrenAreNew?: boolean } = {},
): Promise<void> {
  if (links.length === 0) return;
  const next = await nextPositions(
    db,
    links.map((link) => link.parentId),
  );
  const created = nowIso();
  const rows = links.map(({ parentId, childId }) => {
    const position = next.get(parentId) ?? 0;
    next.set(parentId, position + 1);
    return { parent_id: parentId, child_id: childId, position, created };
  });
  for (const part of chunks(rows, INSERT_CHUNK)) {
    await db.insertInto('element_links').values(part).execute();
  }
  const children = childrenAreNew ? [] : [...new Set(links.map((link) => link.childId))];
  for (const part of chunks(children, INSERT_CHUNK)) {
    await db
      .updateTable('elements')
      .set({ top_level: 0 })
      .where('id', 'in', part)
      .where('top_level', '=', 1)
      .execute();
  }
  await touchChildren(
    db,
    links.map((link) => link.parentId),
  );
}

/** Sets top_level again from the links, for elements that may have lost their last parent. */
export async function refreshTopLevel(db: Db, ids: Iterable<string>): Promise<void> {
  for (const part of chunks([...new Set(ids)], INSERT_CHUNK)) {
    await db
      .updateTable('elements')
      .set((eb) => ({
        top_level: eb
          .case()
          .when(
            eb.exists(
              eb
                .selectFrom('element_links')
                .select('element_links.parent_id')
                .whereRef('element_links.child_id', '=', 'elements.id'),
            ),
          )
          .then(sql<Flag>`0`)
          .else(sql<Flag>`1`)
          .end(),
      }))
      .where('id', 'in', part)
      .execute();
  }
}

/**
 * Removes links (all of a child's parents when `parentId` is null) and updates both summaries:
 * the parents' children changed, and a child may have become top-level.
 */
export async function removeLinks(
  db: Db,
  childIds: readonly string[],
  parentId: string | null = null,
): Promise<number> {
  let removed = 0;
  for (const part of chunks(childIds, INSERT_CHUNK)) {
    const parents = parentId === null ? await parentIdsOf(db, part) : [parentId];
    let query = db.deleteFrom('element_links').where('child_id', 'in', part);
    if (parentId !== null) query = query.where('parent_id', '=', parentId);
    const result = await query.executeTakeFirst();
    removed += Number(result.numDeletedRows);
    await touchChildren(db, parents);
    await refreshTopLevel(db, part);
  }
  return removed;
}

/**
 * `id` and every ancestor of it, walking parent links up. Hierarchies are shallow (folder,
 * page, region, line), so this stays small whatever the project's size.
 */
export async function selfAndAncestorIds(db: Db, id: string): Promise<Set<string>> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE up(id, depth) AS (
      SELECT CAST(${id} AS text), 0
      UNION
      SELECT element_links.parent_id, up.depth + 1
      FROM element_links JOIN up ON element_links.child_id = up.id
      WHERE up.depth < ${MAX_DEPTH}
    )
    SELECT DISTINCT id FROM up`.execute(db);
  return new Set(rows.map((row) => row.id));
}

/** Whether `ancestor` is `id` itself or one of its ancestors: what a new link must not make. */
export async function isSelfOrAncestor(db: Db, ancestor: string, id: string): Promise<boolean> {
  return (await selfAndAncestorIds(db, id)).has(ancestor);
}
