import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteCorpusElements, invalidateElements } from '@/api/elements';
import { CheckboxField } from '@/components/modal/CheckboxField';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { DangerActions } from '@/components/modal/ModalActions';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import {
  DEFAULT_METADATA_OPERATOR,
  FILTER_LABELS,
  METADATA_OPERATOR_LABELS,
  type FilterName,
} from '@/lib/filters';
import { isValidationError } from '@/lib/formErrors';
import type { NavigationQuery } from '@/lib/navigationQuery';
import { activeFilters, deletionQuery } from './deletion';
import { listingErrorMessages } from './ListingError';

/** Spec 001 §8 "Elements", word for word. */
export const ELEMENTS_DELETION_SCHEDULED = 'Elements deletion has been scheduled.';
export const ELEMENTS_DELETED = 'Elements deleted.';
export const DELETE_ELEMENTS_ERROR = 'An error occurred while deleting the elements';

export interface DeleteFilteredModalProps {
  corpusId: string;
  query: NavigationQuery;
  /** How many elements the list holds with these filters. */
  count: number;
  /** How a filter's value reads on its chip. */
  describe: (name: FilterName, value: string) => string;
  onClose: () => void;
  onDeleted: () => void;
}

/** Delete filtered elements (spec 001 §2 "Modals"): every element the filters select. */
export function DeleteFilteredModal({
  corpusId,
  query,
  count,
  describe,
  onClose,
  onDeleted,
}: DeleteFilteredModalProps) {
  const [withChildren, setWithChildren] = useState(true);
  const [errors, setErrors] = useState<string[]>([]);
  const queryClient = useQueryClient();
  const deletion = useMutation({
    mutationFn: () => deleteCorpusElements(corpusId, deletionQuery(query), withChildren),
    onSuccess: async (outcome) => {
      notify({
        type: 'success',
        text: outcome === 'scheduled' ? ELEMENTS_DELETION_SCHEDULED : ELEMENTS_DELETED,
      });
      onClose();
      onDeleted();
      await invalidateElements(queryClient);
    },
    onError: (error) => {
      if (isValidationError(error)) {
        setErrors(listingErrorMessages(error));
        return;
      }
      onClose();
      notifyError(error, DELETE_ELEMENTS_ERROR);
    },
  });
  const word = count === 1 ? 'element' : 'elements';
  return (
    <Modal
      title="Delete filtered elements"
      onClose={onClose}
      pending={deletion.isPending}
      footer={
        <DangerActions
          label={`Delete ${count} ${word}`}
          pending={deletion.isPending}
          onCancel={onClose}
          onConfirm={() => {
            setErrors([]);
            deletion.mutate();
          }}
        />
      }
    >
      <p>
        <strong className="font-semibold text-slate-900">
          {count} {word}
        </strong>{' '}
        {count === 1 ? 'matches' : 'match'} these filters and will be deleted. This cannot be
        undone.
      </p>
      <ul className="list-disc pl-5" aria-label="Filters of the deletion">
        {activeFilters(query).map((name) => (
          <li key={name}>
            {FILTER_LABELS[name]}: {operatorOf(name, query)}
            {describe(name, query.filters[name]!)}
          </li>
        ))}
      </ul>
      <CheckboxField
        label="Also delete their children"
        checked={withChildren}
        onChange={setWithChildren}
        disabled={deletion.isPending}
      />
      <p className={ui.help}>
        Large deletions run in the background: the elements disappear once the job is done.
      </p>
      <ErrorList messages={errors} />
    </Modal>
  );
}

function operatorOf(name: FilterName, query: NavigationQuery): string {
  if (name !== 'metadata_value' || query.metadataOperator === DEFAULT_METADATA_OPERATOR) return '';
  return `${METADATA_OPERATOR_LABELS[query.metadataOperator]} `;
}
