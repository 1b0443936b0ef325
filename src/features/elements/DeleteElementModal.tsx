import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { forgetElement, invalidateElements } from '@/api/elements';
import { deleteElement } from '@/offline/elementWrites';
import type { Element } from '@/api/types';
import { CheckboxField } from '@/components/modal/CheckboxField';
import { Modal } from '@/components/modal/Modal';
import { DangerActions } from '@/components/modal/ModalActions';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { savedNotice } from '@/offline/runtime';

/** Spec 001 §8 "Elements", word for word. */
export const DELETE_ERROR = 'An error occurred while deleting the element';
export const DELETION_SCHEDULED = 'Element deletion has been scheduled.';
export const ELEMENT_DELETED = 'Element deleted.';

export interface DeleteElementModalProps {
  element: Element;
  onClose: () => void;
  /** Leaves the deleted element's page; resolves once the next page shows. */
  onDeleted: () => Promise<void>;
}

/** Confirms the deletion of one element, with or without its children. */
export function DeleteElementModal({ element, onClose, onDeleted }: DeleteElementModalProps) {
  const [withChildren, setWithChildren] = useState(true);
  const queryClient = useQueryClient();
  const deletion = useMutation({
    mutationFn: () => deleteElement(element.id, withChildren),
    onSuccess: async (outcome) => {
      notify({
        type: 'success',
        text: outcome === 'scheduled' ? DELETION_SCHEDULED : savedNotice(ELEMENT_DELETED),
      });
      // Away first: the page of an element that is gone would only ask for it again.
      await onDeleted();
      forgetElement(queryClient, element.id);
      await invalidateElements(queryClient);
    },
    onError: (error) => {
      // Closed, so the notification is not hidden behind the modal from assistive technology.
      onClose();
      notifyError(error, DELETE_ERROR);
    },
  });
  return (
    <Modal
      title="Delete element"
      onClose={onClose}
      pending={deletion.isPending}
      footer={
        <DangerActions
          label="Delete"
          pending={deletion.isPending}
          onCancel={onClose}
          onConfirm={() => deletion.mutate()}
        />
      }
    >
      <p>
        Are you sure you want to delete{' '}
        <strong className="font-semibold text-slate-900">{element.name}</strong>? This cannot be
        undone.
      </p>
      <CheckboxField
        label="Also delete its children"
        checked={withChildren}
        onChange={setWithChildren}
        disabled={deletion.isPending}
      />
      <p className={ui.help}>
        Children that have another parent are kept. Unchecked, the children stay and lose this
        parent.
      </p>
    </Modal>
  );
}
