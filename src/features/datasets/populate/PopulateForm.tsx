import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { datasetKeys, populateDataset, type Dataset, type PopulateStarted } from '@/api/datasets';
import type { ListQuery } from '@/api/elements';
import { jobKeys } from '@/api/jobs';
import type { Corpus } from '@/api/types';
import { CheckboxField } from '@/components/modal/CheckboxField';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { isValidationError } from '@/lib/formErrors';
import { DatasetSelect, soleOpenDataset, useCorpusDatasets } from './DatasetSelect';
import { ignoredFilters, listingParent, listingRecursive, listingType } from './listingFilters';
import {
  DEFAULT_COUNT,
  POPULATE_MESSAGES,
  canSubmit,
  populateErrors,
  populatePayload,
  populateServerErrors,
  type PopulateFields,
  type PopulateServerErrors,
} from './populateForm';
import { RatioFields } from './RatioFields';
import { defaultRatios, setRatio } from './ratios';

export const POPULATE_TITLE = 'Populate dataset';
/** Before the reason of a failure that is not a 400. */
export const POPULATE_ERROR = 'An error occurred while populating the dataset';

const NO_SERVER_ERRORS: PopulateServerErrors = { fields: {}, general: [] };

export interface PopulateFormProps {
  corpus: Corpus;
  parentId: string | null;
  filters: ListQuery;
  onClose: () => void;
  onStarted: (started: PopulateStarted) => void;
}

/** What to draw and how to split it; sends the populate and hands its job over. */
export function PopulateForm({ corpus, parentId, filters, onClose, onStarted }: PopulateFormProps) {
  const datasets = useCorpusDatasets(corpus.id);
  const parent = parentId ?? listingParent(filters);
  const [chosen, setChosen] = useState<Dataset | null>(null);
  const dataset = chosen ?? soleOpenDataset(datasets.data ?? []);
  const [fields, setFields] = useState<Omit<PopulateFields, 'datasetId' | 'ratios'>>(() => {
    const type = listingType(filters, corpus.types);
    return {
      count: String(DEFAULT_COUNT),
      types: type ? [type] : [],
      recursive: listingRecursive(filters),
    };
  });
  const [ratios, setRatios] = useState<Record<string, Record<string, number>>>({});
  const datasetRatios = dataset
    ? (ratios[dataset.id] ?? defaultRatios(dataset.sets.map((set) => set.name)))
    : {};
  const form: PopulateFields = { ...fields, datasetId: dataset?.id ?? '', ratios: datasetRatios };

  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState(NO_SERVER_ERRORS);
  const own = submitted ? populateErrors(form) : {};
  const errorsOf = (field: keyof typeof own) => [
    ...(own[field] ? [own[field]] : []),
    ...(serverErrors.fields[field] ?? []),
  ];
  const change = (next: Partial<typeof fields>) => {
    setFields((previous) => ({ ...previous, ...next }));
    setServerErrors(NO_SERVER_ERRORS);
  };

  const queryClient = useQueryClient();
  const populate = useMutation({
    mutationFn: ({ id, payload }: { id: string; payload: ReturnType<typeof populatePayload> }) =>
      populateDataset(id, payload),
    onSuccess: async (started) => {
      // The job as the 202 gave it, so the progress shows before the first poll answers.
      queryClient.setQueryData(jobKeys.detail(started.job.id), started.job);
      queryClient.setQueryData(datasetKeys.detail(started.dataset.id), started.dataset);
      onStarted(started);
      await queryClient.invalidateQueries({ queryKey: datasetKeys.corpus(corpus.id) });
    },
    onError: (error) => {
      if (isValidationError(error)) {
        setServerErrors(populateServerErrors(error));
        return;
      }
      notifyError(error, POPULATE_ERROR);
    },
  });
  const offline = useNeedsNetwork();

  const submit = () => {
    setSubmitted(true);
    if (!dataset || !canSubmit(form)) return;
    setServerErrors(NO_SERVER_ERRORS);
    populate.mutate({ id: dataset.id, payload: populatePayload(form, parent) });
  };

  const ignored = ignoredFilters(filters, corpus.types);
  const countId = useId();
  const typesId = useId();
  const countErrors = errorsOf('count');
  const typeErrors = errorsOf('types');
  const pending = populate.isPending;
  return (
    <Modal
      title={POPULATE_TITLE}
      size="lg"
      onClose={onClose}
      pending={pending}
      onSubmit={submit}
      footer={
        <SubmitActions label="Populate" pending={pending} onCancel={onClose} blocked={offline} />
      }
    >
      <OfflineNote action="populate a dataset" />
      <DatasetSelect
        datasets={datasets}
        value={dataset?.id ?? ''}
        onChange={(next) => {
          setChosen(next);
          setServerErrors(NO_SERVER_ERRORS);
        }}
        errors={errorsOf('dataset')}
        disabled={pending}
      />
      {dataset && (
        <RatioFields
          dataset={dataset}
          ratios={datasetRatios}
          onChange={(name, value) => {
            setRatios((previous) => ({
              ...previous,
              [dataset.id]: setRatio(datasetRatios, name, value),
            }));
            setServerErrors(NO_SERVER_ERRORS);
          }}
          errors={serverErrors.fields.sets ?? []}
          disabled={pending}
        />
      )}
      <div>
        <label htmlFor={countId} className={ui.label}>
          Number of elements
        </label>
        <input
          id={countId}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={fields.count}
          disabled={pending}
          onChange={(event) => change({ count: event.target.value })}
          aria-invalid={countErrors.length > 0}
          aria-describedby={countErrors.length ? `${countId}-errors` : undefined}
          className={`${ui.input} w-40`}
        />
        <ErrorList id={`${countId}-errors`} messages={countErrors} />
      </div>
      <fieldset aria-describedby={typeErrors.length ? `${typesId}-errors` : undefined}>
        <legend className={ui.label}>Types</legend>
        <div className="mt-1 grid max-h-40 grid-cols-2 gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
          {corpus.types.map((type) => (
            <CheckboxField
              key={type.slug}
              label={type.display_name}
              checked={fields.types.includes(type.slug)}
              disabled={pending}
              onChange={(checked) =>
                change({
                  types: checked
                    ? [...fields.types, type.slug]
                    : fields.types.filter((slug) => slug !== type.slug),
                })
              }
            />
          ))}
        </div>
        {!corpus.types.length && <p className={ui.help}>{POPULATE_MESSAGES.types}</p>}
        <ErrorList id={`${typesId}-errors`} messages={typeErrors} />
      </fieldset>
      <div>
        <CheckboxField
          label="Recursive"
          checked={fields.recursive}
          disabled={pending}
          onChange={(recursive) => change({ recursive })}
        />
        <p className={ui.help}>
          {parent
            ? fields.recursive
              ? 'Elements are drawn from the folder and everything below it.'
              : 'Elements are drawn from the direct children of the folder.'
            : 'Elements are drawn from the whole project.'}
        </p>
        <ErrorList messages={errorsOf('recursive')} />
      </div>
      {ignored.length > 0 && (
        <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          <p id={`${typesId}-ignored`}>These filters of the list cannot be used and are ignored:</p>
          <ul className="mt-1 list-disc pl-5" aria-labelledby={`${typesId}-ignored`}>
            {ignored.map((filter) => (
              <li key={filter.name}>{filter.text}</li>
            ))}
          </ul>
        </div>
      )}
      <ErrorList messages={serverErrors.general} />
    </Modal>
  );
}
