import { useEffect, useRef } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { useLogout } from '../api';
import { AuthCard, Button, FormAlert } from './Form';

/**
 * Logging out happens when the page mounts, not in a loader: routes are preloaded on hover,
 * and hovering a "Log out" link must not end the session. Offline, it waits for the network.
 */
export function LogoutPage() {
  const navigate = useNavigate();
  const logout = useLogout();
  const started = useRef(false);
  const offline = useNeedsNetwork();

  const run = () =>
    logout.mutate(undefined, {
      onSuccess: () => navigate({ to: '/', replace: true }),
      onError: (error) => notifyError(error),
    });

  useEffect(() => {
    // StrictMode mounts twice; one DELETE is enough.
    if (started.current || offline) return;
    started.current = true;
    run();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [offline]);

  return (
    <AuthCard title="Log out" offlineAction="log out">
      {logout.isError ? (
        <div className="space-y-4">
          <FormAlert>{errorMessage(logout.error)}</FormAlert>
          <Button type="button" onClick={run}>
            Try again
          </Button>
        </div>
      ) : offline ? null : (
        <p role="status" className="text-sm text-slate-600">
          Logging out…
        </p>
      )}
    </AuthCard>
  );
}
