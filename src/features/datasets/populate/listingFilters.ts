/**
 * What a populate takes from the listing it was opened on (spec 001 §5 "Populate"): its type,
 * its recursive flag and the folder it lists. Every other filter of the listing has no place in
 * the payload; the modal names them so nobody believes the split follows them.
 */
import type { ElementType } from '@/api/types';
import type { ListQuery } from '@/api/elements';
import {
  DEFAULT_METADATA_OPERATOR,
  FILTER_LABELS,
  METADATA_OPERATOR_LABELS,
  describeFilterValue,
  isFilterName,
  isMetadataOperator,
  parseBoolean,
} from '@/lib/filters';

/** How the listing pages and orders: no filter, nothing to report. */
const LISTING_ONLY = new Set([
  'page',
  'page_size',
  'order',
  'order_direction',
  'metadata_operator',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function text(value: ListQuery[string]): string | null {
  if (value === null || value === undefined || value === '') return null;
  return String(value);
}

/**
 * The folder the listing reads, as parent_id: its `parent` filter, or a `folder` given as an
 * element id. The navigation page's `folder=true` only keeps folder types and names no folder.
 */
export function listingParent(filters: ListQuery): string | null {
  for (const key of ['parent', 'parent_id', 'folder']) {
    const value = text(filters[key]);
    if (value && UUID.test(value)) return value;
  }
  return null;
}

/** The listing's type filter, when it is one of the project's types. */
export function listingType(filters: ListQuery, types: readonly ElementType[]): string | null {
  const value = text(filters.type);
  return value && types.some((type) => type.slug === value) ? value : null;
}

export function listingRecursive(filters: ListQuery): boolean {
  const value = filters.recursive;
  if (typeof value === 'boolean') return value;
  const word = text(value);
  return word !== null && parseBoolean(word) === true;
}

export interface IgnoredFilter {
  name: string;
  /** "Label: value" as the filter bar shows it. */
  text: string;
}

/** The listing's filters a populate cannot apply, in the filter bar's words. */
export function ignoredFilters(filters: ListQuery, types: readonly ElementType[]): IgnoredFilter[] {
  const parent = listingParent(filters);
  const ignored: IgnoredFilter[] = [];
  for (const [name, raw] of Object.entries(filters)) {
    const value = text(raw);
    if (value === null || LISTING_ONLY.has(name)) continue;
    if (name === 'type' || name === 'recursive') continue;
    if (['parent', 'parent_id', 'folder'].includes(name) && value === parent) continue;
    if (!isFilterName(name)) {
      ignored.push({ name, text: `${name}: ${value}` });
      continue;
    }
    const operator = filters.metadata_operator;
    const comparison =
      name === 'metadata_value' &&
      isMetadataOperator(operator) &&
      operator !== DEFAULT_METADATA_OPERATOR
        ? `${METADATA_OPERATOR_LABELS[operator]} `
        : '';
    ignored.push({
      name,
      text: `${FILTER_LABELS[name]}: ${comparison}${describeFilterValue(name, value, { types })}`,
    });
  }
  return ignored;
}
