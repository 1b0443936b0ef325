import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { notify, notifyError } from '@/components/notifications/store';
import type { Budget } from '@/api/budgets';
import { useDeleteBudget } from './api';

/** "Are you sure you want to delete the budget …?": its entries go with it. */
export function DeleteBudgetDialog({
  budget,
  onClose,
  onDeleted,
}: {
  budget: Budget;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteBudget();
  return (
    <ConfirmDeletion
      title="Delete a budget"
      what={<>the budget {budget.name} and its entries</>}
      onClose={onClose}
      onDelete={async () => {
        try {
          await remove.mutateAsync(budget.id);
        } catch (error) {
          notifyError(error, 'The budget could not be deleted');
          throw error;
        }
        notify({ type: 'success', text: `The budget ${budget.name} was deleted.` });
        onDeleted();
      }}
    />
  );
}
