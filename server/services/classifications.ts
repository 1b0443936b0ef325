/**
 * ML classes and classifications (spec 001 §3, §4 "Classification", §5 "Classification", §7
 * "Classifications"; api/arkindex-api.md §4).
 *
 * - A project's ML classes are read by whoever reads the project and managed by its admins.
 * - A classification made by a person (no worker run) is their own assertion: it is created
 *   validated, with confidence 1.0 and high confidence, whatever the body says, as Arkindex
 *   does ("Manual classifications default to confidence 1.0"; validate is disabled once done
 *   in the panel, which shows a manual one with only a trash icon). Rejecting it deletes it.
 * - A classification of a worker run starts pending with the confidence it was given (which it
 *   must have); rejecting it keeps it, rejected. Validating or rejecting twice changes nothing.
 * - ClassificationSelection works on the caller's stored selection of elements in one project
 *   (services/selection.ts, api/arkindex-api.md §3.5), as spec 001 §7 calls it.
 * - (element, ml_class, worker_run) is unique, a null worker run counting as one value. No
 *   database constraint says so (a null never collides in a unique index), so a write locks
 *   the element's row first and two concurrent creations cannot both pass the check.
 */
import { requireProjectWorkerRun } from './workerRuns';
import { randomUUID } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db';
import type { Classification, MlClass, User } from '../db/schema';
import { nowIso } from '../clock';
import { invalidPk, notFound, validationError } from '../errors';
import { countRows, type PageSource } from '../pagination';
import {
  checkRight,
  findCorpusAccess,
  findElementAccess,
  requireProjectRowRight,
  requireUuid,
  type CorpusAccess,
  type Right,
} from '../permissions';
import { isUniqueViolation } from '../repositories/constraints';
import { chunks, INSERT_CHUNK } from './elements/repository';
import { classificationsByElement, type ClassificationJson } from './elements/serialize';
import { bumpVersions, nextVersion } from '../versions';
import { selectedIdsOfCorpus } from './selection';

export const CLASS_NAME_MAX = 1024;

export const CLASSIFICATION_MESSAGES = {
  duplicateClass: (name: string) => `Class ${name} already exists in this corpus.`,
  classInUse: 'Some classifications are using this ML class.',
  duplicateManual: 'A manual classification for this ML class already exists.',
  duplicate: 'This classification already exists on this element.',
  otherProject: 'The ML class must belong to the same project as the element.',
  confidenceRequired: 'A classification made by a worker run needs a confidence.',
  emptySelection: 'Your selection has no elements of this project.',
} as const;

// Shared with metadata ----------------------------------------------------------------------

/**
 * Takes the row lock of these elements until the transaction ends (PostgreSQL; SQLite runs
 * one write transaction at a time anyway), so checks made after it hold until the commit.
 */
export async function lockElements(db: Db, ids: readonly string[]): Promise<void> {
  for (const part of chunks(ids, INSERT_CHUNK)) {
    await db
      .updateTable('elements')
      .set((eb) => ({ updated: eb.ref('updated') }))
      .where('id', 'in', part)
      .execute();
  }
}

// ML classes -------------------------------------------------------------------------------

export interface MlClassJson {
  id: string;
  name: string;
}

export function mlClassJson(row: MlClass): MlClassJson {
  return { id: row.id, name: row.name };
}

/** `name LIKE %text%` whatever the case, with the text's own % and _ taken literally. */
function nameContains(text: string) {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // SQLite has no default escape character: the clause is spelled out for both dialects.
  return sql<SqlBool>`lower(name) like lower(${pattern}) escape '\\'`;
}

/** ListCorpusMLClasses: the project's classes by name, `search` keeping names containing it. */
export function mlClassSource(
  db: Db,
  corpusId: string,
  search: string | undefined,
): PageSource<MlClassJson> {
  const base = () => {
    let query = db.selectFrom('ml_classes').where('corpus_id', '=', corpusId);
    if (search) query = query.where(nameContains(search));
    return query;
  };
  return {
    count: () => countRows(base()),
    async fetch({ limit, offset }) {
      const rows = await base()
        .selectAll()
        .orderBy('name')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(mlClassJson);
    },
  };
}

