/**
 * Datasets of a project and their sets (spec 001 §3–§6, api part 2 §5). Reading a dataset needs
 * read access to its project; changes need a verified e-mail (checked by the routes) and write
 * access, deleting a dataset or a set an admin access. Only an open dataset accepts set and
 * element changes; an admin reopens a complete or failed one by setting its state to open.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Dialect } from '../../db';
import type { Dataset, DatasetSet, DatasetState, User } from '../../db/schema';
import { nowIso } from '../../clock';
import { badRequest, notFound, permissionDenied, validationError } from '../../errors';
import {
  checkRight,
  findCorpusAccess,
  requireUuid,
  type CorpusAccess,
  type Right,
} from '../../permissions';
import { countRows, type PageSource } from '../../pagination';
import { isUniqueViolation } from '../../repositories/constraints';

/** Runs a write; the loser of a race for a unique name gets the answer a later caller would. */
async function unlessTaken<T>(write: () => Promise<T>, attr: string, detail: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError(attr, detail, 'unique');
    throw error;
  }
}

export const DATASET_NAME_MAX = 100;
export const SET_NAME_MAX = 50;
export const DEFAULT_SET_NAMES = ['train', 'dev', 'test'];

export const DATASET_MESSAGES = {
  notOpen: 'Only open datasets can be edited',
  onlySet: 'This is the only set in the dataset and cannot be deleted',
  createSet: 'You must be a contributor on the project to create a set',
  deleteSet: 'You must be an administrator on the project to delete dataset sets',
  duplicateName: 'A dataset with this name already exists in this corpus.',
  duplicateSet: 'A set with this name already exists in this dataset.',
  setNamesEmpty:
    'Either do not specify set names to use the default values, or specify a non-empty list of names.',
  setNamesUnique: 'Set names must be unique.',
  multipleSets: 'Elements are currently contained by multiple sets.',
  reopenOnly: 'The state of a dataset can only be set back to open.',
  building: 'A dataset being built cannot be reopened.',
  setInProcess: 'This dataset set is used by a process and cannot be deleted.',
} as const;

export interface DatasetJson {
  id: string;
  name: string;
  description: string;
  state: DatasetState;
  sets: { id: string; name: string }[];
  set_elements: Record<string, number>;
  unique_elements: boolean;
  corpus_id: string;
  creator: string | null;
  task_id: string | null;
  /** The job of the dataset's last populate (GET /jobs/{id}/ follows it); null if none. */
  populate_job_id: string | null;
  created: string;
  updated: string;
}

export interface DatasetAccess {
  dataset: Dataset;
  access: CorpusAccess;
}

/** The dataset with the caller's rights on its project: 404 when unreadable, 403 without `right`. */
export async function requireDataset(
  db: Db,
  user: User | null,
  datasetId: string,
  right: Right,
  denied?: string,
): Promise<DatasetAccess> {
  const dataset = await db
    .selectFrom('datasets')
    .selectAll()
    .where('id', '=', requireUuid(datasetId))
    .executeTakeFirst();
  if (!dataset) throw notFound();
  const access = await findCorpusAccess(db, user, dataset.corpus_id);
  if (!access) throw notFound();
  if (denied && !access.rights.includes(right)) throw permissionDenied(denied);
  checkRight(access, right);
  return { dataset, access };
}

export function requireOpen(dataset: Dataset): void {
  if (dataset.state !== 'open') throw badRequest(DATASET_MESSAGES.notOpen);
}

