/**
 * The elements of a dataset's sets: the cursor list (ListDatasetElements), adding one element or
 * the caller's selection to a set, removing one, and an element's sets with its neighbours in
 * each. Elements are ordered by name then id, then set name, in the list and for neighbours.
 */
import type { Db, Dialect } from '../../db';
import type { Dataset, DatasetSet, User } from '../../db/schema';
import { nowIso } from '../../clock';
import { badRequest, invalidPk, notFound, validationError } from '../../errors';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import { serializeElements, type ElementListJson } from '../elements/serialize';
import type { ElementRow } from '../elements/repository';
import { selectedIdsOfCorpus } from '../selection';
import {
  DATASET_MESSAGES,
  datasetsJson,
  lockDataset,
  requireOpen,
  type DatasetJson,
} from './datasets';

export const DATASET_ELEMENT_MESSAGES = {
  noSet: (name: string) => `This dataset has no set named "${name}".`,
  alreadyInSet: 'This element is already part of this set.',
  inOtherSet: (name: string) =>
    `This element is already part of the set "${name}" of this dataset, which only allows an element in one set.`,
  selectionInOtherSet: (count: number) =>
    `${count} element(s) of your selection are already in another set of this dataset, which only allows an element in one set.`,
  notInSet: 'This element is not part of this set.',
} as const;

type Direction = 'after' | 'before';

interface Cursor {
  name: string;
  id: string;
  set: string;
  direction: Direction;
}

const encodeCursor = (key: Omit<Cursor, 'direction'>, direction: Direction): string =>
  Buffer.from(JSON.stringify([key.name, key.id, key.set, direction]), 'utf8').toString('base64url');

function decodeCursor(cursor: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 4 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      typeof value[2] === 'string' &&
      (value[3] === 'after' || value[3] === 'before')
    ) {
      return { name: value[0], id: value[1], set: value[2], direction: value[3] };
    }
  } catch {
    // Falls through to the 404 below.
  }
  throw notFound('Invalid cursor');
}

export interface DatasetElementJson {
  set: string;
  element: ElementListJson;
}

export interface DatasetElementPage {
  next: string | null;
  previous: string | null;
  results: DatasetElementJson[];
  count?: number;
}

export async function setByName(db: Db, dataset: Dataset, name: string): Promise<DatasetSet> {
  const set = await db
    .selectFrom('dataset_sets')
    .selectAll()
    .where('dataset_id', '=', dataset.id)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!set) throw validationError('set', DATASET_ELEMENT_MESSAGES.noSet(name));
  return set;
}

function memberQuery(db: Db, dataset: Dataset, setName: string | null) {
  let query = db
    .selectFrom('dataset_elements')
    .innerJoin('dataset_sets', 'dataset_sets.id', 'dataset_elements.set_id')
    .innerJoin('elements', 'elements.id', 'dataset_elements.element_id')
    .where('dataset_sets.dataset_id', '=', dataset.id);
  if (setName !== null) query = query.where('dataset_sets.name', '=', setName);
  return query;
}

export interface DatasetElementPageRequest {
  set: string | null;
  cursor: string | null;
  pageSize: number;
  withCount: boolean;
  origin: string;
  url: URL;
}

