/** Move to a folder and Link to a parent, for the selected elements of one project. */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateElements } from '@/api/elements';
import { followJobsStartedBy } from '@/api/jobs';
import { linkSelection, moveSelection } from '@/api/selection';
import { FolderPickerModal } from '@/components/folders/FolderPickerModal';
import type { FolderRef } from '@/components/folders/FolderPicker';
import { OfflineNote } from '@/components/NeedsNetwork';
import { reportFormError } from '@/components/notifications/reportFormError';
import { notify } from '@/components/notifications/store';
import { localSelection } from '@/offline/selectionRuntime';
import { SCHEDULED, countOf } from './bulkActions';

const CHANGES = {
  move: {
    title: 'Move elements',
    confirmLabel: 'Move',
    explain: 'leave all their current parents for the folder you pick.',
    send: moveSelection,
    scheduled: SCHEDULED.move,
    errorPrefix: 'An error occurred while moving the elements',
  },
  link: {
    title: 'Link to another parent',
    confirmLabel: 'Link',
    explain: 'keep their current parents and are also added to the folder you pick.',
    send: linkSelection,
    scheduled: SCHEDULED.link,
    errorPrefix: 'An error occurred while linking the elements',
  },
} as const;

export interface ParentSelectionModalProps {
  mode: 'move' | 'link';
  corpusId: string;
  corpusName: string;
  count: number;
  onClose: () => void;
}

export function ParentSelectionModal({
  mode,
  corpusId,
  corpusName,
  count,
  onClose,
}: ParentSelectionModalProps) {
  const change = CHANGES[mode];
  const [errors, setErrors] = useState<string[]>([]);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (folder: FolderRef) =>
      followJobsStartedBy(
        queryClient,
        () => change.send(corpusId, folder.id),
        () => void localSelection.refresh(),
      ),
    onSuccess: async () => {
      notify({ type: 'success', text: change.scheduled });
      onClose();
      await Promise.all([invalidateElements(queryClient), localSelection.refresh()]);
    },
    // The API names destination, corpus_id or parent_id: all about the folder or the project
    // picked, so one list under the picker says it all.
    onError: (error) => setErrors(reportFormError(error, [], change.errorPrefix).general),
  });
  return (
    <FolderPickerModal
      title={change.title}
      description={
        <>
          <OfflineNote action={mode === 'move' ? 'move elements' : 'link elements'} />
          <p>
            The {countOf(count, 'selected element')} of{' '}
            <strong className="font-semibold text-slate-900">{corpusName}</strong> {change.explain}
          </p>
        </>
      }
      confirmLabel={change.confirmLabel}
      corpusId={corpusId}
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