export async function setsOf(db: Db, datasetIds: readonly string[]): Promise<DatasetSet[]> {
  if (datasetIds.length === 0) return [];
  return db
    .selectFrom('dataset_sets')
    .selectAll()
    .where('dataset_id', 'in', datasetIds)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The datasets as the API shows them, with their sets and the element count of each set. */
export async function datasetsJson(db: Db, datasets: Dataset[]): Promise<DatasetJson[]> {
  const ids = datasets.map((dataset) => dataset.id);
  const sets = await setsOf(db, ids);
  const counts =
    sets.length === 0
      ? []
      : await db
          .selectFrom('dataset_elements')
          .select(['set_id', (eb) => eb.fn.countAll().as('count')])
          .where(
            'set_id',
            'in',
            sets.map((set) => set.id),
          )
          .groupBy('set_id')
          .execute();
  const countBySet = new Map(counts.map((row) => [row.set_id, Number(row.count)]));
  const creatorIds = [...new Set(datasets.flatMap((d) => (d.creator_id ? [d.creator_id] : [])))];
  const creators = new Map(
    creatorIds.length === 0
      ? []
      : (
          await db
            .selectFrom('users')
            .select(['id', 'email'])
            .where('id', 'in', creatorIds)
            .execute()
        ).map((row) => [row.id, row.email]),
  );
  return datasets.map((dataset) => {
    const own = sets.filter((set) => set.dataset_id === dataset.id);
    return {
      id: dataset.id,
      name: dataset.name,
      description: dataset.description,
      state: dataset.state,
      sets: own.map((set) => ({ id: set.id, name: set.name })),
      set_elements: Object.fromEntries(own.map((set) => [set.name, countBySet.get(set.id) ?? 0])),
      unique_elements: dataset.unique_elements === 1,
      corpus_id: dataset.corpus_id,
      creator: dataset.creator_id ? (creators.get(dataset.creator_id) ?? null) : null,
      task_id: dataset.task_id,
      populate_job_id: dataset.populate_job_id,
      created: dataset.created,
      updated: dataset.updated,
    };
  });
}

export async function datasetJson(db: Db, dataset: Dataset): Promise<DatasetJson> {
  const [json] = await datasetsJson(db, [dataset]);
  return json!;
}

/** ListCorpusDatasets, by name. */
export function corpusDatasetPages(db: Db, corpusId: string): PageSource<DatasetJson> {
  const query = db.selectFrom('datasets').where('corpus_id', '=', corpusId);
  return {
    count: () => countRows(query),
    async fetch({ limit, offset }) {
      const rows = await query
        .selectAll()
        .orderBy('name')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return datasetsJson(db, rows);
    },
  };
}

async function nameTaken(db: Db, corpusId: string, name: string, except?: string) {
  let query = db
    .selectFrom('datasets')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('name', '=', name);
  if (except) query = query.where('id', '!=', except);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The set names of a new dataset: the defaults when none are given, blank names dropped. */
export function newSetNames(given: string[] | undefined): string[] {
  if (given === undefined) return DEFAULT_SET_NAMES;
  const names = given.map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw validationError('set_names', DATASET_MESSAGES.setNamesEmpty);
  if (new Set(names).size !== names.length) {
    throw validationError('set_names', DATASET_MESSAGES.setNamesUnique);
  }
  return names;
}

/** A new dataset's row: open, never populated, made now. */
export function newDatasetRow(
  fields: Pick<Dataset, 'corpus_id' | 'name' | 'description' | 'unique_elements' | 'creator_id'>,
): Dataset {
  const now = nowIso();
  return {
    id: randomUUID(),
    ...fields,
    state: 'open',
    seed: null,
    task_id: null,
    populate_job_id: null,
    created: now,
    updated: now,
  };
}

export interface NewDataset {
  name: string;
  description: string;
  unique_elements?: boolean;
  set_names?: string[];
}

export async function createDataset(
  db: Db,
  user: User,
  corpusId: string,
  input: NewDataset,
): Promise<DatasetJson> {
  const setNames = newSetNames(input.set_names);
  if (await nameTaken(db, corpusId, input.name)) {
    throw validationError('name', DATASET_MESSAGES.duplicateName, 'unique');
  }
  const dataset = newDatasetRow({
    corpus_id: corpusId,
    name: input.name,
    description: input.description,
    unique_elements: input.unique_elements === false ? 0 : 1,
    creator_id: user.id,
  });
  await unlessTaken(
    () =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('datasets').values(dataset).execute();
        await trx
          .insertInto('dataset_sets')
          .values(setNames.map((name) => ({ id: randomUUID(), dataset_id: dataset.id, name })))
          .execute();
      }),
    'name',
    DATASET_MESSAGES.duplicateName,
  );
  return datasetJson(db, dataset);
}

export interface DatasetUpdate {
  name?: string;
  description?: string;
  unique_elements?: boolean;
  state?: DatasetState;
}

