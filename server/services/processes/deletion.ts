/**
 * DestroyProcess (spec 000 §7: "a 202 on delete means deletion is recorded"): a process without
 * tasks goes at once; one with tasks (logs, artifacts, activities) is deleted by a
 * `process_deletion` job. Results its worker runs made stay in the project, no longer linked
 * to a run. Importing this module registers the job kind.
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { badRequest } from '../../errors';
import { defineJob, enqueueJob } from '../../jobs/queue';
import { removeArtifacts } from '../tasks/artifacts';
import { hasTasks, type ProcessRow } from './rights';

export const PROCESS_DELETION_JOB = 'process_deletion';
export const DELETE_RUNNING = 'A process can only be deleted when it is not running.';

const BUSY_STATES = ['pending', 'running', 'stopping'];

interface DeletionPayload {
  processId: string;
}

/** Deletes the process, its tasks' artifact files, and unlinks its runs' results. */
export async function deleteProcessNow(db: Db, dataDir: string, processId: string): Promise<void> {
  const tasks = await db
    .selectFrom('tasks')
    .select('id')
    .where('process_id', '=', processId)
    .execute();
  await db.transaction().execute(async (trx) => {
    const runs = trx.selectFrom('worker_runs').select('id').where('process_id', '=', processId);
    for (const table of [
      'elements',
      'transcriptions',
      'classifications',
      'metadata',
      'transcription_entities',
    ] as const) {
      await trx
        .updateTable(table)
        .set({ worker_run_id: null })
        .where('worker_run_id', 'in', runs)
        .execute();
    }
    await trx.deleteFrom('processes').where('id', '=', processId).execute();
  });
  for (const task of tasks) await removeArtifacts(dataDir, task.id);
}

defineJob<DeletionPayload>(
  PROCESS_DELETION_JOB,
  async ({ app, payload }) => {
    await deleteProcessNow(app.db, app.config.dataDir, payload.processId);
    return { deleted: payload.processId };
  },
  { retryOnRestart: true },
);

/** 'deleted' when it went at once, 'scheduled' when a job will delete it. */
export async function deleteProcess(
  db: Db,
  dataDir: string,
  user: User,
  process: ProcessRow,
): Promise<'deleted' | 'scheduled'> {
  if (BUSY_STATES.includes(process.state)) throw badRequest(DELETE_RUNNING);
  if (!(await hasTasks(db, process.id))) {
    await deleteProcessNow(db, dataDir, process.id);
    return 'deleted';
  }
  await enqueueJob(db, {
    kind: PROCESS_DELETION_JOB,
    description: `Deletion of process ${process.name ?? process.id}`,
    userId: user.id,
    corpusId: process.corpus_id,
    payload: { processId: process.id } satisfies DeletionPayload,
  });
  return 'scheduled';
}
