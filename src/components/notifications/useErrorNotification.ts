import { useEffect, useRef } from 'react';
import { notifyError } from './store';

/**
 * Shows a query's error once as a notification. The ref keeps one error from being reported
 * twice when React runs effects again (strict mode, re-renders with the same error).
 */
export function useErrorNotification(error: unknown): void {
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!error || reported.current === error) return;
    reported.current = error;
    notifyError(error);
  }, [error]);
}
