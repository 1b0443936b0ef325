/**
 * Entity types of a project and the entities found in transcriptions, as Arkindex 1.9 has
 * them (api/arkindex-api.md §5): an entity is a type, an offset and a length in the text, with
 * an optional confidence and worker run. Offsets and lengths count Unicode code points, as
 * Python's str does in Arkindex, so a character outside the BMP counts once.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { EntityTypeTable } from '../db/schema';
import { validationErrors, type ErrorItem } from '../errors';
import { countRows, type PageSource } from '../pagination';
import { checkRight } from '../permissions';
import { chunks, INSERT_CHUNK } from './elements/repository';
import { workerRunJson, type WorkerRunJson } from './elements/serialize';
import { touchTranscription, type TranscriptionAccess } from './transcriptions';
import { requireProjectWorkerRun, workerRunSummaries } from './workerRuns';

export const ENTITY_MESSAGES = {
  exceeds: "This entity exceeds the parent's text length",
  duplicate: 'This entity is given more than once.',
  exists: 'This entity already exists on this transcription.',
} as const;

/** Entities created by one request at most. */
export const MAX_BULK_ENTITIES = 1000;

export interface EntityTypeJson {
  id: string;
  name: string;
  color: string;
}

export interface TranscriptionEntityJson {
  id: string;
  type: EntityTypeJson;
  offset: number;
  length: number;
  confidence: number | null;
  worker_run: WorkerRunJson | null;
}

export function entityTypeJson(
  row: Pick<EntityTypeTable, 'id' | 'name' | 'color'>,
): EntityTypeJson {
  return { id: row.id, name: row.name, color: row.color };
}

/** ListCorpusEntityTypes, by name. */
export function entityTypeSource(db: Db, corpusId: string): PageSource<EntityTypeJson> {
  const types = db.selectFrom('entity_types').where('corpus_id', '=', corpusId);
  return {
    count: () => countRows(types),
    fetch: async ({ limit, offset }) =>
      (
        await types
          .select(['id', 'name', 'color'])
          .orderBy('name')
          .orderBy('id')
          .limit(limit)
          .offset(offset)
          .execute()
      ).map(entityTypeJson),
  };
}

function entityRowsQuery(db: Db) {
  return db
    .selectFrom('transcription_entities')
    .innerJoin('entity_types', 'entity_types.id', 'transcription_entities.type_id')
    .select([
      'transcription_entities.id',
      'transcription_entities.offset',
      'transcription_entities.length',
      'transcription_entities.confidence',
      'transcription_entities.worker_run_id',
      'entity_types.id as type_id',
      'entity_types.name as type_name',
      'entity_types.color as type_color',
    ]);
}

type EntityRow = Awaited<ReturnType<ReturnType<typeof entityRowsQuery>['execute']>>[number];

/** A page of entities as JSON, with one query for their worker runs. */
async function serializeEntities(db: Db, rows: EntityRow[]): Promise<TranscriptionEntityJson[]> {
  const summaries = await workerRunSummaries(
    db,
    rows.map((row) => row.worker_run_id),
  );
  return rows.map((row) => ({
    id: row.id,
    type: { id: row.type_id, name: row.type_name, color: row.type_color },
    offset: row.offset,
    length: row.length,
    confidence: row.confidence,
    worker_run: workerRunJson(row.worker_run_id, summaries),
  }));
}

/** ListTranscriptionEntities, in text order; `workerRun` null keeps the manual ones. */
export function transcriptionEntitySource(
  db: Db,
  transcriptionId: string,
  workerRun?: string | null,
): PageSource<TranscriptionEntityJson> {
  let entities = entityRowsQuery(db).where(
    'transcription_entities.transcription_id',
    '=',
    transcriptionId,
  );
  if (workerRun !== undefined) {
    entities =
      workerRun === null
        ? entities.where('transcription_entities.worker_run_id', 'is', null)
        : entities.where('transcription_entities.worker_run_id', '=', workerRun);
  }
  return {
    count: () => countRows(entities),
    fetch: async ({ limit, offset }) =>
      serializeEntities(
        db,
        await entities
          .orderBy('transcription_entities.offset')
          .orderBy('transcription_entities.length')
          .orderBy('transcription_entities.id')
          .limit(limit)
          .offset(offset)
          .execute(),
      ),
  };
}

