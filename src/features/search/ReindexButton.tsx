import { useMutation, useQueryClient } from '@tanstack/react-query';
import { followJob } from '@/api/jobs';
import { reindexCorpus } from '@/api/search';
import type { Corpus } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { searchKeys } from './searchResults';

export const reindexScheduled = (name: string) =>
  `Rebuilding the search index of ${name} has been scheduled.`;

/**
 * For a project's administrators: rebuilds its search index as a background job (the index
 * follows every change by itself; this is for an index that went wrong). Results are read
 * again once the job ends.
 */
export function ReindexButton({ corpus }: { corpus: Corpus }) {
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  const reindex = useMutation({
    mutationFn: () => reindexCorpus(corpus.id),
    onSuccess: (job) => {
      notify({ type: 'success', text: reindexScheduled(corpus.name) });
      followJob(queryClient, job.id, () => {
        void queryClient.invalidateQueries({ queryKey: searchKeys.all });
      });
    },
    onError: (error) => notifyError(error),
  });
  if (!corpus.indexable || !corpus.rights.includes('admin')) return null;
  return (
    <GuardedButton
      className={ui.secondaryButton}
      blocked={offline ?? (reindex.isPending ? 'Please wait…' : null)}
      onClick={() => reindex.mutate()}
    >
      Rebuild the index
    </GuardedButton>
  );
}
