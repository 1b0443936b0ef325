import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { createElement, invalidateElements } from '@/api/elements';
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

/** Spec 001 §8 "Folders", before the reason. */
export const FOLDER_CREATE_ERROR = 'An error occurred while creating the folder';

export interface NewFolderModalProps {
  corpus: Corpus;
  /** The folder to create it in; none creates a top-level folder. */
  parentId?: string | null;
  onClose: () => void;
  onCreated?: (folder: Element) => void;
}

/** The New folder modal of spec 001: a name and one of the project's folder types. */
export function NewFolderModal({ corpus, parentId, onClose, onCreated }: NewFolderModalProps) {
  const folderTypes = corpus.types.filter((type) => type.folder);
  const [fields, setFields] = useState<ElementFields>({
    name: '',
    // Spec 001 §5: a single folder type is preselected.
    type: folderTypes.length === 1 ? folderTypes[0]!.slug : '',
  });
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>(NO_ERRORS);
  const queryClient = useQueryClient();
  const router = useRouter();

  const creation = useMutation({
    mutationFn: (input: ElementFields) =>
      createElement({
        corpus: corpus.id,
        ...(parentId && { parent: parentId }),
        type: input.type,
        name: input.name.trim(),
      }),
    onSuccess: async (folder) => {
      const location = router.buildLocation({ to: '/element/$id', params: { id: folder.id } });
      // Spec 001 §7: the notice links to the new folder.
      notify({
        type: 'success',
        text: `Folder "${folder.name}" created.`,
        link: { url: router.history.createHref(location.href), text: 'Open the folder' },
      });
      onClose();
      onCreated?.(folder);
      await invalidateElements(queryClient);
    },
    onError: (error) => {
      setServerErrors(toFormErrors(error, ['name', 'type'], FOLDER_CREATE_ERROR));
      if (!isValidationError(error)) notifyError(error, FOLDER_CREATE_ERROR);
    },
  });

  const local = validateElementFields(fields);
  const submit = () => {
    setSubmitted(true);
    if (!hasErrors(local)) creation.mutate(fields);
  };

  return (
    <Modal
      title="New folder"
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
      <NameTypeFields
        value={fields}
        onChange={(next) => {
          setFields(next);
          setServerErrors(NO_ERRORS);
        }}
        types={folderTypes}
        errors={fieldMessages(local, submitted, serverErrors.fields)}
        disabled={creation.isPending}
      />
      <ErrorList messages={serverErrors.general} />
    </Modal>
  );
}
