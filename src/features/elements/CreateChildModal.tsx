import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createElement, invalidateElements, type ElementCreate } from '@/api/elements';
import type { Corpus, Element } from '@/api/types';
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

/** Spec 001 §8 "Elements", word for word. */
export const ELEMENT_CREATED = 'Element created.';
export const CREATE_ERROR = 'An error occurred during element creation';

export interface CreateChildModalProps {
  parent: Element;
  corpus: Corpus;
  onClose: () => void;
  onCreated: (child: Element) => void;
}

/** What the API is asked to create: on the parent's image zone when it has one. */
export function childCreation(parent: Element, fields: ElementFields): ElementCreate {
  return {
    corpus: parent.corpus.id,
    parent: parent.id,
    name: fields.name.trim(),
    type: fields.type,
    ...(parent.zone && { image: parent.zone.image.id, polygon: parent.zone.polygon }),
  };
}

/** The Create sub-element modal of spec 001: a child of any type under the current element. */
export function CreateChildModal({ parent, corpus, onClose, onCreated }: CreateChildModalProps) {
  const [fields, setFields] = useState<ElementFields>({
    name: '',
    type: corpus.types.length === 1 ? corpus.types[0]!.slug : '',
  });
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>(NO_ERRORS);
  const queryClient = useQueryClient();

  const creation = useMutation({
    mutationFn: (input: ElementFields) => createElement(childCreation(parent, input)),
    onSuccess: async (child) => {
      notify({ type: 'success', text: ELEMENT_CREATED });
      onClose();
      onCreated(child);
      await invalidateElements(queryClient);
    },
    onError: (error) => {
      setServerErrors(toFormErrors(error, ['name', 'type'], CREATE_ERROR));
      if (!isValidationError(error)) notifyError(error, CREATE_ERROR);
    },
  });

  const local = validateElementFields(fields);
  const submit = () => {
    setSubmitted(true);
    if (!hasErrors(local)) creation.mutate(fields);
  };

  return (
    <Modal
      title="Create sub-element"
      onClose={onClose}
      pending={creation.isPending}
      onSubmit={submit}
      footer={
        <>
          <button
            type="button"
            className={modalUi.secondaryButton}
            onClick={onClose}
            disabled={creation.isPending}
          >
            Cancel
          </button>
          <button type="submit" className={modalUi.primaryButton} disabled={creation.isPending}>
            {creation.isPending ? 'Please wait…' : 'Create'}
          </button>
        </>
      }
    >
      <p>
        The new element is created inside{' '}
        <strong className="font-semibold text-slate-900">{parent.name}</strong>
        {parent.zone
          ? ', on the same zone of its image.'
          : '. It has no image, as this element has none.'}
      </p>
      <NameTypeFields
        value={fields}
        onChange={(next) => {
          setFields(next);
          setServerErrors(NO_ERRORS);
        }}
        types={corpus.types}
        errors={fieldMessages(local, submitted, serverErrors.fields)}
        disabled={creation.isPending}
      />
      <ErrorList messages={serverErrors.general} />
    </Modal>
  );
}
