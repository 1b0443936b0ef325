/**
 * Entity types of a project as their own resource (api/arkindex-api.md §5): CreateEntityType
 * `POST /entity/types/` with the project in the body, and Retrieve/PartialUpdate/Destroy on
 * `/entity/types/{id}/`. Reading one takes the read right on its project, changing one the
 * admin right, as for element types (services/elementTypes.ts). Names are unique in a project;
 * a type is never moved to another project, and one that entities use is kept, since deleting
 * it would delete them too.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { EntityTypeTable, User } from '../db/schema';
import { invalidPk, notFound, validationError } from '../errors';
import {
  checkRight,
  findCorpusAccess,
  requireCorpusRight,
  requireUuid,
  type CorpusAccess,
  type Right,
} from '../permissions';
import { isUniqueViolation } from '../repositories/constraints';
import { entityTypeJson, type EntityTypeJson } from './entities';

/** The colour of a type created without one, as the column's default. */
export const DEFAULT_ENTITY_TYPE_COLOR = 'ff0000';
export const ENTITY_TYPE_NAME_MAX = 250;

export const ENTITY_TYPE_MESSAGES = {
  // DRF's UniqueTogetherValidator, as Arkindex answers it.
  duplicate: 'The fields corpus, name must make a unique set.',
  corpusChange: "It is not possible to update an Entity Type's corpus.",
  inUse: 'Some transcription entities are using this entity type.',
} as const;

export interface EntityTypeDetailJson extends EntityTypeJson {
  corpus: string;
}

export function entityTypeDetailJson(row: EntityTypeTable): EntityTypeDetailJson {
  return { ...entityTypeJson(row), corpus: row.corpus_id };
}

export interface EntityTypeAccess {
  type: EntityTypeTable;
  access: CorpusAccess;
}

function duplicate() {
  return validationError('non_field_errors', ENTITY_TYPE_MESSAGES.duplicate, 'unique');
}

async function typeNamed(db: Db, corpusId: string, name: string) {
  return db
    .selectFrom('entity_types')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/**
 * An entity type named in a path: 404 for unknown and malformed ids and for types of projects
 * the caller cannot read, 403 for a readable project without `right`.
 */
export async function requireEntityTypeRight(
  db: Db,
  user: User | null,
  id: string,
  right: Right,
): Promise<EntityTypeAccess> {
  const type = await db
    .selectFrom('entity_types')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!type) throw notFound();
  const access = await requireCorpusRight(db, user, type.corpus_id, right);
  return { type, access };
}

export interface NewEntityTypeInput {
  name: string;
  corpus: string;
  color: string;
}

/** CreateEntityType: the project comes from the body, so one the caller cannot see is an invalid pk. */
export async function createEntityType(
  db: Db,
  user: User,
  input: NewEntityTypeInput,
): Promise<EntityTypeDetailJson> {
  const access = await findCorpusAccess(db, user, input.corpus);
  if (!access) throw invalidPk('corpus', input.corpus);
  checkRight(access, 'admin');
  const corpusId = access.corpus.id;
  if (await typeNamed(db, corpusId, input.name)) throw duplicate();
  const row: EntityTypeTable = {
    id: randomUUID(),
    corpus_id: corpusId,
    name: input.name,
    color: input.color,
  };
  try {
    await db.insertInto('entity_types').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
  return entityTypeDetailJson(row);
}

export interface EntityTypeChanges {
  name?: string;
  color?: string;
  /** Accepted only when it names the type's own project. */
  corpus?: string;
}

/** PartialUpdateEntityType; `found` comes from requireEntityTypeRight(…, 'admin'). */
export async function updateEntityType(
  db: Db,
  found: EntityTypeAccess,
  changes: EntityTypeChanges,
): Promise<EntityTypeDetailJson> {
  checkRight(found.access, 'admin');
  const { type } = found;
  if (changes.corpus !== undefined && changes.corpus.toLowerCase() !== type.corpus_id) {
    throw validationError('corpus', ENTITY_TYPE_MESSAGES.corpusChange);
  }
  const values: Partial<EntityTypeTable> = {};
  if (changes.name !== undefined && changes.name !== type.name) values.name = changes.name;
  if (changes.color !== undefined && changes.color !== type.color) values.color = changes.color;
  if (Object.keys(values).length === 0) return entityTypeDetailJson(type);
  if (values.name !== undefined && (await typeNamed(db, type.corpus_id, values.name))) {
    throw duplicate();
  }
  try {
    await db.updateTable('entity_types').set(values).where('id', '=', type.id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
  return entityTypeDetailJson({ ...type, ...values });
}

/** DestroyEntityType, refused while entities use the type. */
export async function deleteEntityType(db: Db, found: EntityTypeAccess): Promise<void> {
  checkRight(found.access, 'admin');
  const used = await db
    .selectFrom('transcription_entities')
    .select('id')
    .where('type_id', '=', found.type.id)
    .executeTakeFirst();
  if (used) throw validationError('non_field_errors', ENTITY_TYPE_MESSAGES.inUse, 'in_use');
  await db.deleteFrom('entity_types').where('id', '=', found.type.id).execute();
}
