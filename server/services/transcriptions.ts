/**
 * Transcriptions of elements (spec 001 §4 "Transcription", §5, §6; api/arkindex-api.md §5).
 * Anyone who can read a project lists them; creating, copying and editing need write rights;
 * deleting one made by a worker run needs admin rights. A transcription made by a worker run,
 * or one that entities point into, is never edited: it is copied into a manual one instead, so
 * a worker's result and the offsets of entities always match the text they were made on.
 */
import { requireProjectWorkerRun } from './workerRuns';
import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import { nowIso } from '../clock';
import type { Db } from '../db';
import type { TextOrientation, Transcription, TranscriptionTable, User } from '../db/schema';
import { notFound, permissionDenied, validationError } from '../errors';
import { countRows, type PageSource } from '../pagination';
import {
  checkRight,
  findCorpusAccess,
  type CorpusAccess,
  type ElementAccess,
  type Right,
} from '../permissions';
import { scopedElements } from './elements/lists';
import { chunks, INSERT_CHUNK } from './elements/repository';
import { workerRunJson, type WorkerRunJson } from './elements/serialize';
import { workerRunSummaries } from './workerRuns';
import { bumpVersions, nextVersion } from '../versions';

export const ORIENTATIONS = [
  'horizontal-lr',
  'horizontal-rl',
  'vertical-lr',
  'vertical-rl',
] as const satisfies readonly TextOrientation[];

/** Longer than any page of text, short enough that one request cannot fill the database. */
export const TEXT_MAX_LENGTH = 100_000;

export const TRANSCRIPTION_MESSAGES = {
  changed: 'This transcription was changed by someone else since your edit was made.',
  madeByWorkerRun:
    'A transcription made by a worker run cannot be edited: copy it into a manual transcription instead.',
  usedByEntities: 'A transcription used by entities cannot be edited.',
  adminToDelete:
    'An admin right on the project is required to delete a transcription with a worker run.',
} as const;

export interface TranscriptionJson {
  id: string;
  text: string;
  confidence: number | null;
  orientation: TextOrientation;
  worker_run: WorkerRunJson | null;
  /** The element the transcription belongs to: useful in recursive lists. */
  element: { id: string; name: string; type: string };
  /** Entities found in the text; while above zero the transcription cannot be edited. */
  entity_count: number;
}

/** A transcription with what its JSON shows of its element. */
export interface TranscriptionRow extends Transcription {
  element_name: string;
  element_type: string;
}

export interface TranscriptionAccess {
  transcription: Transcription;
  access: CorpusAccess;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Repository -----------------------------------------------------------------------------

function rowsQuery(db: Db) {
  return db
    .selectFrom('transcriptions')
    .innerJoin('elements', 'elements.id', 'transcriptions.element_id')
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .selectAll('transcriptions')
    .select(['elements.name as element_name', 'element_types.slug as element_type']);
}

export async function transcriptionRowById(
  db: Db,
  id: string,
): Promise<TranscriptionRow | undefined> {
  return rowsQuery(db).where('transcriptions.id', '=', id).executeTakeFirst();
}

async function entityCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const part of chunks(ids, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('transcription_entities')
      .select(['transcription_id', (eb) => eb.fn.countAll().as('count')])
      .where('transcription_id', 'in', part)
      .groupBy('transcription_id')
      .execute();
    for (const row of rows) counts.set(row.transcription_id, Number(row.count));
  }
  return counts;
}

/** A page of rows as JSON: one query for their worker runs, one for their entity counts. */
export async function serializeTranscriptions(
  db: Db,
  rows: TranscriptionRow[],
): Promise<TranscriptionJson[]> {
  const [summaries, counts] = await Promise.all([
    workerRunSummaries(
      db,
      rows.map((row) => row.worker_run_id),
    ),
    entityCounts(
      db,
      rows.map((row) => row.id),
    ),
  ]);
  return rows.map((row) => ({
    id: row.id,
    text: row.text,
    confidence: row.confidence,
    orientation: row.orientation,
    worker_run: workerRunJson(row.worker_run_id, summaries),
    element: { id: row.element_id, name: row.element_name, type: row.element_type },
    entity_count: counts.get(row.id) ?? 0,
  }));
}

export async function transcriptionJson(db: Db, id: string): Promise<TranscriptionJson> {
  const row = await transcriptionRowById(db, id);
  if (!row) throw new Error(`Transcription ${id} vanished`);
  const [json] = await serializeTranscriptions(db, [row]);
  return json!;
}

export interface TranscriptionFilters {
  recursive: boolean;
  /** An element type of the project, already checked. */
  elementTypeId?: string;
  /** A worker run id, or null for manual transcriptions. */
  workerRun?: string | null;
}

/**
 * ListTranscriptions: the element's transcriptions, and with `recursive` those of every
 * element below it too, oldest first.
 */
export function transcriptionSource(
  db: Db,
  elementId: string,
  filters: TranscriptionFilters,
): PageSource<TranscriptionRow> {
  const filtered = <Q extends ReturnType<typeof rowsQuery>>(query: Q): Q => {
    let result = query.where((eb) =>
      filters.recursive
        ? eb.or([
            eb('transcriptions.element_id', '=', elementId),
            eb(
              'transcriptions.element_id',
              'in',
              scopedElements(db, { kind: 'children', parentId: elementId, recursive: true }).select(
                'elements.id',
              ),
            ),
          ])
        : eb('transcriptions.element_id', '=', elementId),
    );
    if (filters.elementTypeId !== undefined) {
      result = result.where('elements.type_id', '=', filters.elementTypeId);
    }
    if (filters.workerRun !== undefined) {
      result =
        filters.workerRun === null
          ? result.where('transcriptions.worker_run_id', 'is', null)
          : result.where('transcriptions.worker_run_id', '=', filters.workerRun);
    }
    return result as Q;
  };
  return {
    count: () => countRows(filtered(rowsQuery(db))),
    fetch: ({ limit, offset }) =>
      filtered(rowsQuery(db))
        .orderBy('transcriptions.created')
        .orderBy('transcriptions.id')
        .limit(limit)
        .offset(offset)
        .execute(),
  };
}

