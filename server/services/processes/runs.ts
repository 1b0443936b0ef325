/**
 * Worker runs of a process (api part 2 §2.4): created and deleted by the project's admins while
 * the process has no tasks. A run is unique per (version, model version, configuration) in its
 * process (409 with the existing one), and its parents are runs of the same process forming a
 * DAG.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import { badRequest, conflict, invalidPk } from '../../errors';
import type { User } from '../../db/schema';
import { nowIso } from '../../clock';
import { SAME_RUN, checkConfiguration, checkModelVersion, sameRun } from '../workers/runChoices';
import { checkRunParents, parseRunParents } from './runGraph';
import { hasTasks, type ProcessRow } from './rights';

export const RUNS_AFTER_START = 'The worker runs cannot be changed once the process has started.';
export const RUNS_OF_TEMPLATE = 'Worker runs can only be added to a workers or template process.';

export async function requireNoTasks(db: Db, processId: string): Promise<void> {
  if (await hasTasks(db, processId)) throw badRequest(RUNS_AFTER_START);
}

export interface NewRun {
  worker_version_id: string;
  parents: string[];
  model_version_id?: string | null | undefined;
  configuration_id?: string | null | undefined;
}

export async function createProcessRun(
  db: Db,
  user: User,
  process: ProcessRow,
  input: NewRun,
): Promise<string> {
  if (!['workers', 'template'].includes(process.mode)) throw badRequest(RUNS_OF_TEMPLATE);
  await requireNoTasks(db, process.id);
  const version = await db
    .selectFrom('worker_versions')
    .select(['id', 'worker_id'])
    .where('id', '=', input.worker_version_id.toLowerCase())
    .executeTakeFirst();
  if (!version) throw invalidPk('worker_version_id', input.worker_version_id);
  const modelVersionId = input.model_version_id
    ? await checkModelVersion(db, user, input.model_version_id)
    : null;
  const configurationId = input.configuration_id
    ? await checkConfiguration(db, version.worker_id, input.configuration_id)
    : null;
  const parents = await checkRunParents(db, process.id, null, input.parents);
  const same = await sameRun(db, {
    process_id: process.id,
    worker_version_id: version.id,
    model_version_id: modelVersionId,
    configuration_id: configurationId,
  });
  if (same) throw conflict(SAME_RUN, same);
  const id = randomUUID();
  await db
    .insertInto('worker_runs')
    .values({
      id,
      process_id: process.id,
      worker_version_id: version.id,
      model_version_id: modelVersionId,
      configuration_id: configurationId,
      parents: JSON.stringify(parents),
      created: nowIso(),
    })
    .execute();
  return id;
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
