/** Building outbox entries, for every kind of edit (elements, transcriptions, metadata…). */
import type { FoliaDatabase } from './db';
import { OUTBOX_KINDS } from './kinds';
import type { OutboxEntry, OutboxKind } from './outboxEntry';

export function newEntry(
  kind: OutboxKind,
  entityId: string,
  corpusId: string,
  payload: Record<string, unknown>,
  previous: unknown,
  label: string,
): OutboxEntry {
  const made: OutboxEntry = {
    entityId,
    corpusId,
    kind,
    payload,
    previous,
    refIds: [],
    idempotencyKey: crypto.randomUUID(),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    error: null,
    current: null,
    currentLastModified: null,
    createdAt: Date.now(),
    label,
  };
  made.refIds = [entityId, ...OUTBOX_KINDS[kind].refs(made)];
  return made;
}

/** The entity's last queued edit, if it was never sent (so it may still change). */
export async function unsentTail(
  db: FoliaDatabase,
  entityId: string,
): Promise<OutboxEntry | undefined> {
  const entries = await db.outbox.where('entityId').equals(entityId).sortBy('seq');
  const last = entries.at(-1);
  return last && last.status === 'pending' && last.attempts === 0 ? last : undefined;
}

/** True when every queued edit of the entity is still unsent: it can vanish without a request. */
export async function neverSent(db: FoliaDatabase, entityId: string): Promise<boolean> {
  const entries = await db.outbox.where('entityId').equals(entityId).toArray();
  return entries.every((e) => e.status === 'pending' && e.attempts === 0);
}
