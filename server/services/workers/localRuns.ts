/**
 * Local worker runs (spec 000 §7): someone developing a worker runs it on their own machine
 * under a worker run of their personal process, of mode `local`, which belongs to no project.
 * The process is made the first time they add a run to it.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { conflict, invalidPk } from '../../errors';
import { nowIso } from '../../clock';
import { SAME_RUN, checkConfiguration, checkModelVersion, sameRun } from './runChoices';

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
  const modelVersionId = input.model_version_id
    ? await checkModelVersion(db, user, input.model_version_id)
    : null;
  const configurationId = input.configuration_id
    ? await checkConfiguration(db, version.worker_id, input.configuration_id)
    : null;
  const processId = await ensureLocalProcess(db, user);
  const same = await sameRun(db, {
    process_id: processId,
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
