import type { Element } from '@/api/types';
import type { FoliaDatabase, LocalElement } from '../db';
import { later as laterDate } from '../httpDates';
import type { OutboxEntry } from '../outboxEntry';
import { remapTempId } from '../remap';
import type { ReplayResponse } from '../transport';
import type { KindDefinition } from './types';

export interface ElementCreatePayload {
  corpus: string;
  parent: string | null;
  type: string;
  name: string;
  image?: string | null;
  polygon?: [number, number][] | null;
}

export type ElementChanges = Partial<
  Pick<Element, 'name' | 'type' | 'rotation_angle' | 'mirrored'> & {
    polygon: [number, number][];
  }
>;

/**
 * An element deleted here while an edit of it was on the way: its queued deletion is now based
 * on the version that edit made, or the server would take it for someone else's change.
 */
async function rebaseQueuedDeletion(
  db: FoliaDatabase,
  id: string,
  lastModified: string | null,
): Promise<void> {
  await db.outbox
    .where('entityId')
    .equals(id)
    .filter((entry) => entry.kind === 'element.delete')
    .modify((entry) => {
      entry.previous = { ...(entry.previous as object), lastModified };
    });
}

/**
 * An edit's answer: the element as the server made it, the version the next edit is based on,
 * and the edits still queued after this one shown over it, as they were before the answer.
 */
async function storeServerElement(
  db: FoliaDatabase,
  entry: OutboxEntry,
  data: Element,
  response: Pick<ReplayResponse, 'lastModified' | 'date'>,
): Promise<void> {
  const [known, later] = await Promise.all([
    db.elements.get(data.id),
    db.outbox.where('entityId').equals(data.id).sortBy('seq'),
  ]);
  if (!known) {
    await rebaseQueuedDeletion(db, data.id, response.lastModified);
    return;
  }
  let shown: LocalElement['data'] = data;
  for (const other of later) {
    if (other.seq !== entry.seq && other.kind === 'element.update') {
      shown = withChanges(shown, other.payload.changes as ElementChanges);
    }
  }
  await db.elements.put({
    id: data.id,
    corpusId: data.corpus.id,
    data: shown,
    full: true,
    lastModified: response.lastModified ?? known.lastModified,
    confirmed: laterDate(response.lastModified, known.confirmed),
    seenAt: laterDate(response.date, known.seenAt),
    local: false,
    parentIds: known.parentIds,
    savedAt: Date.now(),
  });
}

/** Applies a queued update's changes to an element's data, as updateElement shows them. */
export function withChanges(
  data: LocalElement['data'],
  changes: ElementChanges,
): LocalElement['data'] {
  const { polygon, ...plain } = changes;
  const next = { ...data, ...plain };
  if (polygon && next.zone) next.zone = { ...next.zone, polygon };
  return next;
}

/** Removes an element from the local store and from every list showing it. */
async function forgetElement(db: FoliaDatabase, id: string): Promise<void> {
  await db.elements.delete(id);
  await db.lists.toCollection().modify((list) => {
    if (list.ids.includes(id)) {
      list.ids = list.ids.filter((other) => other !== id);
      list.count = Math.max(0, list.count - 1);
    }
  });
}

/** Lists under these owners no longer match the server: dropped, to be fetched again. */
async function dropLists(db: FoliaDatabase, ownerIds: string[]): Promise<void> {
  if (ownerIds.length) await db.lists.where('ownerId').anyOf(ownerIds).delete();
}

export const elementCreate: KindDefinition = {
  refs: (entry) => {
    const payload = entry.payload as unknown as ElementCreatePayload;
    return payload.parent ? [payload.parent] : [];
  },
  // Unset fields are left out, as a form posting only what was filled in.
  request: (entry) => ({
    method: 'POST',
    path: '/elements/create/',
    body: Object.fromEntries(
      Object.entries(entry.payload).filter(([, value]) => value !== null && value !== undefined),
    ),
  }),
  conditional: false,
  async applied(db, entry, response) {
    const created = response.body as Element;
    const local = await db.elements.get(entry.entityId);
    // Independent rows, sent together (see remapTempId).
    await Promise.all([
      db.elements.delete(entry.entityId),
      remapTempId(db, entry.entityId, created.id),
      local &&
        db.elements.put({
          id: created.id,
          corpusId: created.corpus.id,
          data: created,
          full: false,
          lastModified: response.lastModified,
          confirmed: response.lastModified,
          seenAt: response.date ?? null,
          local: false,
          parentIds: local.parentIds.map((id) => id),
          savedAt: Date.now(),
        }),
    ]);
    // Deleted here while its creation was on the way: its deletion follows in the outbox (its
    // ids the server's by now).
    if (!local) await rebaseQueuedDeletion(db, created.id, response.lastModified);
  },
  async discard(db, entry) {
    await forgetElement(db, entry.entityId);
  },
};

export const elementUpdate: KindDefinition = {
  refs: () => [],
  request: (entry) => ({
    method: 'PATCH',
    path: `/element/${entry.entityId}/`,
    body: entry.payload.changes,
  }),
  conditional: true,
  async applied(db, entry, response) {
    await storeServerElement(db, entry, response.body as Element, response);
  },
  async discard(db, entry) {
    const previous = entry.previous as Partial<Element> | null;
    if (!previous) return;
    await db.elements.update(entry.entityId, (element: LocalElement) => {
      element.data = { ...element.data, ...previous };
    });
  },
};

export const elementDelete: KindDefinition = {
  refs: () => [],
  request: (entry) => ({
    method: 'DELETE',
    path: `/element/${entry.entityId}/`,
    query: { delete_children: entry.payload.deleteChildren !== false },
  }),
  conditional: true,
  goneIsDone: true,
  async applied(db, entry) {
    await forgetElement(db, entry.entityId);
  },
  async discard(db, entry) {
    const previous = entry.previous as LocalElement | null;
    if (previous) await db.elements.put(previous);
    await dropLists(db, previous?.parentIds ?? []);
  },
};

export const elementMove: KindDefinition = {
  refs: (entry) => [entry.payload.destination as string],
  request: (entry) => ({
    method: 'POST',
    path: '/element/move/',
    body: { source: entry.entityId, destination: entry.payload.destination },
  }),
  conditional: false,
  async applied(db, entry) {
    const previous = (entry.previous as { parentIds?: string[] } | null)?.parentIds ?? [];
    await dropLists(db, [...previous, entry.payload.destination as string]);
  },
  async discard(db, entry) {
    const previous = (entry.previous as { parentIds?: string[] } | null)?.parentIds ?? [];
    await db.elements.update(entry.entityId, { parentIds: previous });
    await dropLists(db, [...previous, entry.payload.destination as string]);
  },
};

export const elementLink: KindDefinition = {
  refs: (entry) => [entry.payload.parent as string],
  request: (entry) => ({
    method: 'POST',
    path: `/element/${entry.entityId}/parent/${entry.payload.parent as string}/`,
  }),
  conditional: false,
  async applied(db, entry) {
    await dropLists(db, [entry.payload.parent as string]);
  },
  async discard(db, entry) {
    const parent = entry.payload.parent as string;
    await db.elements.update(entry.entityId, (element: LocalElement) => {
      element.parentIds = element.parentIds.filter((id) => id !== parent);
    });
    await dropLists(db, [parent]);
  },
};

export type { OutboxEntry };
