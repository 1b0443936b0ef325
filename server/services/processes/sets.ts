/**
 * Dataset processes (api part 2 §2.1, §5): a process of mode `dataset` runs its workers on the
 * dataset sets chosen for it (ListProcessSets, CreateProcessSet, DestroyProcessSet), not on
 * element filters. Sets are chosen by the project's admins before the start, among the
 * datasets of the process' own project; the start gives the tasks the elements of those sets.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { DatasetSet, User } from '../../db/schema';
import { nowIso } from '../../clock';
import { badRequest, notFound, validationError } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import { requireUuid } from '../../permissions';
import { isUniqueViolation } from '../../repositories/constraints';
import { datasetsJson, type DatasetJson } from '../datasets/datasets';
import type { ElementRef } from './elements';
import { hasTasks, type ProcessRow } from './rights';
import { insertProcess } from './templates';

export const PROCESS_SET_MESSAGES = {
  notDataset: 'Dataset sets can only be chosen for a dataset process.',
  started: 'The dataset sets cannot be changed once the process has started.',
  already: 'This dataset set is already chosen for this process.',
  noSets: 'This process has no dataset sets to run on.',
  noFilters: 'A dataset process runs on dataset sets: it takes no element filters or selection.',
} as const;

export interface ProcessSetJson {
  id: string;
  dataset: DatasetJson;
  set_name: string;
}

/** The fields of CreateProcess that choose elements, which a dataset process has no use for. */
const ELEMENT_FIELDS = [
  'element',
  'element_type',
  'element_name_contains',
  'load_children',
  'ml_class_id',
  'selection',
] as const;

/** CreateProcess with `mode: "dataset"`: an unscheduled process of the project, without sets. */
export async function createDatasetProcess(
  db: Db,
  user: User,
  corpusId: string,
  input: { name?: string | undefined } & Partial<Record<(typeof ELEMENT_FIELDS)[number], unknown>>,
): Promise<string> {
  if (ELEMENT_FIELDS.some((field) => input[field] !== undefined && input[field] !== null)) {
    throw validationError('mode', PROCESS_SET_MESSAGES.noFilters);
  }
  return insertProcess(db, {
    corpusId,
    creatorId: user.id,
    name: input.name?.trim() || null,
    mode: 'dataset',
  });
}

/** The chosen sets, their datasets first by name, then each set by name. */
export function processSetPages(db: Db, processId: string): PageSource<ProcessSetJson> {
  const query = db
    .selectFrom('process_sets')
    .innerJoin('dataset_sets', 'dataset_sets.id', 'process_sets.set_id')
    .innerJoin('datasets', 'datasets.id', 'dataset_sets.dataset_id')
    .where('process_sets.process_id', '=', processId);
  return {
    count: () => countRows(query.select('process_sets.id')),
    async fetch({ limit, offset }) {
      const rows = await query
        .select(['process_sets.id', 'dataset_sets.name as set_name', 'datasets.id as dataset_id'])
        .orderBy('datasets.name')
        .orderBy('datasets.id')
        .orderBy('dataset_sets.name')
        .orderBy('process_sets.id')
        .limit(limit)
        .offset(offset)
        .execute();
      const datasetIds = [...new Set(rows.map((row) => row.dataset_id))];
      const datasets =
        datasetIds.length === 0
          ? []
          : await db.selectFrom('datasets').selectAll().where('id', 'in', datasetIds).execute();
      const byId = new Map((await datasetsJson(db, datasets)).map((json) => [json.id, json]));
      return rows.map((row) => ({
        id: row.id,
        dataset: byId.get(row.dataset_id)!,
        set_name: row.set_name,
      }));
    },
  };
}

/** The sets of a dataset process may change: it is a dataset process and has not started. */
async function requireChangeable(db: Db, process: ProcessRow): Promise<void> {
  if (process.mode !== 'dataset') throw badRequest(PROCESS_SET_MESSAGES.notDataset);
  if (await hasTasks(db, process.id)) throw badRequest(PROCESS_SET_MESSAGES.started);
}

/**
 * A set of a dataset of the process' project. Any other set, whether it exists in another
 * project or not at all, answers the same 404, so nothing is learnt of other projects.
 */
async function requireProjectSet(db: Db, process: ProcessRow, setId: string): Promise<DatasetSet> {
  const set = await db
    .selectFrom('dataset_sets')
    .innerJoin('datasets', 'datasets.id', 'dataset_sets.dataset_id')
    .selectAll('dataset_sets')
    .where('dataset_sets.id', '=', requireUuid(setId))
    .where('datasets.corpus_id', '=', process.corpus_id ?? '')
    .executeTakeFirst();
  if (!set) throw notFound();
  return set;
}

/** CreateProcessSet; answers the new choice as ListProcessSets lists it. */
export async function addProcessSet(
  db: Db,
  process: ProcessRow,
  setId: string,
): Promise<ProcessSetJson> {
  await requireChangeable(db, process);
  const set = await requireProjectSet(db, process, setId);
  const existing = await db
    .selectFrom('process_sets')
    .select('id')
    .where('process_id', '=', process.id)
    .where('set_id', '=', set.id)
    .executeTakeFirst();
  if (existing) throw badRequest(PROCESS_SET_MESSAGES.already, 'unique');
  const id = randomUUID();
  try {
    await db
      .insertInto('process_sets')
      .values({ id, process_id: process.id, set_id: set.id, created: nowIso() })
      .execute();
  } catch (error) {
    // The same set chosen twice at once: one is kept, the other told as a later call would be.
    if (isUniqueViolation(error)) throw badRequest(PROCESS_SET_MESSAGES.already, 'unique');
    throw error;
  }
  const dataset = await db
    .selectFrom('datasets')
    .selectAll()
    .where('id', '=', set.dataset_id)
    .executeTakeFirstOrThrow();
  const [json] = await datasetsJson(db, [dataset]);
  return { id, dataset: json!, set_name: set.name };
}

/** DestroyProcessSet: 404 when the set is not chosen for this process. */
export async function removeProcessSet(db: Db, process: ProcessRow, setId: string): Promise<void> {
  await requireChangeable(db, process);
  const removed = await db
    .deleteFrom('process_sets')
    .where('process_id', '=', process.id)
    .where('set_id', '=', requireUuid(setId))
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw notFound();
}

/**
 * What a dataset process' tasks run on: every element of its chosen sets, once each even when
 * in several of them, ordered by name then id as a workers process' elements are. No set
 * chosen is a 400: there is nothing to start.
 */
export async function processSetElementRefs(db: Db, processId: string): Promise<ElementRef[]> {
  const chosen = db.selectFrom('process_sets').where('process_id', '=', processId);
  if ((await countRows(chosen.select('id'))) === 0) {
    throw badRequest(PROCESS_SET_MESSAGES.noSets);
  }
  return db
    .selectFrom('elements')
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .select(['elements.id', 'element_types.slug as type'])
    .where('elements.id', 'in', (eb) =>
      eb
        .selectFrom('dataset_elements')
        .innerJoin('process_sets', 'process_sets.set_id', 'dataset_elements.set_id')
        .select('dataset_elements.element_id')
        .where('process_sets.process_id', '=', processId),
    )
    .orderBy('elements.name')
    .orderBy('elements.id')
    .execute();
}
