/**
 * Dataset edits an annotator makes while reading (put an element in a set, take it out, rename
 * a set): applied to the local store and queued in the outbox in one transaction, as element
 * edits are (datasetQueue.ts), then sent when the API answers. When it answers now, they are
 * sent at once, so a refusal shows where the user acted.
 */
import { ApiError } from '@/api/errors';
import { inDb, type AddInput, type RemoveInput, type RenameInput } from './datasetQueue';
import { discardEdit } from './discard';
import { offlineRuntime } from './runtime';

export type { AddInput, RemoveInput, RenameInput } from './datasetQueue';

/**
 * Sends the queued edit now when the API answers. A refusal takes the edit back and is thrown,
 * for the form or the table to show; offline, or with the network lost on the way, it stays
 * queued and this resolves.
 */
async function send(seq: number | null): Promise<void> {
  const { db, connectivity, scheduler } = offlineRuntime;
  if (seq === null || !connectivity.store.get().online) return;
  await scheduler.kick();
  const entry = await db.outbox.get(seq);
  if (entry?.status === 'failed' && entry.error) {
    await discardEdit(db, seq);
    throw new ApiError(entry.error.status, entry.error.message, entry.error.fields ?? {});
  }
}

/** Puts an element in a set of a dataset. */
export async function addElementToSet(input: AddInput): Promise<void> {
  await send(await inDb.addElementToSet(offlineRuntime.db, input));
}

/** Takes an element out of a set of a dataset. */
export async function removeElementFromSet(input: RemoveInput): Promise<void> {
  await send(await inDb.removeElementFromSet(offlineRuntime.db, input));
}

/** Renames a set of a dataset, here at once and in every membership naming it. */
export async function renameSet(input: RenameInput): Promise<void> {
  await send(await inDb.renameSet(offlineRuntime.db, input));
}