export interface NewEntity {
  offset: number;
  length: number;
  type_id: string;
  confidence?: number | null;
}

export interface NewEntities {
  worker_run_id?: string | null;
  transcription_entities: NewEntity[];
}

const sameEntity = (
  a: { type_id: string; offset: number; length: number },
  b: { type_id: string; offset: number; length: number },
) => a.type_id === b.type_id && a.offset === b.offset && a.length === b.length;

/**
 * CreateTranscriptionEntities. Every entity is checked before any is stored (types of the
 * project, inside the text, not given twice nor already there for the same worker run), and
 * one 400 names each bad one. The transcription's date moves, since its entity count changed.
 */
export async function createTranscriptionEntities(
  db: Db,
  found: TranscriptionAccess,
  input: NewEntities,
): Promise<TranscriptionEntityJson[]> {
  checkRight(found.access, 'write');
  const { transcription } = found;
  const corpusId = found.access.corpus.id;
  const workerRunId = input.worker_run_id
    ? await requireProjectWorkerRun(db, corpusId, input.worker_run_id)
    : null;
  const entities = input.transcription_entities.map((entity) => ({
    ...entity,
    type_id: entity.type_id.toLowerCase(),
  }));

  const knownTypes = new Set<string>();
  for (const part of chunks([...new Set(entities.map((e) => e.type_id))], INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('entity_types')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) knownTypes.add(row.id);
  }
  let existing = db
    .selectFrom('transcription_entities')
    .select(['type_id', 'offset', 'length'])
    .where('transcription_id', '=', transcription.id);
  existing =
    workerRunId === null
      ? existing.where('worker_run_id', 'is', null)
      : existing.where('worker_run_id', '=', workerRunId);
  const stored = await existing.execute();

  const textLength = Array.from(transcription.text).length;
  const errors: ErrorItem[] = [];
  entities.forEach((entity, index) => {
    const at = `transcription_entities.${index}`;
    const original = input.transcription_entities[index]!;
    if (!knownTypes.has(entity.type_id)) {
      errors.push({
        code: 'does_not_exist',
        detail: `Invalid pk "${original.type_id}" - object does not exist.`,
        attr: `${at}.type_id`,
      });
    }
    if (entity.offset + entity.length > textLength) {
      errors.push({
        code: 'invalid',
        detail: ENTITY_MESSAGES.exceeds,
        attr: `${at}.non_field_errors`,
      });
    } else if (entities.slice(0, index).some((other) => sameEntity(other, entity))) {
      errors.push({
        code: 'unique',
        detail: ENTITY_MESSAGES.duplicate,
        attr: `${at}.non_field_errors`,
      });
    } else if (stored.some((other) => sameEntity(other, entity))) {
      errors.push({
        code: 'unique',
        detail: ENTITY_MESSAGES.exists,
        attr: `${at}.non_field_errors`,
      });
    }
  });
  if (errors.length) throw validationErrors(errors);

  const rows = entities.map((entity) => ({
    id: randomUUID(),
    transcription_id: transcription.id,
    type_id: entity.type_id,
    offset: entity.offset,
    length: entity.length,
    confidence: entity.confidence ?? null,
    worker_run_id: workerRunId,
  }));
  await db.transaction().execute(async (trx) => {
    for (const part of chunks(rows, INSERT_CHUNK)) {
      await trx.insertInto('transcription_entities').values(part).execute();
    }
    await touchTranscription(trx, transcription.id);
  });
  const created = await entityRowsQuery(db)
    .where(
      'transcription_entities.id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  const byId = new Map(created.map((row) => [row.id, row]));
  return serializeEntities(
    db,
    rows.map((row) => byId.get(row.id)!),
  );
}
