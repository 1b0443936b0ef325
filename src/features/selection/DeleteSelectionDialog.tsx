import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateElements } from '@/api/elements';
import { followJobsStartedBy } from '@/api/jobs';
import { deleteSelectedElements } from '@/api/selection';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { notify, notifyError } from '@/components/notifications/store';
import { localSelection } from '@/offline/selectionRuntime';
import { SCHEDULED, countOf } from './bulkActions';

export interface DeleteSelectionDialogProps {
  corpusId: string;
  corpusName: string;
  /** The selected elements of the project on this device. */
  ids: readonly string[];
  onClose: () => void;
}

/** Deletes the selected elements of one project, once confirmed: a job on the server. */
export function DeleteSelectionDialog({
  corpusId,
  corpusName,
  ids,
  onClose,
}: DeleteSelectionDialogProps) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () =>
      // Its end reads the selection again: a failed deletion leaves elements in it.
      followJobsStartedBy(
        queryClient,
        () => deleteSelectedElements(corpusId),
        () => void localSelection.refresh(),
      ),
    onSuccess: async () => {
      notify({ type: 'success', text: SCHEDULED.delete });
      onClose();
      // The deleted elements leave the server's selection with the job; should it fail, the
      // next read of the selection brings back those still there.
      await localSelection.forget(ids);
      await invalidateElements(queryClient);
    },
    onError: (error) => notifyError(error, 'An error occurred while deleting the elements'),
  });
  return (
    <ConfirmDialog
      open
      title="Delete elements"
      confirmLabel="Delete"
      pending={mutation.isPending}
      onConfirm={() => mutation.mutate()}
      onClose={onClose}
    >
      <p>
        The {countOf(ids.length, 'selected element')} of{' '}
        <strong className="font-semibold text-slate-900">{corpusName}</strong> will be deleted, with
        their children and annotations. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
