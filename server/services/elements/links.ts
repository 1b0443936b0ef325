/**
 * Changing where an element sits: MoveElement (from all its parents to one folder),
 * CreateElementParent (one more parent), CreateElementChildren (many children under one parent)
 * and DestroyElementParent. A link never crosses projects and never makes a loop; every parent
 * whose children change gets a new Last-Modified.
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import {
  ApiError,
  invalidPk,
  notFound,
  validationError,
  validationErrors,
  type ErrorItem,
} from '../../errors';
import {
  checkRight,
  findElementAccess,
  requireElementRight,
  type ElementAccess,
} from '../../permissions';
import { isUniqueViolation } from '../../repositories/constraints';
import { requireProjectWorkerRun } from '../workerRuns';
import {
  appendLinks,
  chunks,
  INSERT_CHUNK,
  isSelfOrAncestor,
  removeLinks,
  selfAndAncestorIds,
} from './repository';

export const LINK_MESSAGES = {
  sameProject: 'The source and destination must be in the same project.',
  notFolder: 'The destination must be a folder.',
  moveCycle: 'The destination cannot be the source or one of its descendants.',
  linkProject: 'The parent must be in the same project as the element.',
  linkCycle: 'The parent cannot be the element itself or one of its descendants.',
  alreadyLinked: 'This element is already a child of this parent.',
  listedTwice: 'This element is listed more than once.',
} as const;

/** A body id the caller cannot read is an invalid value of its field, existing or not. */
async function bodyElement(db: Db, user: User, attr: string, id: string): Promise<ElementAccess> {
  const found = await findElementAccess(db, user, id);
  if (!found) {
    throw validationError(attr, `Invalid pk "${id}" - object does not exist.`, 'does_not_exist');
  }
  return found;
}

export async function moveElement(
  db: Db,
  user: User,
  input: { source: string; destination: string },
): Promise<{ source: string; destination: string }> {
  const source = await bodyElement(db, user, 'source', input.source);
  checkRight(source.access, 'write');
  const destination = await bodyElement(db, user, 'destination', input.destination);
  checkRight(destination.access, 'write');
  if (source.element.corpus_id !== destination.element.corpus_id) {
    throw validationError('destination', LINK_MESSAGES.sameProject);
  }
  const type = await db
    .selectFrom('element_types')
    .select('folder')
    .where('id', '=', destination.element.type_id)
    .executeTakeFirstOrThrow();
  if (type.folder !== 1) throw validationError('destination', LINK_MESSAGES.notFolder);
  if (await isSelfOrAncestor(db, source.element.id, destination.element.id)) {
    throw validationError('destination', LINK_MESSAGES.moveCycle);
  }
  await db
    .transaction()
    .execute((trx) => moveUnder(trx, [source.element.id], destination.element.id));
  return { source: source.element.id, destination: destination.element.id };
}

/**
 * Takes each element from all its parents to the end of `destinationId`'s children: the one
 * write of MoveElement, shared with the selection's bulk move. Run it in a transaction, so an
 * element is never left with no parent or with both its old and new ones; its descendants
 * follow it, since they hang from it, not from its parents.
 */
export async function moveUnder(
  trx: Db,
  childIds: readonly string[],
  destinationId: string,
): Promise<void> {
  if (childIds.length === 0) return;
  await removeLinks(trx, childIds);
  await appendLinks(
    trx,
    childIds.map((childId) => ({ parentId: destinationId, childId })),
  );
}

/** The child and parent of a link path: both must be readable (404) and writable (403). */
async function linkEnds(
  db: Db,
  user: User,
  childId: string,
  parentId: string,
): Promise<{ child: ElementAccess; parent: ElementAccess }> {
  const child = await requireElementRight(db, user, childId, 'write');
  const parent = await findElementAccess(db, user, parentId);
  if (!parent) throw notFound();
  checkRight(parent.access, 'write');
  return { child, parent };
}

