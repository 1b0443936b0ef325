/**
 * CreateClassifications `POST /classification/bulk/` (api/arkindex-api.md §4): a worker run's
 * classifications of one element, the `parent`, in one request. The parent is read as
 * CreateClassification reads its element (an unreadable one is an invalid pk; the write right
 * is needed), the worker run must be one of its project, and each class one of that project's.
 * A class given twice is refused ("Duplicated ML classes are not allowed from the same worker
 * run"), and so is one the worker run already gave the element, with the words of the single
 * create. Classifications start pending with the confidence given; all are stored, or none.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../clock';
import type { Db } from '../db';
import { chunks, INSERT_CHUNK } from '../db/chunks';
import type { Classification, User } from '../db/schema';
import { invalidPk, validationError, validationErrors, type ErrorItem } from '../errors';
import { checkRight, findElementAccess, readableCorpusIds } from '../permissions';
import { CLASSIFICATION_MESSAGES, lockElements } from './classifications';
import { requireProjectWorkerRun } from './workerRuns';

export const BULK_CLASSIFICATION_MESSAGES = {
  duplicated: 'Duplicated ML classes are not allowed from the same worker run',
} as const;

export interface BulkClassificationItem {
  ml_class: string;
  confidence: number;
  high_confidence: boolean;
}

export interface BulkClassificationsInput {
  parent: string;
  worker_run_id: string;
  classifications: BulkClassificationItem[];
}

export interface BulkClassificationJson {
  id: string;
  ml_class: string;
  confidence: number;
  high_confidence: boolean;
  state: 'pending';
}

export interface BulkClassificationsJson {
  parent: string;
  worker_run_id: string;
  classifications: BulkClassificationJson[];
}

/** Which of `ids` are classes of the corpus, and which other ones the caller can read. */
async function sortClasses(db: Db, user: User, corpusId: string, ids: string[]) {
  const inProject = new Set<string>();
  const elsewhere = new Set<string>();
  for (const part of chunks(ids, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('ml_classes')
      .select(['id', 'corpus_id'])
      .where('id', 'in', part)
      .where((eb) =>
        eb.or([eb('corpus_id', '=', corpusId), eb('corpus_id', 'in', readableCorpusIds(db, user))]),
      )
      .execute();
    for (const row of rows) (row.corpus_id === corpusId ? inProject : elsewhere).add(row.id);
  }
  return { inProject, elsewhere };
}

export async function createClassificationsBulk(
  db: Db,
  user: User,
  input: BulkClassificationsInput,
): Promise<BulkClassificationsJson> {
  const found = await findElementAccess(db, user, input.parent);
  if (!found) throw invalidPk('parent', input.parent);
  checkRight(found.access, 'write');
  const { element } = found;
  const workerRunId = await requireProjectWorkerRun(
    db,
    element.corpus_id,
    input.worker_run_id,
    undefined,
    user,
  );

  const classIds = input.classifications.map((item) => item.ml_class.toLowerCase());
  if (new Set(classIds).size !== classIds.length) {
    throw validationError('classifications', BULK_CLASSIFICATION_MESSAGES.duplicated, 'unique');
  }
  const { inProject, elsewhere } = await sortClasses(db, user, element.corpus_id, classIds);
  const errors: ErrorItem[] = [];
  classIds.forEach((id, index) => {
    if (inProject.has(id)) return;
    const attr = `classifications.${index}.ml_class`;
    errors.push(
      elsewhere.has(id)
        ? { code: 'invalid', detail: CLASSIFICATION_MESSAGES.otherProject, attr }
        : invalidPk(attr, input.classifications[index]!.ml_class).errors[0]!,
    );
  });
  if (errors.length) throw validationErrors(errors);

  const now = nowIso();
  const rows: Classification[] = input.classifications.map((item, index) => ({
    id: randomUUID(),
    element_id: element.id,
    ml_class_id: classIds[index]!,
    state: 'pending',
    confidence: item.confidence,
    high_confidence: item.high_confidence ? 1 : 0,
    worker_run_id: workerRunId,
    creator_id: user.id,
    moderator_id: null,
    created: now,
    updated: now,
  }));
  await db.transaction().execute(async (trx) => {
    // As CreateClassification: two requests cannot both find a class missing and both add it.
    await lockElements(trx, [element.id]);
    const existing = new Set<string>();
    for (const part of chunks(classIds, INSERT_CHUNK)) {
      const rows = await trx
        .selectFrom('classifications')
        .select('ml_class_id')
        .where('element_id', '=', element.id)
        .where('worker_run_id', '=', workerRunId)
        .where('ml_class_id', 'in', part)
        .execute();
      for (const row of rows) existing.add(row.ml_class_id);
    }
    const duplicates: ErrorItem[] = [];
    classIds.forEach((id, index) => {
      if (!existing.has(id)) return;
      duplicates.push({
        code: 'unique',
        detail: CLASSIFICATION_MESSAGES.duplicate,
        attr: `classifications.${index}.non_field_errors`,
      });
    });
    if (duplicates.length) throw validationErrors(duplicates);
    for (const part of chunks(rows, INSERT_CHUNK)) {
      await trx.insertInto('classifications').values(part).execute();
    }
  });
  return {
    parent: element.id,
    worker_run_id: workerRunId,
    classifications: rows.map((row) => ({
      id: row.id,
      ml_class: row.ml_class_id,
      confidence: row.confidence!,
      high_confidence: row.high_confidence === 1,
      state: 'pending',
    })),
  };
}
