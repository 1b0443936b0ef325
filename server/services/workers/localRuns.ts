/**
 * Local worker runs (spec 000 §7): someone developing a worker runs it on their own machine
 * under a worker run of their personal process, of mode `local`, which belongs to no project.
 * The process is made the first time they add a run to it.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { conflict, invalidPk, validationError } from '../../errors';
import { nowIso } from '../../clock';
import { findModelAccess } from '../models/rights';

export async function localProcessId(db: Db, user: User): Promise<string | null> {
  const row = await db
    .selectFrom('processes')
    .select('id')
    .where('mode', '=', 'local')
    .where('creator_id', '=', user.id)
    .orderBy('created')
    .executeTakeFirst();
  return row?.id ?? null;
}

async function ensureLocalProcess(db: Db, user: User): Promise<string> {
  const existing = await localProcessId(db, user);
  if (existing) return existing;
  const id = randomUUID();
  await db
    .insertInto('processes')
    .values({
      id,
      corpus_id: null,
      name: `Local process of ${user.display_name}`,
      mode: 'local',
      state: 'unscheduled',
      creator_id: user.id,
      created: nowIso(),
      started: null,
      finished: null,
    })
    .execute();
  return id;
}

export function localRunsQuery(db: Db, processId: string) {
  return db.selectFrom('worker_runs').select('id').where('process_id', '=', processId);
}

export interface NewLocalRun {
  worker_version_id: string;
  model_version_id?: string | null | undefined;
  configuration_id?: string | null | undefined;
}

/** The worker run's id once its version, model version and configuration are checked. */
export async function createLocalRun(db: Db, user: User, input: NewLocalRun): Promise<string> {
  const version = await db
    .selectFrom('worker_versions')
    .select(['id', 'worker_id'])
    .where('id', '=', input.worker_version_id.toLowerCase())
    .executeTakeFirst();
  if (!version) throw invalidPk('worker_version_id', input.worker_version_id);
  let modelVersionId: string | null = null;
  if (input.model_version_id) {
    const model = await db
      .selectFrom('model_versions')
      .select(['id', 'model_id'])
      .where('id', '=', input.model_version_id.toLowerCase())
      .executeTakeFirst();
    // A version of a model the caller may not read is as unknown to them as a missing one.
    if (!model || !(await findModelAccess(db, user, model.model_id))) {
      throw invalidPk('model_version_id', input.model_version_id);
    }
    modelVersionId = model.id;
  }
  let configurationId: string | null = null;
  if (input.configuration_id) {
    const configuration = await db
      .selectFrom('worker_configurations')
      .select(['id', 'worker_id', 'archived'])
      .where('id', '=', input.configuration_id.toLowerCase())
      .executeTakeFirst();
    if (!configuration) throw invalidPk('configuration_id', input.configuration_id);
    if (configuration.worker_id !== version.worker_id) {
      throw validationError(
        'configuration_id',
        'The configuration must be one of the worker version’s worker.',
      );
    }
    // Spec 000 §4: an archived configuration cannot be chosen to run.
    if (configuration.archived === 1) {
      throw validationError('configuration_id', 'An archived configuration cannot be used.');
    }
    configurationId = configuration.id;
  }
  const processId = await ensureLocalProcess(db, user);
  const same = await db
    .selectFrom('worker_runs')
    .select('id')
    .where('process_id', '=', processId)
    .where('worker_version_id', '=', version.id)
    .where('model_version_id', modelVersionId === null ? 'is' : '=', modelVersionId)
    .where('configuration_id', configurationId === null ? 'is' : '=', configurationId)
    .executeTakeFirst();
  if (same) {
    throw conflict(
      'A worker run with this worker version, model version and configuration already exists in this process.',
      same.id,
    );
  }
  const id = randomUUID();
  await db
    .insertInto('worker_runs')
    .values({
      id,
      process_id: processId,
      worker_version_id: version.id,
      model_version_id: modelVersionId,
      configuration_id: configurationId,
      parents: '[]',
      created: nowIso(),
    })
    .execute();
  return id;
}
