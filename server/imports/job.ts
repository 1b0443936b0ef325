/**
 * The background job behind imports from the app: it plans and runs an import of a folder the
 * server can read. Importing this module registers the job kind.
 */
import fs from 'node:fs/promises';
import { defineJob } from '../jobs/queue';
import { runImport, type ImportTarget } from './execute';

export const IMPORT_JOB = 'import';

export interface ImportJobPayload extends ImportTarget {
  /** A file or folder on the server. */
  source: string;
  /** Removed once the import ends, whatever its outcome (a staging folder of uploads). */
  removeSourceAfter?: boolean;
}

defineJob<ImportJobPayload>(IMPORT_JOB, async ({ app, payload, progress, shouldStop }) => {
  try {
    return await runImport({ db: app.db, dataDir: app.config.dataDir }, payload.source, payload, {
      progress,
      shouldStop,
    });
  } finally {
    if (payload.removeSourceAfter) await fs.rm(payload.source, { recursive: true, force: true });
  }
});
