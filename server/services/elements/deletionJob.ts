/**
 * The background job behind large deletions. It reads its target again when it runs, so it
 * deletes what matches then (elements created meanwhile under a deleted folder go too).
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

defineJob<DeletionPayload>(DELETE_ELEMENTS_JOB, async ({ app, payload, progress, shouldStop }) => {
  const roots = await rootsForTarget(app.db, payload.target);
  if (!roots) return { deleted: 0 };
  const ids = await deletionIds(app.db, roots, payload.deleteChildren);
  const deleted = await deleteElementIds(app.db, ids, { progress, shouldStop });
  return { deleted, total: ids.length };
});
