/**
 * What a worker run may be given besides its version: a version of a model the caller may read,
 * and a configuration of the same worker that is not archived (spec 000 §4). A process' runs
 * and a user's local runs are checked and added here, so both answer the same errors.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { conflict, invalidPk, validationError } from '../../errors';
import { nowIso } from '../../clock';
import { findModelAccess } from '../models/rights';

export async function checkModelVersion(db: Db, user: User, id: string): Promise<string> {
  const model = await db
    .selectFrom('model_versions')
    .select(['id', 'model_id'])
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  // A version of a model the caller may not read is as unknown to them as a missing one.
  if (!model || !(await findModelAccess(db, user, model.model_id))) {
    throw invalidPk('model_version_id', id);
  }
  return model.id;
}

export async function checkConfiguration(db: Db, workerId: string, id: string): Promise<string> {
  const configuration = await db
    .selectFrom('worker_configurations')
    .select(['id', 'worker_id', 'archived'])
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  if (!configuration) throw invalidPk('configuration_id', id);
  if (configuration.worker_id !== workerId) {
    throw validationError(
      'configuration_id',
      'The configuration must be one of the worker version’s worker.',
    );
  }
  if (configuration.archived === 1) {
    throw validationError('configuration_id', 'An archived configuration cannot be used.');
  }
  return configuration.id;
}

/** The run of the process with this version, model version and configuration, if any. */
export async function sameRun(
  db: Db,
  run: {
    process_id: string;
    worker_version_id: string;
    model_version_id: string | null;
    configuration_id: string | null;
  },
  exceptId: string | null = null,
): Promise<string | null> {
  let query = db
    .selectFrom('worker_runs')
    .select('id')
    .where('process_id', '=', run.process_id)
    .where('worker_version_id', '=', run.worker_version_id)
    .where('model_version_id', run.model_version_id === null ? 'is' : '=', run.model_version_id)
    .where('configuration_id', run.configuration_id === null ? 'is' : '=', run.configuration_id);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst())?.id ?? null;
}

export const SAME_RUN =
  'A worker run with this worker version, model version and configuration already exists in this process.';

export interface RunChoicesInput {
  worker_version_id: string;
  model_version_id?: string | null | undefined;
  configuration_id?: string | null | undefined;
}

export interface RunChoices {
  worker_version_id: string;
  model_version_id: string | null;
  configuration_id: string | null;
}

/** The new run's version, model version and configuration, each checked (400 on its field). */
export async function checkRunChoices(
  db: Db,
  user: User,
  input: RunChoicesInput,
): Promise<RunChoices> {
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
  return {
    worker_version_id: version.id,
    model_version_id: modelVersionId,
    configuration_id: configurationId,
  };
}

/** Adds the run to the process, or a 409 with the process' run that has the same choices. */
export async function insertRun(
  db: Db,
  processId: string,
  choices: RunChoices,
  parents: string[] = [],
): Promise<string> {
  const same = await sameRun(db, { process_id: processId, ...choices });
  if (same) throw conflict(SAME_RUN, same);
  const id = randomUUID();
  await db
    .insertInto('worker_runs')
    .values({
      id,
      process_id: processId,
      ...choices,
      parents: JSON.stringify(parents),
      created: nowIso(),
    })
    .execute();
  return id;
}