export async function linkElement(
  db: Db,
  user: User,
  childId: string,
  parentId: string,
): Promise<{ child: string; parent: string }> {
  const { child, parent } = await linkEnds(db, user, childId, parentId);
  if (child.element.corpus_id !== parent.element.corpus_id) {
    throw validationError('parent', LINK_MESSAGES.linkProject);
  }
  if (await isSelfOrAncestor(db, child.element.id, parent.element.id)) {
    throw validationError('parent', LINK_MESSAGES.linkCycle);
  }
  const existing = await db
    .selectFrom('element_links')
    .select('position')
    .where('parent_id', '=', parent.element.id)
    .where('child_id', '=', child.element.id)
    .executeTakeFirst();
  if (existing) throw validationError('parent', LINK_MESSAGES.alreadyLinked, 'unique');
  try {
    await db
      .transaction()
      .execute((trx) =>
        appendLinks(trx, [{ parentId: parent.element.id, childId: child.element.id }]),
      );
  } catch (error) {
    // Two requests linking the same pair at once: the primary key decides, as if sequential.
    if (isUniqueViolation(error))
      throw validationError('parent', LINK_MESSAGES.alreadyLinked, 'unique');
    throw error;
  }
  return { child: child.element.id, parent: parent.element.id };
}

/** Removes one parent; the element becomes top-level when it was its last one. */
export async function unlinkElement(
  db: Db,
  user: User,
  childId: string,
  parentId: string,
): Promise<void> {
  const { child, parent } = await linkEnds(db, user, childId, parentId);
  await db.transaction().execute(async (trx) => {
    if ((await removeLinks(trx, [child.element.id], parent.element.id)) === 0) throw notFound();
  });
}

export interface LinkChildrenInput {
  children: string[];
  worker_run_id?: string | null;
}

/**
 * CreateElementChildren: the listed elements become the last children of `found` (the parent,
 * from requireElementRight(…, 'write')), in the list's order. A child keeps its other parents;
 * one already under this parent moves to the end. Each child follows CreateElementParent's
 * rules, and every refusal is answered in one 400 under its place in the list
 * (`children.2`); all the links are made in one transaction, or none.
 *
 * Where Arkindex's behaviour is not known:
 * - "Grandchildren are not allowed" is read as: no child may be the parent or one of its
 *   ancestors (the loop it would make). A descendant further down may become a direct child,
 *   as CreateElementParent allows.
 * - A link records no worker run, so `worker_run_id` is checked (one of the project's runs)
 *   and nothing more.
 */
export async function linkChildren(
  db: Db,
  user: User,
  found: ElementAccess,
  input: LinkChildrenInput,
): Promise<{ children: string[] }> {
  checkRight(found.access, 'write');
  const parent = found.element;
  const errors: ErrorItem[] = [];

  if (input.worker_run_id) {
    try {
      await requireProjectWorkerRun(db, parent.corpus_id, input.worker_run_id, undefined, user);
    } catch (error) {
      if (!(error instanceof ApiError) || error.type !== 'validation_error') throw error;
      errors.push(...error.errors);
    }
  }

  const ids = input.children.map((id) => id.toLowerCase());
  const corpusOf = new Map<string, string>();
  for (const part of chunks([...new Set(ids)], INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('elements')
      .select(['id', 'corpus_id'])
      .where('id', 'in', part)
      .execute();
    for (const row of rows) corpusOf.set(row.id, row.corpus_id);
  }
  const loop = await selfAndAncestorIds(db, parent.id);
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    const attr = `children.${index}`;
    const corpusId = corpusOf.get(id);
    if (corpusId !== parent.corpus_id) {
      // Another project's element is named only to those who may read it.
      const readable = corpusId !== undefined && (await findElementAccess(db, user, id));
      errors.push(
        ...(readable
          ? validationError(attr, LINK_MESSAGES.linkProject)
          : invalidPk(attr, input.children[index]!)
        ).errors,
      );
    } else if (loop.has(id)) {
      errors.push(...validationError(attr, LINK_MESSAGES.linkCycle).errors);
    } else if (seen.has(id)) {
      errors.push(...validationError(attr, LINK_MESSAGES.listedTwice, 'unique').errors);
    }
    seen.add(id);
  }
  if (errors.length) throw validationErrors(errors);

  const link = () =>
    db.transaction().execute(async (inner) => {
      // Those already under the parent leave their place first, to come back at the end.
      await removeLinks(inner, ids, parent.id);
      await appendLinks(
        inner,
        ids.map((childId) => ({ parentId: parent.id, childId })),
      );
    });
  try {
    await link();
  } catch (error) {
    // The same children linked by another request at that moment: once more, after it.
    if (!isUniqueViolation(error)) throw error;
    await link();
  }
  return { children: ids };
}
