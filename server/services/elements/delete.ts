/**
 * Deleting elements: one element (DestroyElement), the filtered elements of a project
 * (DestroyElements) or of a parent (DestroyElementChildren). A deletion starts from root
 * elements; with children, the descendants that no element outside the deletion still holds go
 * too, while a descendant with another parent stays. Small deletions run at once; above
 * SYNC_DELETE_LIMIT elements they are a background job (deletionJob.ts).
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db';
import type { Database, Job } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import { QueryReader, readElementFilters } from './filters';
import { filteredElements } from './lists';
import {
  chunks,
  INSERT_CHUNK,
  MAX_DEPTH,
  parentIdsOf,
  refreshTopLevel,
  touchChildren,
} from './repository';

export const DELETE_ELEMENTS_JOB = 'delete_elements';
/** Above this many elements a deletion is a job and the API answers 202. */
export const SYNC_DELETE_LIMIT = 100;

/** The root elements, as a query of their ids. */
export type RootsQuery = SelectQueryBuilder<Database, 'elements', { id: string }>;

/** The root ids and every descendant (WITH RECURSIVE prefix shared by the queries below). */
function treeCte(roots: RootsQuery) {
  return sql`
    roots(id) AS (SELECT r.id FROM ${roots} AS r),
    tree(id, depth) AS (
      SELECT id, 0 FROM roots
      UNION
      SELECT element_links.child_id, tree.depth + 1
      FROM element_links JOIN tree ON element_links.parent_id = tree.id
      WHERE tree.depth < ${MAX_DEPTH}
    )`;
}

/**
 * At most `limit` ids among the roots and their descendants: a cheap upper bound on a
 * deletion's size, since both databases stop walking once the limit is reached.
 */
export async function boundedTreeSize(db: Db, roots: RootsQuery, limit: number): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE ${treeCte(roots)}
    SELECT id FROM tree LIMIT ${limit}`.execute(db);
  return new Set(rows.map((row) => row.id)).size;
}

/**
 * The ids a deletion removes. Without children: the roots. With children: the roots and their
 * descendants, except those still held by a parent outside the deletion and, under them,
 * whatever they hold (a kept element keeps its own children); deepest first, so that a
 * deletion cut short between two chunks has removed leaves only: what is left is still where
 * it was, under its parents, and deleting again from the same roots finishes the work.
 */
export async function deletionIds(
  db: Db,
  roots: RootsQuery,
  deleteChildren: boolean,
): Promise<string[]> {
  if (!deleteChildren) {
    const rows = await roots.execute();
    return [...new Set(rows.map((row) => row.id))];
  }
  // NOT EXISTS rather than NOT IN: PostgreSQL turns it into an anti-join, where NOT IN over a
  // subquery larger than work_mem is checked row by row (minutes for 100,000 elements).
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE ${treeCte(roots)},
    seeds(id) AS (
      SELECT DISTINCT tree.id FROM tree
      WHERE NOT EXISTS (SELECT 1 FROM roots WHERE roots.id = tree.id)
        AND EXISTS (
          SELECT 1 FROM element_links
          WHERE element_links.child_id = tree.id
            AND NOT EXISTS (SELECT 1 FROM tree AS t2 WHERE t2.id = element_links.parent_id)
        )
    ),
    kept(id) AS (
      SELECT id FROM seeds
      UNION
      SELECT element_links.child_id
      FROM element_links JOIN kept ON element_links.parent_id = kept.id
      WHERE NOT EXISTS (SELECT 1 FROM roots WHERE roots.id = element_links.child_id)
    )
    SELECT id FROM tree WHERE NOT EXISTS (SELECT 1 FROM kept WHERE kept.id = tree.id)
    GROUP BY id ORDER BY MAX(depth) DESC, id`.execute(db);
  return rows.map((row) => row.id);
}

export interface DeleteProgress {
  /** Called after each chunk with the share done, 0 to 1. */
  progress?(fraction: number): Promise<void>;
  /** Checked between chunks; true stops the deletion where it is. */
  shouldStop?(): Promise<boolean>;
  /** Runs in each chunk's transaction with the count deleted so far, to commit with it. */
  record?(trx: Db, deleted: number): Promise<void>;
}

/**
 * Deletes these elements (their links, transcriptions, classifications and metadata go with
 * them by ON DELETE CASCADE) and moves the Last-Modified of the parents that remain. One
 * transaction per chunk, so a long deletion shows progress and can stop between chunks.
 * Returns how many were deleted.
 */
