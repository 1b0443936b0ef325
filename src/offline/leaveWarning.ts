/**
 * The browser's "Leave site?" question when a tab is closed (or reloaded) with edits not yet on
 * the server. The edits would survive (the outbox is in IndexedDB), but they reach the server
 * only once the app is open again, and a refused or conflicting edit waits for the user.
 */
import { liveQuery } from 'dexie';
import type { FoliaDatabase } from './db';
import { readOutboxStatus, type OutboxStatus } from './outboxStatus';

/** Waiting, refused or conflicting edits: the user should not leave without knowing. */
export function hasUnsyncedEdits(status: OutboxStatus): boolean {
  return status.pending + status.failed + status.conflicts > 0;
}

/** Asks the browser to confirm leaving, when there is something to lose. */
export function warnIfUnsynced(event: BeforeUnloadEvent, status: OutboxStatus): boolean {
  if (!hasUnsyncedEdits(status)) return false;
  event.preventDefault();
  // Browsers before the standard preventDefault() look at returnValue.
  event.returnValue = '';
  return true;
}

/**
 * Keeps the outbox status at hand (beforeunload must answer at once, it cannot wait for
 * IndexedDB) and asks before the tab goes. Returns what stops it.
 */
export function warnBeforeLeaving(
  db: FoliaDatabase,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  let status: OutboxStatus | null = null;
  const subscription = liveQuery(() => readOutboxStatus(db)).subscribe({
    next: (next) => {
      status = next;
    },
    error: () => undefined,
  });
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (status) warnIfUnsynced(event, status);
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => {
    subscription.unsubscribe();
    target.removeEventListener('beforeunload', onBeforeUnload);
  };
}
