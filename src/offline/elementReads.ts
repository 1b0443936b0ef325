/**
 * Reads of elements through the local store: what the server answers is written to IndexedDB
 * in one transaction, and the page is always built from the store, so it shows the edits not
 * yet sent, and opens offline whatever was seen once.
 */
import { apiConditional, type Conditional, type Page } from '@/api/client';
import { NetworkError } from '@/api/errors';
import type { Element, ElementListItem } from '@/api/types';
import type { FoliaDatabase, LocalElement, LocalList } from './db';
import { storeElements } from './elementStore';
import { versionOfAnswer } from './httpDates';
import { isTempId } from './outboxEntry';
import { currentId } from './remap';

/** Thrown offline for what was never loaded on this device. */
export class NotAvailableOffline extends Error {
  override readonly name = 'NotAvailableOffline';
  constructor() {
    super('This was not loaded on this device before the network went away.');
  }
}

export interface ReadOptions {
  /** False: do not even try the network (the API is known to be out of reach). */
  online: boolean;
  /** Told when a request got no answer, so the app knows it is offline. */
  onUnreachable?: () => void;
}

/** The network's answer, or null when it is out of reach (and the app is told so). */
export async function tryNetwork<T>(
  options: ReadOptions,
  request: () => Promise<T>,
): Promise<T | null> {
  if (!options.online) return null;
  try {
    return await request();
  } catch (error) {
    if (error instanceof NetworkError) {
      options.onUnreachable?.();
      return null;
    }
    throw error;
  }
}

/** GET /element/{id}/ through the store; its Last-Modified is the version edits are based on. */
export async function readElement(
  db: FoliaDatabase,
  requested: string,
  options: ReadOptions,
): Promise<Element> {
  const id = await currentId(db, requested);
  if (!isTempId(id)) {
    const requestedAt = Date.now();
    const answer = await tryNetwork(options, () => apiConditional<Element>(`/element/${id}/`));
    if (answer?.data) {
      await db.transaction('rw', [db.elements, db.outbox], () =>
        storeElements(db, [answer.data!], {
          full: true,
          lastModified: answer.lastModified,
          requestedAt,
          date: answer.date,
        }),
      );
    }
  }
  const row = await db.elements.get(id);
  if (!row) throw new NotAvailableOffline();
  // A list item seen offline lacks the full element's fields: shown read-only until online,
  // with the classifications a list gave (with_classes) as its own.
  const data = row.data as Partial<Element> & { classes?: Element['classifications'] };
  const classifications = row.full
    ? (data.classifications ?? [])
    : (data.classes ?? data.classifications ?? []);
  return { rights: [], ...row.data, classifications } as Element;
}

/** How a list is stored: by owner and query, pages included. */
export function listKey(scope: 'children' | 'corpus', ownerId: string, query: object): string {
  const entries = Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .sort(([a], [b]) => a.localeCompare(b));
  return `${scope}:${ownerId}:${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}`;
}

/**
 * A list page through the store. Elements deleted or moved away here leave it; elements
 * created or moved into a children list here are added to its first page, before the server
 * knows them.
 */
export async function readList(
  db: FoliaDatabase,
  scope: 'children' | 'corpus',
  requestedOwner: string,
  query: Record<string, string | number | boolean | null | undefined>,
  options: ReadOptions,
): Promise<Page<ElementListItem>> {
  const ownerId = await currentId(db, requestedOwner);
  const key = listKey(scope, ownerId, query);
  const path =
    scope === 'children' ? `/elements/${ownerId}/children/` : `/corpus/${ownerId}/elements/`;
  // A children list seen before is revalidated: 304 means the stored one is still right.
  const previous = await db.lists.get(key);
  const requestedAt = Date.now();
  const answer = isTempId(ownerId)
    ? null
    : await tryNetwork(options, () =>
        apiConditional<Page<ElementListItem>>(path, {
          query,
          ifModifiedSince: previous?.lastModified ?? null,
        }),
      );
  let stored: LocalList | undefined;
  let page: Pick<Page<ElementListItem>, 'next' | 'previous' | 'number'> = {
    next: null,
    previous: null,
  };
  if (answer?.notModified) {
    stored = previous;
    page = previous?.page ?? page;
  } else if (answer?.data) {
    const data = answer.data;
    page = { next: data.next, previous: data.previous, number: data.number };
    stored = {
      key,
      ownerId,
      ids: data.results.map((item) => item.id),
      count: data.count,
      lastModified: answer.lastModified,
      page,
      savedAt: Date.now(),
    };
    await db.transaction('rw', [db.elements, db.outbox, db.lists], async () => {
      await storeElements(db, data.results, {
        full: false,
        listedVersion: versionOfAnswer(answer.date),
        parentId: scope === 'children' ? ownerId : undefined,
        requestedAt,
        date: answer.date,
      });
      await db.lists.put(stored!);
    });
  } else {
    stored = previous;
    if (stored?.page) page = stored.page;
    if (!stored && !isTempId(ownerId)) throw new NotAvailableOffline();
  }

  const ids = stored?.ids ?? [];
  const rows = await db.elements.bulkGet(ids);
  const kept = rows.filter(
    (row): row is LocalElement =>
      !!row &&
      (scope !== 'children' || row.parentIds.length === 0 || row.parentIds.includes(ownerId)),
  );
  let added: LocalElement[] = [];
  const firstPage = !query.page || Number(query.page) === 1;
  const listed = new Set(ids);
  if (scope === 'children' && firstPage) {
    const inside = await db.elements.where('parentIds').equals(ownerId).toArray();
    const movedIn = new Set(
      (await db.outbox.toArray())
        .filter(
          (entry) =>
            (entry.kind === 'element.move' && entry.payload.destination === ownerId) ||
            (entry.kind === 'element.link' && entry.payload.parent === ownerId),
        )
        .map((entry) => entry.entityId),
    );
    added = inside.filter((row) => !listed.has(row.id) && (row.local || movedIn.has(row.id)));
  } else if (scope === 'corpus' && firstPage && String(query.top_level) === 'true') {
    // A folder made offline at the top of the project.
    const mine = await db.elements.where('corpusId').equals(ownerId).toArray();
    added = mine.filter((row) => row.local && row.parentIds.length === 0 && !listed.has(row.id));
  }
  const removed = ids.length - kept.length;
  return {
    ...page,
    count: Math.max(0, (stored?.count ?? 0) - removed + added.length),
    results: [...kept, ...added].map((row) => row.data as ElementListItem),
  };
}

/**
 * readList for a reader that pages and revalidates on its own (the children tree): the answer
 * says it is unchanged when the stored list's Last-Modified is still `since`.
 */
export async function readListIfModified(
  db: FoliaDatabase,
  scope: 'children' | 'corpus',
  owner: string,
  query: Record<string, string | number | boolean | null | undefined>,
  since: string | null,
  options: ReadOptions,
): Promise<Conditional<Page<ElementListItem>>> {
  const data = await readList(db, scope, owner, query, options);
  const stored = await db.lists.get(listKey(scope, await currentId(db, owner), query));
  const lastModified = stored?.lastModified ?? null;
  if (since && lastModified === since) return { notModified: true, data: null, lastModified };
  return { notModified: false, data, lastModified };
}