/** Elements of this dataset in more than one of its sets. */
async function hasElementInTwoSets(db: Db, datasetId: string): Promise<boolean> {
  const row = await db
    .selectFrom('dataset_elements')
    .innerJoin('dataset_sets', 'dataset_sets.id', 'dataset_elements.set_id')
    .select('dataset_elements.element_id')
    .where('dataset_sets.dataset_id', '=', datasetId)
    .groupBy('dataset_elements.element_id')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Within a transaction: the dataset's row as it is now, held until the end of the transaction
 * on PostgreSQL (SQLite runs one writing transaction at a time), so a check of its elements and
 * the change that follows it are never interleaved with another request's.
 */
export async function lockDataset(trx: Db, dialect: Dialect, datasetId: string): Promise<Dataset> {
  let query = trx.selectFrom('datasets').selectAll().where('id', '=', datasetId);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function updateDataset(
  db: Db,
  dialect: Dialect,
  { dataset, access }: DatasetAccess,
  input: DatasetUpdate,
): Promise<DatasetJson> {
  if (input.state !== undefined && input.state !== dataset.state) {
    if (input.state !== 'open') throw validationError('state', DATASET_MESSAGES.reopenOnly);
    checkRight(access, 'admin');
    if (dataset.state === 'building') throw validationError('state', DATASET_MESSAGES.building);
  }
  if (
    input.name !== undefined &&
    (await nameTaken(db, dataset.corpus_id, input.name, dataset.id))
  ) {
    throw validationError('name', DATASET_MESSAGES.duplicateName, 'unique');
  }
  const changes = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.unique_elements === undefined
      ? {}
      : { unique_elements: input.unique_elements ? (1 as const) : (0 as const) }),
    ...(input.state === undefined ? {} : { state: input.state }),
    updated: nowIso(),
  };
  const updated = await unlessTaken(
    () =>
      db.transaction().execute(async (trx) => {
        const current = await lockDataset(trx, dialect, dataset.id);
        if (
          input.unique_elements === true &&
          current.unique_elements === 0 &&
          (await hasElementInTwoSets(trx, dataset.id))
        ) {
          throw validationError('unique_elements', DATASET_MESSAGES.multipleSets);
        }
        await trx.updateTable('datasets').set(changes).where('id', '=', dataset.id).execute();
        return { ...current, ...changes };
      }),
    'name',
    DATASET_MESSAGES.duplicateName,
  );
  return datasetJson(db, updated);
}

export async function deleteDataset(db: Db, dataset: Dataset): Promise<void> {
  await db.deleteFrom('datasets').where('id', '=', dataset.id).execute();
}

/** A set of this dataset named in a path: 404 otherwise. */
export async function requireSet(db: Db, dataset: Dataset, setId: string): Promise<DatasetSet> {
  const set = await db
    .selectFrom('dataset_sets')
    .selectAll()
    .where('id', '=', requireUuid(setId))
    .where('dataset_id', '=', dataset.id)
    .executeTakeFirst();
  if (!set) throw notFound();
  return set;
}

async function setNameTaken(db: Db, datasetId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('dataset_sets')
    .select('id')
    .where('dataset_id', '=', datasetId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

export async function createSet(db: Db, dataset: Dataset, name: string) {
  requireOpen(dataset);
  if (await setNameTaken(db, dataset.id, name)) {
    throw validationError('name', DATASET_MESSAGES.duplicateSet, 'unique');
  }
  const set = { id: randomUUID(), dataset_id: dataset.id, name };
  await unlessTaken(
    () => db.insertInto('dataset_sets').values(set).execute(),
    'name',
    DATASET_MESSAGES.duplicateSet,
  );
  return { id: set.id, name: set.name };
}

export async function renameSet(db: Db, dataset: Dataset, set: DatasetSet, name: string) {
  requireOpen(dataset);
  if (name !== set.name && (await setNameTaken(db, dataset.id, name))) {
    throw validationError('name', DATASET_MESSAGES.duplicateSet, 'unique');
  }
  await unlessTaken(
    () => db.updateTable('dataset_sets').set({ name }).where('id', '=', set.id).execute(),
    'name',
    DATASET_MESSAGES.duplicateSet,
  );
  return { id: set.id, name };
}

export async function deleteSet(db: Db, dataset: Dataset, set: DatasetSet): Promise<void> {
  requireOpen(dataset);
  const count = await countRows(
    db.selectFrom('dataset_sets').select('id').where('dataset_id', '=', dataset.id),
  );
  if (count <= 1) throw badRequest(DATASET_MESSAGES.onlySet);
  // ISS-1720: a dataset process that chose the set would lose what it runs (or ran) on.
  const chosen = await db
    .selectFrom('process_sets')
    .select('id')
    .where('set_id', '=', set.id)
    .limit(1)
    .executeTakeFirst();
  if (chosen) throw badRequest(DATASET_MESSAGES.setInProcess);
  await db.deleteFrom('dataset_sets').where('id', '=', set.id).execute();
}
