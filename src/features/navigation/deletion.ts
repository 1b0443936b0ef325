/**
 * When the navigation page offers to delete the elements it lists (spec 001 §5 "Deletion of
 * filtered elements"), and the request that deletes exactly those.
 */
import type { ListQuery } from '@/api/elements';
import { FILTER_LABELS, FILTER_NAMES, type FilterName } from '@/lib/filters';
import { toListQuery, type NavigationQuery } from '@/lib/navigationQuery';

/**
 * The filters DELETE /corpus/{id}/elements/ reads. 'recursive' is left out: the project's
 * deletion ignores it, so with it the list shown and what goes could differ.
 */
export const DELETION_FILTERS: readonly FilterName[] = FILTER_NAMES.filter(
  (name) => name !== 'recursive',
);

export const DELETION_BLOCKED = {
  // A deletion without any filter would empty the whole project.
  noFilter: 'Add a filter to choose the elements to delete',
  unsupported: (names: readonly FilterName[]) =>
    `Elements cannot be deleted with this filter: ${names.map((name) => FILTER_LABELS[name]).join(', ')}`,
  loading: 'The elements are loading',
  empty: 'No elements to delete',
} as const;

export function activeFilters(query: NavigationQuery): FilterName[] {
  return FILTER_NAMES.filter((name) => query.filters[name] !== undefined);
}

/** Why the filtered elements cannot be deleted now; null when they can. */
export function deletionBlocked(query: NavigationQuery, count: number | null): string | null {
  const active = activeFilters(query);
  if (!active.length) return DELETION_BLOCKED.noFilter;
  const unsupported = active.filter((name) => !DELETION_FILTERS.includes(name));
  if (unsupported.length) return DELETION_BLOCKED.unsupported(unsupported);
  if (count === null) return DELETION_BLOCKED.loading;
  if (count === 0) return DELETION_BLOCKED.empty;
  return null;
}

/** The list's query without what only pages it: the filters, and the metadata operator. */
export function deletionQuery(query: NavigationQuery): ListQuery {
  const {
    page: _page,
    page_size: _pageSize,
    order: _order,
    order_direction: _direction,
    ...filters
  } = toListQuery(query);
  return filters;
}
