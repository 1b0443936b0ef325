import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { notify, notifyError } from '@/components/notifications/store';
import { useDeleteSecret } from './api';

/** "Are you sure you want to delete the secret …?", then the deletion and its outcome. */
export function DeleteSecretDialog({
  name,
  onClose,
  onDeleted,
}: {
  name: string;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteSecret();
  return (
    <ConfirmDeletion
      title="Delete a secret"
      what={
        <>
          the secret <span className="font-mono">{name}</span>
        </>
      }
      onClose={onClose}
      onDelete={async () => {
        try {
          await remove.mutateAsync(name);
        } catch (error) {
          notifyError(error, 'The secret could not be deleted');
          throw error;
        }
        notify({ type: 'success', text: `The secret ${name} was deleted.` });
        onDeleted();
      }}
    />
  );
}