export async function deleteElementIds(
  db: Db,
  ids: readonly string[],
  hooks: DeleteProgress = {},
): Promise<number> {
  const deleted = new Set(ids);
  let done = 0;
  for (const part of chunks(ids, INSERT_CHUNK)) {
    if (await hooks.shouldStop?.()) break;
    await db.transaction().execute(async (trx) => {
      const parents = (await parentIdsOf(trx, part)).filter((id) => !deleted.has(id));
      const children = await trx
        .selectFrom('element_links')
        .select('child_id')
        .where('parent_id', 'in', part)
        .execute();
      await touchChildren(trx, parents);
      await trx.deleteFrom('elements').where('id', 'in', part).execute();
      // Children that stay may have lost their last parent with this chunk.
      await refreshTopLevel(
        trx,
        children.map((row) => row.child_id).filter((id) => !deleted.has(id)),
      );
      await hooks.record?.(trx, done + part.length);
    });
    done += part.length;
    await hooks.progress?.(done / ids.length);
  }
  return done;
}

/** What a deletion job works on, stored as its payload and read again when it runs. */
export type DeletionTarget =
  | { kind: 'element'; elementId: string }
  | { kind: 'corpus'; corpusId: string; query: Record<string, string> }
  | { kind: 'children'; parentId: string; query: Record<string, string> };

export interface DeletionPayload {
  target: DeletionTarget;
  deleteChildren: boolean;
}

/**
 * The roots of a deletion as a query, read again from the stored target when a job runs (the
 * filters were valid when it was enqueued; a type deleted since then fails the job with the
 * filter's message). Null when the element named is gone.
 */
export async function rootsForTarget(db: Db, target: DeletionTarget): Promise<RootsQuery | null> {
  if (target.kind === 'element') {
    return db
      .selectFrom('elements')
      .select('elements.id')
      .where('elements.id', '=', target.elementId);
  }
  const reader = new QueryReader(target.query);
  if (target.kind === 'corpus') {
    const filters = await readElementFilters(db, target.corpusId, reader, { topLevel: true });
    reader.throwIfInvalid();
    return filteredElements(db, { kind: 'corpus', corpusId: target.corpusId }, filters).select(
      'elements.id',
    );
  }
  const parent = await db
    .selectFrom('elements')
    .select('corpus_id')
    .where('id', '=', target.parentId)
    .executeTakeFirst();
  if (!parent) return null;
  const recursive = reader.boolean('recursive') ?? false;
  const filters = await readElementFilters(db, parent.corpus_id, reader, { topLevel: false });
  reader.throwIfInvalid();
  return filteredElements(
    db,
    { kind: 'children', parentId: target.parentId, recursive },
    filters,
  ).select('elements.id');
}

export type DeletionOutcome = { deleted: number } | { job: Job };

async function fitsSyncLimit(
  db: Db,
  roots: RootsQuery,
  deleteChildren: boolean,
  rootCount: number | undefined,
): Promise<boolean> {
  if (rootCount !== undefined && rootCount > SYNC_DELETE_LIMIT) return false;
  if (deleteChildren) {
    return (await boundedTreeSize(db, roots, SYNC_DELETE_LIMIT + 1)) <= SYNC_DELETE_LIMIT;
  }
  if (rootCount !== undefined) return true;
  return (await roots.limit(SYNC_DELETE_LIMIT + 1).execute()).length <= SYNC_DELETE_LIMIT;
}

/**
 * Deletes at once when at most SYNC_DELETE_LIMIT elements go (`rootCount` lets a caller that
 * counted its roots skip a query), else enqueues the job that will.
 */
export async function deleteOrSchedule(
  db: Db,
  roots: RootsQuery,
  job: { payload: DeletionPayload; description: string; userId: string; corpusId: string },
  rootCount?: number,
): Promise<DeletionOutcome> {
  const { deleteChildren } = job.payload;
  if (await fitsSyncLimit(db, roots, deleteChildren, rootCount)) {
    const ids = await deletionIds(db, roots, deleteChildren);
    // The walk's bound counts an element reached twice once per depth; the exact set decides.
    if (ids.length <= SYNC_DELETE_LIMIT) return { deleted: await deleteElementIds(db, ids) };
  }
  return {
    job: await enqueueJob(db, {
      kind: DELETE_ELEMENTS_JOB,
      description: job.description,
      userId: job.userId,
      corpusId: job.corpusId,
      payload: job.payload,
    }),
  };
}
