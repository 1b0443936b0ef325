/**
 * CreateTranscriptions `POST /transcription/bulk/` (api/arkindex-api.md §5): a worker run's
 * transcriptions of any elements of its project, in one request. The worker run names the
 * project: it must be one the caller can read (otherwise it is an unknown id), and the caller
 * needs the write right there. Every element must be in that project; each one that is not is
 * named in the 400. All the transcriptions are stored in one transaction, or none.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../clock';
import type { Db } from '../db';
import type { TextOrientation, User } from '../db/schema';
import { invalidPk, validationErrors, type ErrorItem } from '../errors';
import {
  checkRight,
  findCorpusAccess,
  findElementAccess,
  readableElementIds,
  type CorpusAccess,
} from '../permissions';
import { chunks, INSERT_CHUNK } from '../db/chunks';

export const BULK_TRANSCRIPTION_MESSAGES = {
  otherProject: 'The element must belong to the same project as the worker run.',
} as const;

export interface BulkTranscriptionItem {
  element_id: string;
  text: string;
  confidence: number;
  orientation?: TextOrientation;
}

export interface BulkTranscriptionsInput {
  worker_run_id: string;
  transcriptions: BulkTranscriptionItem[];
}

export interface BulkTranscriptionJson {
  id: string;
  element_id: string;
  text: string;
  confidence: number;
  orientation: TextOrientation;
}

export interface BulkTranscriptionsJson {
  worker_run_id: string;
  transcriptions: BulkTranscriptionJson[];
}

/**
 * The worker run named in a body with the caller's rights on its project: an invalid pk on
 * `attr` when it is unknown or in a project the caller cannot read, 403 without write rights.
 */
async function requireWritableWorkerRun(
  db: Db,
  user: User,
  id: string,
  firstElementId: string | undefined,
  attr = 'worker_run_id',
): Promise<{ workerRunId: string; access: CorpusAccess }> {
  const run = await db
    .selectFrom('worker_runs')
    .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
    .select(['worker_runs.id', 'processes.corpus_id', 'processes.creator_id'])
    .where('worker_runs.id', '=', id.toLowerCase())
    .executeTakeFirst();
  // A run of the caller's local process belongs to no project: it writes in the elements'.
  const projectId =
    run?.corpus_id ??
    (run && run.creator_id === user.id && firstElementId
      ? (await findElementAccess(db, user, firstElementId))?.element.corpus_id
      : undefined);
  const access = projectId && (await findCorpusAccess(db, user, projectId));
  if (!run || !access) throw invalidPk(attr, id);
  checkRight(access, 'write');
  return { workerRunId: run.id, access };
}

/** Which of `ids` are elements of the corpus, and which other ones the caller can read. */
async function sortElements(
  db: Db,
  user: User,
  corpusId: string,
  ids: string[],
): Promise<{ inProject: Set<string>; elsewhere: Set<string> }> {
  const inProject = new Set<string>();
  for (const part of chunks(ids, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('elements')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) inProject.add(row.id);
  }
  const elsewhere = await readableElementIds(
    db,
    user,
    ids.filter((id) => !inProject.has(id)),
  );
  return { inProject, elsewhere };
}

export async function createTranscriptionsBulk(
  db: Db,
  user: User,
  input: BulkTranscriptionsInput,
): Promise<BulkTranscriptionsJson> {
  const { workerRunId, access } = await requireWritableWorkerRun(
    db,
    user,
    input.worker_run_id,
    input.transcriptions[0]?.element_id,
  );
  const items = input.transcriptions.map((item) => ({
    ...item,
    element_id: item.element_id.toLowerCase(),
  }));
  const ids = [...new Set(items.map((item) => item.element_id))];
  const { inProject, elsewhere } = await sortElements(db, user, access.corpus.id, ids);

  const errors: ErrorItem[] = [];
  items.forEach((item, index) => {
    if (inProject.has(item.element_id)) return;
    const attr = `transcriptions.${index}.element_id`;
    const original = input.transcriptions[index]!.element_id;
    errors.push(
      elsewhere.has(item.element_id)
        ? { code: 'invalid', detail: BULK_TRANSCRIPTION_MESSAGES.otherProject, attr }
        : invalidPk(attr, original).errors[0]!,
    );
  });
  if (errors.length) throw validationErrors(errors);

  const now = nowIso();
  const rows = items.map((item) => ({
    id: randomUUID(),
    element_id: item.element_id,
    text: item.text,
    orientation: item.orientation ?? ('horizontal-lr' as const),
    confidence: item.confidence,
    worker_run_id: workerRunId,
    creator_id: user.id,
    created: now,
    updated: now,
  }));
  await db.transaction().execute(async (trx) => {
    for (const part of chunks(rows, INSERT_CHUNK)) {
      await trx.insertInto('transcriptions').values(part).execute();
    }
  });
  return {
    worker_run_id: workerRunId,
    transcriptions: rows.map((row) => ({
      id: row.id,
      element_id: row.element_id,
      text: row.text,
      confidence: row.confidence,
      orientation: row.orientation,
    })),
  };
}
