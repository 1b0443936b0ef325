/**
 * What DestroyWorkerResults deletes (spec 000 §4 "Workers"): results of worker runs matching
 * every filter given (a run, a worker version, a model version, a configuration or `false` for
 * runs without one), in a whole project, or under one element, or under the caller's selected
 * elements. Checked when asked, so a mistake is a 400 rather than a failed job.
 */
import { z } from 'zod';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { invalidPk, validationError } from '../../errors';
import { parse, queryBoolean, uuidSchema } from '../../validation';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// A repeated parameter arrives as an array; Django reads the last value, so do we.
const last = (schema: z.ZodType) =>
  z.preprocess((value) => (Array.isArray(value) ? value[value.length - 1] : value), schema);

const query = z.object({
  use_selection: last(queryBoolean.optional()),
  element_id: last(uuidSchema.optional()),
  worker_run_id: last(uuidSchema.optional()),
  worker_version_id: last(uuidSchema.optional()),
  model_version_id: last(uuidSchema.optional()),
  configuration_id: last(
    z
      .string()
      .refine((value) => value === 'false' || UUID.test(value), 'Must be a valid UUID or false.')
      .optional(),
  ),
});

/** Which worker runs' results go; every filter given must match. */
export interface RunFilters {
  workerRunId?: string;
  workerVersionId?: string;
  modelVersionId?: string;
  /** false: runs without a configuration. */
  configurationId?: string | false;
}

/** The job's payload: the project, where in it (null: everywhere), and which runs. */
export interface WorkerResultsPayload {
  corpusId: string;
  /** The elements whose subtrees are cleaned; null for the whole project. */
  rootIds: string[] | null;
  runs: RunFilters;
}

async function exists(
  db: Db,
  table: 'worker_runs' | 'worker_versions' | 'model_versions' | 'worker_configurations',
  id: string,
): Promise<boolean> {
  return !!(await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());
}

export const SELECTION_EMPTY = 'No element of this project is selected.';
export const ELEMENT_AND_SELECTION =
  'Results are deleted either under one element or under the selection, not both.';

/** Reads and checks the query of a deletion in this project, for `user`. */
export async function readWorkerResultsQuery(
  db: Db,
  user: User,
  corpusId: string,
  input: unknown,
  selectionEnabled: boolean,
): Promise<WorkerResultsPayload> {
  // An empty parameter filters nothing, as django-filter reads it.
  const given = Object.fromEntries(
    Object.entries((input ?? {}) as Record<string, unknown>).filter(([, value]) => value !== ''),
  );
  const values = parse(query.loose(), given);
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined);
  const elementId = lower(values.element_id);
  const useSelection = values.use_selection === true;
  if (elementId && useSelection) throw validationError('non_field_errors', ELEMENT_AND_SELECTION);

  const runs: RunFilters = {};
  const checks = [
    ['worker_run_id', 'worker_runs', 'workerRunId'],
    ['worker_version_id', 'worker_versions', 'workerVersionId'],
    ['model_version_id', 'model_versions', 'modelVersionId'],
  ] as const;
  for (const [attr, table, key] of checks) {
    const id = lower(values[attr]);
    if (id === undefined) continue;
    if (!(await exists(db, table, id))) throw invalidPk(attr, id);
    runs[key] = id;
  }
  const configuration = lower(values.configuration_id);
  if (configuration === 'false') runs.configurationId = false;
  else if (configuration !== undefined) {
    if (!(await exists(db, 'worker_configurations', configuration))) {
      throw invalidPk('configuration_id', configuration);
    }
    runs.configurationId = configuration;
  }

  let rootIds: string[] | null = null;
  if (elementId) {
    const element = await db
      .selectFrom('elements')
      .select('id')
      .where('id', '=', elementId)
      .where('corpus_id', '=', corpusId)
      .executeTakeFirst();
    if (!element) throw invalidPk('element_id', elementId);
    rootIds = [element.id];
  } else if (useSelection) {
    if (!selectionEnabled) {
      throw validationError('use_selection', 'The selection feature is disabled on this server.');
    }
    const rows = await db
      .selectFrom('selections')
      .innerJoin('elements', 'elements.id', 'selections.element_id')
      .select('elements.id')
      .where('selections.user_id', '=', user.id)
      .where('elements.corpus_id', '=', corpusId)
      .execute();
    if (rows.length === 0) throw validationError('use_selection', SELECTION_EMPTY, 'empty');
    rootIds = rows.map((row) => row.id);
  }
  return { corpusId, rootIds, runs };
}
