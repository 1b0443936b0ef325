import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { elementKeys, invalidateElements, updateElement, type ElementUpdate } from '@/api/elements';
import type { Corpus, Element } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { NameTypeFields } from '@/components/modal/NameTypeFields';
import { modalUi } from '@/components/modal/styles';
import { notify, notifyError } from '@/components/notifications/store';
import {
  fieldMessages,
  hasErrors,
  validateElementFields,
  type ElementFields,
} from '@/lib/elementForm';
import { NO_ERRORS, isValidationError, toFormErrors, type FormErrors } from '@/lib/formErrors';

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
  const [fields, setFields] = useState<ElementFields>({
    name: element.name,
    // A type the project no longer lists cannot be kept: the form asks for one.
    type: corpus.types.some((type) => type.slug === element.type) ? element.type : '',
  });
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>(NO_ERRORS);
  const queryClient = useQueryClient();

  // Spec 001 §5: an update needs a changed name or type; only what changed is sent.
  const patch: ElementUpdate = {
    ...(fields.name.trim() !== element.name && { name: fields.name.trim() }),
    ...(fields.type !== element.type && { type: fields.type }),
  };
  const changed = Object.keys(patch).length > 0;

  const update = useMutation({
    mutationFn: (changes: ElementUpdate) => updateElement(element.id, changes),
    onSuccess: async (updated) => {
      queryClient.setQueryData(elementKeys.detail(element.id), updated);
      notify({ type: 'success', text: ELEMENT_UPDATED });
      onClose();
      await invalidateElements(queryClient);
    },
    onError: (error) => {
      setServerErrors(toFormErrors(error, ['name', 'type'], UPDATE_ERROR));
      if (!isValidationError(error)) notifyError(error, UPDATE_ERROR);
    },
  });

  const local = validateElementFields(fields);
  const submit = () => {
    setSubmitted(true);
    if (changed && !hasErrors(local)) update.mutate(patch);
  };

  return (
    <Modal
      title="Edit element"
      onClose={onClose}
      pending={update.isPending}
      onSubmit={submit}
      footerStart={
        <GuardedButton
          blocked={deleteBlocked}
          className={modalUi.dangerOutlineButton}
          disabled={update.isPending}
          onClick={onDelete}
        >
          Delete
        </GuardedButton>
      }
      footer={
        <>
          <button
            type="button"
            className={modalUi.secondaryButton}
            onClick={onClose}
            disabled={update.isPending}
          >
            Cancel
          </button>
          <button
            type="submit"
            className={modalUi.primaryButton}
            disabled={!changed || update.isPending}
            title={changed ? undefined : NOTHING_CHANGED}
          >
            {update.isPending ? 'Please wait…' : 'Save'}
          </button>
        </>
      }
    >
      <NameTypeFields
        value={fields}
        onChange={(next) => {
          setFields(next);
          setServerErrors(NO_ERRORS);
        }}
        types={corpus.types}
        errors={fieldMessages(local, submitted, serverErrors.fields)}
        disabled={update.isPending}
      />
      <ErrorList messages={serverErrors.general} />
    </Modal>
  );
}
