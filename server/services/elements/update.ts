/**
 * PartialUpdateElement: name, type, polygon, image, rotation, mirroring, confidence. A rename
 * or retype changes what the parents' children lists show, so their Last-Modified moves.
 */
import type { Db } from '../../db';
import type { Updateable } from 'kysely';
import type { ElementTable, Image, User } from '../../db/schema';
import { validationError } from '../../errors';
import { fullImagePolygon, type Point } from '../../geometry/polygon';
import { checkRight, type ElementAccess } from '../../permissions';
import { findTypeBySlug } from '../elementTypes';
import { findReadableImage } from '../images';
import { checkedPolygon } from './create';
import { elementRowById, parentIdsOf, touchChildren } from './repository';
import { elementJson, type ElementJson } from './serialize';
import { nextVersion } from '../../versions';

export interface ElementChanges {
  name?: string;
  type?: string;
  polygon?: unknown;
  image?: string | null;
  rotation_angle?: number;
  mirrored?: boolean;
  confidence?: number | null;
}

async function imageById(db: Db, id: string): Promise<Image | undefined> {
  return db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirst();
}

/** `found` comes from requireElementRight(…, 'write'), asked before the body is read. */
export async function updateElement(
  db: Db,
  user: User,
  found: ElementAccess,
  changes: ElementChanges,
  origin: string,
): Promise<{ json: ElementJson; updated: string }> {
  const { element } = found;
  const { rights } = checkRight(found.access, 'write');
  const values: Updateable<ElementTable> = {};

  if (changes.name !== undefined) values.name = changes.name;
  if (changes.type !== undefined) {
    const type = await findTypeBySlug(db, element.corpus_id, changes.type);
    if (!type) {
      throw validationError('type', `Type '${changes.type}' not found.`, 'does_not_exist');
    }
    values.type_id = type.id;
  }

  let image: Image | null | undefined;
  if (changes.image === null) {
    image = null;
    values.image_id = null;
    values.polygon = null;
  } else if (changes.image !== undefined) {
    const readable = await findReadableImage(db, user, changes.image);
    if (!readable) {
      throw validationError(
        'image',
        `Invalid pk "${changes.image}" - object does not exist.`,
        'does_not_exist',
      );
    }
    image = readable.image;
    values.image_id = image.id;
    // A new image without a polygon: the zone becomes the whole new image.
    values.polygon = JSON.stringify(fullImagePolygon(image));
  }

  if (changes.polygon !== undefined && changes.polygon !== null) {
    const target =
      image === undefined && element.image_id ? await imageById(db, element.image_id) : image;
    if (!target) {
      throw validationError('polygon', 'An element without an image cannot have a polygon.');
    }
    const polygon: Point[] = checkedPolygon(changes.polygon, target);
    values.polygon = JSON.stringify(polygon);
  }

  if (changes.rotation_angle !== undefined) values.rotation_angle = changes.rotation_angle;
  if (changes.mirrored !== undefined) values.mirrored = changes.mirrored ? 1 : 0;
  if (changes.confidence !== undefined) values.confidence = changes.confidence;

  if (Object.keys(values).length > 0) {
    values.updated = nextVersion(element.updated);
    const listed =
      (values.name !== undefined && values.name !== element.name) ||
      (values.type_id !== undefined && values.type_id !== element.type_id);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('elements').set(values).where('id', '=', element.id).execute();
      if (listed) await touchChildren(trx, await parentIdsOf(trx, [element.id]));
    });
  }
  const row = (await elementRowById(db, element.id))!;
  return { json: await elementJson(db, row, origin, rights), updated: row.updated };
}
