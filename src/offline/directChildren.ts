/**
 * The direct children of an element (its children list by position, every page of it), read
 * through the local store. A page's zones list is recursive and records the page as every
 * zone's parent: packs read the direct children of each region on a page too, so which lines
 * a region holds is known offline (exports/pageLayouts.ts).
 */
import type { ElementListItem } from '@/api/types';
import type { FoliaDatabase } from './db';
import { listKey, NotAvailableOffline, readList, type ReadOptions } from './elementReads';

export const DIRECT_CHILDREN_QUERY = { order: 'position', page_size: 500 } as const;
const MAX_PAGES = 20;

export async function readDirectChildren(
  db: FoliaDatabase,
  id: string,
  options: ReadOptions,
): Promise<ElementListItem[]> {
  const all: ElementListItem[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    let answer;
    try {
      answer = await readList(db, 'children', id, { ...DIRECT_CHILDREN_QUERY, page }, options);
    } catch (error) {
      if (page > 1 && error instanceof NotAvailableOffline) break;
      throw error;
    }
    all.push(...answer.results);
    if (!answer.next || answer.results.length === 0) break;
  }
  return all;
}

/** Which of `ids` have their direct children stored on this device. */
export async function directChildrenStored(
  db: FoliaDatabase,
  ids: readonly string[],
): Promise<Set<string>> {
  const keys = ids.map((id) => listKey('children', id, { ...DIRECT_CHILDREN_QUERY, page: 1 }));
  const lists = await db.lists.bulkGet(keys);
  return new Set(ids.filter((_, i) => lists[i] !== undefined));
}
