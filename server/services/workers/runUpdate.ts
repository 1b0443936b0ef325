/**
 * PartialUpdateWorkerRun (spec 000 §4, §7): a worker run's configuration (or none), model
 * version and parents change, as the process configuration screen does, while its process has
 * no tasks. A project's runs are changed by its admins, a local process's by its creator.
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { conflict, notFound, permissionDenied } from '../../errors';
import { processRights } from './processAccess';
import { checkRunParents } from '../processes/runGraph';
import { requireNoTasks } from '../processes/runs';
import { SAME_RUN, checkConfiguration, checkModelVersion, sameRun } from './runChoices';

export interface RunUpdate {
  configuration_id?: string | null | undefined;
  model_version_id?: string | null | undefined;
  parents?: string[] | undefined;
}

export async function updateWorkerRun(
  db: Db,
  user: User,
  runId: string,
  input: RunUpdate,
): Promise<string> {
  const run = await db
    .selectFrom('worker_runs')
    .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
    .innerJoin('worker_versions', 'worker_versions.id', 'worker_runs.worker_version_id')
    .select([
      'worker_runs.id',
      'worker_runs.process_id',
      'worker_runs.worker_version_id',
      'worker_runs.model_version_id',
      'worker_runs.configuration_id',
      'processes.corpus_id',
      'processes.creator_id',
      'worker_versions.worker_id',
    ])
    .where('worker_runs.id', '=', runId)
    .executeTakeFirst();
  const rights = run ? await processRights(db, user, run) : [];
  if (!run || !rights.includes('read')) throw notFound();
  if (!rights.includes('admin')) {
    throw permissionDenied('You do not have admin access to this project.');
  }
  await requireNoTasks(db, run.process_id);
  const configurationId =
    input.configuration_id === undefined
      ? run.configuration_id
      : input.configuration_id &&
        (await checkConfiguration(db, run.worker_id, input.configuration_id));
  const modelVersionId =
    input.model_version_id === undefined
      ? run.model_version_id
      : input.model_version_id && (await checkModelVersion(db, user, input.model_version_id));
  const changed = {
    configuration_id: configurationId ?? null,
    model_version_id: modelVersionId ?? null,
  };
  const parents =
    input.parents === undefined
      ? {}
      : {
          parents: JSON.stringify(await checkRunParents(db, run.process_id, run.id, input.parents)),
        };
  const same = await sameRun(db, { ...run, ...changed }, run.id);
  if (same) throw conflict(SAME_RUN, same);
  await db
    .updateTable('worker_runs')
    .set({ ...changed, ...parents })
    .where('id', '=', run.id)
    .execute();
  return run.id;
}
