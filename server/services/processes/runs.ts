/**
 * Worker runs of a process (api part 2 §2.4): created and deleted by the project's admins while
 * the process has no tasks. A run is unique per (version, model version, configuration) in its
 * process (409 with the existing one), and its parents are runs of the same process forming a
 * DAG.
 */
import type { Db } from '../../db';
import { badRequest } from '../../errors';
import type { User } from '../../db/schema';
import { checkRunChoices, insertRun, type RunChoicesInput } from '../workers/runChoices';
import { checkRunParents, parseRunParents } from './runGraph';
import { hasTasks, type ProcessRow } from './rights';

export const RUNS_AFTER_START = 'The worker runs cannot be changed once the process has started.';
export const RUNS_OF_TEMPLATE =
  'Worker runs can only be added to a workers, dataset or template process.';

export async function requireNoTasks(db: Db, processId: string): Promise<void> {
  if (await hasTasks(db, processId)) throw badRequest(RUNS_AFTER_START);
}

export interface NewRun extends RunChoicesInput {
  parents: string[];
}

export async function createProcessRun(
  db: Db,
  user: User,
  process: ProcessRow,
  input: NewRun,
): Promise<string> {
  if (!['workers', 'dataset', 'template'].includes(process.mode)) {
    throw badRequest(RUNS_OF_TEMPLATE);
  }
  await requireNoTasks(db, process.id);
  const choices = await checkRunChoices(db, user, input);
  const parents = await checkRunParents(db, process.id, null, input.parents);
  return insertRun(db, process.id, choices, parents);
}

/** Removes a run; runs that waited for it stop waiting for it. */
export async function deleteProcessRun(db: Db, processId: string, runId: string): Promise<void> {
  await requireNoTasks(db, processId);
  await db.transaction().execute(async (trx) => {
    const children = await trx
      .selectFrom('worker_runs')
      .select(['id', 'parents'])
      .where('process_id', '=', processId)
      .where('id', '!=', runId)
      .execute();
    for (const child of children) {
      const parents = parseRunParents(child.parents);
      if (!parents.includes(runId)) continue;
      await trx
        .updateTable('worker_runs')
        .set({ parents: JSON.stringify(parents.filter((id) => id !== runId)) })
        .where('id', '=', child.id)
        .execute();
    }
    await trx.deleteFrom('worker_runs').where('id', '=', runId).execute();
  });
}

/** ClearProcess: every run of a process without tasks. */
export async function clearProcessRuns(db: Db, processId: string): Promise<void> {
  await requireNoTasks(db, processId);
  await db.deleteFrom('worker_runs').where('process_id', '=', processId).execute();
}
