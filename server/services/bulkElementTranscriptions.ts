/**
 * CreateElementTranscriptions `POST /element/{id}/transcriptions/bulk/` (api/arkindex-api.md
 * §5): what an HTR worker found on a page, in one request. Each item becomes a child element of
 * `element_type` under the page, with its polygon on the page's image, and a transcription of
 * that child; both carry the worker run. The checks are those of the requests it stands for:
 * the element's write right (in the route), CreateElement's type and polygon rules
 * (elements/create.ts) and CreateTranscriptions' worker run of the project. Every error is
 * answered in one 400, each polygon's under its place in the list (`transcriptions.2.polygon`);
 * all the elements and transcriptions are stored in one transaction, or none.
 *
 * Where Arkindex's behaviour is not known:
 * - The new elements are numbered after the parent's children of their type, as the app's
 *   batch creation names zones (spec 001 §4): on a page with 12 lines, the third new one is
 *   "15". They follow the parent's existing children, in the request's order.
 * - Every item makes a new element (`created: true`): an existing child of the same type and
 *   polygon is not reused, nor one element shared by items with the same polygon.
 * - The list `[{id, element_id, created}]` is answered whether `return_elements` is sent or not.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../clock';
import type { Db } from '../db';
import type { TextOrientation, User } from '../db/schema';
import { ApiError, validationError, validationErrors, type ErrorItem } from '../errors';
import type { Point } from '../geometry/polygon';
import { checkRight, type ElementAccess } from '../permissions';
import { itemErrors } from './bulk';
import { checkedPolygon, createElements, unknownType } from './elements/create';
import { chunks, INSERT_CHUNK } from './elements/repository';
import { findTypeBySlug } from './elementTypes';
import { requireProjectWorkerRun } from './workerRuns';

export const ELEMENT_TRANSCRIPTIONS_MESSAGES = {
  noZone:
    'The parent element has no zone: the elements created under it need its image for their polygons.',
} as const;

export interface ElementTranscriptionItem {
  polygon: unknown[];
  text: string;
  confidence: number;
  orientation?: TextOrientation;
  element_confidence?: number | null;
}

export interface ElementTranscriptionsInput {
  element_type: string;
  worker_run_id: string;
  transcriptions: ElementTranscriptionItem[];
  return_elements?: boolean;
}

export interface ElementTranscriptionJson {
  /** The transcription's id. */
  id: string;
  element_id: string;
  created: boolean;
}

/** The 400 errors `run` throws are added to `errors`; anything else is thrown again. */
async function collect<T>(errors: ErrorItem[], run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiError) || error.type !== 'validation_error') throw error;
    errors.push(...error.errors);
    return undefined;
  }
}

/** `found` comes from requireElementRight(…, 'write') on the parent. */
export async function createElementTranscriptions(
  db: Db,
  user: User,
  found: ElementAccess,
  input: ElementTranscriptionsInput,
): Promise<ElementTranscriptionJson[]> {
  checkRight(found.access, 'write');
  const parent = found.element;
  const errors: ErrorItem[] = [];

  const type = await findTypeBySlug(db, parent.corpus_id, input.element_type);
  if (!type) errors.push(...unknownType('element_type', input.element_type).errors);
  const workerRunId = await collect(errors, () =>
    requireProjectWorkerRun(db, parent.corpus_id, input.worker_run_id, undefined, user),
  );

  const image = parent.image_id
    ? await db.selectFrom('images').selectAll().where('id', '=', parent.image_id).executeTakeFirst()
    : undefined;
  const polygons: Point[][] = [];
  if (!image) {
    errors.push(
      ...validationError('non_field_errors', ELEMENT_TRANSCRIPTIONS_MESSAGES.noZone, 'no_zone')
        .errors,
    );
  } else {
    input.transcriptions.forEach((item, index) => {
      try {
        polygons[index] = checkedPolygon(item.polygon, image);
      } catch (error) {
        errors.push(...itemErrors('transcriptions', index, error));
      }
    });
  }
  if (errors.length || !type || !workerRunId || !image) throw validationErrors(errors);

  const now = nowIso();
  const elementIds = input.transcriptions.map(() => randomUUID());
  const rows = input.transcriptions.map((item, index) => ({
    id: randomUUID(),
    element_id: elementIds[index]!,
    text: item.text,
    orientation: item.orientation ?? ('horizontal-lr' as const),
    confidence: item.confidence,
    worker_run_id: workerRunId,
    creator_id: user.id,
    created: now,
    updated: now,
  }));
  await db.transaction().execute(async (trx) => {
    const { count } = await trx
      .selectFrom('element_links')
      .innerJoin('elements', 'elements.id', 'element_links.child_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('element_links.parent_id', '=', parent.id)
      .where('elements.type_id', '=', type.id)
      .executeTakeFirstOrThrow();
    const before = Number(count);
    await createElements(
      trx,
      input.transcriptions.map((item, index) => ({
        id: elementIds[index]!,
        corpusId: parent.corpus_id,
        typeId: type.id,
        name: String(before + index + 1),
        parentId: parent.id,
        imageId: image.id,
        polygon: polygons[index]!,
        confidence: item.element_confidence ?? null,
        creatorId: user.id,
        workerRunId,
      })),
      new Map([[image.id, image]]),
    );
    for (const part of chunks(rows, INSERT_CHUNK)) {
      await trx.insertInto('transcriptions').values(part).execute();
    }
  });
  return rows.map((row) => ({ id: row.id, element_id: row.element_id, created: true }));
}
