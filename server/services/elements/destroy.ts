/**
 * The deletions the API offers: DestroyElement, DestroyElements (a project's filtered
 * elements) and DestroyElementChildren. Each needs the admin right; the route also asks for a
 * verified e-mail (spec 001 §6).
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { checkRight, type CorpusAccess, type ElementAccess } from '../../permissions';
import {
  deleteOrSchedule,
  type DeletionOutcome,
  type DeletionTarget,
  type RootsQuery,
} from './delete';
// Registers the job kind wherever a deletion may be scheduled.
import './deletionJob';
import { FILTER_PARAMS, QueryReader, readElementFilters, type QueryValues } from './filters';
import { countElements, filteredElements, type ListScope } from './lists';

/** Only the filters go into a job's payload: the rest of the query means nothing to it. */
function storedFilters(values: QueryValues, extra: string[] = []): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of [...FILTER_PARAMS, ...extra]) {
    if (values[name] !== undefined) kept[name] = values[name]!;
  }
  return kept;
}

function readDeleteChildren(reader: QueryReader): boolean {
  return reader.boolean('delete_children') ?? true;
}

export async function destroyElement(
  db: Db,
  user: User,
  found: ElementAccess,
  query: QueryValues,
): Promise<DeletionOutcome> {
  checkRight(found.access, 'admin');
  const reader = new QueryReader(query);
  const deleteChildren = readDeleteChildren(reader);
  reader.throwIfInvalid();
  const { element } = found;
  const roots: RootsQuery = db
    .selectFrom('elements')
    .select('elements.id')
    .where('elements.id', '=', element.id);
  const target: DeletionTarget = { kind: 'element', elementId: element.id };
  return deleteOrSchedule(
    db,
    roots,
    {
      payload: { target, deleteChildren },
      description: `Deleting element ${element.name}${deleteChildren ? ' and its children' : ''}`,
      userId: user.id,
      corpusId: element.corpus_id,
    },
    1,
  );
}

async function destroyFiltered(
  db: Db,
  user: User,
  corpusId: string,
  scope: ListScope,
  reader: QueryReader,
  target: DeletionTarget,
  describe: (count: number) => string,
): Promise<DeletionOutcome> {
  const deleteChildren = readDeleteChildren(reader);
  const filters = await readElementFilters(db, corpusId, reader, {
    topLevel: scope.kind === 'corpus',
  });
  reader.throwIfInvalid();
  const roots = filteredElements(db, scope, filters).select('elements.id');
  const count = await countElements(db, scope, filters);
  return deleteOrSchedule(
    db,
    roots,
    {
      payload: { target, deleteChildren },
      description: describe(count),
      userId: user.id,
      corpusId,
    },
    count,
  );
}

/** DELETE /corpus/{id}/elements/ with the list's filters. */
export async function destroyCorpusElements(
  db: Db,
  user: User,
  access: CorpusAccess,
  query: QueryValues,
): Promise<DeletionOutcome> {
  const { corpus } = checkRight(access, 'admin');
  return destroyFiltered(
    db,
    user,
    corpus.id,
    { kind: 'corpus', corpusId: corpus.id },
    new QueryReader(query),
    { kind: 'corpus', corpusId: corpus.id, query: storedFilters(query) },
    (count) => `Deleting ${count} elements of project ${corpus.name}`,
  );
}

/** DELETE /elements/{id}/children/ with the children list's filters (and `recursive`). */
export async function destroyChildren(
  db: Db,
  user: User,
  found: ElementAccess,
  query: QueryValues,
): Promise<DeletionOutcome> {
  checkRight(found.access, 'admin');
  const { element } = found;
  const reader = new QueryReader(query);
  const recursive = reader.boolean('recursive') ?? false;
  return destroyFiltered(
    db,
    user,
    element.corpus_id,
    { kind: 'children', parentId: element.id, recursive },
    reader,
    {
      kind: 'children',
      parentId: element.id,
      query: storedFilters(query, ['recursive']),
    },
    (count) => `Deleting ${count} ${recursive ? 'descendants' : 'children'} of ${element.name}`,
  );
}
