/**
 * Makes a `created` worker version `available`, so it is offered to run and recommended:
 * for the people who publish workers, once the version is ready.
 */
import type { WorkerVersion } from '@/api/workers';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { useCanManageWorkers, useMakeVersionAvailable } from './api';

export function MakeAvailableButton({ version }: { version: WorkerVersion }) {
  const allowed = useCanManageWorkers();
  const offline = useNeedsNetwork();
  const update = useMakeVersionAvailable(version.id);
  if (!allowed || version.state !== 'created') return null;
  return (
    <GuardedButton
      blocked={offline}
      className={ui.primaryButton}
      disabled={update.isPending}
      onClick={() =>
        update.mutate(undefined, {
          onSuccess: () => notify({ type: 'success', text: 'The version is now available.' }),
          onError: (error) => notifyError(error),
        })
      }
    >
      Make available
    </GuardedButton>
  );
}
