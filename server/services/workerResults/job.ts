/**
 * The background job of DestroyWorkerResults. Deleting what matches is safe to repeat, so a job
 * cut short by a restart runs again from the start. Importing this module registers the kind.
 */
import { defineJob } from '../../jobs/queue';
import { DELETE_WORKER_RESULTS_JOB, deleteWorkerResults } from './delete';
import type { WorkerResultsPayload } from './filters';

defineJob<WorkerResultsPayload>(
  DELETE_WORKER_RESULTS_JOB,
  async ({ app, payload, progress, shouldStop }) =>
    deleteWorkerResults(app.db, payload, { progress, shouldStop }),
  { retryOnRestart: true },
);