export interface MlClassAccess {
  mlClass: MlClass;
  access: CorpusAccess;
}

/** A class named in a path under its project: 404 and 403 as requireProjectRowRight says. */
export async function requireMlClassRight(
  db: Db,
  user: User | null,
  corpusId: string,
  classId: string,
  right: Right,
): Promise<MlClassAccess> {
  const { row, access } = await requireProjectRowRight(
    db,
    user,
    corpusId,
    'ml_classes',
    classId,
    right,
  );
  return { mlClass: row, access };
}

function duplicateClass(name: string) {
  return validationError('name', CLASSIFICATION_MESSAGES.duplicateClass(name), 'unique');
}

async function classNamed(db: Db, corpusId: string, name: string) {
  return db
    .selectFrom('ml_classes')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/** CreateMLClass; `access` comes from requireCorpusRight(…, 'admin'). */
export async function createMlClass(
  db: Db,
  access: CorpusAccess,
  name: string,
): Promise<MlClassJson> {
  checkRight(access, 'admin');
  if (await classNamed(db, access.corpus.id, name)) throw duplicateClass(name);
  const row: MlClass = { id: randomUUID(), corpus_id: access.corpus.id, name };
  try {
    await db.insertInto('ml_classes').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateClass(name);
    throw error;
  }
  return mlClassJson(row);
}

export async function renameMlClass(
  db: Db,
  found: MlClassAccess,
  name: string | undefined,
): Promise<MlClassJson> {
  checkRight(found.access, 'admin');
  const { mlClass } = found;
  if (name === undefined || name === mlClass.name) return mlClassJson(mlClass);
  if (await classNamed(db, mlClass.corpus_id, name)) throw duplicateClass(name);
  try {
    await db.updateTable('ml_classes').set({ name }).where('id', '=', mlClass.id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateClass(name);
    throw error;
  }
  return mlClassJson({ ...mlClass, name });
}

/** A class still used by classifications is kept: deleting it would delete them too. */
export async function deleteMlClass(db: Db, found: MlClassAccess): Promise<void> {
  checkRight(found.access, 'admin');
  const used = await db
    .selectFrom('classifications')
    .select('id')
    .where('ml_class_id', '=', found.mlClass.id)
    .executeTakeFirst();
  if (used) throw validationError(null, CLASSIFICATION_MESSAGES.classInUse);
  await db.deleteFrom('ml_classes').where('id', '=', found.mlClass.id).execute();
}

// Classifications --------------------------------------------------------------------------

/**
 * A classification as every answer shows it: read through the element serializer's
 * classificationsByElement, so there is one shape and one worker run summary for it.
 */
async function classificationById(
  db: Db,
  elementId: string,
  id: string,
): Promise<ClassificationJson> {
  const found = (await classificationsByElement(db, [elementId])).get(elementId) ?? [];
  const json = found.find((item) => item.id === id);
  if (!json) throw notFound();
  return json;
}

export interface NewClassificationInput {
  element: string;
  ml_class: string;
  worker_run_id?: string | null;
  confidence?: number | null;
  high_confidence?: boolean;
}

/**
 * The class named in a body for an element of `corpusId`: a class of another project the caller
 * can read is told apart from one they cannot see, which reads as unknown.
 */
async function requireClassOfCorpus(
  db: Db,
  user: User,
  corpusId: string,
  classId: string,
  attr: string,
): Promise<MlClass> {
  const mlClass = await db
    .selectFrom('ml_classes')
    .selectAll()
    .where('id', '=', classId.toLowerCase())
    .executeTakeFirst();
  if (mlClass?.corpus_id === corpusId) return mlClass;
  if (mlClass && (await findCorpusAccess(db, user, mlClass.corpus_id))) {
    throw validationError(attr, CLASSIFICATION_MESSAGES.otherProject);
  }
  throw invalidPk(attr, classId);
}

/** Whether the element already has a classification of this class by this worker run. */
async function existingClassification(
  db: Db,
  elementId: string,
  classId: string,
  workerRunId: string | null,
): Promise<boolean> {
  const row = await db
    .selectFrom('classifications')
    .select('id')
    .where('element_id', '=', elementId)
    .where('ml_class_id', '=', classId)
    .where('worker_run_id', workerRunId === null ? 'is' : '=', workerRunId)
    .executeTakeFirst();
  return !!row;
}

function manualValues(user: User, now: string) {
  return {
    state: 'validated' as const,
    confidence: 1,
    high_confidence: 1 as const,
    worker_run_id: null,
    creator_id: user.id,
    moderator_id: user.id,
    created: now,
    updated: now,
  };
}

/** CreateClassification: write right on the element's project. */
export async function createClassification(
  db: Db,
  user: User,
  input: NewClassificationInput,
): Promise<ClassificationJson> {
  // The element comes from the body: one the caller cannot see is an invalid value of it.
  const found = await findElementAccess(db, user, input.element);
  if (!found) throw invalidPk('element', input.element);
  checkRight(found.access, 'write');
  const { element } = found;
  const mlClass = await requireClassOfCorpus(
    db,
    user,
    element.corpus_id,
    input.ml_class,
    'ml_class',
  );
  const workerRunId = input.worker_run_id
    ? await requireProjectWorkerRun(db, element.corpus_id, input.worker_run_id, undefined, user)
    : null;
  if (workerRunId && (input.confidence === undefined || input.confidence === null)) {
    throw validationError('confidence', CLASSIFICATION_MESSAGES.confidenceRequired, 'required');
  }
  const now = nowIso();
  const row: Classification = {
    id: randomUUID(),
    element_id: element.id,
    ml_class_id: mlClass.id,
    ...(workerRunId
      ? {
          state: 'pending',
          confidence: input.confidence!,
          high_confidence: input.high_confidence ? 1 : 0,
          worker_run_id: workerRunId,
          creator_id: user.id,
          moderator_id: null,
          created: now,
          updated: now,
        }
      : manualValues(user, now)),
  };
  await db.transaction().execute(async (trx) => {
    await lockElements(trx, [element.id]);
    if (await existingClassification(trx, element.id, mlClass.id, workerRunId)) {
      throw validationError(
        'non_field_errors',
        workerRunId ? CLASSIFICATION_MESSAGES.duplicate : CLASSIFICATION_MESSAGES.duplicateManual,
        'unique',
      );
    }
    await trx.insertInto('classifications').values(row).execute();
  });
  return classificationById(db, element.id, row.id);
}

export interface ClassificationAccess {
  classification: Classification;
  access: CorpusAccess;
}

/** A classification named in a path: 404 when its project is unreadable, 403 without `right`. */
export async function requireClassificationRight(
  db: Db,
  user: User | null,
  id: string,
  right: Right,
): Promise<ClassificationAccess> {
  const classification = await db
    .selectFrom('classifications')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!classification) throw notFound();
  const found = await findElementAccess(db, user, classification.element_id);
  if (!found) throw notFound();
  checkRight(found.access, right);
  return { classification, access: found.access };
}

/** ValidateClassification: validated by this user; validating twice changes nothing. */
export async function validateClassification(
  db: Db,
  user: User,
  found: ClassificationAccess,
): Promise<ClassificationJson> {
  checkRight(found.access, 'write');
  const { classification } = found;
  if (classification.state !== 'validated') {
    await db
      .updateTable('classifications')
      .set({
        state: 'validated',
        moderator_id: user.id,
        updated: nextVersion(classification.updated),
      })
      .where('id', '=', classification.id)
      .execute();
  }
  return classificationById(db, classification.element_id, classification.id);
}

/**
 * RejectClassification: a manual classification is deleted (null: the route answers 204),
 * another one is marked rejected; rejecting twice changes nothing.
 */
export async function rejectClassification(
  db: Db,
  user: User,
  found: ClassificationAccess,
): Promise<ClassificationJson | null> {
  checkRight(found.access, 'write');
  const { classification } = found;
  if (classification.worker_run_id === null) {
    await db.deleteFrom('classifications').where('id', '=', classification.id).execute();
    return null;
  }
  if (classification.state !== 'rejected') {
    await db
      .updateTable('classifications')
      .set({
        state: 'rejected',
        moderator_id: user.id,
        updated: nextVersion(classification.updated),
      })
      .where('id', '=', classification.id)
      .execute();
  }
  return classificationById(db, classification.element_id, classification.id);
}

// Selection --------------------------------------------------------------------------------

export interface SelectionInput {
  mode: 'create' | 'validate';
  corpus_id: string;
  ml_class?: string | null;
}

export interface SelectionResult {
  mode: 'create' | 'validate';
  corpus_id: string;
  ml_class: string | null;
  /** The project's selected elements acted on, in selection order (one call's by id). */
  ids: string[];
  /** Classifications created (create) or validated (validate). */
  count: number;
}

/**
 * ClassificationSelection over the caller's selected elements of one project (at most
 * SELECTION_MAX, the cap of a selection): `create` gives each element a manual
 * classification of `ml_class` unless it has one; `validate` validates their pending
 * classifications, of `ml_class` only when one is named.
 */
export async function classifySelection(
  db: Db,
  user: User,
  input: SelectionInput,
): Promise<SelectionResult> {
  const access = await findCorpusAccess(db, user, input.corpus_id);
  if (!access) throw invalidPk('corpus_id', input.corpus_id);
  checkRight(access, 'write');
  const corpusId = access.corpus.id;
  if (input.mode === 'create' && !input.ml_class) {
    throw validationError('ml_class', 'This field is required.', 'required');
  }
  const mlClass = input.ml_class
    ? await requireClassOfCorpus(db, user, corpusId, input.ml_class, 'ml_class')
    : null;
  const ids = await selectedIdsOfCorpus(db, user, corpusId);
  if (ids.length === 0) {
    throw validationError('non_field_errors', CLASSIFICATION_MESSAGES.emptySelection, 'empty');
  }
  let count = 0;
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (input.mode === 'create') {
      await lockElements(trx, ids);
      for (const part of chunks(ids, INSERT_CHUNK)) {
        const classified = await trx
          .selectFrom('classifications')
          .select('element_id')
          .where('element_id', 'in', part)
          .where('ml_class_id', '=', mlClass!.id)
          .where('worker_run_id', 'is', null)
          .execute();
        const skip = new Set(classified.map((row) => row.element_id));
        const values = part
          .filter((id) => !skip.has(id))
          .map((id) => ({
            id: randomUUID(),
            element_id: id,
            ml_class_id: mlClass!.id,
            ...manualValues(user, now),
          }));
        if (values.length) await trx.insertInto('classifications').values(values).execute();
        count += values.length;
      }
      return;
    }
    for (const part of chunks(ids, INSERT_CHUNK)) {
      let pending = trx
        .selectFrom('classifications')
        .select('id')
        .where('element_id', 'in', part)
        .where('state', '=', 'pending');
      if (mlClass) pending = pending.where('ml_class_id', '=', mlClass.id);
      const validated = (await pending.execute()).map((row) => row.id);
      if (!validated.length) continue;
      await trx
        .updateTable('classifications')
        .set({ state: 'validated', moderator_id: user.id })
        .where('id', 'in', validated)
        .execute();
      await bumpVersions(trx, 'classifications', validated, now);
      count += validated.length;
    }
  });
  return {
    mode: input.mode,
    corpus_id: corpusId,
    ml_class: mlClass?.id ?? null,
    ids,
    count,
  };
}
