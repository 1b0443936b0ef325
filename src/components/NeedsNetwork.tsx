import { useConnectivity } from '@/offline/runtime';

/**
 * What only the server can do (create a project, change its settings or members, import, delete
 * by filter, the account forms) waits for the network: offline, such actions stay visible but
 * unavailable and say why, before the user tries, instead of failing after.
 */
export const NEEDS_NETWORK = 'Needs the network';

/** Why a server-only action is unavailable now, or null while the API answers. */
export function useNeedsNetwork(): string | null {
  return useConnectivity().online ? null : NEEDS_NETWORK;
}

/** Where the user looks: "You are offline. Connect to the network to {action}." */
export function OfflineNote({ action, id }: { action: string; id?: string }) {
  const blocked = useNeedsNetwork();
  if (!blocked) return null;
  return (
    <p
      id={id}
      role="note"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      You are offline. Connect to the network to {action}.
    </p>
  );
}
