import type { FoliaDatabase } from './db';

export interface OutboxStatus {
  /** Edits waiting to reach the server (sending included). */
  pending: number;
  /** Refused by the server, waiting for the user. */
  failed: number;
  conflicts: number;
  /** When an edit last reached the server; null: never from this browser. */
  lastSync: number | null;
}

export const EMPTY_STATUS: OutboxStatus = { pending: 0, failed: 0, conflicts: 0, lastSync: null };

export async function readOutboxStatus(db: FoliaDatabase): Promise<OutboxStatus> {
  const entries = await db.outbox.toArray();
  const count = (status: string) => entries.filter((entry) => entry.status === status).length;
  return {
    pending: count('pending') + count('sending'),
    failed: count('failed'),
    conflicts: count('conflict'),
    lastSync: (await db.syncState.get('lastSync'))?.at ?? null,
  };
}
