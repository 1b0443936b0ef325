/**
 * What the bulk creations of worker results share (CreateTranscriptions, CreateClassifications,
 * CreateMetaDataBulk): a list of one to `max` items, and errors of one item placed under it in
 * the list, as DRF's nested serializers name them (`metadata_list.2.value`).
 */
import { z } from 'zod';
import { ApiError, type ErrorItem } from '../errors';

/** Items one bulk request creates at most: a page of a worker's results, well below the body limit. */
export const MAX_BULK_ITEMS = 1000;

/** A list of one to `max` items, refused with DRF's words (zod's too_small/too_big have others). */
export function bulkList<S extends z.ZodType>(item: S, max = MAX_BULK_ITEMS) {
  return z
    .array(item)
    .refine((list) => list.length > 0, 'This list may not be empty.')
    .refine((list) => list.length <= max, `Ensure this field has no more than ${max} elements.`);
}

/**
 * The errors of a 400 answered for one object, placed under item `index` of `list`; anything
 * else (a 403, a database failure) is thrown again as it is.
 */
export function itemErrors(list: string, index: number, error: unknown): ErrorItem[] {
  if (!(error instanceof ApiError) || error.type !== 'validation_error') throw error;
  return error.errors.map((item) => ({
    ...item,
    attr: `${list}.${index}.${item.attr ?? 'non_field_errors'}`,
  }));
}
