/**
 * The user's selection of elements (spec 001 §2 "Selection page", §6 "Selection", §7
 * "Selection"; api/arkindex-api.md §3.5): a per-user list kept on the server, which bulk
 * actions such as ClassificationSelection work on.
 *
 * - Selecting only needs to read the element: the selection is the user's own, it changes
 *   nothing in the project. Every call needs a verified e-mail and the selection feature (the
 *   routes check both).
 * - An element leaves every selection when it is deleted (the cascade of migration 0009). One in
 *   a project the user can no longer read stays stored but is never listed nor acted on; adding
 *   to the selection drops such rows, so what counts against the cap is what the user sees.
 * - One call adds at most SELECTION_ADD_MAX elements and a selection holds at most
 *   SELECTION_MAX; the user's row is locked while adding so two calls cannot pass the cap
 *   together.
 */
import { invalidPk, permissionDenied, validationError } from '../errors';
import type { Db } from '../db';
import type { User } from '../db/schema';
import { nowIso } from '../clock';
import { countRows, type PageSource } from '../pagination';
import { readableCorpusIds, readableElementIds } from '../permissions';
import { chunks, INSERT_CHUNK, type ElementRow } from './elements/repository';

/** The most elements one selection holds. */
export const SELECTION_MAX = 10_000;

/** The most elements one call adds. */
export const SELECTION_ADD_MAX = 500;

export const SELECTION_MESSAGES = {
  disabled: 'The selection feature is disabled on this server.',
  empty: 'This list may not be empty.',
  tooMany: (max: number) => `Ensure this field has no more than ${max} elements.`,
  full: (held: number, adding: number) =>
    `A selection holds at most ${SELECTION_MAX} elements: yours has ${held} and this would add ` +
    `${adding}. Unselect some elements first.`,
} as const;

/** For the routes: the selection feature is off on this server. */
export function selectionDisabled() {
  return permissionDenied(SELECTION_MESSAGES.disabled);
}

/** The user's rows whose elements they can read, of one project when `corpusId` is given. */
function visibleSelection(db: Db, user: User, corpusId: string | null) {
  let query = db
    .selectFrom('selections')
    .innerJoin('elements', 'elements.id', 'selections.element_id')
    .where('selections.user_id', '=', user.id)
    .where('elements.corpus_id', 'in', readableCorpusIds(db, user));
  if (corpusId) query = query.where('elements.corpus_id', '=', corpusId);
  return query;
}

/**
 * ListSelection: the selected elements the user can read, grouped by project (by its name) and
 * by name within one, as element list rows for serializeElements.
 */
export function selectionSource(
  db: Db,
  user: User,
  corpusId: string | null,
): PageSource<ElementRow> {
  return {
    count: () => countRows(visibleSelection(db, user, corpusId)),
    fetch({ limit, offset }) {
      return visibleSelection(db, user, corpusId)
        .innerJoin('corpora', 'corpora.id', 'elements.corpus_id')
        .innerJoin('element_types', 'element_types.id', 'elements.type_id')
        .leftJoin('users', 'users.id', 'elements.creator_id')
        .selectAll('elements')
        .select([
          'element_types.slug as type_slug',
          'element_types.folder as type_folder',
          'users.email as creator_email',
        ])
        .orderBy('corpora.name')
        .orderBy('corpora.id')
        .orderBy('elements.name')
        .orderBy('elements.id')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}

/**
 * The selected elements of one project, in the order they were selected (one call's by id).
 * The caller has checked that the user reads the project, so all of them are visible.
 */
export async function selectedIdsOfCorpus(db: Db, user: User, corpusId: string): Promise<string[]> {
  const rows = await visibleSelection(db, user, corpusId)
    .select('elements.id')
    .orderBy('selections.created')
    .orderBy('elements.id')
    .limit(SELECTION_MAX)
    .execute();
  return rows.map((row) => row.id);
}

/** Checks the size of a list of ids before each id is read. */
export function checkAddedCount(count: number): void {
  if (count === 0) throw validationError('ids', SELECTION_MESSAGES.empty, 'empty');
  if (count > SELECTION_ADD_MAX) {
    throw validationError('ids', SELECTION_MESSAGES.tooMany(SELECTION_ADD_MAX), 'max_length');
  }
}

/**
 * The ids that are elements the user reads (lower-cased, once each), or a 400 naming the first
 * that is not.
 */
async function requireReadableElements(db: Db, user: User, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await readableElementIds(db, user, wanted);
  const missing = ids.find((id) => !found.has(id.toLowerCase()));
  if (missing !== undefined) throw invalidPk('ids', missing);
  return wanted;
}

/** AddSelection: the elements join the selection; those already in it are left as they are. */
export async function addToSelection(db: Db, user: User, ids: string[]): Promise<void> {
  checkAddedCount(ids.length);
  const wanted = await requireReadableElements(db, user, ids);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set((eb) => ({ updated: eb.ref('updated') }))
      .where('id', '=', user.id)
      .execute();
    // Rows the user can no longer see would count against the cap without being shown.
    await trx
      .deleteFrom('selections')
      .where('user_id', '=', user.id)
      .where('element_id', 'in', (eb) =>
        eb
          .selectFrom('elements')
          .select('elements.id')
          .where('elements.corpus_id', 'not in', readableCorpusIds(trx, user)),
      )
      .execute();
    const held = await trx
      .selectFrom('selections')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const already = await trx
      .selectFrom('selections')
      .select('element_id')
      .where('user_id', '=', user.id)
      .where('element_id', 'in', wanted)
      .execute();
    const known = new Set(already.map((row) => row.element_id));
    const added = wanted.filter((id) => !known.has(id));
    if (added.length === 0) return;
    if (Number(held.count) + added.length > SELECTION_MAX) {
      throw validationError(
        'ids',
        SELECTION_MESSAGES.full(Number(held.count), added.length),
        'selection_full',
      );
    }
    const created = nowIso();
    for (const part of chunks(added, INSERT_CHUNK)) {
      await trx
        .insertInto('selections')
        .values(part.map((id) => ({ user_id: user.id, element_id: id, created })))
        .onConflict((oc) => oc.columns(['user_id', 'element_id']).doNothing())
        .execute();
    }
  });
}

/** RemoveSelection of one element: unselecting an element that is not selected changes nothing. */
export async function removeFromSelection(db: Db, user: User, elementId: string): Promise<void> {
  await db
    .deleteFrom('selections')
    .where('user_id', '=', user.id)
    .where('element_id', '=', elementId.toLowerCase())
    .execute();
}

/** RemoveSelection without an id: the whole selection, whichever projects it spans. */
export async function clearSelection(db: Db, user: User): Promise<void> {
  await db.deleteFrom('selections').where('user_id', '=', user.id).execute();
}
