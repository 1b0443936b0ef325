import type { Corpus } from '@/api/types';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { notify, notifyError } from '@/components/notifications/store';
import { useDeleteCorpus } from './api';

interface DeleteCorpusDialogProps {
  /** The project to delete; null keeps the dialog closed. */
  corpus: Corpus | null;
  onClose: () => void;
  onDeleted?: (corpus: Corpus) => void;
}

export function DeleteCorpusDialog({ corpus, onClose, onDeleted }: DeleteCorpusDialogProps) {
  const deletion = useDeleteCorpus();
  const confirm = () => {
    if (!corpus) return;
    deletion.mutate(corpus, {
      onSuccess: () => {
        notify({ type: 'success', text: `Project "${corpus.name}" has been deleted.` });
        onClose();
        onDeleted?.(corpus);
      },
      onError: (error) => {
        // Closed, so the notification outside the modal is not hidden from assistive tech.
        onClose();
        notifyError(error, `Project "${corpus.name}" could not be deleted`);
      },
    });
  };
  return (
    <ConfirmDialog
      open={corpus !== null}
      title="Delete project"
      confirmLabel="Delete"
      pending={deletion.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      {corpus && (
        <>
          <p>
            Are you sure you want to delete the project{' '}
            <strong className="font-semibold text-slate-900">{corpus.name}</strong>?
          </p>
          <p className="mt-2">
            All its elements, annotations and members are removed with it. This cannot be undone.
          </p>
        </>
      )}
    </ConfirmDialog>
  );
}
