import { useEffect, useRef } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { notifyError } from '@/components/notifications/store';
import { useLogout } from '../api';
import { AuthCard, Button, FormAlert } from './Form';

/**
 * Logging out happens when the page mounts, not in a loader: routes are preloaded on hover,
 * and hovering a "Log out" link must not end the session.
 */
export function LogoutPage() {
  const navigate = useNavigate();
  const logout = useLogout();
  const started = useRef(false);

  const run = () =>
    logout.mutate(undefined, {
      onSuccess: () => navigate({ to: '/', replace: true }),
      onError: (error) => notifyError(error),
    });

  useEffect(() => {
    // StrictMode mounts twice; one DELETE is enough.
    if (started.current) return;
    started.current = true;
    run();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <AuthCard title="Log out">
      {logout.isError ? (
        <div className="space-y-4">
          <FormAlert>{errorMessage(logout.error)}</FormAlert>
          <Button type="button" onClick={run}>
            Try again
          </Button>
        </div>
      ) : (
        <p role="status" className="text-sm text-slate-600">
          Logging out…
        </p>
      )}
    </AuthCard>
  );
}
