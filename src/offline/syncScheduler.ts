import { liveQuery } from 'dexie';
import type { ConnectivityMonitor } from './connectivity';
import type { FoliaDatabase } from './db';
import type { SyncEngine, SyncResult } from './engine';

const LOCK_NAME = 'folia-outbox-sync';
/** However far a retry was pushed back, look again this often while edits wait. */
const MAX_WAIT_MS = 30_000;

type Locks = Pick<LockManager, 'request'>;

/**
 * When to replay: when the API becomes reachable, when the tab gets focus back, when an edit
 * is queued, and when a backed-off retry is due. One tab replays at a time (Web Locks); the
 * others see its progress through the shared database.
 */
export class SyncScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Called after a run that applied edits: pages showing elements refresh. */
  onSynced: (() => void) | null = null;
  private readonly stops: (() => void)[] = [];
  private stopped = false;

  constructor(
    private readonly db: FoliaDatabase,
    private readonly engine: SyncEngine,
    private readonly connectivity: ConnectivityMonitor,
    private readonly locks: Locks | null = typeof navigator !== 'undefined' && navigator.locks
      ? navigator.locks
      : null,
    private readonly now: () => number = Date.now,
  ) {}

  start(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): void {
    this.stopped = false;
    let wasOnline = this.connectivity.store.get().online;
    this.stops.push(
      this.connectivity.store.subscribe(() => {
        const { online } = this.connectivity.store.get();
        if (online && !wasOnline) this.kickInBackground();
        wasOnline = online;
      }),
    );
    const onFocus = () => this.kickInBackground();
    target.addEventListener('focus', onFocus);
    this.stops.push(() => target.removeEventListener('focus', onFocus));
    const queued = liveQuery(() =>
      this.db.outbox.where('status').equals('pending').count(),
    ).subscribe({
      next: (count) => {
        if (count > 0) this.kickInBackground();
      },
      error: () => undefined,
    });
    this.stops.push(() => queued.unsubscribe());
  }

  stop(): void {
    this.stopped = true;
    for (const stop of this.stops.splice(0)) stop();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Replays now if the API is reachable and no other tab is at it; null when it did not run. */
  async kick(): Promise<SyncResult | null> {
    if (!this.connectivity.store.get().online) return null;
    let result: SyncResult | null = null;
    const run = async () => {
      result = await this.engine.sync();
      if (result.offline) this.connectivity.reportUnreachable();
      if (result.sent > 0) this.onSynced?.();
    };
    if (this.locks) {
      await this.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
        if (lock) await run();
      });
    } else {
      await run();
    }
    await this.scheduleNext();
    return result;
  }

  /** A run nobody awaits (an event, a timer): its failure is told, not left unhandled. */
  private kickInBackground(): void {
    this.kick().catch((error: unknown) => {
      // Once stopped, the database may be closed under a run still going: nothing to tell.
      if (!this.stopped) console.error('Sending the pending changes failed', error);
    });
  }

  /** The next retry, when edits wait for their backoff to pass. */
  private async scheduleNext(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stops.length === 0) return;
    const waiting = await this.db.outbox.where('status').anyOf('pending', 'sending').toArray();
    if (waiting.length === 0) return;
    const due = Math.min(...waiting.map((entry) => entry.nextAttemptAt));
    const delay = Math.min(MAX_WAIT_MS, Math.max(1000, due - this.now()));
    this.timer = setTimeout(() => this.kickInBackground(), delay);
  }
}
