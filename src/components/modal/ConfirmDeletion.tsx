import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * "Are you sure you want to delete …?": stays open, with its buttons waiting, until the
 * deletion is made; closes then, or on failure (the caller tells the failure).
 */
export function ConfirmDeletion({
  title,
  what,
  onDelete,
  onClose,
}: {
  title: string;
  /** What is deleted, as the question names it. */
  what: ReactNode;
  onDelete: () => Promise<void>;
  onClose: () => void;
}) {
  const [pending, setPending] = useState(false);
  return (
    <ConfirmDialog
      open
      title={title}
      confirmLabel="Delete"
      pending={pending}
      onClose={onClose}
      onConfirm={() => {
        setPending(true);
        onDelete()
          .then(onClose)
          .catch(() => setPending(false));
      }}
    >
      Are you sure you want to delete {what}?
    </ConfirmDialog>
  );
}
