/**
 * Element types of a corpus: the slugs elements are typed with. Changing them needs admin
 * rights on the corpus; the corpus' top_level_type (stored as a slug) follows a renamed or
 * deleted type.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { ElementType, User } from '../db/schema';
import { notFound, validationError } from '../errors';
import {
  checkRight,
  findCorpusAccess,
  requireCorpusRight,
  requireUuid,
  type CorpusAccess,
  type CorpusIds,
  type Right,
} from '../permissions';
import { isUniqueViolation } from '../repositories/constraints';

/** Arkindex's default colour for a type created without one. */
export const DEFAULT_TYPE_COLOR = '28b62c';

/** The types every new project starts with; distinct colours so they tell apart on a page. */
export const DEFAULT_TYPES = [
  { slug: 'folder', display_name: 'Folder', folder: true, color: 'f0a30a' },
  { slug: 'page', display_name: 'Page', folder: false, color: '28b62c' },
  { slug: 'text_line', display_name: 'Text line', folder: false, color: '1f78b4' },
  { slug: 'paragraph', display_name: 'Paragraph', folder: false, color: 'd9534f' },
] as const;

const DUPLICATE_SLUG = 'A type with this slug already exists in this project.';

/** The type as it appears inside a corpus' `types`. */
export interface CorpusTypeJson {
  id: string;
  slug: string;
  display_name: string;
  folder: boolean;
  color: string;
}

export interface ElementTypeJson extends CorpusTypeJson {
  corpus: string;
}

export function corpusTypeJson(row: ElementType): CorpusTypeJson {
  return {
    id: row.id,
    slug: row.slug,
    display_name: row.display_name,
    folder: row.folder === 1,
    color: row.color,
  };
}

export function elementTypeJson(row: ElementType): ElementTypeJson {
  return { ...corpusTypeJson(row), corpus: row.corpus_id };
}

// Repository -----------------------------------------------------------------------------

/** Types of the given corpora, grouped by corpus id, each list by display name. */
export async function typesByCorpus(
  db: Db,
  corpusIds: CorpusIds,
): Promise<Map<string, ElementType[]>> {
  const byCorpus = new Map<string, ElementType[]>();
  if (Array.isArray(corpusIds) && corpusIds.length === 0) return byCorpus;
  const rows = await db
    .selectFrom('element_types')
    .selectAll()
    .where('corpus_id', 'in', corpusIds as string[])
    .orderBy('display_name')
    .orderBy('slug')
    .execute();
  for (const row of rows) {
    const list = byCorpus.get(row.corpus_id) ?? [];
    list.push(row);
    byCorpus.set(row.corpus_id, list);
  }
  return byCorpus;
}

export async function insertDefaultTypes(db: Db, corpusId: string): Promise<void> {
  await db
    .insertInto('element_types')
    .values(
      DEFAULT_TYPES.map((type) => ({
        id: randomUUID(),
        corpus_id: corpusId,
        slug: type.slug,
        display_name: type.display_name,
        folder: type.folder ? 1 : 0,
        color: type.color,
        indexable: 1,
      })),
    )
    .execute();
}

export async function findTypeBySlug(
  db: Db,
  corpusId: string,
  slug: string,
): Promise<ElementType | undefined> {
  return db
    .selectFrom('element_types')
    .selectAll()
    .where('corpus_id', '=', corpusId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

async function findType(db: Db, id: string): Promise<ElementType | undefined> {
  return db.selectFrom('element_types').selectAll().where('id', '=', id).executeTakeFirst();
}

// Service --------------------------------------------------------------------------------

export interface NewElementTypeInput {
  corpus: string;
  slug: string;
  display_name: string;
  folder: boolean;
  color: string;
}

export type ElementTypeChanges = Partial<Omit<NewElementTypeInput, 'corpus'>>;

function duplicateSlug() {
  return validationError('slug', DUPLICATE_SLUG, 'unique');
}

export interface TypeAccess {
  type: ElementType;
  access: CorpusAccess;
}

/**
 * The type and its corpus' rights: 404 for unknown ids and types of unreadable corpora,
 * 403 for a readable corpus without `right`.
 */
export async function requireTypeRight(
  db: Db,
  user: User | null,
  id: string,
  right: Right,
): Promise<TypeAccess> {
  const type = await findType(db, requireUuid(id));
  if (!type) throw notFound();
  const access = await requireCorpusRight(db, user, type.corpus_id, right);
  return { type, access };
}

export async function createElementType(
  db: Db,
  user: User,
  input: NewElementTypeInput,
): Promise<ElementTypeJson> {
  // The corpus comes from the body: one the caller cannot see is an invalid value of that
  // field, worded as DRF words an unknown primary key, whether it exists or not.
  const access = await findCorpusAccess(db, user, input.corpus);
  if (!access) {
    throw validationError(
      'corpus',
      `Invalid pk "${input.corpus}" - object does not exist.`,
      'does_not_exist',
    );
  }
  checkRight(access, 'admin');
  if (await findTypeBySlug(db, access.corpus.id, input.slug)) throw duplicateSlug();
  const row: ElementType = {
    id: randomUUID(),
    corpus_id: access.corpus.id,
    slug: input.slug,
    display_name: input.display_name,
    folder: input.folder ? 1 : 0,
    color: input.color,
    indexable: 1,
  };
  try {
    await db.insertInto('element_types').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateSlug();
    throw error;
  }
  return elementTypeJson(row);
}

/** `found` comes from requireTypeRight(…, 'admin'), asked before the body is read. */
export async function updateElementType(
  db: Db,
  found: TypeAccess,
  changes: ElementTypeChanges,
): Promise<ElementTypeJson> {
  checkRight(found.access, 'admin');
  const { type } = found;
  const renamed = changes.slug !== undefined && changes.slug !== type.slug;
  if (renamed && (await findTypeBySlug(db, type.corpus_id, changes.slug!))) throw duplicateSlug();
  const values: Partial<ElementType> = {};
  if (changes.slug !== undefined) values.slug = changes.slug;
  if (changes.display_name !== undefined) values.display_name = changes.display_name;
  if (changes.folder !== undefined) values.folder = changes.folder ? 1 : 0;
  if (changes.color !== undefined) values.color = changes.color;
  if (Object.keys(values).length === 0) return elementTypeJson(type);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('element_types').set(values).where('id', '=', type.id).execute();
      if (renamed) {
        await trx
          .updateTable('corpora')
          .set({ top_level_type: changes.slug! })
          .where('id', '=', type.corpus_id)
          .where('top_level_type', '=', type.slug)
          .execute();
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateSlug();
    throw error;
  }
  return elementTypeJson({ ...type, ...values });
}

export async function deleteElementType(db: Db, found: TypeAccess): Promise<void> {
  checkRight(found.access, 'admin');
  const { type } = found;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('corpora')
      .set({ top_level_type: null })
      .where('id', '=', type.corpus_id)
      .where('top_level_type', '=', type.slug)
      .execute();
    await trx.deleteFrom('element_types').where('id', '=', type.id).execute();
  });
}
