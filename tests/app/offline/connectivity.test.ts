import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectivityMonitor, PROBE_OFFLINE_MS } from '@/offline/connectivity';

class FakeWindow extends EventTarget {}

afterEach(() => vi.useRealTimers());

describe('the connectivity monitor', () => {
  it('believes the API, not the browser event, and probes again while offline', async () => {
    vi.useFakeTimers();
    let reachable = false;
    const probe = vi.fn(async () => reachable);
    const target = new FakeWindow();
    const monitor = new ConnectivityMonitor(probe, target as unknown as Window);
    monitor.start();
    await vi.waitFor(() => expect(monitor.store.get().online).toBe(false));

    // The network interface comes back but the API does not answer yet.
    target.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(probe).toHaveBeenCalledTimes(2));
    expect(monitor.store.get().online).toBe(false);

    reachable = true;
    await vi.advanceTimersByTimeAsync(PROBE_OFFLINE_MS);
    expect(monitor.store.get().online).toBe(true);

    // The browser saying offline is believed at once.
    target.dispatchEvent(new Event('offline'));
    expect(monitor.store.get().online).toBe(false);
    monitor.stop();
  });

  it('goes offline when a request found no server', async () => {
    const monitor = new ConnectivityMonitor(
      async () => true,
      new FakeWindow() as unknown as Window,
    );
    monitor.reportUnreachable();
    expect(monitor.store.get().online).toBe(false);
    expect(await monitor.check()).toBe(true);
    expect(monitor.store.get().online).toBe(true);
  });
});
