/**
 * What a worker run may be given besides its version: a version of a model the caller may read,
 * and a configuration of the same worker that is not archived (spec 000 §4).
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { invalidPk, validationError } from '../../errors';
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
