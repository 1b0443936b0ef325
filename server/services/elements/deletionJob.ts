/**
 * The background job behind large deletions. It reads its target again when it runs, so it
 * deletes what matches then (elements created meanwhile under a deleted folder go too).
 *
 * A server stopped or killed in the middle re-queues it and the job resumes: deletionIds goes
 * deepest first, so what a run cut short left is still in place under its roots, and running
 * again from the target deletes the rest. The count deleted commits with each chunk, so the
 * result of a resumed job counts every element it deleted, across runs.
 * Importing this module registers the job kind.
 */
import { defineJob } from '../../jobs/queue';
import {
  DELETE_ELEMENTS_JOB,
  deleteElementIds,
  deletionIds,
  rootsForTarget,
  type DeletionPayload,
} from './delete';

interface DeletionCheckpoint {
  deleted: number;
}

defineJob<DeletionPayload>(
  DELETE_ELEMENTS_JOB,
  async ({ app, payload, progress, shouldStop, resumed, checkpoint }) => {
    const before = (resumed as DeletionCheckpoint | null)?.deleted ?? 0;
    const roots = await rootsForTarget(app.db, payload.target);
    if (!roots) return { deleted: before, total: before };
    const ids = await deletionIds(app.db, roots, payload.deleteChildren);
    const total = before + ids.length;
    const deleted = await deleteElementIds(app.db, ids, {
      progress: (fraction) => progress((before + fraction * ids.length) / total),
      shouldStop,
      record: (trx, count) => checkpoint({ deleted: before + count }, trx),
    });
    return { deleted: before + deleted, total };
  },
  { retryOnRestart: true },
);
