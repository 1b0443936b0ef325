/**
 * The background job behind imports from the app: it plans and runs an import of a folder the
 * server can read. Importing this module registers the job kind. An import of uploaded files
 * belongs to a files process: its task follows the job.
 */
import fs from 'node:fs/promises';
import { defineJob } from '../jobs/queue';
import { runImport, type ImportTarget } from './execute';
import { emptyReport } from './report';
import {
  importTaskEnded,
  importTaskStarted,
  importTaskStopWanted,
  reportLines,
} from '../services/filesProcess';
import { logLine } from '../services/tasks/logs';

export const IMPORT_JOB = 'import';

export interface ImportJobPayload extends ImportTarget {
  /** A file or folder on the server. */
  source: string;
  /** Removed once the import ends, whatever its outcome (a staging folder of uploads). */
  removeSourceAfter?: boolean;
  /** The task of the files process this import runs, if any. */
  taskId?: string;
}

defineJob<ImportJobPayload>(IMPORT_JOB, async ({ app, job, payload, progress, shouldStop }) => {
  const { taskId } = payload;
  if (taskId && (await importTaskStopWanted(app.db, taskId))) {
    // Stopped before it ran: nothing is imported, not even the folder.
    if (payload.removeSourceAfter) await fs.rm(payload.source, { recursive: true, force: true });
    return { ...emptyReport(), stopped: true };
  }
  if (taskId) await importTaskStarted(app.db, taskId);
  // A stop asked on the task stops the import as a stop asked on the job does.
  const stopWanted = taskId
    ? async () => (await shouldStop()) || (await importTaskStopWanted(app.db, taskId))
    : shouldStop;
  try {
    const report = await runImport(
      { db: app.db, dataDir: app.config.dataDir, jpegQuality: app.config.iiifJpegQuality },
      payload.source,
      payload,
      { progress, shouldStop: stopWanted },
    );
    if (taskId) {
      const askedToStop =
        (await importTaskStopWanted(app.db, taskId)) ||
        (
          await app.db
            .selectFrom('jobs')
            .select('stop_requested')
            .where('id', '=', job.id)
            .executeTakeFirst()
        )?.stop_requested === 1;
      // Cut short by a shutdown rather than by a person: the job ends in error, so does the task.
      const state = !report.stopped ? 'completed' : askedToStop ? 'stopped' : 'error';
      await importTaskEnded(app.db, app.dialect, taskId, state, reportLines(report));
    }
    return report;
  } catch (error) {
    if (taskId) {
      const message = error instanceof Error ? error.message : String(error);
      await importTaskEnded(app.db, app.dialect, taskId, 'failed', logLine(message));
    }
    throw error;
  } finally {
    if (payload.removeSourceAfter) await fs.rm(payload.source, { recursive: true, force: true });
  }
});
