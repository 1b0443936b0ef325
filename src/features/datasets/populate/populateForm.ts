/**
 * The populate form's own checks and the payload it sends (spec 001 §3 Populate payload, §5
 * Populate), kept apart from React so each rule reads and tests on its own.
 */
import type { PopulatePayload } from '@/api/datasets';
import type { ApiError } from '@/api/errors';
import { sumsToTotal, toFractions, type Ratios } from './ratios';

export const DEFAULT_COUNT = 1000;
export const COUNT_MIN = 1;

export const POPULATE_MESSAGES = {
  required: 'This field is required',
  // Spec 001 §5 says "count is a number of at least 1" and "at least one type is required"
  // without the words a form shows; these say it in the same terms.
  count: 'The count must be a whole number of at least 1',
  types: 'At least one type is required',
} as const;

/** The fields a 400 on populate may name (spec 001 §8 "Datasets"). */
export const POPULATE_FIELDS = ['dataset', 'sets', 'types', 'count', 'recursive'] as const;
export type PopulateField = (typeof POPULATE_FIELDS)[number];

export interface PopulateFields {
  datasetId: string;
  ratios: Ratios;
  /** As typed. */
  count: string;
  types: string[];
  recursive: boolean;
}

/** The count typed, or null when it is not a whole number of at least 1. */
export function parseCount(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const count = Number(text);
  return Number.isSafeInteger(count) && count >= COUNT_MIN ? count : null;
}

/** The form's own errors per field; the ratios' sum is said by the ratio fields themselves. */
export function populateErrors(fields: PopulateFields): Partial<Record<PopulateField, string>> {
  const errors: Partial<Record<PopulateField, string>> = {};
  if (!fields.datasetId) errors.dataset = POPULATE_MESSAGES.required;
  if (parseCount(fields.count) === null) errors.count = POPULATE_MESSAGES.count;
  if (!fields.types.length) errors.types = POPULATE_MESSAGES.types;
  return errors;
}

export function canSubmit(fields: PopulateFields): boolean {
  return !Object.keys(populateErrors(fields)).length && sumsToTotal(fields.ratios);
}

export function populatePayload(fields: PopulateFields, parentId: string | null): PopulatePayload {
  return {
    recursive: fields.recursive,
    types: fields.types,
    count: parseCount(fields.count) ?? COUNT_MIN,
    sets: toFractions(fields.ratios),
    ...(parentId && { parent_id: parentId }),
  };
}

export interface PopulateServerErrors {
  fields: Partial<Record<PopulateField, string[]>>;
  general: string[];
}

/**
 * A 400's messages under the fields they name. A set's own key ("sets.train") goes under the
 * ratios; parent_id and the rest have no field here and read above the buttons.
 */
export function populateServerErrors(error: ApiError): PopulateServerErrors {
  const result: PopulateServerErrors = { fields: {}, general: [] };
  for (const [attr, messages] of Object.entries(error.fields)) {
    const field = attr.split(/[.[]/)[0] as PopulateField;
    if (POPULATE_FIELDS.includes(field)) (result.fields[field] ??= []).push(...messages);
    else result.general.push(...messages);
  }
  if (!Object.keys(result.fields).length && !result.general.length) {
    result.general.push(error.message);
  }
  return result;
}
