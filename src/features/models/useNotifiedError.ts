import { useEffect, useRef } from 'react';
import { notify } from '@/components/notifications/store';

/**
 * Shows a query's error once as an error notification in the words `describe` gives it (the
 * spec's "An error occurred listing models: …"). The ref keeps one error from being reported
 * twice when effects run again.
 */
export function useNotifiedError(error: unknown, describe: (error: unknown) => string): void {
  const reported = useRef<unknown>(null);
  const text = error ? describe(error) : null;
  useEffect(() => {
    if (!error || !text || reported.current === error) return;
    reported.current = error;
    notify({ type: 'error', text });
  }, [error, text]);
}
