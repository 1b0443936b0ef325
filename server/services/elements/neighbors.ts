/**
 * ListElementNeighbors: for each path from a top-level element down to the element, its
 * position under the last parent and the siblings before and after it there. A top-level
 * element has one entry, with an empty path, among the project's top-level elements by name.
 */
import type { Db } from '../../db';
import type { Element } from '../../db/schema';
import { chunks, INSERT_CHUNK, selfAndAncestorIds } from './repository';

export interface ElementRef {
  id: string;
  type: string;
  name: string;
}

export interface NeighborsJson {
  path: ElementRef[];
  ordering: number | null;
  previous: ElementRef | null;
  next: ElementRef | null;
}

/** Enough for any real hierarchy; a pathological one stops listing paths there. */
const MAX_PATHS = 50;

async function refsById(db: Db, ids: string[]): Promise<Map<string, ElementRef>> {
  const refs = new Map<string, ElementRef>();
  for (const part of chunks([...new Set(ids)], INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('elements')
      .innerJoin('element_types', 'element_types.id', 'elements.type_id')
      .select(['elements.id', 'elements.name', 'element_types.slug as type'])
      .where('elements.id', 'in', part)
      .execute();
    for (const row of rows) refs.set(row.id, row);
  }
  return refs;
}

/** Every path of parent ids from a top-level element down to `id` (excluded). */
function pathsTo(id: string, parentsOf: Map<string, string[]>, depth = 0): string[][] {
  const parents = parentsOf.get(id) ?? [];
  if (parents.length === 0 || depth > 100) return [[]];
  const paths: string[][] = [];
  for (const parent of parents) {
    for (const path of pathsTo(parent, parentsOf, depth + 1)) {
      paths.push([...path, parent]);
      if (paths.length >= MAX_PATHS) return paths;
    }
  }
  return paths;
}

async function sibling(
  db: Db,
  parentId: string,
  position: number,
  childId: string,
  direction: 'previous' | 'next',
): Promise<string | null> {
  const before = direction === 'previous';
  const row = await db
    .selectFrom('element_links')
    .select('child_id')
    .where('parent_id', '=', parentId)
    .where((eb) =>
      eb.or([
        eb('position', before ? '<' : '>', position),
        eb.and([eb('position', '=', position), eb('child_id', before ? '<' : '>', childId)]),
      ]),
    )
    .orderBy('position', before ? 'desc' : 'asc')
    .orderBy('child_id', before ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.child_id ?? null;
}

async function topLevelSibling(
  db: Db,
  element: Element,
  direction: 'previous' | 'next',
): Promise<string | null> {
  const before = direction === 'previous';
  const row = await db
    .selectFrom('elements')
    .select('elements.id')
    .where('elements.corpus_id', '=', element.corpus_id)
    .where((eb) =>
      eb.and([
        eb.or([
          eb('elements.name', before ? '<' : '>', element.name),
          eb.and([
            eb('elements.name', '=', element.name),
            eb('elements.id', before ? '<' : '>', element.id),
          ]),
        ]),
        eb('elements.top_level', '=', 1),
      ]),
    )
    .orderBy('elements.name', before ? 'desc' : 'asc')
    .orderBy('elements.id', before ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function elementNeighbors(db: Db, element: Element): Promise<NeighborsJson[]> {
  const lineage = [...(await selfAndAncestorIds(db, element.id))];
  const links = [];
  for (const part of chunks(lineage, INSERT_CHUNK)) {
    links.push(
      ...(await db
        .selectFrom('element_links')
        .select(['parent_id', 'child_id', 'position'])
        .where('child_id', 'in', part)
        .orderBy('position')
        .orderBy('parent_id')
        .execute()),
    );
  }
  const parentsOf = new Map<string, string[]>();
  for (const link of links) {
    parentsOf.set(link.child_id, [...(parentsOf.get(link.child_id) ?? []), link.parent_id]);
  }
  const own = links.filter((link) => link.child_id === element.id);

  if (own.length === 0) {
    const [previous, next] = await Promise.all([
      topLevelSibling(db, element, 'previous'),
      topLevelSibling(db, element, 'next'),
    ]);
    const refs = await refsById(
      db,
      [previous, next].filter((id): id is string => !!id),
    );
    return [
      {
        path: [],
        ordering: null,
        previous: previous ? (refs.get(previous) ?? null) : null,
        next: next ? (refs.get(next) ?? null) : null,
      },
    ];
  }

  const entries = await Promise.all(
    own.map(async (link) => {
      const [previous, next] = await Promise.all([
        sibling(db, link.parent_id, link.position, element.id, 'previous'),
        sibling(db, link.parent_id, link.position, element.id, 'next'),
      ]);
      const paths = pathsTo(link.parent_id, parentsOf).map((path) => [...path, link.parent_id]);
      return { link, previous, next, paths };
    }),
  );
  const refs = await refsById(db, [
    ...lineage,
    ...entries.flatMap((entry) => [entry.previous, entry.next]).filter((id): id is string => !!id),
  ]);
  const ref = (id: string | null) => (id ? (refs.get(id) ?? null) : null);
  return entries.flatMap((entry) =>
    entry.paths.map((path) => ({
      path: path.map((id) => ref(id)).filter((r): r is ElementRef => !!r),
      ordering: entry.link.position,
      previous: ref(entry.previous),
      next: ref(entry.next),
    })),
  );
}
