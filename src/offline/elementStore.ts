/**
 * Writing server elements into the local store, for readers other than elementReads.ts (offline
 * packs). Same rules as elementReads' own copy, which can import this one instead: an element
 * with queued edits keeps its local version, and a list item never replaces a full element.
 * Call it inside a transaction over `elements` and `outbox`.
 */
import type { Element, ElementListItem } from '@/api/types';
import type { FoliaDatabase, LocalElement } from './db';

export interface StoreOptions {
  /** True for GET /element/{id}/ answers (rights, classifications). */
  full: boolean;
  /** The list's owner, recorded as a parent; leave out for recursive lists. */
  parentId?: string;
  lastModified?: string | null;
}

export async function storeElements(
  db: FoliaDatabase,
  items: (ElementListItem | Element)[],
  options: StoreOptions,
): Promise<void> {
  const ids = items.map((item) => item.id);
  const [known, queued] = await Promise.all([
    db.elements.bulkGet(ids),
    db.outbox.where('entityId').anyOf(ids).toArray(),
  ]);
  const edited = new Set(queued.map((entry) => entry.entityId));
  const now = Date.now();
  const rows: LocalElement[] = [];
  items.forEach((item, i) => {
    const previous = known[i];
    // Edited here (or deleted here: edits queued and no row left): the local state wins.
    if (edited.has(item.id)) return;
    const parentIds = new Set(previous?.parentIds ?? []);
    if (options.parentId) parentIds.add(options.parentId);
    rows.push({
      id: item.id,
      corpusId: item.corpus.id,
      data: options.full || !previous?.full ? item : { ...previous.data, ...item },
      full: options.full || !!previous?.full,
      lastModified: options.lastModified ?? previous?.lastModified ?? null,
      local: false,
      parentIds: [...parentIds],
      savedAt: now,
    });
  });
  await db.elements.bulkPut(rows);
}
