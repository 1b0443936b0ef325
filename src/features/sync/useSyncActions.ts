import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateElements } from '@/api/elements';
import { notifyError } from '@/components/notifications/store';
import { keepMerged, keepMine, keepTheirs } from '@/offline/conflicts';
import { localDb } from '@/offline/db';
import { discardEdit, retryEdit } from '@/offline/discard';
import { syncScheduler } from '@/offline/runtime';

/**
 * What the Pending changes panel can do to a queued edit. Each action changes the local store
 * (pages showing elements refresh), and those that give an edit another try send it now when
 * the API answers.
 */
export function useSyncActions() {
  const queryClient = useQueryClient();
  /** Seqs with an action under way: their buttons wait. */
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());

  const run = useCallback(
    async (seq: number, action: () => Promise<unknown>, send: boolean) => {
      setBusy((current) => new Set(current).add(seq));
      try {
        await action();
        void invalidateElements(queryClient);
        if (send) void syncScheduler.kick().catch(notifyError);
      } catch (error) {
        notifyError(error);
      } finally {
        setBusy((current) => {
          const next = new Set(current);
          next.delete(seq);
          return next;
        });
      }
    },
    [queryClient],
  );

  return useMemo(
    () => ({
      busy,
      retry: (seq: number) => run(seq, () => retryEdit(localDb, seq), true),
      discard: (seq: number) => run(seq, () => discardEdit(localDb, seq), false),
      keepMine: (seq: number) => run(seq, () => keepMine(localDb, seq), true),
      keepTheirs: (seq: number) => run(seq, () => keepTheirs(localDb, seq), false),
      keepMerged: (seq: number, name: string) =>
        run(seq, () => keepMerged(localDb, seq, name), true),
      sendNow: () => syncScheduler.kick().catch(notifyError),
    }),
    [busy, run],
  );
}

export type SyncActions = ReturnType<typeof useSyncActions>;
