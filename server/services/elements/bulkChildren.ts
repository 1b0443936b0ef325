/**
 * CreateElementChildren in bulk, `POST /element/{id}/children/bulk/`: the regions a worker
 * found on a page (text blocks, then lines inside them), made in one request. Each item is a
 * child of the element, of a type of its project, named by the worker; its polygon, when given,
 * lies on the parent's image and follows CreateElement's rules (elements/create.ts). Every
 * error is answered in one 400 under the item's place in the list (`elements.2.polygon`); all
 * the elements are stored in one transaction, or none.
 *
 * Where Arkindex's behaviour is not known:
 * - An item without a polygon makes an element without a zone (no image), not one covering
 *   the whole image: a worker that knows no region says so by leaving it out.
 * - The answer is the list `[{id}]` in the request's order.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { ApiError, validationError, validationErrors, type ErrorItem } from '../../errors';
import type { Point } from '../../geometry/polygon';
import { checkRight, type ElementAccess } from '../../permissions';
import { itemErrors } from '../bulk';
import { findTypeBySlug } from '../elementTypes';
import { requireProjectWorkerRun } from '../workerRuns';
import { checkedPolygon, createElements, unknownType, type NewElement } from './create';
import { ELEMENT_TRANSCRIPTIONS_MESSAGES } from '../bulkElementTranscriptions';

export interface BulkChildItem {
  name: string;
  type: string;
  polygon?: unknown[] | null;
  confidence?: number | null;
}

export interface BulkChildrenInput {
  elements: BulkChildItem[];
  worker_run_id: string;
}

/** `found` comes from requireElementRight(…, 'write') on the parent. */
export async function createChildrenBulk(
  db: Db,
  user: User,
  found: ElementAccess,
  input: BulkChildrenInput,
): Promise<{ id: string }[]> {
  checkRight(found.access, 'write');
  const parent = found.element;
  const errors: ErrorItem[] = [];

  let workerRunId: string | undefined;
  try {
    workerRunId = await requireProjectWorkerRun(
      db,
      parent.corpus_id,
      input.worker_run_id,
      undefined,
      user,
    );
  } catch (error) {
    if (!(error instanceof ApiError) || error.type !== 'validation_error') throw error;
    errors.push(...error.errors);
  }

  const slugs = [...new Set(input.elements.map((item) => item.type))];
  const types = new Map<string, string>();
  for (const slug of slugs) {
    const type = await findTypeBySlug(db, parent.corpus_id, slug);
    if (type) types.set(slug, type.id);
  }

  const needsImage = input.elements.some((item) => item.polygon != null);
  const image =
    needsImage && parent.image_id
      ? await db
          .selectFrom('images')
          .selectAll()
          .where('id', '=', parent.image_id)
          .executeTakeFirst()
      : undefined;
  if (needsImage && !image) {
    errors.push(
      ...validationError('non_field_errors', ELEMENT_TRANSCRIPTIONS_MESSAGES.noZone, 'no_zone')
        .errors,
    );
  }

  const polygons: (Point[] | null)[] = [];
  input.elements.forEach((item, index) => {
    polygons[index] = null;
    if (!types.has(item.type)) {
      errors.push(...itemErrors('elements', index, unknownType('type', item.type)));
    }
    if (item.polygon == null || !image) return;
    try {
      polygons[index] = checkedPolygon(item.polygon, image);
    } catch (error) {
      errors.push(...itemErrors('elements', index, error));
    }
  });
  if (errors.length || !workerRunId) throw validationErrors(errors);

  const rows: NewElement[] = input.elements.map((item, index) => ({
    id: randomUUID(),
    corpusId: parent.corpus_id,
    typeId: types.get(item.type)!,
    name: item.name,
    parentId: parent.id,
    imageId: polygons[index] && image ? image.id : null,
    polygon: polygons[index],
    confidence: item.confidence ?? null,
    creatorId: user.id,
    workerRunId,
  }));
  await db.transaction().execute(async (trx) => {
    await createElements(trx, rows, image ? new Map([[image.id, image]]) : undefined);
  });
  return rows.map((row) => ({ id: row.id! }));
}
