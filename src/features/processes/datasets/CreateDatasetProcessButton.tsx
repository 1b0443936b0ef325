import type { Dataset } from '@/api/datasets';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';
import { RIGHT_MESSAGES } from '@/lib/rights';
import { useCreateDatasetProcess } from './useCreateDatasetProcess';

/**
 * The dataset page's "Create a process": a dataset process over this dataset's sets, whose
 * datasets step opens next. Processes are created by project admins (spec 000 §6).
 */
export function CreateDatasetProcessButton({
  dataset,
  isAdmin,
}: {
  dataset: Dataset;
  isAdmin: boolean;
}) {
  const offline = useNeedsNetwork();
  const { create, pending } = useCreateDatasetProcess();
  return (
    <GuardedButton
      className={ui.secondaryButton}
      blocked={isAdmin ? offline : RIGHT_MESSAGES.admin}
      disabled={pending}
      onClick={() => create(dataset)}
    >
      Create a process
    </GuardedButton>
  );
}
