/** Spec 001 §2 "Export delete confirmation": asked before a done or running export goes. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteExport, exportKeys, type CorpusExport } from '@/api/exports';
import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { notifyError, notify } from '@/components/notifications/store';
import { relativeTime } from '@/lib/relativeTime';

export const DELETE_EXPORT_TITLE = 'Delete export';
/** Not in the spec's words: before the server's reason when the deletion fails. */
export const DELETE_EXPORT_ERROR = 'An error occurred while deleting the export';
export const EXPORT_DELETED = 'The export has been deleted.';

export function DeleteExportDialog({ item, onClose }: { item: CorpusExport; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => deleteExport(item.id),
    onSuccess: async () => {
      notify({ type: 'success', text: EXPORT_DELETED });
      await queryClient.invalidateQueries({ queryKey: exportKeys.corpus(item.corpus_id) });
    },
    onError: (error) => notifyError(error, DELETE_EXPORT_ERROR),
  });
  return (
    <ConfirmDeletion
      title={DELETE_EXPORT_TITLE}
      what={
        <>
          the export started by {item.user.display_name}{' '}
          <span title={item.created}>{relativeTime(item.created)}</span>
          {item.state === 'running' ? ', which is still running' : ''}
        </>
      }
      onDelete={() => mutation.mutateAsync()}
      onClose={onClose}
    />
  );
}
