/** Move element and Link to another parent (spec 001 §2 "Modals"): a folder, then one request. */
import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateElements, type WriteOutcome } from '@/api/elements';
import { linkElement, moveElement } from '@/offline/elementWrites';
import type { Element } from '@/api/types';
import type { FolderRef } from '@/components/folders/FolderPicker';
import { FolderPickerModal } from '@/components/folders/FolderPickerModal';
import { reportFormError } from '@/components/notifications/reportFormError';
import { notify } from '@/components/notifications/store';
import { savedNotice } from '@/offline/runtime';

interface ParentChange {
  title: string;
  confirmLabel: string;
  describe: (element: Element) => ReactNode;
  send: (element: Element, folder: FolderRef) => Promise<WriteOutcome>;
  /** Spec 001 §8 for a scheduled change; ours for one done at once. */
  done: string;
  scheduled: string;
  errorPrefix: string;
}

export const MOVE: ParentChange = {
  title: 'Move element',
  confirmLabel: 'Move',
  describe: (element) => (
    <p>
      <strong className="font-semibold text-slate-900">{element.name}</strong> leaves all its
      current parents for the folder you pick.
    </p>
  ),
  send: (element, folder) => moveElement(element.id, folder.id),
  done: 'Element moved.',
  scheduled: 'Element moving has been scheduled.',
  errorPrefix: 'An error occurred while moving the element',
};

export const LINK: ParentChange = {
  title: 'Link to another parent',
  confirmLabel: 'Link',
  describe: (element) => (
    <p>
      <strong className="font-semibold text-slate-900">{element.name}</strong> keeps its current
      parents and is also added to the folder you pick.
    </p>
  ),
  send: (element, folder) => linkElement(element.id, folder.id),
  done: 'Element linked.',
  scheduled: 'Element linking has been scheduled.',
  errorPrefix: 'An error occurred while linking the element',
};

export interface ParentChangeModalProps {
  element: Element;
  onClose: () => void;
  onChanged: () => void;
}

function ParentChangeModal({
  change,
  element,
  onClose,
  onChanged,
}: ParentChangeModalProps & { change: ParentChange }) {
  const [errors, setErrors] = useState<string[]>([]);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (folder: FolderRef) => change.send(element, folder),
    onSuccess: async (outcome) => {
      notify({
        type: 'success',
        text: outcome === 'scheduled' ? change.scheduled : savedNotice(change.done),
      });
      onClose();
      onChanged();
      await invalidateElements(queryClient);
    },
    onError: (error) => {
      // Every field the API names (destination, parent, child, corpus_id, parent_id…) is about
      // the folder picked or the element itself: one list under the picker says it all.
      setErrors(reportFormError(error, [], change.errorPrefix).general);
    },
  });
  return (
    <FolderPickerModal
      title={change.title}
      description={change.describe(element)}
      confirmLabel={change.confirmLabel}
      corpusId={element.corpus.id}
      exclude={element.id}
      pending={mutation.isPending}
      errors={errors}
      onConfirm={(folder) => {
        setErrors([]);
        mutation.mutate(folder);
      }}
      onClose={onClose}
    />
  );
}

export function MoveElementModal(props: ParentChangeModalProps) {
  return <ParentChangeModal {...props} change={MOVE} />;
}

export function LinkElementModal(props: ParentChangeModalProps) {
  return <ParentChangeModal {...props} change={LINK} />;
}
