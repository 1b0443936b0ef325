/** The element page's own reads on top of the shared element resource. */
import type { ListQuery } from '@/api/elements';
import { storedZonesQuery } from '@/offline/queries';

/** Children drawn on the image, read through the local store so they show offline too. */
export const zonesQuery = storedZonesQuery;

/** The cards of an element with neither image nor folder type (its displayable children). */
export const CHILD_LIST_PAGE_SIZE = 20;

export const childListQuery = (page: number): ListQuery => ({
  page,
  page_size: CHILD_LIST_PAGE_SIZE,
  order: 'position',
  with_has_children: true,
});
