/**
 * The user's answers to a conflict: an edit the server refused with 412 because the entity
 * changed there since the version the edit was based on. The entry holds both sides (`previous`
 * and the payload for "mine", `current` for "theirs"); nothing is sent or dropped until the
 * user picks one.
 */
import type { Element } from '@/api/types';
import type { FoliaDatabase, LocalElement } from './db';
import { discardEdit, retryEdit } from './discard';
import type { ElementChanges } from './kinds/elements';
import type { OutboxEntry } from './outboxEntry';
import { REMAP_TABLES } from './remap';

async function conflictEntry(db: FoliaDatabase, seq: number): Promise<OutboxEntry | null> {
  const entry = await db.outbox.get(seq);
  return entry?.status === 'conflict' ? entry : null;
}

/**
 * The next request of the edit is based on the server's version now, so it goes over it. For
 * a deletion the element is gone here: the version is kept on the entry's copy of it too.
 */
async function rebase(db: FoliaDatabase, entry: OutboxEntry): Promise<void> {
  const version = entry.currentLastModified;
  if (!version) return;
  await db.elements.update(entry.entityId, { lastModified: version });
  const previous = entry.previous as Partial<LocalElement> | null;
  if (entry.kind === 'element.delete' && previous && typeof previous === 'object') {
    await db.outbox.update(entry.seq!, { previous: { ...previous, lastModified: version } });
  }
}

/** "Keep mine" (or "Delete anyway"): the edit is sent again, over the server's version. */
export async function keepMine(db: FoliaDatabase, seq: number): Promise<boolean> {
  return db.transaction('rw', [db.outbox, db.elements], async () => {
    const entry = await conflictEntry(db, seq);
    if (!entry) return false;
    await rebase(db, entry);
    await retryEdit(db, seq);
    return true;
  });
}

/**
 * "Edit a merged value": the rename sends the text the user wrote from both versions, over the
 * server's version. The local element shows it at once, as any edit.
 */
export async function keepMerged(db: FoliaDatabase, seq: number, name: string): Promise<boolean> {
  return db.transaction('rw', [db.outbox, db.elements], async () => {
    const entry = await conflictEntry(db, seq);
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

/** Applies a queued update's changes to an element's data, as updateElement shows them. */
function withChanges(data: LocalElement['data'], changes: ElementChanges): LocalElement['data'] {
  const { polygon, ...plain } = changes;
  const next = { ...data, ...plain };
  if (polygon && next.zone) next.zone = { ...next.zone, polygon };
  return next;
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
    const known = await db.elements.get(entry.entityId);
    const later = await db.outbox.where('entityId').equals(entry.entityId).sortBy('seq');
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
      local: false,
      parentIds: known?.parentIds ?? [],
      savedAt: Date.now(),
    });
    return true;
  });
}
