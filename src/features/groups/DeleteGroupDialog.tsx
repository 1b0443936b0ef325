import type { Group } from '@/api/groups';
import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { notify, notifyError } from '@/components/notifications/store';
import { useDeleteGroup } from './api';

/**
 * "Are you sure you want to delete the group …?", then the deletion and its outcome: its
 * members lose the roles it gave them on projects.
 */
export function DeleteGroupDialog({
  group,
  onClose,
  onDeleted,
}: {
  group: Group;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteGroup(group.id);
  return (
    <ConfirmDeletion
      title="Delete a group"
      what={
        <>
          the group <strong className="font-semibold text-slate-900">{group.name}</strong>
        </>
      }
      onClose={onClose}
      onDelete={async () => {
        try {
          await remove.mutateAsync();
        } catch (error) {
          notifyError(error, 'The group could not be deleted');
          throw error;
        }
        notify({ type: 'success', text: `The group ${group.name} was deleted.` });
        onDeleted();
      }}
    />
  );
}