export async function datasetElementPage(
  db: Db,
  dataset: Dataset,
  request: DatasetElementPageRequest,
): Promise<DatasetElementPage> {
  const cursor = request.cursor === null ? null : decodeCursor(request.cursor);
  const backwards = cursor?.direction === 'before';
  let page = memberQuery(db, dataset, request.set)
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .leftJoin('users', 'users.id', 'elements.creator_id')
    .selectAll('elements')
    .select([
      'element_types.slug as type_slug',
      'element_types.folder as type_folder',
      'users.email as creator_email',
      'dataset_sets.name as set_name',
    ]);
  if (cursor) {
    const beyond = backwards ? '<' : '>';
    const { name, id, set } = cursor;
    page = page.where((eb) =>
      eb.or([
        eb('elements.name', beyond, name),
        eb.and([eb('elements.name', '=', name), eb('elements.id', beyond, id)]),
        eb.and([
          eb('elements.name', '=', name),
          eb('elements.id', '=', id),
          eb('dataset_sets.name', beyond, set),
        ]),
      ]),
    );
  }
  const order = backwards ? 'desc' : 'asc';
  const rows = await page
    .orderBy('elements.name', order)
    .orderBy('elements.id', order)
    .orderBy('dataset_sets.name', order)
    .limit(request.pageSize + 1)
    .execute();
  const more = rows.length > request.pageSize;
  const shown = rows.slice(0, request.pageSize);
  if (backwards) shown.reverse();
  const elements = await serializeElements(
    db,
    shown.map(({ set_name: _set, ...row }) => row as ElementRow),
    request.origin,
  );
  const results = shown.map((row, index) => ({ set: row.set_name, element: elements[index]! }));
  const link = (row: (typeof shown)[number] | undefined, direction: Direction) => {
    if (!row) return null;
    const url = new URL(request.url);
    url.searchParams.set(
      'cursor',
      encodeCursor({ name: row.name, id: row.id, set: row.set_name }, direction),
    );
    return url.toString();
  };
  const hasNext = backwards ? true : more;
  const hasPrevious = backwards ? more : cursor !== null;
  const count = request.withCount
    ? Number(
        (
          await memberQuery(db, dataset, request.set)
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      )
    : undefined;
  return {
    next: hasNext ? link(shown[shown.length - 1], 'after') : null,
    previous: hasPrevious ? link(shown[0], 'before') : null,
    results,
    ...(count === undefined ? {} : { count }),
  };
}

/** The dataset, held for the rest of the transaction (see lockDataset), if still open. */
async function lockOpenDataset(trx: Db, dialect: Dialect, datasetId: string): Promise<Dataset> {
  const current = await lockDataset(trx, dialect, datasetId);
  if (current.state !== 'open') throw badRequest(DATASET_MESSAGES.notOpen);
  return current;
}

/** The sets of this dataset holding these elements, by element id. */
async function setsHolding(
  db: Db,
  dataset: Dataset,
  elementIds: readonly string[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const part of chunks(elementIds, INSERT_CHUNK)) {
    const rows = await memberQuery(db, dataset, null)
      .select(['dataset_elements.element_id', 'dataset_sets.name'])
      .where('dataset_elements.element_id', 'in', part)
      .execute();
    for (const row of rows)
      found.set(row.element_id, [...(found.get(row.element_id) ?? []), row.name]);
  }
  return found;
}

export async function addElement(
  db: Db,
  dialect: Dialect,
  dataset: Dataset,
  input: { element_id: string; set: string },
): Promise<{ element_id: string; set: string }> {
  requireOpen(dataset);
  const set = await setByName(db, dataset, input.set);
  const elementId = input.element_id.toLowerCase();
  const element = await db
    .selectFrom('elements')
    .select('id')
    .where('id', '=', elementId)
    .where('corpus_id', '=', dataset.corpus_id)
    .executeTakeFirst();
  if (!element) throw invalidPk('element_id', input.element_id);
  await db.transaction().execute(async (trx) => {
    const current = await lockOpenDataset(trx, dialect, dataset.id);
    const held = (await setsHolding(trx, dataset, [elementId])).get(elementId) ?? [];
    if (held.includes(set.name))
      throw validationError('set', DATASET_ELEMENT_MESSAGES.alreadyInSet);
    if (current.unique_elements === 1 && held.length > 0) {
      throw validationError('set', DATASET_ELEMENT_MESSAGES.inOtherSet(held[0]!));
    }
    await trx
      .insertInto('dataset_elements')
      .values({ set_id: set.id, element_id: elementId, created: nowIso() })
      .execute();
  });
  return { element_id: elementId, set: set.name };
}

export async function removeElement(
  db: Db,
  dataset: Dataset,
  elementId: string,
  setName: string,
): Promise<void> {
  requireOpen(dataset);
  const set = await setByName(db, dataset, setName);
  const removed = await db
    .deleteFrom('dataset_elements')
    .where('set_id', '=', set.id)
    .where('element_id', '=', elementId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw notFound(DATASET_ELEMENT_MESSAGES.notInSet);
}

/** A set of this dataset, named by id in a body's set_id: another dataset's is an invalid pk. */
export async function requireOwnSet(db: Db, dataset: Dataset, setId: string): Promise<DatasetSet> {
  const set = await db
    .selectFrom('dataset_sets')
    .selectAll()
    .where('id', '=', setId.toLowerCase())
    .where('dataset_id', '=', dataset.id)
    .executeTakeFirst();
  if (!set) throw invalidPk('set_id', setId);
  return set;
}

/** A set of a dataset of this project, by id; any other is not found, whatever it is. */
export async function requireCorpusSet(
  db: Db,
  corpusId: string,
  setId: string,
): Promise<DatasetSet> {
  const set = await db
    .selectFrom('dataset_sets')
    .innerJoin('datasets', 'datasets.id', 'dataset_sets.dataset_id')
    .selectAll('dataset_sets')
    .where('dataset_sets.id', '=', setId.toLowerCase())
    .where('datasets.corpus_id', '=', corpusId)
    .executeTakeFirst();
  if (!set) throw notFound();
  return set;
}

/** CreateDatasetElementsSelection: the caller's selection of the dataset's project into a set. */
export async function addSelection(
  db: Db,
  dialect: Dialect,
  user: User,
  dataset: Dataset,
  set: DatasetSet,
): Promise<void> {
  requireOpen(dataset);
  const ids = await selectedIdsOfCorpus(db, user, dataset.corpus_id);
  await db.transaction().execute(async (trx) => {
    const current = await lockOpenDataset(trx, dialect, dataset.id);
    const held = await setsHolding(trx, dataset, ids);
    const elsewhere = ids.filter((id) =>
      (held.get(id) ?? []).some((name) => name !== set.name),
    ).length;
    if (current.unique_elements === 1 && elsewhere > 0) {
      throw badRequest(DATASET_ELEMENT_MESSAGES.selectionInOtherSet(elsewhere));
    }
    const added = ids.filter((id) => !(held.get(id) ?? []).includes(set.name));
    const created = nowIso();
    for (const part of chunks(added, INSERT_CHUNK)) {
      await trx
        .insertInto('dataset_elements')
        .values(part.map((id) => ({ set_id: set.id, element_id: id, created })))
        .execute();
    }
  });
}

export interface ElementSetJson {
  dataset: DatasetJson;
  set: string;
  previous: string | null;
  next: string | null;
}

async function neighbour(
  db: Db,
  setId: string,
  element: { id: string; name: string },
  direction: Direction,
): Promise<string | null> {
  const beyond = direction === 'after' ? '>' : '<';
  const order = direction === 'after' ? 'asc' : 'desc';
  const row = await db
    .selectFrom('dataset_elements')
    .innerJoin('elements', 'elements.id', 'dataset_elements.element_id')
    .select('elements.id')
    .where('dataset_elements.set_id', '=', setId)
    .where((eb) =>
      eb.or([
        eb('elements.name', beyond, element.name),
        eb.and([eb('elements.name', '=', element.name), eb('elements.id', beyond, element.id)]),
      ]),
    )
    .orderBy('elements.name', order)
    .orderBy('elements.id', order)
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** ListElementDatasetSets: the element's sets, by dataset name then set name. */
export async function elementSets(
  db: Db,
  element: { id: string; name: string; corpus_id: string },
  withNeighbors: boolean,
): Promise<ElementSetJson[]> {
  const rows = await db
    .selectFrom('dataset_elements')
    .innerJoin('dataset_sets', 'dataset_sets.id', 'dataset_elements.set_id')
    .innerJoin('datasets', 'datasets.id', 'dataset_sets.dataset_id')
    .select(['dataset_sets.id as set_id', 'dataset_sets.name as set_name', 'datasets.id'])
    .where('dataset_elements.element_id', '=', element.id)
    .where('datasets.corpus_id', '=', element.corpus_id)
    .orderBy('datasets.name')
    .orderBy('datasets.id')
    .orderBy('dataset_sets.name')
    .execute();
  const datasetIds = [...new Set(rows.map((row) => row.id))];
  const datasets =
    datasetIds.length === 0
      ? []
      : await db.selectFrom('datasets').selectAll().where('id', 'in', datasetIds).execute();
  const json = new Map(
    (await datasetsJson(db, datasets)).map((dataset) => [dataset.id, dataset] as const),
  );
  const results: ElementSetJson[] = [];
  for (const row of rows) {
    results.push({
      dataset: json.get(row.id)!,
      set: row.set_name,
      previous: withNeighbors ? await neighbour(db, row.set_id, element, 'before') : null,
      next: withNeighbors ? await neighbour(db, row.set_id, element, 'after') : null,
    });
  }
  return results;
}
