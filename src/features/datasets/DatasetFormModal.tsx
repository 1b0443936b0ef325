/**
 * The dataset create/edit modal (spec 001 §2, §5 Datasets). Creating asks for a name, a
 * description, unique_elements and the set names (train, dev and test unless changed); editing
 * changes the first three and edits the sets in place.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createDataset,
  datasetKeys,
  datasetQuery,
  updateDataset,
  type Dataset,
  type DatasetUpdate,
} from '@/api/datasets';
import { Modal } from '@/components/modal/Modal';
import { CheckboxField } from '@/components/modal/CheckboxField';
import { ErrorList } from '@/components/modal/ErrorList';
import { SubmitActions } from '@/components/modal/ModalActions';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { NO_ERRORS, type FormErrors } from '@/lib/formErrors';
import { DATASET_TEXT, editBlocked, useDatasetAccess } from './datasetRights';
import { datasetFormErrors } from './form/datasetFormErrors';
import { DatasetSetsEditor } from './form/DatasetSetsEditor';
import { DEFAULT_SET_NAMES, SetNamesField, setNamesToSend } from './form/SetNamesField';
import { FieldErrors, TextField } from './form/TextField';

const DATASET_NAME_MAX = 100;

export interface DatasetFormModalProps {
  corpusId: string;
  /** The dataset to edit; none creates one. */
  dataset?: Dataset;
  canAdmin: boolean;
  onClose(): void;
  onSaved?(dataset: Dataset): void;
}

interface Fields {
  name: string;
  description: string;
  unique_elements: boolean;
}

export function DatasetFormModal({
  corpusId,
  dataset,
  canAdmin,
  onClose,
  onSaved,
}: DatasetFormModalProps) {
  const queryClient = useQueryClient();
  const access = { ...useDatasetAccess(corpusId), canAdmin };
  // The sets change under the modal as they are edited: it follows the cached dataset.
  const { data: current } = useQuery({
    ...datasetQuery(dataset?.id ?? ''),
    enabled: !!dataset,
    initialData: dataset,
  });
  const [fields, setFields] = useState<Fields>({
    name: dataset?.name ?? '',
    description: dataset?.description ?? '',
    unique_elements: dataset?.unique_elements ?? true,
  });
  const [setNames, setSetNames] = useState<string[]>(DEFAULT_SET_NAMES);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);

  const save = useMutation({
    mutationFn: async (): Promise<Dataset | null> => {
      const name = fields.name.trim();
      const description = fields.description.trim();
      if (!dataset) {
        return createDataset(corpusId, {
          name,
          description,
          unique_elements: fields.unique_elements,
          set_names: setNamesToSend(setNames),
        });
      }
      const patch: DatasetUpdate = {
        ...(name !== dataset.name && { name }),
        ...(description !== dataset.description && { description }),
        ...(fields.unique_elements !== dataset.unique_elements && {
          unique_elements: fields.unique_elements,
        }),
      };
      return Object.keys(patch).length ? updateDataset(dataset.id, patch) : null;
    },
    onSuccess: (saved) => {
      if (saved) {
        queryClient.setQueryData(datasetKeys.detail(saved.id), saved);
        // Lists and element tables show its name and state too.
        void queryClient.invalidateQueries({ queryKey: datasetKeys.all });
        onSaved?.(saved);
      }
      onClose();
    },
    onError: (error) => setErrors(datasetFormErrors(error)),
  });

  const submit = () => {
    if (!fields.name.trim() || !fields.description.trim()) {
      setErrors({ fields: {}, general: [DATASET_TEXT.emptyFields] });
      return;
    }
    setErrors(NO_ERRORS);
    save.mutate();
  };

  // The dataset itself is saved online; its sets' renames (below, when editing) wait offline.
  const offline = useNeedsNetwork();
  const blocked = editBlocked(access) ?? offline;
  const pending = save.isPending;
  return (
    <Modal
      title={dataset ? 'Edit dataset' : 'Create a dataset'}
      onClose={onClose}
      pending={pending}
      onSubmit={submit}
      size="lg"
      footer={
        <SubmitActions
          label={dataset ? 'Save' : 'Create'}
          pending={pending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action={dataset ? 'save the dataset' : 'create a dataset'} />
      <TextField
        label="Name"
        autoFocus
        maxLength={DATASET_NAME_MAX}
        value={fields.name}
        onChange={(name) => setFields({ ...fields, name })}
        errors={errors.fields.name}
        disabled={pending}
      />
      <TextField
        label="Description"
        multiline
        value={fields.description}
        onChange={(description) => setFields({ ...fields, description })}
        errors={errors.fields.description}
        disabled={pending}
      />
      <div>
        <CheckboxField
          label="Unique elements (an element can be in one set only)"
          checked={fields.unique_elements}
          onChange={(unique_elements) => setFields({ ...fields, unique_elements })}
          disabled={pending}
        />
        <FieldErrors messages={errors.fields.unique_elements ?? []} />
      </div>
      {current ? (
        <DatasetSetsEditor dataset={current} access={access} />
      ) : (
        <SetNamesField
          names={setNames}
          onChange={setSetNames}
          errors={errors.fields.set_names ?? []}
          disabled={pending}
        />
      )}
      <ErrorList messages={errors.general} />
    </Modal>
  );
}
