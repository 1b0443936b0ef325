/**
 * The offline layer of the running app: one connectivity monitor, one sync engine and its
 * scheduler over the app's database. Tests build their own from the classes.
 */
import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { elementKeys } from '@/api/elements';
import { useStore } from '@/lib/store';
import { ConnectivityMonitor, type Connectivity } from './connectivity';
import { localDb } from './db';
import { SyncEngine } from './engine';
import { SyncScheduler } from './syncScheduler';

export const connectivity = new ConnectivityMonitor();
/** The roots of entityKeys (queries.ts): their views show ids and versions sync changes. */
const ENTITY_ROOTS = new Set<unknown>([
  'transcriptions',
  'metadata',
  'classes',
  'allowed-metadata',
  // Dataset pages and lists: their set counts change once additions and removals are sent.
  'datasets',
]);
export const syncEngine = new SyncEngine(localDb);
export const syncScheduler = new SyncScheduler(localDb, syncEngine, connectivity);

/** What the edit helpers need: the database, whether the API answers, and the replayer. */
export const offlineRuntime = { db: localDb, connectivity, scheduler: syncScheduler };

export function startOfflineRuntime(queryClient: QueryClient): void {
  // Edits reaching the server give elements their server ids and versions: pages refresh.
  syncScheduler.onSynced = () => {
    void queryClient.invalidateQueries({ queryKey: elementKeys.all });
    void queryClient.invalidateQueries({
      predicate: (query) => ENTITY_ROOTS.has(query.queryKey[0]),
    });
  };
  connectivity.start();
  syncScheduler.start();
  // Queries (and their polling) pause while the API is out of reach, and resume after.
  onlineManager.setEventListener((setOnline) =>
    connectivity.store.subscribe(() => setOnline(connectivity.store.get().online)),
  );
  listenForBackgroundSync();
}

/**
 * Where the browser has Background Sync, edits queued offline ask for a sync; the service
 * worker then wakes this tab (sw/sw.ts), which probes the API and replays.
 */
function listenForBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event) => {
    if ((event.data as { type?: string } | null)?.type !== 'SYNC_OUTBOX') return;
    void connectivity.check().then(() => syncScheduler.kick());
  });
  connectivity.store.subscribe(() => {
    if (connectivity.store.get().online) return;
    void navigator.serviceWorker.ready
      .then((registration) =>
        (
          registration as ServiceWorkerRegistration & {
            sync?: { register(tag: string): Promise<void> };
          }
        ).sync?.register('folia-outbox'),
      )
      .catch(() => undefined);
  });
}

/** What a change made without the network tells the user instead of the server's success. */
export const SAVED_ON_DEVICE =
  'Saved on this device: the change will be sent when the network returns.';

/** The success notice of an edit: the spec's words once the server has it, ours before. */
export function savedNotice(text: string): string {
  return connectivity.store.get().online ? text : SAVED_ON_DEVICE;
}

export function useConnectivity(): Connectivity {
  return useStore(connectivity.store);
}
