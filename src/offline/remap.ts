import type { FoliaDatabase } from './db';
import { isTempId } from './outboxEntry';

/**
 * The id an entity goes by now: the server's once its creation was replayed. A view may still
 * hold the temporary id (a form opened before the answer came): its edits reach the same entity.
 */
export async function currentId(db: FoliaDatabase, id: string): Promise<string> {
  if (!isTempId(id)) return id;
  return (await db.idMap.get(id))?.serverId ?? id;
}

const swap = (id: string, from: string, to: string) => (id === from ? to : id);

function swapInPayload(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return swap(value, from, to);
  if (Array.isArray(value)) return value.map((item) => swapInPayload(item, from, to));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, swapInPayload(item, from, to)]),
    );
  }
  return value;
}

/**
 * Once the server created what was made offline as `tempId`, every local reference to it
 * (queued edits, lists, parents) takes the server's id. Call inside a rw transaction over the
 * tables touched.
 */
export async function remapTempId(
  db: FoliaDatabase,
  tempId: string,
  serverId: string,
): Promise<void> {
  // Each step reads and writes its own rows: sent together, the browser's IndexedDB answers
  // them in one round instead of one after the other (an element's creation is remapped on
  // the replay's path, so this is its cost per edit).
  await Promise.all([
    db.idMap.put({ tempId, serverId }),
    db.outbox
      .where('refIds')
      .equals(tempId)
      .modify((entry) => {
        entry.entityId = swap(entry.entityId, tempId, serverId);
        entry.payload = swapInPayload(entry.payload, tempId, serverId) as Record<string, unknown>;
        entry.refIds = entry.refIds.map((id) => swap(id, tempId, serverId));
      }),
    remapLists(db, tempId, serverId),
    db.elements
      .where('parentIds')
      .equals(tempId)
      .modify((element) => {
        element.parentIds = element.parentIds.map((id) => swap(id, tempId, serverId));
      }),
    // Transcriptions and metadata written here on an element created here.
    db.transcriptions.where('ownerId').equals(tempId).modify({ ownerId: serverId }),
    db.metadata.where('ownerId').equals(tempId).modify({ ownerId: serverId }),
    // Dataset sets it was put in here.
    db.elementSets.get(tempId).then(async (sets) => {
      if (!sets) return;
      await db.elementSets.delete(tempId);
      await db.elementSets.put({ ...sets, id: serverId });
    }),
  ]);
}

async function remapLists(db: FoliaDatabase, tempId: string, serverId: string): Promise<void> {
  // A list's key names its owner: the temporary owner's lists are stored again under the new id.
  const owned = await db.lists.where('ownerId').equals(tempId).toArray();
  if (owned.length) {
    await db.lists.bulkDelete(owned.map((list) => list.key));
    await db.lists.bulkPut(
      owned.map((list) => ({
        ...list,
        key: list.key.replace(tempId, serverId),
        ownerId: serverId,
      })),
    );
  }
  await db.lists.toCollection().modify((list) => {
    if (list.ids.includes(tempId)) list.ids = list.ids.map((id) => swap(id, tempId, serverId));
  });
}

/** Tables a remap writes, for the transaction that calls it. */
export const REMAP_TABLES = [
  'idMap',
  'outbox',
  'lists',
  'elements',
  'transcriptions',
  'metadata',
  'elementSets',
  'datasets',
] as const;
