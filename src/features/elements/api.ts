/** The element page's own reads on top of the shared element resource. */
import { queryOptions } from '@tanstack/react-query';
import { elementKeys, fetchChildren, type ListQuery } from '@/api/elements';
import type { ElementListItem } from '@/api/types';

/** Children drawn on the image: every descendant, in the API's largest pages. */
export const ZONES_QUERY: ListQuery = { recursive: true, page_size: 1000, order: 'position' };
/** 50,000 zones is far beyond a readable page; stop there rather than page forever. */
export const MAX_ZONE_PAGES = 50;

export async function fetchAllZones(id: string): Promise<ElementListItem[]> {
  const all: ElementListItem[] = [];
  for (let page = 1; page <= MAX_ZONE_PAGES; page += 1) {
    const answer = await fetchChildren(id, { ...ZONES_QUERY, page });
    all.push(...answer.results);
    if (!answer.next) break;
  }
  return all;
}

export const zonesQuery = (id: string) =>
  queryOptions({
    queryKey: [...elementKeys.children(id, ZONES_QUERY), 'all-pages'] as const,
    queryFn: () => fetchAllZones(id),
  });

/** Lists of child cards on the element page (folders, elements without an image). */
export const CHILD_LIST_PAGE_SIZE = 20;

export const childListQuery = (page: number): ListQuery => ({
  page,
  page_size: CHILD_LIST_PAGE_SIZE,
  order: 'position',
  with_has_children: true,
});
