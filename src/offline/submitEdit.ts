import { ApiError } from '@/api/errors';
import { discardEdit } from './discard';
import type { FoliaDatabase } from './db';
import type { ConnectivityMonitor } from './connectivity';
import type { SyncScheduler } from './syncScheduler';

export type EditOutcome =
  /** The server applied it. */
  | { state: 'applied'; status: number | null }
  /** Kept on this device, sent when the network allows. */
  | { state: 'queued' };

/**
 * Makes an edit the way the modals want it: applied here and queued at once; when the API is
 * reachable, sent right away so a refusal shows in the form (the edit is then taken back);
 * offline, kept for later.
 */
export async function submitEdit(
  runtime: { db: FoliaDatabase; connectivity: ConnectivityMonitor; scheduler: SyncScheduler },
  apply: () => Promise<string>,
): Promise<EditOutcome> {
  const { db } = runtime;
  const entityId = await apply();
  const entries = await db.outbox.where('entityId').equals(entityId).sortBy('seq');
  const seq = entries.at(-1)?.seq;
  if (seq === undefined) return { state: 'applied', status: null };
  if (!runtime.connectivity.store.get().online) return { state: 'queued' };
  const result = await runtime.scheduler.kick();
  const entry = await db.outbox.get(seq);
  if (!entry) return { state: 'applied', status: result?.statuses[seq] ?? null };
  if (entry.status === 'failed' && entry.error) {
    await discardEdit(db, seq);
    throw new ApiError(entry.error.status, entry.error.message, entry.error.fields ?? {});
  }
  if (entry.status === 'conflict') {
    // Kept for the user to choose in Pending changes; the form says why it did not go through.
    const subject = entry.kind.split('.')[0];
    throw new ApiError(
      412,
      `This ${subject} was changed on the server since you loaded it: choose which version to keep in Pending changes.`,
    );
  }
  return { state: 'queued' };
}
