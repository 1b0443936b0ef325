import type { FoliaDatabase } from './db';
import { OUTBOX_KINDS } from './kinds';
import { isCreation } from './outboxEntry';
import { REMAP_TABLES } from './remap';

/**
 * Drops a queued edit and puts the local store back as it was before it. A discarded creation
 * takes the edits of what it would have created with it: they could never be sent.
 */
export async function discardEdit(db: FoliaDatabase, seq: number): Promise<void> {
  await db.transaction('rw', [...REMAP_TABLES], async () => {
    const entry = await db.outbox.get(seq);
    if (!entry) return;
    await OUTBOX_KINDS[entry.kind].discard(db, entry);
    await db.outbox.delete(seq);
    if (isCreation(entry.kind)) {
      await db.outbox.where('entityId').equals(entry.entityId).delete();
    }
  });
}

/** Sends a parked or conflicting edit again, as a new request (the old key's answer is kept). */
export async function retryEdit(db: FoliaDatabase, seq: number): Promise<void> {
  await db.outbox.update(seq, {
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    error: null,
    idempotencyKey: crypto.randomUUID(),
  });
}
