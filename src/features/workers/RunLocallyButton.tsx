/**
 * Adds a worker run of a version to the user's local process, so a worker author can run the
 * version on their own machine; the run then shows on the Worker runs page.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createLocalWorkerRun, workerKeys } from '@/api/workers';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';

export function RunLocallyButton({ versionId }: { versionId: string }) {
  const offline = useNeedsNetwork();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => createLocalWorkerRun({ worker_version_id: versionId }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...workerKeys.all, 'local-runs'] });
      notify({
        type: 'success',
        text: 'Worker run added to your local process.',
        link: { url: '/process/worker-runs', text: 'See your worker runs' },
      });
    },
    onError: (error) => notifyError(error),
  });
  return (
    <GuardedButton
      blocked={offline}
      className={ui.secondaryButton}
      disabled={create.isPending}
      onClick={() => create.mutate()}
    >
      Run locally
    </GuardedButton>
  );
}