// Rights ---------------------------------------------------------------------------------

/**
 * The transcription with the caller's rights on its project, or null when the id is not a
 * UUID, is unknown, or lies in a project the caller cannot read: all three look the same.
 */
export async function findTranscriptionAccess(
  db: Db,
  user: User | null,
  id: string,
): Promise<TranscriptionAccess | null> {
  if (!UUID.test(id)) return null;
  const row = await db
    .selectFrom('transcriptions')
    .innerJoin('elements', 'elements.id', 'transcriptions.element_id')
    .selectAll('transcriptions')
    .select('elements.corpus_id')
    .where('transcriptions.id', '=', id.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  const { corpus_id: corpusId, ...transcription } = row;
  const access = await findCorpusAccess(db, user, corpusId);
  return access ? { transcription, access } : null;
}

/** A transcription named in a path: 404 when unreadable, 403 when the right is missing. */
export async function requireTranscriptionRight(
  db: Db,
  user: User | null,
  id: string,
  right: Right,
): Promise<TranscriptionAccess> {
  const found = await findTranscriptionAccess(db, user, id);
  if (!found) throw notFound();
  checkRight(found.access, right);
  return found;
}

/** Deleting a worker run's transcription takes an admin; a manual one, a contributor. */
export function requireCanDelete(found: TranscriptionAccess): void {
  checkRight(found.access, 'write');
  if (found.transcription.worker_run_id && !found.access.rights.includes('admin')) {
    throw permissionDenied(TRANSCRIPTION_MESSAGES.adminToDelete);
  }
}

// Service --------------------------------------------------------------------------------

export interface NewTranscription {
  text: string;
  orientation?: TextOrientation;
  confidence?: number | null;
  worker_run_id?: string | null;
}

/** CreateTranscription. `found` comes from requireElementRight(…, 'write'). */
export async function createTranscription(
  db: Db,
  user: User,
  found: ElementAccess,
  input: NewTranscription,
): Promise<{ json: TranscriptionJson; updated: string }> {
  checkRight(found.access, 'write');
  const workerRunId = input.worker_run_id
    ? await requireProjectWorkerRun(
        db,
        found.element.corpus_id,
        input.worker_run_id,
        undefined,
        user,
      )
    : null;
  const now = nowIso();
  const id = randomUUID();
  await db
    .insertInto('transcriptions')
    .values({
      id,
      element_id: found.element.id,
      text: input.text,
      orientation: input.orientation ?? 'horizontal-lr',
      confidence: input.confidence ?? null,
      worker_run_id: workerRunId,
      creator_id: user.id,
      created: now,
      updated: now,
    })
    .execute();
  return { json: await transcriptionJson(db, id), updated: now };
}

export interface TranscriptionChanges {
  text?: string;
  orientation?: TextOrientation;
}

/**
 * PartialUpdateTranscription, for manual transcriptions without entities. The date moves only
 * when something changed, so an empty or identical edit does not make others' edits stale.
 */
export async function updateTranscription(
  db: Db,
  found: TranscriptionAccess,
  changes: TranscriptionChanges,
): Promise<{ json: TranscriptionJson; updated: string }> {
  checkRight(found.access, 'write');
  const { transcription } = found;
  if (transcription.worker_run_id) {
    throw validationError(
      'non_field_errors',
      TRANSCRIPTION_MESSAGES.madeByWorkerRun,
      'made_by_worker_run',
    );
  }
  const entities = await entityCounts(db, [transcription.id]);
  if ((entities.get(transcription.id) ?? 0) > 0) {
    throw validationError(
      'non_field_errors',
      TRANSCRIPTION_MESSAGES.usedByEntities,
      'has_entities',
    );
  }
  const values: Updateable<TranscriptionTable> = {};
  if (changes.text !== undefined && changes.text !== transcription.text) values.text = changes.text;
  if (changes.orientation !== undefined && changes.orientation !== transcription.orientation) {
    values.orientation = changes.orientation;
  }
  let updated = transcription.updated;
  if (Object.keys(values).length > 0) {
    updated = nextVersion(transcription.updated);
    await db
      .updateTable('transcriptions')
      .set({ ...values, updated })
      .where('id', '=', transcription.id)
      .execute();
  }
  return { json: await transcriptionJson(db, transcription.id), updated };
}

/** DestroyTranscription; its entities go with it. */
export async function deleteTranscription(db: Db, found: TranscriptionAccess): Promise<void> {
  requireCanDelete(found);
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('transcription_entities')
      .where('transcription_id', '=', found.transcription.id)
      .execute();
    await trx.deleteFrom('transcriptions').where('id', '=', found.transcription.id).execute();
  });
}

/** Marks the transcription as changed (its entities did), for Last-Modified. */
export async function touchTranscription(db: Db, id: string): Promise<void> {
  await bumpVersions(db, 'transcriptions', [id]);
}
