/**
 * The zones drawn over an element's image (every descendant, in the API's largest pages), read
 * through the local store like the other lists, so an image opened once, or made available
 * offline, shows its annotations without the network.
 */
import type { ElementListItem } from '@/api/types';
import type { FoliaDatabase } from './db';
import { NotAvailableOffline, readList, type ReadOptions } from './elementReads';

export const ZONES_QUERY = { recursive: true, page_size: 1000, order: 'position' } as const;
/** 50,000 zones is far beyond a readable page; stop there rather than page forever. */
export const MAX_ZONE_PAGES = 50;

export async function readAllZones(
  db: FoliaDatabase,
  id: string,
  options: ReadOptions,
): Promise<ElementListItem[]> {
  const all: ElementListItem[] = [];
  for (let page = 1; page <= MAX_ZONE_PAGES; page += 1) {
    let answer;
    try {
      answer = await readList(db, 'children', id, { ...ZONES_QUERY, page }, options);
    } catch (error) {
      // Offline, the pages after the first are there only if they were read before.
      if (page > 1 && error instanceof NotAvailableOffline) break;
      throw error;
    }
    all.push(...answer.results);
    if (answer.next) continue;
    // The server's last page (it has a number), or a page from the store, which knows neither
    // `next` nor its number: then the count says whether more pages were stored.
    const last = answer.number !== undefined || answer.results.length === 0;
    if (last || all.length >= answer.count) break;
  }
  return all;
}
