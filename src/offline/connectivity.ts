import { apiUrl } from '@/api/client';
import { createStore, type Store } from '@/lib/store';

export interface Connectivity {
  /** The API answered the last probe (or nothing has said otherwise yet). */
  online: boolean;
  checkedAt: number | null;
}

/** Probe intervals: often while offline, to notice the network's return; rarely otherwise. */
export const PROBE_OFFLINE_MS = 10_000;
export const PROBE_ONLINE_MS = 60_000;

export type Probe = () => Promise<boolean>;

/**
 * Whether the API answers. Any HTTP answer counts (a 503 comes from a reachable server), only
 * a failed fetch or a timeout means offline. navigator.onLine only knows the network interface.
 */
export const probeApi: Probe = async () => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 8000);
  try {
    await fetch(apiUrl('/'), {
      method: 'GET',
      cache: 'no-store',
      credentials: 'include',
      headers: { Accept: 'application/json' },
      signal: controller.signal,
    });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
};

export class ConnectivityMonitor {
  readonly store: Store<Connectivity>;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private probing: Promise<boolean> | null = null;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly probe: Probe = probeApi,
    private readonly target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
  ) {
    this.store = createStore<Connectivity>({
      online: typeof navigator === 'undefined' ? true : navigator.onLine,
      checkedAt: null,
    });
  }

  start(): void {
    const onOffline = () => this.set(false);
    // The browser's "online" is a hint: the API may still be out of reach.
    const onOnline = () => void this.check();
    this.target.addEventListener('offline', onOffline);
    this.target.addEventListener('online', onOnline);
    this.stops.push(() => {
      this.target.removeEventListener('offline', onOffline);
      this.target.removeEventListener('online', onOnline);
    });
    void this.check();
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Probes now (one probe at a time) and schedules the next. */
  check(): Promise<boolean> {
    this.probing ??= this.probe()
      .then((online) => {
        this.set(online);
        return online;
      })
      .finally(() => {
        this.probing = null;
      });
    return this.probing;
  }

  /** A request failed for want of an answer: offline until a probe says otherwise. */
  reportUnreachable(): void {
    this.set(false);
  }

  private set(online: boolean): void {
    this.store.set({ online, checkedAt: Date.now() });
    if (this.timer) clearTimeout(this.timer);
    if (this.stops.length === 0) return;
    this.timer = setTimeout(() => void this.check(), online ? PROBE_ONLINE_MS : PROBE_OFFLINE_MS);
  }
}
