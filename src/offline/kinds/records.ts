/**
 * Edits of the entities an element owns and the API serves by id (transcriptions, metadata):
 * created under their element, then changed and deleted by their own path. The local row is
 * changed first; these say what to send and what the answer changes here.
 */
import type { FoliaDatabase, LocalRecord } from '../db';
import type { OutboxEntry } from '../outboxEntry';
import { remapTempId } from '../remap';
import type { KindDefinition } from './types';

export type RecordTable = 'transcriptions' | 'metadata';

export interface RecordPaths {
  /** Where a new one is posted, under its element. */
  create: (elementId: string) => string;
  /** The entity's own path. */
  item: (id: string) => string;
}

/** What a creation queues: the element it goes under and the body posted. */
export interface RecordCreatePayload {
  element: string;
  body: Record<string, unknown>;
}

function previousVersion(entry: OutboxEntry): string | null {
  return (entry.previous as Partial<LocalRecord> | null)?.lastModified ?? null;
}

/** A deletion waiting behind an edit that reached the server: it is now based on its version. */
async function rebaseQueuedDeletion(
  db: FoliaDatabase,
  id: string,
  deleteKind: OutboxEntry['kind'],
  lastModified: string | null,
): Promise<void> {
  await db.outbox
    .where('entityId')
    .equals(id)
    .filter((entry) => entry.kind === deleteKind)
    .modify((entry) => {
      entry.previous = { ...(entry.previous as object), lastModified };
    });
}

export function recordKinds(
  table: RecordTable,
  paths: RecordPaths,
  deleteKind: OutboxEntry['kind'],
): { create: KindDefinition; update: KindDefinition; delete: KindDefinition } {
  const rows = (db: FoliaDatabase) => db[table];
  const create: KindDefinition = {
    refs: (entry) => [(entry.payload as unknown as RecordCreatePayload).element],
    request: (entry) => {
      const payload = entry.payload as unknown as RecordCreatePayload;
      return { method: 'POST', path: paths.create(payload.element), body: payload.body };
    },
    conditional: false,
    async applied(db, entry, response) {
      const created = response.body as { id: string };
      const local = await rows(db).get(entry.entityId);
      await rows(db).delete(entry.entityId);
      await remapTempId(db, entry.entityId, created.id);
      // Deleted here while its creation was on the way: its deletion follows in the outbox.
      if (!local) {
        await rebaseQueuedDeletion(db, created.id, deleteKind, response.lastModified);
        return;
      }
      await rows(db).put({
        id: created.id,
        ownerId: (entry.payload as unknown as RecordCreatePayload).element,
        data: created,
        savedAt: Date.now(),
        lastModified: response.lastModified,
        local: false,
        createdAs: entry.entityId,
      });
    },
    async discard(db, entry) {
      await rows(db).delete(entry.entityId);
    },
    goneHere: async (db, entry) => !(await rows(db).get(entry.entityId)),
  };

  const update: KindDefinition = {
    refs: () => [],
    request: (entry) => ({
      method: 'PATCH',
      path: paths.item(entry.entityId),
      body: entry.payload.changes,
    }),
    conditional: true,
    baseVersion: async (db, entry) =>
      (await rows(db).get(entry.entityId))?.lastModified ?? previousVersion(entry),
    goneHere: async (db, entry) => !(await rows(db).get(entry.entityId)),
    async applied(db, entry, response) {
      const known = await rows(db).get(entry.entityId);
      if (!known) {
        await rebaseQueuedDeletion(db, entry.entityId, deleteKind, response.lastModified);
        return;
      }
      await rows(db).put({
        ...known,
        data: response.body,
        savedAt: Date.now(),
        lastModified: response.lastModified ?? known.lastModified ?? null,
      });
    },
    async discard(db, entry) {
      const previous = entry.previous as Partial<LocalRecord> | null;
      if (!previous?.data) return;
      await rows(db).update(entry.entityId, { data: previous.data });
    },
  };

  const remove: KindDefinition = {
    refs: () => [],
    request: (entry) => ({ method: 'DELETE', path: paths.item(entry.entityId) }),
    conditional: true,
    goneIsDone: true,
    baseVersion: async (_db, entry) => previousVersion(entry),
    goneHere: async () => true,
    async applied(db, entry) {
      await rows(db).delete(entry.entityId);
    },
    async discard(db, entry) {
      const previous = entry.previous as LocalRecord | null;
      if (previous) await rows(db).put(previous);
    },
  };

  return { create, update, delete: remove };
}

export const transcriptionKinds = recordKinds(
  'transcriptions',
  {
    create: (elementId) => `/element/${elementId}/transcription/`,
    item: (id) => `/transcription/${id}/`,
  },
  'transcription.delete',
);

export const metadataKinds = recordKinds(
  'metadata',
  {
    create: (elementId) => `/element/${elementId}/metadata/`,
    item: (id) => `/metadata/${id}/`,
  },
  'metadata.delete',
);
