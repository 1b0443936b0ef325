/**
 * The user's answers to a conflict: an edit the server refused with 412 because the entity
 * changed there since the version the edit was based on. The entry holds both sides (`previous`
 * and the payload for "mine", `current` for "theirs"); nothing is sent or dropped until the
 * user picks one.
 */
import type { Element } from '@/api/types';
import type { FoliaDatabase, LocalElement, LocalRecord } from './db';
import { discardEdit, retryEdit } from './discard';
import { withChanges, type ElementChanges } from './kinds/elements';
import { later as laterDate } from './httpDates';
import type { RecordTable } from './kinds/records';
import type { OutboxEntry } from './outboxEntry';
import { REMAP_TABLES } from './remap';

/** Where the entity of a transcription or metadata edit is kept; null for an element's. */
function recordTable(entry: OutboxEntry): RecordTable | null {
  if (entry.kind.startsWith('transcription.')) return 'transcriptions';
  if (entry.kind.startsWith('metadata.')) return 'metadata';
  return null;
}

async function conflictEntry(db: FoliaDatabase, seq: number): Promise<OutboxEntry | null> {
  const entry = await db.outbox.get(seq);
  return entry?.status === 'conflict' ? entry : null;
}

/**
 * The next request of the edit is based on the server's version now, so it goes over it. For
 * a deletion the element is gone here: the version is kept on the entry's copy of it too.
 */
export async function rebase(db: FoliaDatabase, entry: OutboxEntry): Promise<void> {
  const version = entry.currentLastModified;
  if (!version) return;
  const table = recordTable(entry);
  if (table) await db[table].update(entry.entityId, { lastModified: version });
  else {
    await db.elements.update(entry.entityId, (row: LocalElement) => {
      row.lastModified = version;
      row.confirmed = laterDate(version, row.confirmed);
    });
  }
  const previous = entry.previous as Partial<LocalElement> | null;
  if (entry.kind.endsWith('.delete') && previous && typeof previous === 'object') {
    await db.outbox.update(entry.seq!, { previous: { ...previous, lastModified: version } });
  }
}

/** "Keep mine" (or "Delete anyway"): the edit is sent again, over the server's version. */
export async function keepMine(db: FoliaDatabase, seq: number): Promise<boolean> {
  return db.transaction(
    'rw',
    [db.outbox, db.elements, db.transcriptions, db.metadata],
    async () => {
      const entry = await conflictEntry(db, seq);
      if (!entry) return false;
      await rebase(db, entry);
      await retryEdit(db, seq);
      return true;
    },
  );
}

/**
 * "Edit a merged value": the rename (or the transcription's new text) sends what the user wrote
 * from both versions, over the server's version. It shows here at once, as any edit.
 */
export async function keepMerged(db: FoliaDatabase, seq: number, name: string): Promise<boolean> {
  return db.transaction('rw', [db.outbox, db.elements, db.transcriptions], async () => {
    const entry = await conflictEntry(db, seq);
    if (entry?.kind === 'transcription.update') {
      const text = name;
      await db.outbox.update(seq, {
        payload: { ...entry.payload, changes: { ...(entry.payload.changes as object), text } },
      });
      await db.transcriptions.update(entry.entityId, (row: LocalRecord) => {
        row.data = { ...(row.data as object), text };
      });
      await rebase(db, entry);
      await retryEdit(db, seq);
      return true;
    }
    if (!entry || entry.kind !== 'element.update') return false;
    const changes = entry.payload.changes as ElementChanges;
    const mine = changes.name ?? '';
    await db.outbox.update(seq, {
      payload: { ...entry.payload, changes: { ...changes, name } },
      label: entry.label.replace(`rename to “${mine}”`, `rename to “${name}”`),
    });
    await db.elements.update(entry.entityId, (element: LocalElement) => {
      element.data = { ...element.data, name };
    });
    await rebase(db, entry);
    await retryEdit(db, seq);
    return true;
  });
}

/**
 * "Keep theirs" (or "Keep the element"): the edit is dropped, and the local element becomes the
 * server's version, with the edits queued after this one still shown over it.
 */
export async function keepTheirs(db: FoliaDatabase, seq: number): Promise<boolean> {
  return db.transaction('rw', [...REMAP_TABLES], async () => {
    const entry = await conflictEntry(db, seq);
    if (!entry) return false;
    await discardEdit(db, seq);
    const current = entry.current as Element | null;
    if (!current || typeof current !== 'object' || current.id !== entry.entityId) return true;
    const later = await db.outbox.where('entityId').equals(entry.entityId).sortBy('seq');
    const table = recordTable(entry);
    if (table) {
      await takeTheirRecord(db, table, entry, current, later);
      return true;
    }
    const known = await db.elements.get(entry.entityId);
    let data: LocalElement['data'] = current;
    for (const other of later) {
      if (other.kind === 'element.update') {
        data = withChanges(data, other.payload.changes as ElementChanges);
      }
    }
    await db.elements.put({
      id: current.id,
      corpusId: current.corpus?.id ?? entry.corpusId,
      data,
      full: true,
      lastModified: entry.currentLastModified ?? known?.lastModified ?? null,
      confirmed: laterDate(entry.currentLastModified, known?.confirmed),
      seenAt: known?.seenAt ?? null,
      local: false,
      parentIds: known?.parentIds ?? [],
      savedAt: Date.now(),
    });
    return true;
  });
}

/**
 * "Keep theirs" of a transcription or metadata edit: the local copy becomes the server's version,
 * with the changes queued after the edit still shown over it.
 */
async function takeTheirRecord(
  db: FoliaDatabase,
  table: RecordTable,
  entry: OutboxEntry,
  current: { id: string },
  later: OutboxEntry[],
): Promise<void> {
  const known = await db[table].get(entry.entityId);
  const ownerId = known?.ownerId ?? (entry.previous as Partial<LocalRecord> | null)?.ownerId;
  if (!ownerId) return;
  let data: Record<string, unknown> = { ...current };
  for (const other of later) {
    if (other.kind.endsWith('.update')) data = { ...data, ...(other.payload.changes as object) };
  }
  await db[table].put({
    id: current.id,
    ownerId,
    data,
    savedAt: known?.savedAt ?? Date.now(),
    lastModified: entry.currentLastModified ?? known?.lastModified ?? null,
    local: false,
  });
}
