import { useOnline } from './useOnline';

/**
 * Shown for as long as the browser is offline. It reads the browser's state directly, so after
 * a reload without network (the service worker serves the shell) it is there from the start.
 */
export function OfflineNotice() {
  const online = useOnline();
  if (online) return null;
  return (
    <section
      aria-label="Offline"
      className="border-b border-amber-300 bg-amber-100 text-sm text-amber-950"
    >
      <div role="status" className="mx-auto flex max-w-7xl items-baseline gap-2 px-4 py-2">
        <strong className="font-semibold">You are offline</strong>
        <span>
          Your edits are kept on this device and will be sent to the server when the network
          returns.
        </span>
      </div>
    </section>
  );
}
