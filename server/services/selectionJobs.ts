/**
 * The background jobs of the selection's bulk actions (selectionBulk.ts). Importing this module
 * registers their kinds.
 *
 * Crash safety: each batch of elements changes in one transaction that also stores the job's
 * checkpoint, so a server killed mid-way leaves every element either where it was or where it
 * goes, never half-moved, and the checkpoint says exactly which. The runner re-queues the job at
 * restart (retryOnRestart) and it resumes after the last committed batch.
 *
 * What was checked when the call was made may no longer hold when the job runs: each batch reads
 * the folder's ancestors again and skips elements that are gone or that would hang from
 * themselves; a folder deleted meanwhile ends the job in error, with what it did so far.
 */
import type { Db } from '../db';
import { defineJob, type JobContext } from '../jobs/queue';
import { deleteElementIds, deletionIds } from './elements/delete';
import { moveUnder } from './elements/links';
import { appendLinks, chunks, selfAndAncestorIds } from './elements/repository';

export const DELETE_SELECTION_JOB = 'delete_selection';
export const MOVE_SELECTION_JOB = 'move_selection';
export const LINK_SELECTION_JOB = 'link_selection';

/**
 * Elements per transaction of a move or link: small enough to stop and show progress often, large
 * enough that the fixed cost of a transaction and its checkpoint stays small (100 took 2.5× as
 * long as 500 for 10,000 elements).
 */
export const LINK_BATCH = 500;

export const TARGET_GONE = 'The destination folder no longer exists.';

export interface SelectionDeletePayload {
  corpusId: string;
  ids: string[];
  deleteChildren: boolean;
}

export interface SelectionLinkPayload {
  corpusId: string;
  targetId: string;
  ids: string[];
}

/** How far a move or link got: `done` ids of the payload were handled, in order. */
export interface LinkCheckpoint {
  done: number;
  /** Elements moved or linked. */
  changed: number;
  /** Elements gone, or that the change would have put under themselves. */
  skipped: number;
}

interface DeleteCheckpoint {
  deleted: number;
}

defineJob<SelectionDeletePayload>(
  DELETE_SELECTION_JOB,
  async ({ app, payload, progress, shouldStop, resumed, checkpoint }) => {
    const before = (resumed as DeleteCheckpoint | null)?.deleted ?? 0;
    // Read again: what a run cut short deleted is gone from the roots and the tree below them.
    const roots = app.db
      .selectFrom('elements')
      .select('elements.id')
      .where('elements.id', 'in', payload.ids)
      .where('elements.corpus_id', '=', payload.corpusId);
    const ids = await deletionIds(app.db, roots, payload.deleteChildren);
    const total = before + ids.length;
    const deleted = await deleteElementIds(app.db, ids, {
      progress: (fraction) => progress((before + fraction * ids.length) / Math.max(1, total)),
      shouldStop,
      record: (trx, count) => checkpoint({ deleted: before + count }, trx),
    });
    return { deleted: before + deleted, total };
  },
  { retryOnRestart: true },
);

/**
 * One batch: the ids still in the project, minus those the target hangs from (they would hang
 * from themselves), then the change itself.
 */
async function linkBatch(
  trx: Db,
  payload: SelectionLinkPayload,
  part: string[],
  change: (trx: Db, ids: string[]) => Promise<void>,
): Promise<number> {
  const target = await trx
    .selectFrom('elements')
    .select('id')
    .where('id', '=', payload.targetId)
    .where('corpus_id', '=', payload.corpusId)
    .executeTakeFirst();
  if (!target) throw new Error(TARGET_GONE);
  const above = await selfAndAncestorIds(trx, payload.targetId);
  const present = await trx
    .selectFrom('elements')
    .select('id')
    .where('id', 'in', part)
    .where('corpus_id', '=', payload.corpusId)
    .execute();
  const kept = new Set(present.map((row) => row.id));
  const ids = part.filter((id) => kept.has(id) && !above.has(id));
  await change(trx, ids);
  return ids.length;
}

async function runLinkJob(
  { app, payload, progress, shouldStop, resumed, checkpoint }: JobContext<SelectionLinkPayload>,
  change: (trx: Db, ids: string[]) => Promise<void>,
): Promise<LinkCheckpoint> {
  let state: LinkCheckpoint = (resumed as LinkCheckpoint | null) ?? {
    done: 0,
    changed: 0,
    skipped: 0,
  };
  const total = payload.ids.length;
  for (const part of chunks(payload.ids.slice(state.done), LINK_BATCH)) {
    if (await shouldStop()) break;
    state = await app.db.transaction().execute(async (trx) => {
      const changed = await linkBatch(trx, payload, part, change);
      const next = {
        done: state.done + part.length,
        changed: state.changed + changed,
        skipped: state.skipped + part.length - changed,
      };
      await checkpoint(next, trx);
      return next;
    });
    await progress(state.done / Math.max(1, total));
  }
  return state;
}

defineJob<SelectionLinkPayload>(
  MOVE_SELECTION_JOB,
  (context) => runLinkJob(context, (trx, ids) => moveUnder(trx, ids, context.payload.targetId)),
  { retryOnRestart: true },
);

defineJob<SelectionLinkPayload>(
  LINK_SELECTION_JOB,
  (context) =>
    runLinkJob(context, async (trx, ids) => {
      if (ids.length === 0) return;
      // Already a child of the parent: nothing to add, and no second link to the same pair.
      const linked = await trx
        .selectFrom('element_links')
        .select('child_id')
        .where('parent_id', '=', context.payload.targetId)
        .where('child_id', 'in', ids)
        .execute();
      const known = new Set(linked.map((row) => row.child_id));
      await appendLinks(
        trx,
        ids
          .filter((id) => !known.has(id))
          .map((childId) => ({ parentId: context.payload.targetId, childId })),
      );
    }),
  { retryOnRestart: true },
);
