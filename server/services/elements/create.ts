/**
 * Creating elements: `createElements` is the bulk path (imports, the demo, tests) that trusts
 * its input; `createElement` is CreateElement of the API, which checks rights and every field
 * before calling it.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import type { ElementTable, Image, User } from '../../db/schema';
import { validationError } from '../../errors';
import {
  fullImagePolygon,
  normalizePolygon,
  PolygonError,
  type Point,
} from '../../geometry/polygon';
import { checkRight, findCorpusAccess, findElementAccess, type Right } from '../../permissions';
import { findReadableImage } from '../images';
import { findTypeBySlug } from '../elementTypes';
import { appendLinks, chunks, elementRowById, INSERT_CHUNK } from './repository';
import { elementJson, type ElementJson } from './serialize';

export interface NewElement {
  /** Chosen by the caller when it must know the id before the insert; random otherwise. */
  id?: string;
  corpusId: string;
  typeId: string;
  name: string;
  /** Added as the parent's last child. */
  parentId?: string | null;
  imageId?: string | null;
  /** Already normalized (normalizePolygon); with an image and no polygon, the whole image. */
  polygon?: Point[] | null;
  rotationAngle?: number;
  mirrored?: boolean;
  confidence?: number | null;
  creatorId?: string | null;
  workerRunId?: string | null;
}

/**
 * Inserts elements and their parent links in multi-row statements, positions following the
 * input order under each parent, and records the parents' children as changed. No checks: the
 * caller has validated types, images, polygons and rights. Run it inside a transaction
 * (`db.transaction().execute(trx => createElements(trx, …))`) so a failure leaves nothing;
 * for large imports, call it once per few thousand elements. A parent may be created in the
 * same call if it comes before its children. `images` gives the size of images whose
 * elements come without a polygon (full-image zones); without it they are read here.
 */
export async function createElements(
  db: Db,
  inputs: readonly NewElement[],
  images: ReadonlyMap<string, Pick<Image, 'width' | 'height'>> = new Map(),
): Promise<string[]> {
  if (inputs.length === 0) return [];
  const sizes = new Map(images);
  const missing = [
    ...new Set(
      inputs.flatMap((input) =>
        input.imageId && !input.polygon && !sizes.has(input.imageId) ? [input.imageId] : [],
      ),
    ),
  ];
  for (const part of chunks(missing, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('images')
      .select(['id', 'width', 'height'])
      .where('id', 'in', part)
      .execute();
    for (const row of rows) sizes.set(row.id, row);
  }
  const now = nowIso();
  const rows = inputs.map((input): Insertable<ElementTable> & { id: string } => {
    const size = input.imageId ? sizes.get(input.imageId) : undefined;
    const polygon = input.imageId
      ? (input.polygon ?? (size ? fullImagePolygon(size) : null))
      : null;
    return {
      id: input.id ?? randomUUID(),
      corpus_id: input.corpusId,
      type_id: input.typeId,
      name: input.name,
      image_id: input.imageId ?? null,
      polygon: polygon ? JSON.stringify(polygon) : null,
      rotation_angle: input.rotationAngle ?? 0,
      mirrored: input.mirrored ? 1 : 0,
      confidence: input.confidence ?? null,
      creator_id: input.creatorId ?? null,
      worker_run_id: input.workerRunId ?? null,
      created: now,
      updated: now,
      children_updated: null,
      top_level: input.parentId ? 0 : 1,
    };
  });
  for (const part of chunks(rows, INSERT_CHUNK)) {
    await db.insertInto('elements').values(part).execute();
  }
  await appendLinks(
    db,
    inputs.flatMap((input, i) =>
      input.parentId ? [{ parentId: input.parentId, childId: rows[i]!.id }] : [],
    ),
    { childrenAreNew: true },
  );
  return rows.map((row) => row.id);
}

export interface CreateElementInput {
  corpus: string;
  type: string;
  name: string;
  parent?: string | null;
  image?: string | null;
  polygon?: unknown;
  confidence?: number | null;
  worker_run_id?: string | null;
  rotation_angle?: number;
  mirrored?: boolean;
}

function doesNotExist(attr: string, value: string) {
  return validationError(attr, `Invalid pk "${value}" - object does not exist.`, 'does_not_exist');
}

/** The 400 for an element type slug the project does not have, on `attr`. */
export function unknownType(attr: string, slug: string) {
  return validationError(attr, `Type '${slug}' not found.`, 'does_not_exist');
}

/** Turns a polygon rule violation into the 400 on `polygon` with the spec's message. */
export function checkedPolygon(value: unknown, image: Pick<Image, 'width' | 'height'>): Point[] {
  try {
    return normalizePolygon(value, image);
  } catch (error) {
    if (error instanceof PolygonError) throw validationError('polygon', error.message);
    throw error;
  }
}

/**
 * CreateElement. Ids in the body that the caller cannot read are invalid values of their field,
 * whether they exist or not. A polygon needs an image: the given one, else the parent's.
 */
export async function createElement(
  db: Db,
  user: User,
  input: CreateElementInput,
  origin: string,
): Promise<ElementJson> {
  const access = await findCorpusAccess(db, user, input.corpus);
  if (!access) throw doesNotExist('corpus', input.corpus);
  const { corpus, rights } = checkRight(access, 'write');

  const type = await findTypeBySlug(db, corpus.id, input.type);
  if (!type) throw unknownType('type', input.type);

  let parent = null;
  if (input.parent) {
    const found = await findElementAccess(db, user, input.parent);
    if (!found) throw doesNotExist('parent', input.parent);
    if (found.element.corpus_id !== corpus.id) {
      throw validationError('parent', 'The parent element must be in the same project.');
    }
    parent = found.element;
  }

  let image: Image | null = null;
  if (input.image) {
    const readable = await findReadableImage(db, user, input.image);
    if (!readable) throw doesNotExist('image', input.image);
    image = readable.image;
  }
  if (input.worker_run_id) throw doesNotExist('worker_run_id', input.worker_run_id);

  let polygon: Point[] | null = null;
  if (input.polygon !== undefined && input.polygon !== null) {
    if (!image && parent?.image_id) {
      image =
        (await db
          .selectFrom('images')
          .selectAll()
          .where('id', '=', parent.image_id)
          .executeTakeFirst()) ?? null;
    }
    if (!image) {
      throw validationError(
        'polygon',
        'A polygon needs an image: give one, or create the element under a parent on an image.',
      );
    }
    polygon = checkedPolygon(input.polygon, image);
  }

  const [id] = await db.transaction().execute((trx) =>
    createElements(
      trx,
      [
        {
          corpusId: corpus.id,
          typeId: type.id,
          name: input.name,
          parentId: parent?.id ?? null,
          imageId: image?.id ?? null,
          polygon,
          rotationAngle: input.rotation_angle,
          mirrored: input.mirrored,
          confidence: input.confidence ?? null,
          creatorId: user.id,
        },
      ],
      image ? new Map([[image.id, image]]) : undefined,
    ),
  );
  return elementJson(db, (await elementRowById(db, id!))!, origin, rights as Right[]);
}
