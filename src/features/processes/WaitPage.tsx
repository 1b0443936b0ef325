/**
 * A resource just asked for may take a moment to exist (enterprise: spec 000 §2 process-wait):
 * this page asks for it every 2 s and goes where it belongs once it answers; after 30 tries it
 * says so instead of waiting forever.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { WaitTarget } from './waitTarget';

export const WAIT_INTERVAL_MS = 2000;
export const WAIT_MAX_ATTEMPTS = 30;

export const WAIT_FAILED =
  'An error occurred while creating your resource, or it is taking too long to be created. Please contact your instance administrator.';

export function WaitPage({
  what,
  find,
}: {
  /** What is awaited, e.g. "process". */
  what: string;
  /** Resolves to where to go once the resource exists; rejects while it does not. */
  find: () => Promise<WaitTarget>;
}) {
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = async (count: number) => {
      try {
        const target = await find();
        if (!cancelled) void navigate({ ...target, replace: true } as never);
      } catch {
        if (cancelled) return;
        if (count >= WAIT_MAX_ATTEMPTS) setFailed(true);
        else timer = setTimeout(() => void attempt(count + 1), WAIT_INTERVAL_MS);
      }
    };
    void attempt(1);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [find, navigate]);

  return (
    <section className="mx-auto max-w-3xl p-6">
      {failed ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-red-800">
          {WAIT_FAILED}
        </p>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-700">
          <span className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" />
          Your {what} is being created, please wait…
        </p>
      )}
    </section>
  );
}
