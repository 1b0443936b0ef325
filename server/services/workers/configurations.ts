/**
 * Worker configurations (api/arkindex-api-2.md §3.4, spec 000 §5): named values for a worker's
 * settings, checked against a version's schema by the module the app's editor uses, so both
 * refuse the same values in the same words. Names are unique per worker: a clash answers 409
 * with the configuration already holding the name.
 */
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { User, WorkerConfigurationTable } from '../../db/schema';
import { conflict, invalidPk, notFound, validationErrors, type ErrorItem } from '../../errors';
import { requireUuid } from '../../permissions';
import {
  CONFIGURATION_MESSAGES,
  modelReferences,
  sameAsDefault,
  validateConfiguration,
  type UserConfiguration,
} from './configurationRules';
import { findModelAccess } from '../models/rights';
import { parseConfiguration, userConfiguration } from './versions';
import { lockWorker, type WorkerRow } from './workers';

export type ConfigurationRow = Selectable<WorkerConfigurationTable>;

export function configurationJson(row: ConfigurationRow) {
  return {
    id: row.id,
    name: row.name,
    configuration: parseConfiguration(row.configuration),
    archived: row.archived === 1,
  };
}

export async function requireConfiguration(db: Db, id: string): Promise<ConfigurationRow> {
  const row = await db
    .selectFrom('worker_configurations')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export function configurationListQuery(db: Db, workerId: string, archived?: boolean) {
  let query = db.selectFrom('worker_configurations').selectAll().where('worker_id', '=', workerId);
  if (archived !== undefined) query = query.where('archived', '=', archived ? 1 : 0);
  return query;
}

const CONFLICT = 'A worker configuration with this name already exists for this worker.';

async function checkNameFree(db: Db, workerId: string, name: string, exceptId: string | null) {
  let query = db
    .selectFrom('worker_configurations')
    .select('id')
    .where('worker_id', '=', workerId)
    .where('name', '=', name);
  if (exceptId) query = query.where('id', '!=', exceptId);
  const taken = await query.executeTakeFirst();
  if (taken) throw conflict(CONFLICT, taken.id, 'name');
}

/**
 * The schema a new configuration is checked against: the version named (one of the worker's),
 * else the worker's newest version that has one; null when the worker declares none.
 */
async function schemaFor(
  db: Db,
  workerId: string,
  versionId: string | undefined,
): Promise<UserConfiguration | null> {
  if (versionId !== undefined) {
    const version = await db
      .selectFrom('worker_versions')
      .select('configuration')
      .where('id', '=', versionId.toLowerCase())
      .where('worker_id', '=', workerId)
      .executeTakeFirst();
    if (!version) throw invalidPk('worker_version_id', versionId);
    return userConfiguration(version);
  }
  const versions = await db
    .selectFrom('worker_versions')
    .select('configuration')
    .where('worker_id', '=', workerId)
    .orderBy('created', 'desc')
    .orderBy('version', 'desc')
    .execute();
  for (const version of versions) {
    const schema = userConfiguration(version);
    if (schema) return schema;
  }
  return null;
}

async function configurationProblems(
  db: Db,
  user: User,
  schema: UserConfiguration,
  values: Record<string, unknown>,
): Promise<ErrorItem[]> {
  const problems: ErrorItem[] = validateConfiguration(schema, values).map((problem) => ({
    code: 'invalid',
    detail: problem.message,
    attr: problem.key ? `configuration.${problem.key}` : 'configuration',
  }));
  if (problems.length > 0) return problems;
  for (const reference of modelReferences(schema, values)) {
    // A model the author may not read does not exist for them either.
    if (!(await findModelAccess(db, user, reference.id))) {
      problems.push({
        code: 'does_not_exist',
        detail: CONFIGURATION_MESSAGES.modelMissing,
        attr: `configuration.${reference.key}`,
      });
    }
  }
  if (problems.length === 0 && sameAsDefault(schema, values)) {
    problems.push({
      code: 'invalid',
      detail: CONFIGURATION_MESSAGES.isDefault,
      attr: 'configuration',
    });
  }
  return problems;
}

export interface NewConfiguration {
  name: string;
  configuration: Record<string, unknown>;
  worker_version_id?: string | undefined;
}

export async function createConfiguration(
  db: Db,
  user: User,
  worker: WorkerRow,
  input: NewConfiguration,
) {
  const schema = await schemaFor(db, worker.id, input.worker_version_id);
  if (schema) {
    const problems = await configurationProblems(db, user, schema, input.configuration);
    if (problems.length > 0) throw validationErrors(problems);
  }
  const row: ConfigurationRow = {
    id: randomUUID(),
    worker_id: worker.id,
    name: input.name,
    configuration: JSON.stringify(input.configuration),
    archived: 0,
  };
  // Names are unique per worker: the check and the insert hold the worker meanwhile.
  await db.transaction().execute(async (trx) => {
    await lockWorker(trx, worker.id);
    await checkNameFree(trx, worker.id, input.name, null);
    await trx.insertInto('worker_configurations').values(row).execute();
  });
  return configurationJson(row);
}

export interface ConfigurationUpdate {
  name?: string | undefined;
  archived?: boolean | undefined;
}

export async function updateConfiguration(
  db: Db,
  row: ConfigurationRow,
  input: ConfigurationUpdate,
) {
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.archived !== undefined ? { archived: input.archived ? 1 : 0 } : {}),
  };
  if (Object.keys(changes).length > 0) {
    await db.transaction().execute(async (trx) => {
      await lockWorker(trx, row.worker_id);
      if (input.name !== undefined) await checkNameFree(trx, row.worker_id, input.name, row.id);
      await trx
        .updateTable('worker_configurations')
        .set(changes)
        .where('id', '=', row.id)
        .execute();
    });
  }
  return configurationJson({ ...row, ...changes });
}
