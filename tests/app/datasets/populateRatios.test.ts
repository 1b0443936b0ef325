import { describe, expect, it } from 'vitest';
import type { ElementType } from '@/api/types';
import {
  absorbingSet,
  defaultRatios,
  ratioSum,
  setRatio,
  sumsToTotal,
  toFractions,
} from '@/features/datasets/populate/ratios';
import {
  ignoredFilters,
  listingParent,
  listingRecursive,
  listingType,
} from '@/features/datasets/populate/listingFilters';
import {
  POPULATE_MESSAGES,
  canSubmit,
  parseCount,
  populateErrors,
  populatePayload,
  type PopulateFields,
} from '@/features/datasets/populate/populateForm';

describe('populate ratios', () => {
  it('split train, dev and test 80/10/10, whatever their order', () => {
    expect(defaultRatios(['train', 'dev', 'test'])).toEqual({ train: 80, dev: 10, test: 10 });
    expect(defaultRatios(['test', 'train', 'dev'])).toEqual({ train: 80, dev: 10, test: 10 });
  });

  it('split other sets evenly, the remainder on the last set by name', () => {
    expect(defaultRatios(['b', 'c', 'a'])).toEqual({ a: 33, b: 33, c: 34 });
    expect(defaultRatios(['train', 'dev'])).toEqual({ dev: 50, train: 50 });
    expect(defaultRatios(['train', 'dev', 'test', 'extra'])).toEqual({
      dev: 25,
      extra: 25,
      test: 25,
      train: 25,
    });
    expect(defaultRatios(['only'])).toEqual({ only: 100 });
    expect(defaultRatios(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toEqual({
      a: 14,
      b: 14,
      c: 14,
      d: 14,
      e: 14,
      f: 14,
      g: 16,
    });
  });

  it('let the last set by name absorb a change of another', () => {
    const start = defaultRatios(['train', 'dev', 'test']);
    expect(absorbingSet(['train', 'dev', 'test'])).toBe('train');
    expect(setRatio(start, 'dev', 25)).toEqual({ train: 65, dev: 25, test: 10 });
    expect(setRatio(start, 'test', 0)).toEqual({ train: 90, dev: 10, test: 0 });
    expect(sumsToTotal(setRatio(start, 'dev', 37))).toBe(true);
  });

  it('never take the last set below 0: the changed ratio is capped', () => {
    const start = { train: 80, dev: 10, test: 10 };
    expect(setRatio(start, 'dev', 95)).toEqual({ train: 0, dev: 90, test: 10 });
    expect(setRatio(start, 'dev', 100)).toEqual({ train: 0, dev: 90, test: 10 });
  });

  it('keep every ratio a whole number from 0 to 100', () => {
    const start = { a: 50, b: 50 };
    expect(setRatio(start, 'a', -5)).toEqual({ a: 0, b: 100 });
    expect(setRatio(start, 'a', 150)).toEqual({ a: 100, b: 0 });
    expect(setRatio(start, 'a', 12.6)).toEqual({ a: 13, b: 87 });
  });

  it('leave the others alone when the last set itself changes, so the sum may be off', () => {
    const changed = setRatio({ train: 80, dev: 10, test: 10 }, 'train', 70);
    expect(changed).toEqual({ train: 70, dev: 10, test: 10 });
    expect(ratioSum(changed)).toBe(90);
    expect(sumsToTotal(changed)).toBe(false);
  });

  it('send fractions, sets at 0 % left out', () => {
    expect(toFractions({ train: 90, dev: 10, test: 0 })).toEqual({ train: 0.9, dev: 0.1 });
    expect(toFractions({ a: 33, b: 33, c: 34 })).toEqual({ a: 0.33, b: 0.33, c: 0.34 });
  });
});

const TYPES: ElementType[] = [
  { id: '1', slug: 'folder', display_name: 'Folder', folder: true, color: '000000' },
  { id: '2', slug: 'page', display_name: 'Page', folder: false, color: '000000' },
];
const FOLDER_ID = '00000000-0000-4000-8000-000000000042';

describe('what a populate takes from the listing', () => {
  it('keeps its type, recursive flag and folder', () => {
    const filters = { type: 'page', recursive: 'true', parent: FOLDER_ID, page: 2 };
    expect(listingType(filters, TYPES)).toBe('page');
    expect(listingType({ type: 'unknown' }, TYPES)).toBeNull();
    expect(listingRecursive(filters)).toBe(true);
    expect(listingRecursive({ recursive: 'no' })).toBe(false);
    expect(listingRecursive({})).toBe(false);
    expect(listingParent(filters)).toBe(FOLDER_ID);
    expect(listingParent({ folder: FOLDER_ID })).toBe(FOLDER_ID);
    // folder=true keeps folder types; it names no folder to draw from.
    expect(listingParent({ folder: 'true' })).toBeNull();
  });

  it('names every other filter, in the filter bar words, and nothing that only pages', () => {
    const filters = {
      name: 'Folio',
      type: 'page',
      recursive: 'true',
      folder: 'true',
      top_level: 'false',
      metadata_name: 'year',
      metadata_value: '1850',
      metadata_operator: 'gt',
      page: 3,
      page_size: 50,
      order: 'name',
      order_direction: 'asc',
    };
    expect(ignoredFilters(filters, TYPES).map((filter) => filter.text)).toEqual([
      'Name: Folio',
      'Folder: Yes',
      'Top level: No',
      'Metadata name: year',
      'Metadata value: greater than 1850',
    ]);
    expect(ignoredFilters({ type: 'page', parent: FOLDER_ID, page: 1 }, TYPES)).toEqual([]);
  });
});

describe('the populate form', () => {
  const valid: PopulateFields = {
    datasetId: 'd1',
    ratios: { train: 80, dev: 10, test: 10 },
    count: '1000',
    types: ['page'],
    recursive: false,
  };

  it('accepts a count that is a whole number of at least 1', () => {
    expect(parseCount('1')).toBe(1);
    expect(parseCount(' 250 ')).toBe(250);
    expect(parseCount('0')).toBeNull();
    expect(parseCount('-3')).toBeNull();
    expect(parseCount('2.5')).toBeNull();
    expect(parseCount('')).toBeNull();
    expect(parseCount('1e3')).toBeNull();
  });

  it('requires a dataset, a count and at least one type', () => {
    expect(populateErrors(valid)).toEqual({});
    expect(populateErrors({ ...valid, datasetId: '', count: '0', types: [] })).toEqual({
      dataset: 'This field is required',
      count: POPULATE_MESSAGES.count,
      types: POPULATE_MESSAGES.types,
    });
    expect(canSubmit(valid)).toBe(true);
    expect(canSubmit({ ...valid, ratios: { train: 70, dev: 10, test: 10 } })).toBe(false);
  });

  it('sends the payload of spec 001 §3, with the folder only when there is one', () => {
    const fields = { ...valid, ratios: { train: 90, dev: 10, test: 0 }, recursive: true };
    expect(populatePayload(fields, FOLDER_ID)).toEqual({
      recursive: true,
      types: ['page'],
      count: 1000,
      sets: { train: 0.9, dev: 0.1 },
      parent_id: FOLDER_ID,
    });
    expect(populatePayload(valid, null)).not.toHaveProperty('parent_id');
  });
});
