import { useState } from 'react';
import type { ElementDatasetSet } from '@/api/datasets';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';

export const REMOVE_TITLE = 'Remove element from dataset set';

/**
 * The remove-from-set confirmation (spec 001 §2): stays open, its buttons waiting, until the
 * removal is made here (and, online, on the server); closes then, or on a refusal the caller
 * tells.
 */
export function RemoveFromSetDialog({
  elementName,
  entry,
  onRemove,
  onClose,
}: {
  elementName: string;
  entry: ElementDatasetSet;
  onRemove: () => Promise<void>;
  onClose: () => void;
}) {
  const [pending, setPending] = useState(false);
  return (
    <ConfirmDialog
      open
      title={REMOVE_TITLE}
      confirmLabel="Remove"
      pending={pending}
      onClose={onClose}
      onConfirm={() => {
        setPending(true);
        onRemove()
          .then(onClose)
          .catch(() => setPending(false));
      }}
    >
      {`Are you sure you want to remove “${elementName}” from the set ${entry.set} of the dataset “${entry.dataset.name}”?`}
    </ConfirmDialog>
  );
}
