/**
 * The element filters of a workers process (api part 2 §2.3), checked against its project:
 * a type slug the project has, an element and a class of the project. They change only
 * before the process starts.
 */
import type { Db } from '../../db';
import { invalidPk } from '../../errors';
import { unknownType } from '../elements/create';

export type LoadChildren = 'none' | 'direct' | 'all';

export interface FilterInput {
  element?: string | null | undefined;
  element_type?: string | null | undefined;
  element_name_contains?: string | null | undefined;
  load_children?: LoadChildren | undefined;
  ml_class_id?: string | null | undefined;
}

export interface FilterColumns {
  element_id?: string | null;
  element_type?: string | null;
  element_name_contains?: string | null;
  load_children?: LoadChildren;
  ml_class_id?: string | null;
}

export const hasFilterFields = (input: FilterInput): boolean =>
  input.element !== undefined ||
  input.element_type !== undefined ||
  input.element_name_contains !== undefined ||
  input.load_children !== undefined ||
  input.ml_class_id !== undefined;

/** The columns to set for the fields given, each checked against the project. */
export async function checkFilters(
  db: Db,
  corpusId: string,
  input: FilterInput,
): Promise<FilterColumns> {
  const columns: FilterColumns = {};
  if (input.element !== undefined) {
    if (input.element === null) columns.element_id = null;
    else {
      const element = await db
        .selectFrom('elements')
        .select('id')
        .where('id', '=', input.element.toLowerCase())
        .where('corpus_id', '=', corpusId)
        .executeTakeFirst();
      if (!element) throw invalidPk('element', input.element);
      columns.element_id = element.id;
    }
  }
  if (input.element_type !== undefined) {
    if (input.element_type === null || input.element_type === '') columns.element_type = null;
    else {
      const type = await db
        .selectFrom('element_types')
        .select('slug')
        .where('corpus_id', '=', corpusId)
        .where('slug', '=', input.element_type)
        .executeTakeFirst();
      if (!type) throw unknownType('element_type', input.element_type);
      columns.element_type = type.slug;
    }
  }
  if (input.element_name_contains !== undefined) {
    columns.element_name_contains = input.element_name_contains || null;
  }
  if (input.load_children !== undefined) columns.load_children = input.load_children;
  if (input.ml_class_id !== undefined) {
    if (input.ml_class_id === null) columns.ml_class_id = null;
    else {
      const mlClass = await db
        .selectFrom('ml_classes')
        .select('id')
        .where('id', '=', input.ml_class_id.toLowerCase())
        .where('corpus_id', '=', corpusId)
        .executeTakeFirst();
      if (!mlClass) throw invalidPk('ml_class_id', input.ml_class_id);
      columns.ml_class_id = mlClass.id;
    }
  }
  return columns;
}
