import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addSelectionToSet, datasetKeys, type Dataset } from '@/api/datasets';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify } from '@/components/notifications/store';
import { reportFormError } from '@/components/notifications/reportFormError';
import { ui } from '@/components/styles';
import { NO_ERRORS, type FormErrors } from '@/lib/formErrors';
import { addElementToSet } from '@/offline/datasetEdits';
import { savedNotice } from '@/offline/runtime';
import {
  DatasetSelect,
  FIELD_REQUIRED,
  soleOpenDataset,
  useCorpusDatasets,
} from '@/features/datasets/populate/DatasetSelect';

/** Spec 001 §8 "Datasets", word for word. */
export const ELEMENTS_ADDED = 'Elements have been added to the dataset set.';
export const ADD_TO_DATASET_TITLE = 'Add to dataset';
/** Before the reason of a failure that is not a 400. */
export const ADD_TO_DATASET_ERROR = 'An error occurred while adding to the dataset';

/** Spec 001 §5: a 400 shows set_id errors under the set field (set for one element). */
const SET_FIELDS = ['set_id', 'set'] as const;
const FIELDS = ['dataset', 'element_id', ...SET_FIELDS] as const;

export type AddTarget =
  { kind: 'element'; element: { id: string; name: string; type: string } } | { kind: 'selection' };

export interface AddToDatasetModalProps {
  corpusId: string;
  target: AddTarget;
  onClose(): void;
}

/**
 * Add to dataset (spec 001 §2 "Modals"): one element, through the outbox so it works offline,
 * or the user's selection of the project, which only the server knows.
 */
export function AddToDatasetModal({ corpusId, target, onClose }: AddToDatasetModalProps) {
  const datasets = useCorpusDatasets(corpusId);
  const [chosen, setChosen] = useState<Dataset | null>(null);
  const dataset = chosen ?? soleOpenDataset(datasets.data ?? []);
  const [setId, setSetId] = useState('');
  const set = dataset?.sets.find((candidate) => candidate.id === setId) ?? null;
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>(NO_ERRORS);

  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: async ({ dataset, setId }: { dataset: Dataset; setId: string }) => {
      if (target.kind === 'selection') return addSelectionToSet(corpusId, setId);
      const name = dataset.sets.find((candidate) => candidate.id === setId)!.name;
      return addElementToSet({ dataset, set: name, element: target.element });
    },
    onSuccess: async () => {
      notify({
        type: 'success',
        text: target.kind === 'element' ? savedNotice(ELEMENTS_ADDED) : ELEMENTS_ADDED,
      });
      onClose();
      await queryClient.invalidateQueries({ queryKey: datasetKeys.all });
    },
    onError: (error) => setServerErrors(reportFormError(error, FIELDS, ADD_TO_DATASET_ERROR)),
  });
  // The selection lives on the server; one element waits in the outbox when offline.
  const offline = useNeedsNetwork();
  const blocked = target.kind === 'selection' ? offline : null;

  const datasetErrors = [
    ...(submitted && !dataset ? [FIELD_REQUIRED] : []),
    ...(serverErrors.fields.dataset ?? []),
  ];
  const setErrors = [
    ...(submitted && dataset && !set ? [FIELD_REQUIRED] : []),
    ...SET_FIELDS.flatMap((field) => serverErrors.fields[field] ?? []),
  ];
  const generalErrors = [...(serverErrors.fields.element_id ?? []), ...serverErrors.general];
  const setSelectId = useId();
  const pending = add.isPending;

  const submit = () => {
    setSubmitted(true);
    if (!dataset || !set) return;
    setServerErrors(NO_ERRORS);
    add.mutate({ dataset, setId: set.id });
  };

  return (
    <Modal
      title={ADD_TO_DATASET_TITLE}
      onClose={onClose}
      pending={pending}
      onSubmit={submit}
      footer={<SubmitActions label="Add" pending={pending} onCancel={onClose} blocked={blocked} />}
    >
      {target.kind === 'selection' && <OfflineNote action="add the selection to a dataset" />}
      <p>
        {target.kind === 'element' ? (
          <>
            Add <strong className="font-semibold text-slate-900">{target.element.name}</strong> to a
            set of a dataset.
          </>
        ) : (
          'Add the selected elements of this project to a set of a dataset.'
        )}
      </p>
      <DatasetSelect
        datasets={datasets}
        value={dataset?.id ?? ''}
        onChange={(next) => {
          setChosen(next);
          setSetId('');
          setServerErrors(NO_ERRORS);
        }}
        errors={datasetErrors}
        disabled={pending}
      />
      {dataset && (
        <div>
          <label htmlFor={setSelectId} className={ui.label}>
            Set
          </label>
          <select
            id={setSelectId}
            value={setId}
            disabled={pending}
            onChange={(event) => {
              setSetId(event.target.value);
              setServerErrors(NO_ERRORS);
            }}
            aria-invalid={setErrors.length > 0}
            aria-describedby={setErrors.length ? `${setSelectId}-errors` : undefined}
            className={ui.input}
          >
            <option value="">Choose a set</option>
            {dataset.sets.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
          <ErrorList id={`${setSelectId}-errors`} messages={setErrors} />
        </div>
      )}
      <ErrorList messages={generalErrors} />
    </Modal>
  );
}
