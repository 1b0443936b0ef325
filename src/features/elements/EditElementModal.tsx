import { useMutation, useQueryClient } from '@tanstack/react-query';
import { elementKeys, invalidateElements, type ElementUpdate } from '@/api/elements';
import { updateElement } from '@/offline/elementWrites';
import type { Corpus, Element } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { NameTypeModal } from '@/components/modal/NameTypeModal';
import { useNameTypeForm } from '@/components/modal/useNameTypeForm';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { savedNotice } from '@/offline/runtime';

/** Spec 001 §8 "Elements", before the reason. */
export const UPDATE_ERROR = 'An error occurred while updating the element';
export const ELEMENT_UPDATED = 'Element updated.';
const NOTHING_CHANGED = 'Change the name or the type to save.';

export interface EditElementModalProps {
  element: Element;
  corpus: Corpus;
  /** Why Delete is not offered (admin and a verified e-mail are needed); null when it is. */
  deleteBlocked: string | null;
  onDelete: () => void;
  onClose: () => void;
}

/** The element edit modal of spec 001: name and type, and Delete for administrators. */
export function EditElementModal({
  element,
  corpus,
  deleteBlocked,
  onDelete,
  onClose,
}: EditElementModalProps) {
  const form = useNameTypeForm({
    name: element.name,
    // A type the project no longer lists cannot be kept: the form asks for one.
    type: corpus.types.some((type) => type.slug === element.type) ? element.type : '',
  });
  const queryClient = useQueryClient();

  // Spec 001 §5: an update needs a changed name or type; only what changed is sent.
  const { fields } = form;
  const patch: ElementUpdate = {
    ...(fields.name.trim() !== element.name && { name: fields.name.trim() }),
    ...(fields.type !== element.type && { type: fields.type }),
  };
  const changed = Object.keys(patch).length > 0;

  const update = useMutation({
    mutationFn: (changes: ElementUpdate) => updateElement(element.id, changes),
    onSuccess: async (updated) => {
      queryClient.setQueryData(elementKeys.detail(element.id), updated);
      notify({ type: 'success', text: savedNotice(ELEMENT_UPDATED) });
      onClose();
      await invalidateElements(queryClient);
    },
    onError: (error) => form.fail(error, UPDATE_ERROR),
  });

  return (
    <NameTypeModal
      title="Edit element"
      form={form}
      types={corpus.types}
      submitLabel="Save"
      pending={update.isPending}
      onSubmit={() => {
        if (changed) update.mutate(patch);
      }}
      onClose={onClose}
      blocked={changed ? null : NOTHING_CHANGED}
      footerStart={
        <GuardedButton
          blocked={deleteBlocked}
          className={ui.dangerOutlineButton}
          disabled={update.isPending}
          onClick={onDelete}
        >
          Delete
        </GuardedButton>
      }
    />
  );
}
